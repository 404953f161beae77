/**
 * Raw baselines' tables: copies of a projection's tables with the same columns, defaults, generated
 * columns and indexes, so that raw SQL does the same durable work as the projection (decision 0073).
 */
import type { Projection } from '../../../projections/src/index.js';
import { builtAfterCatchUp } from '../../../server/src/platform/projections/projection-runner.js';
import type { SqlClient } from '../../../server/src/platform/sql/sql-client.js';

/** The names of the indexes the runner builds after a rebuild has caught up (GIN, `queryIndex`). */
export function deferredIndexNames(projections: readonly Projection[]): Set<string> {
  const names = projections.flatMap((p) =>
    p.schema
      .filter(builtAfterCatchUp)
      .map((ddl) => /CREATE\s+INDEX\s+(?:IF\s+NOT\s+EXISTS\s+)?(\w+)/i.exec(ddl)?.[1]),
  );
  return new Set(names.filter((n): n is string => n !== undefined));
}

export interface RawTable {
  table: string;
  raw: string;
  /** The columns a row is written with (not the generated ones). */
  columns: string[];
  /** Index statements to run once the rows are in, as the runner does. */
  deferred: string[];
}

/**
 * (Re)creates `raw` LIKE `table` (which must exist) with `table`'s indexes; those named in `later`
 * are returned for the end instead of created.
 */
export async function copyTable(
  sql: SqlClient,
  table: string,
  raw: string,
  later: ReadonlySet<string>,
): Promise<RawTable> {
  await sql.exec(
    `DROP TABLE IF EXISTS ${raw}; CREATE TABLE ${raw} (LIKE ${table} INCLUDING ALL EXCLUDING INDEXES)`,
  );
  const { rows: indexes } = await sql.query<{ indexname: string; indexdef: string }>(
    `SELECT indexname, indexdef FROM pg_indexes WHERE tablename = $1 AND schemaname = 'public'`,
    [table],
  );
  const deferred: string[] = [];
  for (const i of indexes) {
    const ddl = i.indexdef.replace(/^CREATE (UNIQUE )?INDEX \S+ ON \S+/, `CREATE $1INDEX ON ${raw}`);
    if (later.has(i.indexname)) deferred.push(ddl);
    else await sql.query(ddl);
  }
  const { rows: cols } = await sql.query<{ column_name: string }>(
    `SELECT column_name FROM information_schema.columns
      WHERE table_name = $1 AND table_schema = 'public' AND is_generated = 'NEVER' ORDER BY ordinal_position`,
    [table],
  );
  return { table, raw, columns: cols.map((c) => c.column_name), deferred };
}
