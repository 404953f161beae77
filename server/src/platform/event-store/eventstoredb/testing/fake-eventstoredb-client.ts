/**
 * An in-memory stand-in for the slice of EventStoreDBClient the adapter uses, modelled on what the
 * server does (see docs/decisions/0005-eventstoredb-adapter.md), so the adapter's own logic (paging,
 * exclusive positions, system events, idempotency, subscriptions) runs through the contract suite on
 * machines without an EventStoreDB server. It is deliberately unkind where the server is:
 * - reads from a position are inclusive, and a position that is not a record boundary is rejected;
 * - the log holds system events ($-prefixed) before, between and after ours;
 * - idempotent re-appends report no position, multi-event appends report the first event's position;
 * - a missing stream fails the read with StreamNotFoundError;
 * - unsubscribe() cancels without ending the stream.
 */
import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { PassThrough, Readable } from 'node:stream';
import {
  StreamNotFoundError,
  WrongExpectedVersionError,
  type AllStreamResolvedEvent,
  type AppendExpectedRevision,
  type AppendResult,
  type EventData,
  type Filter,
  type Position,
  type ReadPosition,
  type ReadRevision,
} from '@eventstore/db-client';

interface StoredEvent {
  id: string;
  streamId: string;
  type: string;
  revision: bigint;
  data: string;
  metadata: string;
  created: Date;
  position: bigint;
}

export class FakeEventStoreDbClient {
  private readonly log: StoredEvent[] = [];
  private readonly streams = new Map<string, StoredEvent[]>();
  private readonly appended = new EventEmitter();
  private nextPosition = 0n;
  /** Counts calls, so tests can check what reached the "server". */
  readonly calls = { appendToStream: 0, readStream: 0, readAll: 0, subscribeToAll: 0 };

  constructor() {
    this.appended.setMaxListeners(0);
    this.writeSystemEvent('$users', '$UserCreated');
    this.writeSystemEvent('$$$settings', '$metadata');
  }

  /** Writes an EventStoreDB-internal event, as the server does from time to time. */
  writeSystemEvent(stream = '$stats-127.0.0.1:2113', type = '$statsCollected'): void {
    this.write(stream, [{ id: randomUUID(), type, data: '{}', metadata: '' }]);
  }

  appendToStream(
    streamName: string,
    events: EventData | EventData[],
    options: { expectedRevision?: AppendExpectedRevision } = {},
  ): Promise<AppendResult> {
    this.calls.appendToStream++;
    const list = Array.isArray(events) ? events : [events];
    const expected = options.expectedRevision ?? 'any';
    return Promise.resolve().then(() => {
      const existing = this.streams.get(streamName) ?? [];
      const current: bigint | 'no_stream' = existing.length === 0 ? 'no_stream' : BigInt(existing.length - 1);
      // Idempotency: the same ids at the same place as a previous write succeed without writing.
      const from = expected === 'no_stream' ? 0 : typeof expected === 'bigint' ? Number(expected) + 1 : -1;
      if (from >= 0 && list.length > 0 && existing.length >= from + list.length) {
        const same = list.every((e, i) => existing[from + i]!.id === e.id);
        if (same) return { success: true, nextExpectedRevision: BigInt(from + list.length - 1) };
      }
      const ok =
        expected === 'any' ||
        (expected === 'no_stream' && current === 'no_stream') ||
        (expected === 'stream_exists' && current !== 'no_stream') ||
        (typeof expected === 'bigint' && current === expected);
      if (!ok) {
        throw new WrongExpectedVersionError(undefined, { streamName, expected, current });
      }
      const written = this.write(
        streamName,
        list.map((e) => ({
          id: e.id,
          type: e.type,
          data: JSON.stringify(e.data),
          metadata: e.metadata === undefined ? '' : JSON.stringify(e.metadata),
        })),
      );
      const first = written[0];
      const stream = this.streams.get(streamName) ?? [];
      return {
        success: true,
        nextExpectedRevision: BigInt(stream.length - 1),
        ...(first ? { position: { commit: first.position, prepare: first.position } } : {}),
      };
    });
  }

  readStream(
    streamName: string,
    options: { direction?: string; fromRevision?: ReadRevision; maxCount?: number | bigint } = {},
  ): Readable {
    this.calls.readStream++;
    const stream = this.streams.get(streamName);
    const backwards = options.direction === 'backwards';
    const max = Number(options.maxCount ?? Number.MAX_SAFE_INTEGER);
    const from = options.fromRevision ?? (backwards ? 'end' : 'start');
    return Readable.from(
      (async function* () {
        await Promise.resolve();
        if (!stream) throw new StreamNotFoundError(undefined, streamName);
        let selected = backwards ? [...stream].reverse() : stream;
        if (typeof from === 'bigint') {
          selected = selected.filter((e) => (backwards ? e.revision <= from : e.revision >= from));
        }
        for (const e of selected.slice(0, max)) yield resolved(e);
      })(),
    );
  }

