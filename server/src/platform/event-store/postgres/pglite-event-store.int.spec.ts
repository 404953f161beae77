import { runEventStoreContract } from '../event-store.contract.js';
import { PgliteSqlClient } from '../../sql/pglite-client.js';
import { PostgresEventStore } from './postgres-event-store.js';

let sql: PgliteSqlClient | null = null;
runEventStoreContract({
  name: 'pglite',
  open: async () => {
    sql = await PgliteSqlClient.open();
    return PostgresEventStore.create(sql);
  },
  teardown: async () => {
    await sql?.close();
  },
});
