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

  describe('folded states kept between commands (decision 0075)', () => {
    /** The real store, recording each readStream's options. */
    const recording = (inner: EventStore) => {
      const reads: { stream: string; fromRevision?: bigint | number }[] = [];
      const wrapped: EventStore = Object.create(inner) as EventStore;
      wrapped.readStream = (stream, options) => {
        reads.push({ stream, fromRevision: options?.fromRevision });
        return inner.readStream(stream, options);
      };
      return { wrapped, reads };
    };

    it('reads only the events after the state it folded last time, and answers the same state', async () => {
      const { wrapped, reads } = recording(store);
      const cached = new Commands(wrapped);
      const id = randomUUID();
      for (let i = 1; i <= 5; i++) await cached.run(counter, { type: 'Add', id, by: i }, {});
      expect(reads.map((r) => r.fromRevision)).toEqual([undefined, 0n, 1n, 2n, 3n]);
      expect((await cached.load(counter, id)).state).toBe(15);
      expect((await new Commands(store).load(counter, id)).state).toBe(15);
    });

    it('folds in what another process appended since', async () => {
      const mine = new Commands(store);
      const theirs = new Commands(store);
      const id = randomUUID();
      await mine.run(counter, { type: 'Add', id, by: 1 }, {});
      await theirs.run(counter, { type: 'Add', id, by: 2 }, {});
      await store.append(`counter-${id}`, [{ id: randomUUID(), type: 'Added', data: { by: 4 } }], {
        expectedRevision: 'any',
      });
      await expect(mine.run(counter, { type: 'Add', id, by: 1, max: 7 }, {})).rejects.toMatchObject({
        code: 'COUNTER_FULL',
      });
      expect((await mine.run(counter, { type: 'Add', id, by: 1 }, {})).state).toBe(8);
    });

    it('reads the whole stream again when the remembered last event is not in it (another database)', async () => {
      const otherSql = await PgliteSqlClient.open();
      const other = await PostgresEventStore.create(otherSql);
      try {
        let current: EventStore = store;
        const switching = Object.create(store) as EventStore;
        switching.readStream = (stream, options) => current.readStream(stream, options);
        switching.append = (stream, events, options) => current.append(stream, events, options);
        const cached = new Commands(switching);
        const id = randomUUID();
        await cached.run(counter, { type: 'Add', id, by: 5 }, {});
        await cached.run(counter, { type: 'Add', id, by: 5 }, {});
        current = other;
        await other.append(`counter-${id}`, [{ id: randomUUID(), type: 'Added', data: { by: 1 } }], {
          expectedRevision: 'no_stream',
        });
        await other.append(`counter-${id}`, [{ id: randomUUID(), type: 'Added', data: { by: 2 } }], {
          expectedRevision: 0n,
        });
        expect((await cached.load(counter, id)).state).toBe(3);
        expect((await cached.run(counter, { type: 'Add', id, by: 1 }, {})).state).toBe(4);
      } finally {
        await other.close();
        await otherSql.close();
      }
    });

    it('keeps two aggregates over one stream apart', async () => {
      const id = randomUUID();
      const count: Aggregate<number, CounterCommand, CounterEvent> = { ...counter, evolve: (n) => n + 1 };
      await commands.run(counter, { type: 'Add', id, by: 3 }, {});
      await commands.run(counter, { type: 'Add', id, by: 4 }, {});
      expect((await commands.load(count, id)).state).toBe(2);
      expect((await commands.load(counter, id)).state).toBe(7);
      await commands.run(counter, { type: 'Add', id, by: 1 }, {});
      expect((await commands.load(count, id)).state).toBe(3);
    });

    it('starts each command from a copy: an evolve that changes its state in place cannot change the next one', async () => {
      type Bag = { items: number[] };
      const bag: Aggregate<Bag, CounterCommand, CounterEvent> = {
        stream: (id) => `bag-${id}`,
        idOf: (c) => c.id,
        initialState: () => ({ items: [] }),
        evolve: (s, e) => {
          s.items.push(e.data.by);
          return s;
        },
        decide: (c) => (c.type === 'Add' ? [{ type: 'Added', data: { by: c.by } }] : []),
      };
      const id = randomUUID();
      const first = await commands.run(bag, { type: 'Add', id, by: 1 }, {});
      expect(first.state.items).toEqual([1]);
      first.state.items.push(99);
      expect((await commands.run(bag, { type: 'Add', id, by: 2 }, {})).state.items).toEqual([1, 2]);
      const { state } = await commands.load(bag, id);
      state.items.length = 0;
      expect((await commands.load(bag, id)).state.items).toEqual([1, 2]);
    });
  });
});