  readAll(
    options: { direction?: string; fromPosition?: ReadPosition; maxCount?: number | bigint } = {},
  ): Readable {
    this.calls.readAll++;
    const backwards = options.direction === 'backwards';
    const max = Number(options.maxCount ?? Number.MAX_SAFE_INTEGER);
    const from = options.fromPosition ?? (backwards ? 'end' : 'start');
    const log = this.log;
    const boundary = (p: Position) => this.isBoundary(p);
    return Readable.from(
      (async function* () {
        await Promise.resolve();
        let selected: StoredEvent[];
        if (from === 'start') selected = backwards ? [] : log;
        else if (from === 'end') selected = backwards ? [...log].reverse() : [];
        else {
          if (!boundary(from)) throw invalidPosition(from);
          selected = backwards
            ? log.filter((e) => e.position < from.commit).reverse()
            : log.filter((e) => e.position >= from.commit);
        }
        for (const e of selected.slice(0, max)) yield resolved(e);
      })(),
    );
  }

  subscribeToAll(options: { fromPosition?: ReadPosition; filter?: Filter } = {}): PassThrough & {
    unsubscribe(): Promise<void>;
  } {
    this.calls.subscribeToAll++;
    const out = new PassThrough({ objectMode: true }) as PassThrough & { unsubscribe(): Promise<void> };
    const from = options.fromPosition ?? 'start';
    const accept = (e: StoredEvent) => passes(e, options.filter);
    const onAppended = (e: StoredEvent) => {
      if (accept(e)) out.write(resolved(e));
    };
    out.unsubscribe = () => {
      this.appended.off('event', onAppended);
      return Promise.resolve();
    };
    setImmediate(() => {
      if (from !== 'start' && from !== 'end' && !this.isBoundary(from)) {
        out.emit('error', invalidPosition(from));
        return;
      }
      const start = from === 'start' ? -1n : from === 'end' ? this.nextPosition : from.commit;
      // Catch-up, inclusive of the start position, then live.
      for (const e of this.log) if (e.position >= start && accept(e)) out.write(resolved(e));
      this.appended.on('event', onAppended);
    });
    return out;
  }

  dispose(): Promise<void> {
    this.appended.removeAllListeners();
    return Promise.resolve();
  }

  private isBoundary(p: Position): boolean {
    return p.commit >= this.nextPosition || this.log.some((e) => e.position === p.commit);
  }

  private write(
    streamName: string,
    events: { id: string; type: string; data: string; metadata: string }[],
  ): StoredEvent[] {
    const stream = this.streams.get(streamName) ?? [];
    this.streams.set(streamName, stream);
    const written: StoredEvent[] = [];
    for (const e of events) {
      const stored: StoredEvent = {
        ...e,
        streamId: streamName,
        revision: BigInt(stream.length),
        created: new Date(),
        position: this.nextPosition,
      };
      // Records have a size: positions leave gaps that are not record boundaries.
      this.nextPosition += 64n + BigInt(e.data.length + e.metadata.length + e.type.length);
      stream.push(stored);
      this.log.push(stored);
      written.push(stored);
    }
    for (const e of written) this.appended.emit('event', e);
    return written;
  }
}

function passes(e: StoredEvent, filter?: Filter): boolean {
  if (!filter) return true;
  const value = filter.filterOn === 'streamName' ? e.streamId : e.type;
  if ('prefixes' in filter) return filter.prefixes.some((p) => value.startsWith(p));
  return new RegExp(filter.regex).test(value);
}

function invalidPosition(p: Position): Error {
  return Object.assign(new Error(`13 INTERNAL: Invalid position ${p.commit}/${p.prepare}`), { code: 13 });
}

function resolved(e: StoredEvent): AllStreamResolvedEvent {
  return {
    event: {
      streamId: e.streamId,
      id: e.id,
      revision: e.revision,
      type: e.type,
      created: e.created,
      isJson: true,
      data: JSON.parse(e.data) as Record<string, unknown>,
      metadata: e.metadata ? (JSON.parse(e.metadata) as Record<string, unknown>) : undefined,
      position: { commit: e.position, prepare: e.position },
    },
    commitPosition: e.position,
  };
}
