import { randomUUID } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { runEventStoreContract } from '../event-store.contract.js';
import { PgliteWorkerSqlClient } from '../../sql/pglite-worker-client.js';
import { PostgresEventStore } from './postgres-event-store.js';

/** The event store on PGlite in a worker thread, as embedded mode runs it (decision 0072). */
let sql: PgliteWorkerSqlClient | null = null;
runEventStoreContract({
  name: 'pglite-worker',
  open: async () => {
    sql = await PgliteWorkerSqlClient.open();
    return PostgresEventStore.create(sql);
  },
  teardown: async () => {
    await sql?.close();
  },
});

describe('pglite-worker: appends from many writers at once', () => {
  it('every append gets its own revision, and a reader sees them all in position order', async () => {
    const db = await PgliteWorkerSqlClient.open();
    const store = await PostgresEventStore.create(db);
    try {
      const streams = Array.from({ length: 8 }, () => `worker-${randomUUID()}`);
      await Promise.all(
        streams.map(async (stream) => {
          for (let i = 0; i < 20; i++)
            await store.append(stream, [{ id: randomUUID(), type: 'Counted', data: { i } }], {
              expectedRevision: i === 0 ? 'no_stream' : BigInt(i - 1),
            });
        }),
      );
      const all = await store.readAll({ maxCount: 1000 });
      expect(all).toHaveLength(160);
      expect(all.map((e) => e.position)).toEqual(
        [...all.map((e) => e.position)].sort((a, b) => (a < b ? -1 : 1)),
      );
      for (const stream of streams)
        expect((await store.readStream(stream)).map((e) => (e.data as { i: number }).i)).toEqual(
          Array.from({ length: 20 }, (_, i) => i),
        );
    } finally {
      await store.close();
      await db.close();
    }
  });
});
