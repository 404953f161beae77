import { PgliteSqlClient } from '../sql/pglite-client.js';
import { PgSqlClient } from '../sql/pg-client.js';
import type { SqlClient } from '../sql/sql-client.js';
import { createTestDatabase, type TestDatabase } from './postgres-test-database.js';

/** A real database to run a suite against: in-memory PGlite, or a throwaway database on PostgreSQL. */
export interface SqlTarget {
  name: 'pglite' | 'postgres';
  open(): Promise<SqlClient>;
  /** Drops what `open` created (the client itself is closed by the suite). */
  close(): Promise<void>;
}

/** Both SQL targets, for `describe.each`; `prefix` names the PostgreSQL test database. */
export function sqlTargets(prefix: string): SqlTarget[] {
  let db: TestDatabase | null = null;
  return [
    { name: 'pglite', open: () => PgliteSqlClient.open(), close: async () => {} },
    {
      name: 'postgres',
      open: async () => {
        db = await createTestDatabase(prefix);
        return new PgSqlClient(db.url);
      },
      close: async () => {
        await db?.drop();
      },
    },
  ];
}
