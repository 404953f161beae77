import { allProjections } from '@portal/projections';
import { pino } from 'pino';
import { PostgresEventStore } from '../../server/src/platform/event-store/postgres/postgres-event-store.js';
import { PersonalDataVault } from '../../server/src/platform/personal-data/personal-data-vault.js';
import { portalProtectedStore } from '../../server/src/platform/personal-data/protecting-event-store.js';
import { ProjectionRunner } from '../../server/src/platform/projections/projection-runner.js';
import { PgSqlClient } from '../../server/src/platform/sql/pg-client.js';
import type { SqlExecutor } from '../../server/src/platform/sql/sql-client.js';

/** Every row of every read-model table, as sorted JSON text per table. */
export async function dumpReadModels(sql: SqlExecutor): Promise<Record<string, string[]>> {
  const dump: Record<string, string[]> = {};
  for (const p of allProjections) {
    for (const table of p.tables) {
      const { rows } = await sql.query<{ r: string }>(
        `SELECT to_jsonb(t)::text AS r FROM ${table} t ORDER BY 1`,
      );
      dump[table] = rows.map((row) => row.r);
    }
  }
  return dump;
}

export interface RebuildComparison {
  /** The read models as the running servers left them. */
  before: Record<string, string[]>;
  /** The read models after `ProjectionRunner.rebuild()` (what `npm run projections:rebuild` runs). */
  after: Record<string, string[]>;
  head: bigint;
  /** Each projection's checkpoint before the rebuild. */
  checkpoints: Record<string, bigint>;
}

/**
 * Dumps the read models of the PostgreSQL database at `url`, rebuilds them from the first event with the
 * rebuild CLI's own code (`ProjectionRunner.rebuild`; a running leader is asked to do it), dumps again.
 * Nothing may write meanwhile.
 */
export async function rebuildAndCompare(url: string): Promise<RebuildComparison> {
  const sql = new PgSqlClient(url);
  try {
    // As the server and the rebuild CLI read it: personal data decrypted (decision 0014).
    const raw = await PostgresEventStore.create(sql);
    const store = portalProtectedStore(raw, await PersonalDataVault.open(sql));
    try {
      const runner = new ProjectionRunner(store, sql, allProjections, { log: pino({ level: 'silent' }) });
      const head = await store.headPosition();
      const { rows } = await sql.query<{ name: string; position: string }>(
        'SELECT name, position::text AS position FROM proj_checkpoints',
      );
      const checkpoints = Object.fromEntries(rows.map((r) => [r.name, BigInt(r.position)]));
      const before = await dumpReadModels(sql);
      await runner.rebuild();
      const after = await dumpReadModels(sql);
      return { before, after, head, checkpoints };
    } finally {
      await store.close();
    }
  } finally {
    await sql.close();
  }
}
