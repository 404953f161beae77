import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { DomainError } from '../domain/domain-error.js';
import { PgliteSqlClient } from '../sql/pglite-client.js';
import type { Aggregate } from './aggregate.js';
import { Commands } from './commands.js';
import { ConcurrencyError } from './errors.js';
import type { EventStore } from './event-store.js';
import { PostgresEventStore } from './postgres/postgres-event-store.js';

/** A counter: `Add` adds, refusing to go over `max`; `Touch` writes nothing. */
type CounterEvent = { type: 'Added'; data: { by: number } };
type CounterCommand = { type: 'Add'; id: string; by: number; max?: number } | { type: 'Touch'; id: string };

const counter: Aggregate<number, CounterCommand, CounterEvent> = {
  stream: (id) => `counter-${id}`,
  idOf: (c) => c.id,
  initialState: () => 0,
  evolve: (total, e) => total + e.data.by,
  decide: (c, total) => {
    if (c.type === 'Touch') return [];
    if (c.max !== undefined && total + c.by > c.max)
      throw new DomainError('conflict', `Would exceed ${c.max}`, 'COUNTER_FULL');
    return [{ type: 'Added', data: { by: c.by } }];
  },
};

describe('Commands: the one write loop, on the real PGlite event store', () => {
  let sql: PgliteSqlClient;
  let store: EventStore;
  let commands: Commands;

  beforeAll(async () => {
    sql = await PgliteSqlClient.open();
    store = await PostgresEventStore.create(sql);
    commands = new Commands(store);
  });
  afterAll(async () => {
    await store.close();
    await sql.close();
  });

  it('reads, folds, decides and appends with the metadata; answers position, events and state', async () => {
    const id = randomUUID();
    await commands.run(counter, { type: 'Add', id, by: 2 }, { actorId: 'a' });
    const result = await commands.run(
      counter,
      { type: 'Add', id, by: 3 },
      { actorId: 'b', correlationId: 'c' },
    );
    expect(result.state).toBe(5);
    expect(result.events).toEqual([{ type: 'Added', data: { by: 3 } }]);
    const stored = await store.readStream(`counter-${id}`);
    expect(stored.map((e) => e.revision)).toEqual([0n, 1n]);
    expect(result.position).toBe(stored[1]!.position.toString());
    expect(stored[1]!.metadata).toMatchObject({ actorId: 'b', correlationId: 'c' });
  });

  it('writes nothing for a command without events and answers the stream position', async () => {
    const id = randomUUID();
    const { position } = await commands.run(counter, { type: 'Add', id, by: 1 }, {});
    const touched = await commands.run(counter, { type: 'Touch', id }, {});
    expect(touched).toEqual({ position, events: [], state: 1 });
    expect(await commands.run(counter, { type: 'Touch', id: randomUUID() }, {})).toMatchObject({
      position: '0',
      state: 0,
    });
    expect(await store.readStream(`counter-${id}`)).toHaveLength(1);
  });

  it('lets a refusal through as the DomainError, appending nothing', async () => {
    const id = randomUUID();
    await commands.run(counter, { type: 'Add', id, by: 2, max: 3 }, {});
    await expect(commands.run(counter, { type: 'Add', id, by: 2, max: 3 }, {})).rejects.toMatchObject({
      kind: 'conflict',
      code: 'COUNTER_FULL',
    });
    expect(await store.readStream(`counter-${id}`)).toHaveLength(1);
  });

  /** An aggregate whose decide lets another writer append first, `times` times. */
  const racing = (times: number) => {
    let decided = 0;
    const aggregate: Aggregate<number, CounterCommand, CounterEvent> = {
      ...counter,
      decide: (c, s) => {
        decided++;
        return counter.decide(c, s);
      },
      beforeAppend: async ({ stream }) => {
        if (decided > times) return;
        await store.append(stream, [{ id: randomUUID(), type: 'Added', data: { by: 10 } }], {
          expectedRevision: 'any',
        });
      },
    };
    return { aggregate, decided: () => decided };
  };

  it('decides again on the new state when another writer moved the stream meanwhile', async () => {
    const id = randomUUID();
    const { aggregate, decided } = racing(2);
    const result = await commands.run(aggregate, { type: 'Add', id, by: 1 }, {});
    expect(decided()).toBe(3);
    expect(result.state).toBe(21);
    expect((await store.readStream(`counter-${id}`)).map((e) => (e.data as { by: number }).by)).toEqual([
      10, 10, 1,
    ]);
  });

  it('re-checks the rules on the new state: a retry can end in a refusal', async () => {
    const id = randomUUID();
    const { aggregate } = racing(1);
    await expect(commands.run(aggregate, { type: 'Add', id, by: 1, max: 5 }, {})).rejects.toBeInstanceOf(
      DomainError,
    );
  });

  it('gives up after the bounded number of retries with the ConcurrencyError', async () => {
    const { aggregate, decided } = racing(100);
    await expect(
      commands.run(aggregate, { type: 'Add', id: randomUUID(), by: 1 }, {}, { retries: 2 }),
    ).rejects.toBeInstanceOf(ConcurrencyError);
    expect(decided()).toBe(3);
    const once = racing(100);
    await expect(
      commands.run(once.aggregate, { type: 'Add', id: randomUUID(), by: 1 }, {}, { retries: 0 }),
    ).rejects.toBeInstanceOf(ConcurrencyError);
    expect(once.decided()).toBe(1);
  });

  it('runs beforeAppend before the events are stored, afterAppend after, and merges linkMetadata', async () => {
    const id = randomUUID();
    const seen: string[] = [];
    const stored = async () => (await store.readStream(`counter-${id}`)).length;
    const hooked: Aggregate<number, CounterCommand, CounterEvent> = {
      ...counter,
      linkMetadata: (last, events) => events.map((_, i) => ({ link: `${last?.revision ?? 'none'}+${i}` })),
      beforeAppend: async ({ events, state }) => {
        seen.push(`before: ${events.length} new on ${state}, ${await stored()} stored`);
      },
      afterAppend: async ({ position }) => {
        const last = (await store.readStream(`counter-${id}`)).at(-1)!;
        seen.push(`after: ${await stored()} stored, position ${position === last.position.toString()}`);
      },
    };
    await commands.run(hooked, { type: 'Add', id, by: 1 }, { actorId: 'x' });
    await commands.run(hooked, { type: 'Add', id, by: 1 }, { actorId: 'x' });
    await commands.run(hooked, { type: 'Touch', id }, {});
    expect(seen).toEqual([
      'before: 1 new on 0, 0 stored',
      'after: 1 stored, position true',
      'before: 1 new on 1, 1 stored',
      'after: 2 stored, position true',
    ]);
    const metadata = (await store.readStream(`counter-${id}`)).map((e) => e.metadata);
    expect(metadata).toMatchObject([
      { actorId: 'x', link: 'none+0' },
      { actorId: 'x', link: '0+0' },
    ]);
  });

  it('appends events already decided without a revision check (appendDecided)', async () => {
    const id = randomUUID();
    await commands.run(counter, { type: 'Add', id, by: 1 }, {});
    const { state } = await commands.load(counter, id);
    const command: CounterCommand = { type: 'Add', id, by: 4 };
    const events = counter.decide(command, state);
    await commands.run(counter, { type: 'Add', id, by: 1 }, {});
    await commands.appendDecided(counter, { id, command, state, events, metadata: { actorId: 'y' } });
    expect((await commands.load(counter, id)).state).toBe(6);
  });
});
