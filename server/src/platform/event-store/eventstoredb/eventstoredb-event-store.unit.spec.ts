/**
 * The adapter's own logic, run through the shared contract against an in-memory fake of the client
 * (no server needed). The real server runs the same contract in eventstoredb-event-store.int.spec.ts
 * when EVENTSTORE_CONNECTION_STRING is set.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import type { EventStoreDBClient } from '@eventstore/db-client';
import { event, runEventStoreContract, streamName, take } from '../event-store.contract.js';
import { EventStoreDbEventStore } from './eventstoredb-event-store.js';
import { FakeEventStoreDbClient } from './testing/fake-eventstoredb-client.js';

function open(fake = new FakeEventStoreDbClient()): {
  store: EventStoreDbEventStore;
  fake: FakeEventStoreDbClient;
} {
  return { store: new EventStoreDbEventStore(fake as unknown as EventStoreDBClient), fake };
}

describe('EventStoreDbEventStore over a fake client', () => {
  runEventStoreContract({ name: 'eventstoredb', open: () => Promise.resolve(open().store) });

  it('hides system events from readAll, subscribeToAll and headPosition', async () => {
    const { store, fake } = open();
    expect(await store.headPosition()).toBe(0n);
    expect(await store.readAll()).toEqual([]);
    const r = await store.append(streamName(), [event('A')], { expectedRevision: 'no_stream' });
    fake.writeSystemEvent();
    expect(await store.headPosition()).toBe(r.position);
    const all = await store.readAll();
    expect(all.map((e) => e.type)).toEqual(['A']);
    const sub = store.subscribeToAll();
    const received = take(sub, 2);
    fake.writeSystemEvent();
    await store.append(streamName(), [event('B')], { expectedRevision: 'no_stream' });
    expect((await received).map((e) => e.type)).toEqual(['A', 'B']);
    await store.close();
  });

  it('pages through $all past runs of system events and honours maxCount', async () => {
    const { store, fake } = open();
    const stream = streamName();
    for (let n = 0; n < 5; n++) {
      await store.append(stream, [event('Counted', { n })], {
        expectedRevision: n === 0 ? 'no_stream' : n - 1,
      });
      for (let s = 0; s < 3; s++) fake.writeSystemEvent();
    }
    const n = (es: { data: unknown }[]) => es.map((e) => (e.data as { n: number }).n);
    expect(n(await store.readAll({ maxCount: 2 }))).toEqual([0, 1]);
    const firstTwo = await store.readAll({ maxCount: 2 });
    expect(n(await store.readAll({ fromPosition: firstTwo[1]!.position, maxCount: 10 }))).toEqual([2, 3, 4]);
    expect(n(await store.readAll({ fromPosition: firstTwo[1]!.position + 1n, maxCount: 1 }))).toEqual([2]);
    await store.close();
  });

  it('starts reads from an unknown, unaligned position by falling back to an earlier one', async () => {
    const fake = new FakeEventStoreDbClient();
    const writer = open(fake).store;
    const stream = streamName();
    const a = await writer.append(stream, [event('A')], { expectedRevision: 'no_stream' });
    await writer.append(stream, [event('B')], { expectedRevision: 0 });
    // A fresh adapter (another process) knows no positions at all.
    const reader = open(fake).store;
    expect((await reader.readAll({ fromPosition: a.position + 3n })).map((e) => e.type)).toEqual(['B']);
    expect((await reader.readAll({ fromPosition: a.position })).map((e) => e.type)).toEqual(['B']);
    await writer.close();
    await reader.close();
  });

  it('reports the position of the last event for multi-event and idempotent appends', async () => {
    const { store } = open();
    const stream = streamName();
    const events = [event(), event(), event()];
    const first = await store.append(stream, events, { expectedRevision: 'no_stream' });
    const read = await store.readStream(stream);
    expect(first.position).toBe(read[2]!.position);
    const again = await store.append(stream, events, { expectedRevision: 'no_stream' });
    expect(again).toEqual(first);
    await store.close();
  });

  it('ends a subscription that is closed while it waits, and closes them all with the store', async () => {
    const { store } = open();
    const sub = store.subscribeToAll({ fromPosition: await store.headPosition() });
    const iterator = sub[Symbol.asyncIterator]();
    const next = iterator.next();
    await sub.close();
    expect(await next).toEqual({ done: true, value: undefined });
    const other = store.subscribeToAll({ filter: { streamPrefixes: [`nothing-${randomUUID()}`] } });
    const pending = other[Symbol.asyncIterator]().next();
    await store.close();
    expect(await pending).toEqual({ done: true, value: undefined });
  });
});
