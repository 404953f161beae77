import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { PgliteSqlClient } from '../../../server/src/platform/sql/pglite-client.js';
import { PgSqlClient } from '../../../server/src/platform/sql/pg-client.js';
import type { SqlClient } from '../../../server/src/platform/sql/sql-client.js';
import type { TargetKind } from './suite.js';

/** The PostgreSQL server benchmarks create their databases on (BENCH_POSTGRES_URL). */
export const BENCH_POSTGRES_ADMIN_URL =
  process.env.BENCH_POSTGRES_URL ??
  process.env.TEST_POSTGRES_URL ??
  'postgres://postgres@127.0.0.1:5432/postgres';

export interface BenchDatabase {
  kind: TargetKind;
  sql: SqlClient;
  details: string;
  /** Closes the client and removes the database (PostgreSQL) or its directory (PGlite). */
  dispose(): Promise<void>;
}

/** Databases not yet disposed: removed on SIGINT/SIGTERM too. */
const live = new Set<() => Promise<void>>();
let handlersInstalled = false;

function track(dispose: () => Promise<void>): () => Promise<void> {
  if (!handlersInstalled) {
    handlersInstalled = true;
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      process.once(signal, () => {
        process.stderr.write(`\n${signal}: removing benchmark databases\n`);
        void Promise.allSettled([...live].map((d) => d())).then(() => process.exit(130));
      });
    }
  }
  const once = async () => {
    if (!live.delete(once)) return;
    await dispose();
  };
  live.add(once);
  return once;
}

export interface OpenOptions {
  /** Connection pool size on PostgreSQL. */
  poolSize: number;
}

/**
 * A fresh, empty database of the given kind, used by one benchmark run: on PostgreSQL a new database
 * named portal_bench_*, on PGlite a new data directory under the OS temp dir (BENCH_PGLITE=memory for an
 * in-memory one). Always call dispose(), also on error.
 */
export async function openBenchDatabase(kind: TargetKind, options: OpenOptions): Promise<BenchDatabase> {
  if (kind === 'pglite') {
    const inMemory = process.env.BENCH_PGLITE === 'memory';
    const dir = inMemory ? undefined : await mkdtemp(join(tmpdir(), 'portal-bench-pglite-'));
    try {
      const sql = await PgliteSqlClient.open(dir);
      const version = await serverVersion(sql);
      return {
        kind,
        sql,
        details: `PGlite 0.5.16 (${version}), ${dir ? `data directory ${dir}` : 'in memory'}`,
        dispose: track(async () => {
          try {
            await sql.close();
          } finally {
            if (dir) await rm(dir, { recursive: true, force: true });
          }
        }),
      };
    } catch (e) {
      if (dir) await rm(dir, { recursive: true, force: true });
      throw e;
    }
  }

  const name = `portal_bench_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  await admin((c) => c.query(`CREATE DATABASE ${pg.escapeIdentifier(name)}`));
  const drop = () =>
    admin((c) => c.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)} WITH (FORCE)`));
  try {
    const url = new URL(BENCH_POSTGRES_ADMIN_URL);
    url.pathname = `/${name}`;
    const sql = new PgSqlClient(url.toString(), options.poolSize);
    await sql.connectCheck();
    const version = await serverVersion(sql);
    const settings = await sql.query<{ name: string; setting: string }>(
      `SELECT name, setting FROM pg_settings WHERE name IN ('fsync', 'synchronous_commit', 'shared_buffers')
        ORDER BY name`,
    );
    return {
      kind,
      sql,
      details:
        `${version} at ${url.host}, database ${name}, pool of ${options.poolSize}; ` +
        settings.rows.map((r) => `${r.name}=${r.setting}`).join(', '),
      dispose: track(async () => {
        try {
          await sql.close();
        } finally {
          await drop();
        }
      }),
    };
  } catch (e) {
    await drop();
    throw e;
  }
}

async function serverVersion(sql: SqlClient): Promise<string> {
  const { rows } = await sql.query<{ v: string }>(`SELECT split_part(version(), ' on ', 1) AS v`);
  return rows[0]?.v ?? 'unknown version';
}

async function admin(fn: (client: pg.Client) => Promise<unknown>): Promise<void> {
  const client = new pg.Client({ connectionString: BENCH_POSTGRES_ADMIN_URL });
  await client.connect();
  try {
    await fn(client);
  } finally {
    await client.end();
  }
}
