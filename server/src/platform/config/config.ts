import { join, resolve } from 'node:path';
import { z } from 'zod';

/** Where the event store lives: see README "Modes". */
export type StoreMode = 'embedded' | 'server' | 'production';

export const DEFAULT_FIRST_SUPERUSER = 'admin@example.com';
export const DEFAULT_FIRST_SUPERUSER_PASSWORD = 'ChangeMe-2026!';

const schema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().default('./data'),
  /** Embedded mode: run PGlite in a worker thread, off the event loop (decision 0072); false = in-process. */
  PGLITE_WORKER: z.enum(['true', 'false']).default('false'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// connection string')
    .optional(),
  EVENTSTORE_CONNECTION_STRING: z
    .string()
    .regex(/^(esdb|kurrentdb|kdb)(\+discover)?:\/\//, 'must be an esdb:// connection string')
    .optional(),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'must be a redis:// connection string')
    .optional(),
  /** Prefix of every Redis key and channel this portal uses (lets several portals share one Redis). */
  REDIS_PREFIX: z.string().min(1).default('portal'),
  /** Address users reach the portal at: used in links sent by e-mail. */
  PUBLIC_URL: z.url().optional(),
  /** smtp(s)://user:pass@host:port — when unset, mail is logged and kept in the outbox only. */
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
    .optional(),
  MAIL_FROM: z.string().default('Tutoring Portal <no-reply@localhost>'),
  /** Lifetime of password-recovery links, in minutes. */
  PASSWORD_RESET_MINUTES: z.coerce.number().int().positive().default(60),
  /** Seed a demo organisation on the first start of an empty store (default: embedded mode, via npm start). */
  DEMO_DATA: z.enum(['true', 'false']).optional(),
  FIRST_SUPERUSER: z.email().default(DEFAULT_FIRST_SUPERUSER),
  FIRST_SUPERUSER_PASSWORD: z.string().min(8).optional(),
  /** A session ends after this many minutes without an authenticated request (decision 0039). */
  SESSION_IDLE_MINUTES: z.coerce
    .number()
    .int()
    .positive()
    .default(2 * 60),
  /** A session ends this many hours after sign-in, active or not; `expires_in` of the token answers. */
  SESSION_MAX_HOURS: z.coerce
    .number()
    .int()
    .positive()
    .max(24 * 30)
    .default(12),
  CLIENT_DIST: z.string().optional(),
  /** How long a query with X-Min-Position waits for the projections (ms). */
  READ_YOUR_WRITES_TIMEOUT_MS: z.coerce.number().int().positive().default(5000),
  /** Collaborative documents: accepted updates are persisted in batches at most this old (ms). */
  COLLAB_FLUSH_MS: z.coerce.number().int().positive().max(500).default(250),
  /** A snapshot event after this many client updates. */
  COLLAB_SNAPSHOT_EVERY: z.coerce.number().int().positive().default(100),
  /** A document nobody has open is flushed and unloaded after this grace period (ms). */
  COLLAB_UNLOAD_GRACE_MS: z.coerce.number().int().nonnegative().default(30_000),
  /** Largest y-websocket message accepted (bytes); larger closes the connection. */
  COLLAB_MAX_MESSAGE_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(5 * 1024 * 1024),
  /** Per-connection token bucket: burst size and refill rate (messages per second). */
  /** An incident not acknowledged within this many minutes escalates (decimals allowed, for tests). */
  SAFEGUARDING_ESCALATION_MINUTES: z.coerce.number().positive().default(15),
  COLLAB_RATE_BURST: z.coerce.number().int().positive().default(500),
  COLLAB_RATE_PER_SECOND: z.coerce.number().positive().default(200),
  /** Embedded file storage (student files): defaults to DATA_DIR/storage. */
  STORAGE_DIR: z.string().optional(),
  /** Largest accepted upload in bytes (default 100 MB). */
  STORAGE_MAX_UPLOAD_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(100 * 1024 * 1024),
  /**
   * Whether the OpenAPI document (/api/docs, /api/docs-json) and the health details are public.
   * Default: yes, except in production mode (docs/decisions/0038).
   */
  PUBLIC_DIAGNOSTICS: z.enum(['true', 'false']).optional(),
  /** Lifetime of signed upload policies and download URLs, in seconds. */
  STORAGE_URL_TTL_SECONDS: z.coerce.number().int().positive().max(86_400).default(900),
});

