/**
 * The committed API contract (docs/decisions/0048): the OpenAPI document built from the controllers'
 * metadata alone, and the client types generated from it.
 *
 * Nest's preview mode scans modules and controllers without instantiating a provider, so no store,
 * database or port is opened: the infrastructure below is never touched (a provider factory that read
 * it would not run in preview). The same builder serves `npm run openapi` and the drift test.
 */
import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { pino } from 'pino';
import { AppModule } from '../app.module.js';
import { openApiDocument } from '../app.js';
import { loadConfig } from '../platform/config/config.js';
import type { Infrastructure } from '../platform/infrastructure.js';

/** Where the committed files live, relative to the repository root. */
export const OPENAPI_PATH = 'docs/openapi.json';
export const CLIENT_SCHEMA_PATH = 'client/src/shared/api/schema.d.ts';

/** Stands for a piece of infrastructure that preview mode hands to providers but never lets them use. */
function unopened<T extends object>(name: string): T {
  const fail = (): never => {
    throw new Error(`${name} used while building the OpenAPI document: preview mode opens no infrastructure`);
  };
  // Nest's discovery reads `constructor`; promise checks read `then`; everything else fails loudly.
  return new Proxy({} as T, {
    get: (target, key) =>
      key === 'constructor' || key === 'then' || typeof key === 'symbol' ? Reflect.get(target, key) : fail(),
  });
}

/** Builds the OpenAPI document (plain JSON, keys in a stable order) without opening anything. */
export async function buildOpenApiDocument(): Promise<Record<string, unknown>> {
  const infra: Infrastructure = {
    sql: unopened('sql'),
    eventStore: unopened('eventStore'),
    vault: unopened('vault'),
    close: () => Promise.resolve(),
  };
  const config = loadConfig({ PUBLIC_DIAGNOSTICS: 'true' });
  const log = pino({ enabled: false });
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot({ config, infra, log }), {
    preview: true,
    logger: false,
    abortOnError: false,
  });
  try {
    return sortKeys(JSON.parse(JSON.stringify(openApiDocument(app)))) as Record<string, unknown>;
  } finally {
    await app.close();
  }
}

/** Object keys sorted (arrays keep their order: parameters, enums and tags mean something in order). */
export function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, sortKeys((value as Record<string, unknown>)[k])]),
    );
  }
  return value;
}

/** The committed text of the document: two-space JSON with a final newline. */
export const openApiText = (document: unknown): string => `${JSON.stringify(document, null, 2)}\n`;
