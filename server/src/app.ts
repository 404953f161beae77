import 'reflect-metadata';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { NestFactory, Reflector } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { randomUUID } from 'node:crypto';
import { json, static as serveStatic, type NextFunction, type Request, type Response } from 'express';
import { pinoHttp } from 'pino-http';
import type { Logger } from 'pino';
import { AppModule } from './app.module.js';
import type { AppConfig } from './platform/config/config.js';
import { openInfrastructure, type Infrastructure } from './platform/infrastructure.js';
import { AllExceptionsFilter } from './platform/http/all-exceptions.filter.js';
import { createValidationPipe } from './platform/http/validation.js';
import { Readiness } from './platform/http/readiness.js';
import { securityHeaders } from './platform/http/security-headers.js';
import { ContentTypeGuard, verifyJsonDepth } from './platform/http/body-limits.js';
import { ProjectionRunner } from './platform/projections/projection-runner.js';
import { LiveServer } from './platform/live/live-server.js';
import { SESSION_SCHEMA } from './platform/auth/session.service.js';
import { CREDENTIALS_SCHEMA } from './identity/credentials.js';
import { TOKEN_LINK_SCHEMA } from './identity/token-links.js';
import { FEEDBACK_TOKEN_SCHEMA } from './safeguarding/feedback-tokens.js';
import { MAIL_OUTBOX_SCHEMA } from './platform/mail/mail-outbox.js';
import { STORAGE_SECRETS_SCHEMA, STORAGE_UPLOADS_SCHEMA } from './platform/storage/storage.service.js';
import { FirstSuperuser, type FirstSuperuserOutcome } from './identity/first-superuser.js';
import { DEMO_STARTING, DemoData, type DemoSummary } from './demo/demo-data.js';
import type { AuthenticatedRequest } from './platform/auth/request-context.js';
import type { SqlClient } from './platform/sql/sql-client.js';

const here = dirname(fileURLToPath(import.meta.url));

export interface RunningApp {
  app: NestExpressApplication;
  infra: Infrastructure;
  url: string;
  firstSuperuser: FirstSuperuserOutcome;
  /** What was seeded when DEMO_DATA applied to a new store; null otherwise. */
  demo: DemoSummary | null;
  close(): Promise<void>;
}

/** Tables that are state, not projections: sessions and credentials. */
async function ensureStateTables(sql: SqlClient): Promise<void> {
  await sql.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock(7262201)');
    for (const ddl of [
      ...SESSION_SCHEMA,
      ...CREDENTIALS_SCHEMA,
      ...TOKEN_LINK_SCHEMA,
      ...FEEDBACK_TOKEN_SCHEMA,
      ...MAIL_OUTBOX_SCHEMA,
      ...STORAGE_SECRETS_SCHEMA,
      ...STORAGE_UPLOADS_SCHEMA,
    ]) {
      await tx.query(ddl);
    }
  });
}

export function openApiDocument(app: NestExpressApplication) {
  const config = new DocumentBuilder()
    .setTitle('Tutoring Portal API')
    .setDescription(
      'Administration portal API. Authenticate with POST /api/v1/login/access-token and send the token ' +
        'in the RequestVerificationToken header (or Authorization: Bearer). Errors answer { "detail": ... }.',
    )
    .setVersion('1')
    .addApiKey({ type: 'apiKey', in: 'header', name: 'RequestVerificationToken' }, 'RequestVerificationToken')
    .addBearerAuth()
    .addSecurityRequirements('RequestVerificationToken')
    .build();
  return SwaggerModule.createDocument(app, config);
}

/** Builds and starts the whole portal: event store, projections, HTTP API, client. */
export interface StartOptions {
  /** Hears each stage of the start-up work (demo data) and "ready", e.g. to print them. */
  onStarting?: (message: string) => void;
  /** Called once the port is open (before the start-up work ends), with the portal's address. */
  onListening?: (url: string) => void;
}