export interface AppConfig {
  port: number;
  host: string;
  mode: StoreMode;
  dataDir: string;
  /** Embedded mode: PGlite in a worker thread (true) or in this thread (decision 0072). */
  pgliteWorker: boolean;
  /** `publicBaseUrl`: PUBLIC_URL when set (behind a proxy), else storage URLs use the request's host. */
  storage: { dir: string; maxUploadBytes: number; urlTtlSeconds: number; publicBaseUrl: string | null };
  databaseUrl: string | null;
  eventStoreConnectionString: string | null;
  redisUrl: string | null;
  redisPrefix: string;
  publicUrl: string;
  smtpUrl: string | null;
  mailFrom: string;
  passwordResetMinutes: number;
  firstSuperuser: { email: string; password: string; isDefaultPassword: boolean };
  /** Seed demo data when the store is new (see DemoData). */
  demoData: boolean;
  session: { idleMinutes: number; maxHours: number };
  clientDist: string | null;
  /**
   * Whether the OpenAPI document and the health details are served to anyone; when false there is no
   * /api/docs and anonymous health checks get `{ status }` only (administrators still get the details).
   */
  publicDiagnostics: boolean;
  readYourWritesTimeoutMs: number;
  safeguarding: { escalationMinutes: number };
  collab: {
    flushMs: number;
    snapshotEvery: number;
    unloadGraceMs: number;
    maxMessageBytes: number;
    rateBurst: number;
    ratePerSecond: number;
  };
}

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/**
 * `demoDataByDefault`: whether DEMO_DATA defaults to on in embedded mode. The `npm start` entry
 * (main.ts) passes true so a newcomer gets a populated portal; tests and embedders get an empty one.
 */
export function loadConfig(
  env: NodeJS.ProcessEnv = process.env,
  { demoDataByDefault = false }: { demoDataByDefault?: boolean } = {},
): AppConfig {
  const parsed = schema.safeParse(Object.fromEntries(Object.entries(env).filter(([, v]) => v !== '')));
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new ConfigError(`Invalid configuration: ${problems}`);
  }
  const c = parsed.data;
  if (c.EVENTSTORE_CONNECTION_STRING && !c.DATABASE_URL) {
    throw new ConfigError(
      'EVENTSTORE_CONNECTION_STRING is set but DATABASE_URL is not: read models need a PostgreSQL server (set DATABASE_URL).',
    );
  }
  const mode: StoreMode = c.EVENTSTORE_CONNECTION_STRING
    ? 'production'
    : c.DATABASE_URL
      ? 'server'
      : 'embedded';
  if (mode !== 'embedded' && !c.FIRST_SUPERUSER_PASSWORD) {
    throw new ConfigError(
      `FIRST_SUPERUSER_PASSWORD must be set outside embedded mode (mode: ${mode}); the demo default is only used with the embedded store.`,
    );
  }
  return {
    port: c.PORT,
    host: c.HOST,
    mode,
    dataDir: resolve(c.DATA_DIR),
    pgliteWorker: c.PGLITE_WORKER === 'true',
    storage: {
      dir: resolve(c.STORAGE_DIR ?? join(c.DATA_DIR, 'storage')),
      maxUploadBytes: c.STORAGE_MAX_UPLOAD_BYTES,
      urlTtlSeconds: c.STORAGE_URL_TTL_SECONDS,
      publicBaseUrl: c.PUBLIC_URL ? c.PUBLIC_URL.replace(/\/$/, '') : null,
    },
    databaseUrl: c.DATABASE_URL ?? null,
    eventStoreConnectionString: c.EVENTSTORE_CONNECTION_STRING ?? null,
    redisUrl: c.REDIS_URL ?? null,
    redisPrefix: c.REDIS_PREFIX,
    publicUrl: (c.PUBLIC_URL ?? `http://localhost:${c.PORT}`).replace(/\/$/, ''),
    smtpUrl: c.SMTP_URL ?? null,
    mailFrom: c.MAIL_FROM,
    passwordResetMinutes: c.PASSWORD_RESET_MINUTES,
    firstSuperuser: {
      email: c.FIRST_SUPERUSER.toLowerCase(),
      password: c.FIRST_SUPERUSER_PASSWORD ?? DEFAULT_FIRST_SUPERUSER_PASSWORD,
      isDefaultPassword: !c.FIRST_SUPERUSER_PASSWORD,
    },
    demoData: c.DEMO_DATA ? c.DEMO_DATA === 'true' : demoDataByDefault && mode === 'embedded',
    session: { idleMinutes: c.SESSION_IDLE_MINUTES, maxHours: c.SESSION_MAX_HOURS },
    clientDist: c.CLIENT_DIST ?? null,
    publicDiagnostics: c.PUBLIC_DIAGNOSTICS ? c.PUBLIC_DIAGNOSTICS === 'true' : mode !== 'production',
    readYourWritesTimeoutMs: c.READ_YOUR_WRITES_TIMEOUT_MS,
    safeguarding: { escalationMinutes: c.SAFEGUARDING_ESCALATION_MINUTES },
    collab: {
      flushMs: c.COLLAB_FLUSH_MS,
      snapshotEvery: c.COLLAB_SNAPSHOT_EVERY,
      unloadGraceMs: c.COLLAB_UNLOAD_GRACE_MS,
      maxMessageBytes: c.COLLAB_MAX_MESSAGE_BYTES,
      rateBurst: c.COLLAB_RATE_BURST,
      ratePerSecond: c.COLLAB_RATE_PER_SECOND,
    },
  };
}
