/**
 * The contract every EventStore adapter honours. Run by pglite/postgres/eventstoredb spec files.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { EventData, EventStore, RecordedEvent, Subscription } from './event-store.js';
import { ConcurrencyError } from './errors.js';

export interface ContractTarget {
  name: 'pglite' | 'pglite-worker' | 'postgres' | 'eventstoredb';
  open(): Promise<EventStore>;
  teardown?(): Promise<void>;
}

export function event(
  type = 'TestHappened',
  data: unknown = { n: 1 },
  metadata?: EventData['metadata'],
): EventData {
  return { id: randomUUID(), type, data, metadata };
}

export function streamName(prefix = 'test'): string {
  return `${prefix}-${randomUUID()}`;
}

/** Reads from a subscription until `count` events matched or the timeout passed. */
export async function take(sub: Subscription, count: number, timeoutMs = 10_000): Promise<RecordedEvent[]> {
  const seen: RecordedEvent[] = [];
  if (count === 0) return seen;
  const timer = setTimeout(() => void sub.close(), timeoutMs);
  try {
    for await (const e of sub) {
      seen.push(e);
      if (seen.length >= count) break;
    }
  } finally {
    clearTimeout(timer);
  }
  return seen;
}

export function runEventStoreContract(target: ContractTarget): void {
  describe(`EventStore contract: ${target.name}`, () => {
    let store: EventStore;
    beforeAll(async () => {
      store = await target.open();
    });
    afterAll(async () => {
      await store?.close();
      await target.teardown?.();
    });

    it(`${target.name}: appends to a new stream with no_stream and numbers revisions from 0`, async () => {
      const stream = streamName();
      const result = await store.append(stream, [event(), event(), event()], {
        expectedRevision: 'no_stream',
      });
      expect(result.nextExpectedRevision).toBe(2n);
      const read = await store.readStream(stream);
      expect(read.map((e) => e.revision)).toEqual([0n, 1n, 2n]);
      expect(read[2]!.position).toBe(result.position);
      expect(read[0]!.position < read[1]!.position && read[1]!.position < read[2]!.position).toBe(true);
    });

    it(`${target.name}: rejects every kind of wrong expected revision with ConcurrencyError`, async () => {
      const stream = streamName();
      await expect(
        store.append(stream, [event()], { expectedRevision: 'stream_exists' }),
      ).rejects.toBeInstanceOf(ConcurrencyError);
      await expect(store.append(stream, [event()], { expectedRevision: 0n })).rejects.toBeInstanceOf(
        ConcurrencyError,
      );
      await store.append(stream, [event()], { expectedRevision: 'no_stream' });
      await expect(store.append(stream, [event()], { expectedRevision: 'no_stream' })).rejects.toBeInstanceOf(
        ConcurrencyError,
      );
      await expect(store.append(stream, [event()], { expectedRevision: 5 })).rejects.toThrow(/revision/);
      // Nothing was written by the rejected appends.
      expect(await store.readStream(stream)).toHaveLength(1);
      const ok = await store.append(stream, [event()], { expectedRevision: 0 });
      expect(ok.nextExpectedRevision).toBe(1n);
      const any = await store.append(stream, [event()], { expectedRevision: 'any' });
      expect(any.nextExpectedRevision).toBe(2n);
      const exists = await store.append(stream, [event()], { expectedRevision: 'stream_exists' });
      expect(exists.nextExpectedRevision).toBe(3n);
    });

    it(`${target.name}: lets exactly one of several racing writers with the same expected revision win`, async () => {
      const stream = streamName();
      await store.append(stream, [event()], { expectedRevision: 'no_stream' });
      const results = await Promise.allSettled(
        Array.from({ length: 8 }, () => store.append(stream, [event()], { expectedRevision: 0n })),
      );
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      const rejected = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
      expect(rejected).toHaveLength(7);
      for (const r of rejected) expect(r.reason).toBeInstanceOf(ConcurrencyError);
      expect(await store.readStream(stream)).toHaveLength(2);
    });

    it(`${target.name}: treats appending already stored event ids as idempotent`, async () => {
      const stream = streamName();
      const events = [event(), event()];
      const first = await store.append(stream, events, { expectedRevision: 'no_stream' });
      const again = await store.append(stream, events, { expectedRevision: 'no_stream' });
      expect(again.nextExpectedRevision).toBe(first.nextExpectedRevision);
      expect(again.position).toBe(first.position);
      expect(await store.readStream(stream)).toHaveLength(2);
    });

    it(`${target.name}: a one-event append retried is idempotent`, async () => {
      const stream = streamName();
      const e = event();
      const first = await store.append(stream, [e], { expectedRevision: 'no_stream' });
      await store.append(stream, [event()], { expectedRevision: 0n });
      // The retry carries the revision it expected the first time; it answers what the first answered.
      const again = await store.append(stream, [e], { expectedRevision: 'no_stream' });
      expect(again).toEqual(first);
      expect(await store.readStream(stream)).toHaveLength(2);
    });

    // Event ids are unique across the whole log in the PostgreSQL adapter (a unique index);
    // EventStoreDB checks ids only within a stream, so the port promises no more than that.
    if (target.name !== 'eventstoredb')
      it(`${target.name}: refuses an event id already stored in another stream`, async () => {
        const e = event();
        await store.append(streamName(), [e], { expectedRevision: 'no_stream' });
        await expect(store.append(streamName(), [e], { expectedRevision: 'any' })).rejects.toBeInstanceOf(
          ConcurrencyError,
        );
      });

    it(`${target.name}: round-trips data, metadata and createdAt`, async () => {
      const stream = streamName();
      const occurredAt = '2025-09-01T08:30:00.000Z';
      const meta = {
        actorId: randomUUID(),
        impersonatorId: randomUUID(),
        correlationId: randomUUID(),
        causationId: randomUUID(),
        occurredAt,
      };
      const e = event('UserBlocked', { reason: 'ünïcode ✓', nested: { list: [1, 2] } }, meta);
      const before = Date.now();
      await store.append(stream, [e], { expectedRevision: 'any' });
      const [read] = await store.readStream(stream);
      expect(read).toMatchObject({ id: e.id, stream, type: 'UserBlocked', data: e.data, revision: 0n });
      expect(read!.metadata).toMatchObject(meta);
      expect(read!.createdAt).toBeInstanceOf(Date);
      expect(Math.abs(read!.createdAt.getTime() - before)).toBeLessThan(60_000);
    });

    it(`${target.name}: defaults occurredAt to the time of the append and actorId to null`, async () => {
      const stream = streamName();
      await store.append(stream, [event()], { expectedRevision: 'any' });
      const [read] = await store.readStream(stream);
      expect(read!.metadata.actorId).toBeNull();
      expect(Number.isNaN(Date.parse(read!.metadata.occurredAt))).toBe(false);
    });

    it(`${target.name}: reads a stream forwards and backwards, from a revision, with a max count`, async () => {
      const stream = streamName();
      await store.append(
        stream,
        Array.from({ length: 12 }, (_, n) => event('Counted', { n })),
        { expectedRevision: 'no_stream' },
      );
      const data = (es: RecordedEvent[]) => es.map((e) => (e.data as { n: number }).n);
      expect(data(await store.readStream(stream))).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
      expect(data(await store.readStream(stream, { fromRevision: 7 }))).toEqual([7, 8, 9, 10, 11]);
      expect(data(await store.readStream(stream, { fromRevision: 2n, maxCount: 3 }))).toEqual([2, 3, 4]);
      expect(data(await store.readStream(stream, { direction: 'backwards', maxCount: 3 }))).toEqual([
        11, 10, 9,
      ]);
      expect(data(await store.readStream(stream, { direction: 'backwards', fromRevision: 3 }))).toEqual([
        3, 2, 1, 0,
      ]);
      expect(await store.readStream(streamName('missing'))).toEqual([]);
    });

    it(`${target.name}: reads $all after a position, in strictly increasing position order`, async () => {
      const head = await store.headPosition();
      const a = streamName();
      const b = streamName();
      await store.append(a, [event('A', { n: 0 })], { expectedRevision: 'no_stream' });
      await store.append(b, [event('B', { n: 1 }), event('B', { n: 2 })], { expectedRevision: 'no_stream' });
      await store.append(a, [event('A', { n: 3 })], { expectedRevision: 0n });
      const all = (await store.readAll({ fromPosition: head, maxCount: 100 })).filter(
        (e) => e.stream === a || e.stream === b,
      );
      expect(all.map((e) => (e.data as { n: number }).n)).toEqual([0, 1, 2, 3]);
      for (let i = 1; i < all.length; i++) expect(all[i]!.position > all[i - 1]!.position).toBe(true);
      const afterFirst = await store.readAll({ fromPosition: all[0]!.position, maxCount: 1 });
      expect(afterFirst[0]!.id).toBe(all[1]!.id);
      expect(await store.headPosition()).toBe(all[3]!.position);
    });

    it(`${target.name}: readAll with types leaves out no event of those types (decision 0073)`, async () => {
      const head = await store.headPosition();
      const a = streamName();
      const wanted = `Wanted${randomUUID().slice(0, 8)}`;
      await store.append(
        a,
        [0, 1, 2, 3, 4, 5, 6].map((n) => event(n % 3 === 0 ? wanted : 'Unwanted', { n })),
        { expectedRevision: 'no_stream' },
      );
      // Pages of 2 of the wanted type until none is left: the adapter may return other types too.
      const seen: number[] = [];
      let from = head;
      for (;;) {
        const page = await store.readAll({ fromPosition: from, maxCount: 2, types: [wanted] });
        if (page.length === 0) break;
        for (let i = 1; i < page.length; i++) expect(page[i]!.position > page[i - 1]!.position).toBe(true);
        seen.push(...page.filter((e) => e.type === wanted).map((e) => (e.data as { n: number }).n));
        from = page[page.length - 1]!.position;
      }
      expect(seen).toEqual([0, 3, 6]);
      if (store.kind !== 'eventstoredb') {
        const first = await store.readAll({ fromPosition: head, maxCount: 10, types: [wanted] });
        expect(first.map((e) => e.type)).toEqual([wanted, wanted, wanted]);
      }
    });

    it(`${target.name}: a readAll page shorter than maxCount is the end of the log (decision 0090)`, async () => {
      const head = await store.headPosition();
      const wanted = `Wanted${randomUUID().slice(0, 8)}`;
      await store.append(
        streamName(),
        [0, 1, 2, 3, 4, 5, 6].map((n) => event(n % 3 === 0 ? wanted : 'Unwanted', { n })),
        { expectedRevision: 'no_stream' },
      );
      // The projection runner stops at a short page: every page size, with and without types, must
      // leave nothing behind a short page.
      for (const types of [[wanted], undefined]) {
        for (let maxCount = 1; maxCount <= 8; maxCount++) {
          let from = head;
          const seen: number[] = [];
          for (;;) {
            const page = await store.readAll({ fromPosition: from, maxCount, types });
            expect(page.length).toBeLessThanOrEqual(maxCount);
            seen.push(
              ...page
                .filter((e) => e.type === (types ? wanted : e.type))
                .map((e) => (e.data as { n: number }).n),
            );
            if (page.length < maxCount) break;
            from = page[page.length - 1]!.position;
          }
          expect(seen.filter((n) => !types || n % 3 === 0)).toEqual(
            types ? [0, 3, 6] : [0, 1, 2, 3, 4, 5, 6],
          );
        }
      }
    });

    it(`${target.name}: readAll and subscribeToAll leave out the data of the types asked without it (decision 0080)`, async () => {
      const head = await store.headPosition();
      const stream = streamName();
      const bulky = `Bulky${randomUUID().slice(0, 8)}`;
      await store.append(
        stream,
        [event('Small', { n: 1 }), event(bulky, { n: 2 }), event('Small', { n: 3 })],
        {
          expectedRevision: 'no_stream',
        },
      );
      const read = (await store.readAll({ fromPosition: head, maxCount: 100, withoutData: [bulky] })).filter(
        (e) => e.stream === stream,
      );
      const sub = store.subscribeToAll({
        fromPosition: head,
        filter: { streamPrefixes: [stream] },
        withoutData: [bulky],
      });
      const delivered = await take(sub, 3);
      await sub.close();
      for (const events of [read, delivered]) {
        expect(events.map((e) => e.type)).toEqual(['Small', bulky, 'Small']);
        expect(events[0]!.data).toEqual({ n: 1 });
        expect(events[2]!.data).toEqual({ n: 3 });
        // EventStoreDB cannot leave it out on the server, and may deliver it: the option is a saving.
        if (store.kind !== 'eventstoredb') expect(events[1]!.data).toBeNull();
        else expect([null, { n: 2 }]).toContainEqual(events[1]!.data);
      }
    });

    it(`${target.name}: subscribeToAll catches up, then delivers live appends, honouring the filter`, async () => {
      const head = await store.headPosition();
      const stream = streamName('subscribed');
      await store.append(stream, [event('Before', { n: 0 })], { expectedRevision: 'no_stream' });
      const sub = store.subscribeToAll({ fromPosition: head, filter: { streamPrefixes: [stream] } });
      const received = take(sub, 3);
      await store.append(streamName('other'), [event('Ignored')], { expectedRevision: 'no_stream' });
      await store.append(stream, [event('Live', { n: 1 })], { expectedRevision: 0n });
      await store.append(stream, [event('Live', { n: 2 })], { expectedRevision: 1n });
      const events = await received;
      expect(events.map((e) => (e.data as { n: number }).n)).toEqual([0, 1, 2]);
      expect(events.every((e) => e.stream === stream)).toBe(true);
      await sub.close();
    });

    it(`${target.name}: subscribeToAll starts strictly after fromPosition and filters by event type`, async () => {
      const stream = streamName();
      const r = await store.append(stream, [event('Skip.me'), event('Keep.me', { n: 7 })], {
        expectedRevision: 'no_stream',
      });
      const sub = store.subscribeToAll({
        fromPosition: r.position - 1n,
        filter: { eventTypePrefixes: ['Keep.'] },
      });
      const [first] = await take(sub, 1);
      expect(first!.position).toBe(r.position);
      expect(first!.data).toEqual({ n: 7 });
      await sub.close();
    });
  });
}
