import { randomUUID } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
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

describe('pglite: two stores on one embedded database', () => {
  it('a subscription of one store hears the appends of the other at once (no NOTIFY on PGlite, no poll wait)', async () => {
    const db = await PgliteSqlClient.open();
    const writer = await PostgresEventStore.create(db);
    const reader = await PostgresEventStore.create(db);
    try {
      const stream = `two-stores-${randomUUID()}`;
      const sub = reader.subscribeToAll({ fromPosition: await reader.headPosition() });
      const started = Date.now();
      const iterator = sub[Symbol.asyncIterator]();
      const next = iterator.next();
      await writer.append(stream, [{ id: randomUUID(), type: 'Heard', data: {} }], {
        expectedRevision: 'no_stream',
      });
      const got = await next;
      // Without the signal it would arrive only with the next poll, 1 s after the subscription began.
      expect(Date.now() - started).toBeLessThan(900);
      expect(got.value).toMatchObject({ stream, type: 'Heard' });
      // No es_streams table: a stream's revision is read from es_events.
      const { rows } = await db.query<{ t: string | null }>(`SELECT to_regclass('es_streams')::text AS t`);
      expect(rows[0]!.t).toBeNull();
      await sub.close();
    } finally {
      await reader.close();
      await writer.close();
      await db.close();
    }
  });
});
