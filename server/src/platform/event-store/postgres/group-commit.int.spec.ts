import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ConcurrencyError } from '../errors.js';
import type { EventData } from '../event-store.js';
import type { SqlClient } from '../../sql/sql-client.js';
import { PostgresEventStore } from './postgres-event-store.js';
import { sqlTargets } from '../../testing/sql-targets.js';

const event = (id: string = randomUUID()): EventData => ({ id, type: 'TestHappened', data: { n: 1 } });
const stream = (prefix: string) => `${prefix}-${randomUUID()}`;

/** Counts the append functions the adapter calls. */
function counting(sql: SqlClient): SqlClient & { calls: { one: number; many: number } } {
  const calls = { one: 0, many: 0 };
  return {
    kind: sql.kind,
    calls,
    query<Row>(text: string, params?: unknown[]) {
      if (text.includes('es_append_many(')) calls.many++;
      else if (text.includes('es_append(') || text.includes('es_append_one(')) calls.one++;
      return sql.query<Row>(text, params);
    },
    transaction: (fn) => sql.transaction(fn),
    exec: (text) => sql.exec(text),
    script: (text) => sql.script(text),
    listen: (channel, onNotify) => sql.listen(channel, onNotify),
    session: () => sql.session(),
    close: () => sql.close(),
  };
}

const targets = sqlTargets('portal_group');

describe.each(targets)('PostgresEventStore group commit on $name', (target) => {
  let sql: SqlClient;
  let counted: ReturnType<typeof counting>;
  let store: PostgresEventStore;
  beforeAll(async () => {
    sql = await target.open();
    counted = counting(sql);
    store = await PostgresEventStore.create(counted);
  });
  afterAll(async () => {
    await store.close();
    await sql.close();
    await target.close();
  });

  it(`${target.name}: writes a lone append at once with es_append_one`, async () => {
    const before = { ...counted.calls };
    await store.append(stream('lone'), [event()], { expectedRevision: 'no_stream' });
    expect(counted.calls).toEqual({ one: before.one + 1, many: before.many });
  });

  it(`${target.name}: writes appends that arrive together in one call, each with its own outcome`, async () => {
    const a = stream('a');
    const b = stream('b');
    const shared = event();
    await store.append(a, [event()], { expectedRevision: 'no_stream' });
    await store.append(b, [shared], { expectedRevision: 'no_stream' });
    const before = { ...counted.calls };

    const fresh = Array.from({ length: 6 }, () => stream('fresh'));
    const results = await Promise.allSettled([
      ...fresh.map((s) => store.append(s, [event(), event()], { expectedRevision: 'no_stream' })),
      store.append(a, [event()], { expectedRevision: 0n }), // wins
      store.append(a, [event()], { expectedRevision: 0n }), // loses: a is at 1 by then
      store.append(b, [shared], { expectedRevision: 'any' }), // idempotent
      store.append(stream('c'), [shared], { expectedRevision: 'any' }), // id stored in another stream
    ]);

    const calls = counted.calls.one + counted.calls.many - before.one - before.many;
    expect(calls).toBeLessThan(results.length);
    expect(counted.calls.many).toBeGreaterThan(before.many);

    const positions: bigint[] = [];
    for (const r of results.slice(0, 6)) {
      expect(r.status).toBe('fulfilled');
      if (r.status === 'fulfilled') {
        expect(r.value.nextExpectedRevision).toBe(1n);
        positions.push(r.value.position);
      }
    }
    expect(new Set(positions).size).toBe(6);
    const [win, lose, idempotent, duplicate] = results.slice(6);
    expect(win).toEqual({
      status: 'fulfilled',
      value: expect.objectContaining({ nextExpectedRevision: 1n }),
    });
    expect(lose?.status === 'rejected' && lose.reason instanceof ConcurrencyError).toBe(true);
    expect(idempotent).toEqual({
      status: 'fulfilled',
      value: expect.objectContaining({ nextExpectedRevision: 0n }),
    });
    expect(duplicate?.status === 'rejected' && duplicate.reason instanceof ConcurrencyError).toBe(true);

    expect((await store.readStream(a)).map((e) => e.revision)).toEqual([0n, 1n]);
    expect(await store.readStream(b)).toHaveLength(1);
    for (const s of fresh) expect(await store.readStream(s)).toHaveLength(2);
    // Everything written is in $all in increasing position order, once.
    const all = await store.readAll({ maxCount: 10_000 });
    const mine = all.filter((e) => fresh.includes(e.stream) || e.stream === a);
    expect(mine).toHaveLength(14);
    expect(all.every((e, i) => i === 0 || e.position > all[i - 1]!.position)).toBe(true);
  });

  it(`${target.name}: an append that fails in a group fails alone; the others are written`, async () => {
    const good = Array.from({ length: 4 }, () => stream('good'));
    const bad = stream('bad');
    const results = await Promise.allSettled([
      store.append(stream('first'), [event()], { expectedRevision: 'no_stream' }),
      ...good.slice(0, 2).map((s) => store.append(s, [event()], { expectedRevision: 'no_stream' })),
      store.append(bad, [event('not-a-uuid')], { expectedRevision: 'no_stream' }),
      ...good.slice(2).map((s) => store.append(s, [event()], { expectedRevision: 'no_stream' })),
    ]);
    expect(results.map((r) => r.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'fulfilled',
      'rejected',
      'fulfilled',
      'fulfilled',
    ]);
    expect(await store.readStream(bad)).toHaveLength(0);
    for (const s of good) expect(await store.readStream(s)).toHaveLength(1);
  });
});
