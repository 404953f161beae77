import { runEventStoreContract } from '../event-store.contract.js';
import { PgSqlClient } from '../../sql/pg-client.js';
import { createTestDatabase, type TestDatabase } from '../../testing/postgres-test-database.js';
import { PostgresEventStore } from './postgres-event-store.js';

let db: TestDatabase | null = null;
let sql: PgSqlClient | null = null;
runEventStoreContract({
  name: 'postgres',
  open: async () => {
    db = await createTestDatabase();
    sql = new PgSqlClient(db.url);
    return PostgresEventStore.create(sql);
  },
  teardown: async () => {
    await sql?.close();
    await db?.drop();
  },
});