export async function startApp(
  config: AppConfig,
  log: Logger,
  options: StartOptions = {},
): Promise<RunningApp> {
  const infra = await openInfrastructure(config);
  try {
    await ensureStateTables(infra.sql);
    const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot({ config, infra, log }), {
      logger: false,
      bufferLogs: false,
      abortOnError: false,
    });
    // No `enableShutdownHooks()`: the process entry (`main.ts`) handles the signals and calls `close()`,
    // which stops the projection runner before the app. Nest's own signal handler started a second
    // teardown beside it (decision 0072, "Two shutdowns at once").
    app.disable('x-powered-by');
    app.set('trust proxy', 'loopback');
    // First, so every answer carries them: pages, static files, API answers and errors (decision 0039).
    app.use(securityHeaders());
    app.use(
      pinoHttp({
        logger: log,
        genReqId: (req, res) => {
          const id = (req.headers['x-request-id'] as string | undefined) ?? randomUUID();
          res.setHeader('x-request-id', id);
          (req as AuthenticatedRequest).correlationId = id;
          return id;
        },
        autoLogging: { ignore: (req) => req.url === '/api/v1/health' },
        serializers: {
          req: (req: { id: string; method: string; url: string }) => ({
            id: req.id,
            method: req.method,
            url: req.url,
          }),
          res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
        },
      }),
    );
    // Until start-up work (the demo data) is in, every caller but that work gets 503 and what it is doing.
    const readiness = app.get(Readiness);
    if (options.onStarting) readiness.onChange(options.onStarting);
    app.use(readiness.gate());
    // Input limits (docs/decisions/0038): JSON nested at most 32 deep (checked before parsing), a
    // media type the route declares (415 otherwise), and the shared validation pipe.
    // express.json directly: Nest's useBodyParser types leave `verify` out (it keeps it for rawBody).
    app.use(json({ limit: '1mb', verify: verifyJsonDepth() }));
    app.useBodyParser('urlencoded', { extended: false, limit: '64kb' });
    app.useGlobalGuards(new ContentTypeGuard(app.get(Reflector)));
    app.useGlobalPipes(createValidationPipe());
    app.useGlobalFilters(new AllExceptionsFilter(log));

    // The API document is public outside production mode, or when PUBLIC_DIAGNOSTICS=true (ADR 0038).
    if (config.publicDiagnostics) {
      const document = openApiDocument(app);
      SwaggerModule.setup('api/docs', app, document, { jsonDocumentUrl: 'api/docs-json' });
    }

    serveClient(app, config, log);

    await app.get(LiveServer).attach(app.getHttpServer());

    const runner = app.get(ProjectionRunner);
    await runner.start();
    await app.init();

    const firstSuperuser = await app.get(FirstSuperuser).ensure();
    if (firstSuperuser.position !== null) await runner.waitForPosition(firstSuperuser.position, 30_000);

    // Only the process that created the first administrator seeds, so a new store is seeded once.
    const seeding = config.demoData && firstSuperuser.created;
    if (seeding) readiness.begin(DEMO_STARTING);
    await app.listen(config.port, config.host);
    const address = app.getHttpServer().address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    const url = `http://${config.host === '0.0.0.0' ? '127.0.0.1' : config.host}:${port}`;
    options.onListening?.(url);
    let demo: DemoSummary | null = null;
    try {
      if (seeding) demo = await app.get(DemoData).seed(url, firstSuperuser.userId, log);
    } finally {
      readiness.markReady();
    }
    return {
      app,
      infra,
      url,
      firstSuperuser,
      demo,
      close: async () => {
        await runner.stop();
        await app.close();
      },
    };
  } catch (e) {
    await infra.close().catch(() => {});
    throw e;
  }
}

/** Serves the built React client with an SPA fallback for every non-API GET. */
function serveClient(app: NestExpressApplication, config: AppConfig, log: Logger): void {
  const dist = config.clientDist ? resolve(config.clientDist) : join(here, '..', '..', 'client', 'dist');
  const index = join(dist, 'index.html');
  if (!existsSync(index)) {
    log.warn({ dist }, 'client build not found: only the API is served (run npm run build)');
    return;
  }
  // The client's files and its SPA fallback; the API's paths skip both, so no API call looks on disk.
  const notClient = /^\/(api|live|collab|socket\.io)(\/|$)/;
  const assets = serveStatic(dist, { index: false, maxAge: '1h', immutable: false });
  app.use((req: Request, res: Response, next: NextFunction) => {
    if (notClient.test(req.path)) next();
    else void assets(req, res, next);
  });
  app.use((req: Request, res: Response, next: NextFunction) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    if (notClient.test(req.path)) return next();
    res.setHeader('Cache-Control', 'no-cache');
    res.sendFile(index);
  });
}
