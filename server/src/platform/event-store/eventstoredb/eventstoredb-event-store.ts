import {
  BACKWARDS,
  END,
  EventStoreDBClient,
  FORWARDS,
  START,
  type AllStreamResolvedEvent,
  type AllStreamSubscription,
  type Position,
  type ReadPosition,
  type ReadRevision,
  type ResolvedEvent,
} from '@eventstore/db-client';
import type {
  AppendOptions,
  AppendResult,
  EventData,
  EventStore,
  ReadAllOptions,
  ReadStreamOptions,
  RecordedEvent,
  SubscribeToAllOptions,
  Subscription,
} from '../event-store.js';
import { EventStoreUnavailableError } from '../errors.js';
import {
  KnownPositions,
  acceptsEvent,
  esdbPositionOf,
  isAfterPosition,
  isStreamNotFound,
  isSystemEvent,
  toEsdbEventData,
  toEsdbExpectedRevision,
  toReadPosition,
  toRecordedEvent,
  toServerFilter,
  translateError,
  type ErrorContext,
} from './mapping.js';

export interface EventStoreDbOptions {
  /** Deadline of each append/read call, in milliseconds (subscriptions have none). Default 10 s. */
  deadlineMs?: number;
}

/** Page size when paging through $all (readAll skipping system events, headPosition). */
const ALL_PAGE = 500;
const HEAD_PAGE = 32;
const DEFAULT_READ_ALL = 1000;

/**
 * The event store on EventStoreDB / KurrentDB through @eventstore/db-client (gRPC).
 *
 * - Positions are commit positions (bigint); our `fromPosition` is exclusive where ESDB's is inclusive.
 * - System events ($-prefixed types or streams) never appear in readAll, subscribeToAll or headPosition.
 * - Idempotency of re-appended ids and the expected-revision check are EventStoreDB's own.
 * See docs/decisions/0005-eventstoredb-adapter.md.
 */
export class EventStoreDbEventStore implements EventStore {
  readonly kind = 'eventstoredb' as const;
  private readonly known = new KnownPositions();
  private readonly subscriptions = new Set<EventStoreDbSubscription>();
  private readonly deadline: number;
  private closed = false;

  constructor(
    private readonly client: EventStoreDBClient,
    private readonly connectionString?: string,
    options: EventStoreDbOptions = {},
  ) {
    this.deadline = options.deadlineMs ?? 10_000;
  }

  /** Creates the adapter without touching the network (the client connects on first use). */
  static fromConnectionString(
    connectionString: string,
    options: EventStoreDbOptions = {},
  ): EventStoreDbEventStore {
    let client: EventStoreDBClient;
    try {
      client = EventStoreDBClient.connectionString(connectionString);
    } catch (error) {
      throw new EventStoreUnavailableError(
        `EVENTSTORE_CONNECTION_STRING is not a valid EventStoreDB connection string ` +
          `(expected e.g. esdb://localhost:2113?tls=false): ${(error as Error).message}`,
        { cause: error },
      );
    }
    return new EventStoreDbEventStore(client, connectionString, options);
  }

  /** Creates the adapter and checks the server answers, so a wrong address fails at startup. */
  static async connect(
    connectionString: string,
    options: EventStoreDbOptions = {},
  ): Promise<EventStoreDbEventStore> {
    const store = EventStoreDbEventStore.fromConnectionString(connectionString, options);
    try {
      await store.headPosition();
    } catch (error) {
      await store.close();
      throw error;
    }
    return store;
  }

  async append(stream: string, events: EventData[], options: AppendOptions): Promise<AppendResult> {
    const context: ErrorContext = { ...this.context(), stream, expectedRevision: options.expectedRevision };
    const expectedRevision = toEsdbExpectedRevision(options.expectedRevision);
    const now = new Date().toISOString();
    const payload = events.map((e) => toEsdbEventData(e, now));
    try {
      const result = await this.client.appendToStream(stream, payload, {
        expectedRevision,
        deadline: this.deadline,
      });
      const revision = result.nextExpectedRevision;
      // A single self-committed event reports its own position (commit === prepare). For several events,
      // an idempotent re-append or no position at all, ask the stream for its event at that revision.
      let position: Position | undefined = result.position;
      const trusted = events.length === 1 && position !== undefined && position.commit === position.prepare;
      if (!trusted) position = revision >= 0n ? await this.positionOfRevision(stream, revision) : undefined;
      this.known.remember(position);
      return { nextExpectedRevision: revision, position: position?.commit ?? 0n };
    } catch (error) {
      throw translateError(error, context);
    }
  }

  async readStream(stream: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    if (options.maxCount !== undefined && options.maxCount <= 0) return [];
    const backwards = options.direction === 'backwards';
    let fromRevision: ReadRevision = backwards ? END : START;
    if (options.fromRevision !== undefined) {
      const revision = BigInt(options.fromRevision);
      if (revision < 0n) throw new RangeError('fromRevision must be >= 0');
      fromRevision = revision;
    }
    try {
      const events: RecordedEvent[] = [];
      const read = this.client.readStream(stream, {
        direction: backwards ? BACKWARDS : FORWARDS,
        fromRevision,
        ...(options.maxCount !== undefined ? { maxCount: options.maxCount } : {}),
        deadline: this.deadline,
      });
      for await (const resolved of read) {
        const event = this.toRecorded(resolved);
        if (event) events.push(event);
      }
      return events;
    } catch (error) {
      if (isStreamNotFound(error)) return [];
      throw translateError(error, { ...this.context(), stream });
    }
  }

  async readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    const fromPosition = options.fromPosition ?? 0n;
    const maxCount = options.maxCount ?? DEFAULT_READ_ALL;
    if (maxCount <= 0) return [];
    try {
      let cursor = await this.readPositionFor(fromPosition);
      // The start is inclusive, and system events are dropped: read pages until we have enough.
      const pageSize = Math.min(maxCount + 1, ALL_PAGE);
      let seenUpTo = fromPosition;
      const out: RecordedEvent[] = [];
      for (;;) {
        const page = await this.readAllPage(cursor, pageSize, FORWARDS);
        let last: Position | undefined;
        for (const resolved of page) {
          const position = esdbPositionOf(resolved);
          if (!position) continue;
          last = position;
          // Inclusive start, an earlier fallback start, or the previous page's last event: skip them.
          if (position.commit <= seenUpTo) continue;
          seenUpTo = position.commit;
          const event = this.toRecorded(resolved);
          if (event && acceptsEvent(event)) out.push(event);
          if (out.length >= maxCount) return out;
        }
        if (page.length < pageSize || !last) return out;
        cursor = last;
      }
    } catch (error) {
      throw translateError(error, this.context());
    }
  }

  subscribeToAll(options: SubscribeToAllOptions = {}): Subscription {
    const fromPosition = options.fromPosition ?? 0n;
    const filter = options.filter;
    const sub = new EventStoreDbSubscription({
      open: async () =>
        this.client.subscribeToAll({
          fromPosition: await this.readPositionFor(fromPosition),
          filter: toServerFilter(filter),
        }),
      map: (resolved) => {
        const event = this.toRecorded(resolved);
        if (!event || !isAfterPosition(event, fromPosition) || !acceptsEvent(event, filter)) return null;
        return event;
      },
      translate: (error) => translateError(error, this.context()),
      onClose: () => this.subscriptions.delete(sub),
    });
    this.subscriptions.add(sub);
    return sub;
  }

  async headPosition(): Promise<bigint> {
    try {
      let cursor: ReadPosition = END;
      for (;;) {
        const page = await this.readAllPage(cursor, HEAD_PAGE, BACKWARDS);
        let last: Position | undefined;
        for (const resolved of page) {
          const position = esdbPositionOf(resolved);
          if (!position) continue;
          last = position;
          const event = resolved.event;
          if (event && !isSystemEvent({ type: event.type, stream: event.streamId })) {
            this.known.remember(position);
            return position.commit;
          }
        }
        if (page.length < HEAD_PAGE || !last) return 0n;
        cursor = last;
      }
    } catch (error) {
      throw translateError(error, this.context());
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.all([...this.subscriptions].map((s) => s.close()));
    await this.client.dispose();
  }

  private context(): ErrorContext {
    return this.connectionString !== undefined ? { connectionString: this.connectionString } : {};
  }

  private toRecorded(resolved: ResolvedEvent | AllStreamResolvedEvent): RecordedEvent | null {
    this.known.remember(esdbPositionOf(resolved));
    return toRecordedEvent(resolved);
  }

  private async readAllPage(
    fromPosition: ReadPosition,
    maxCount: number,
    direction: typeof FORWARDS | typeof BACKWARDS,
  ): Promise<AllStreamResolvedEvent[]> {
    const page: AllStreamResolvedEvent[] = [];
    const read = this.client.readAll({ fromPosition, maxCount, direction, deadline: this.deadline });
    for await (const resolved of read) page.push(resolved);
    return page;
  }

  private async positionOfRevision(stream: string, revision: bigint): Promise<Position | undefined> {
    const read = this.client.readStream(stream, {
      direction: BACKWARDS,
      fromRevision: revision,
      maxCount: 1,
      deadline: this.deadline,
    });
    for await (const resolved of read) {
      if (resolved.event?.revision === revision) return esdbPositionOf(resolved);
    }
    return undefined;
  }

  /**
   * Where ESDB should start reading for our exclusive `fromPosition`. ESDB needs a position on a record
   * boundary. Every event position is one, so a position we have seen is used as is; an unknown one is
   * tried once, and if the server rejects it (not a record boundary) we start from the closest earlier
   * position we know, or from the start. Events up to `fromPosition` are then skipped by the caller.
   */
  private async readPositionFor(fromPosition: bigint): Promise<ReadPosition> {
    if (fromPosition <= 0n) return START;
    const exact = this.known.exact(fromPosition);
    if (exact) return exact;
    const candidate = toReadPosition(fromPosition);
    try {
      await this.readAllPage(candidate, 1, FORWARDS);
      return candidate;
    } catch (error) {
      const translated = translateError(error, this.context());
      if (translated instanceof EventStoreUnavailableError) throw translated;
      return this.known.before(fromPosition) ?? START;
    }
  }
}

/** Buffered events above which the gRPC stream is paused until the consumer catches up. */
const HIGH_WATER = 1000;
const LOW_WATER = 100;

/**
 * Our Subscription over an ESDB catch-up subscription to $all: the server replays, then goes live.
 * Events are buffered (with backpressure) and handed out through the async iterator; close() cancels
 * the gRPC call and ends the iteration. A failure of the stream ends the iteration with our error.
 */
class EventStoreDbSubscription implements Subscription {
  private source: AllStreamSubscription | null = null;
  private readonly buffer: RecordedEvent[] = [];
  private failure: Error | null = null;
  private ended = false;
  private closed = false;
  private paused = false;
  private wake: (() => void) | null = null;

  constructor(
    private readonly options: {
      open: () => Promise<AllStreamSubscription>;
      map: (resolved: AllStreamResolvedEvent) => RecordedEvent | null;
      translate: (error: unknown) => Error;
      onClose: () => void;
    },
  ) {}

  async *[Symbol.asyncIterator](): AsyncIterator<RecordedEvent> {
    try {
      await this.start();
      while (!this.closed) {
        const next = this.buffer.shift();
        if (next) {
          if (this.paused && this.buffer.length <= LOW_WATER) {
            this.paused = false;
            this.source?.resume();
          }
          yield next;
          continue;
        }
        if (this.failure) throw this.failure;
        if (this.ended) return;
        await new Promise<void>((resolve) => {
          this.wake = resolve;
        });
        this.wake = null;
      }
    } finally {
      await this.close();
    }
  }

  private async start(): Promise<void> {
    if (this.source || this.closed) return;
    let source: AllStreamSubscription;
    try {
      source = await this.options.open();
    } catch (error) {
      throw this.options.translate(error);
    }
    this.source = source;
    if (this.closed) {
      await this.cancel(source);
      return;
    }
    source.on('data', (resolved: AllStreamResolvedEvent) => {
      if (this.closed) return;
      try {
        const event = this.options.map(resolved);
        if (!event) return;
        this.buffer.push(event);
        if (!this.paused && this.buffer.length >= HIGH_WATER) {
          this.paused = true;
          source.pause();
        }
      } catch (error) {
        this.failure ??= this.options.translate(error);
      }
      this.notify();
    });
    source.on('error', (error: Error) => {
      if (this.closed) return;
      this.failure ??= this.options.translate(error);
      this.notify();
    });
    source.on('end', () => {
      this.ended = true;
      this.notify();
    });
  }

  private notify(): void {
    this.wake?.();
  }

  private async cancel(source: AllStreamSubscription): Promise<void> {
    try {
      await source.unsubscribe();
    } catch {
      // The call is going away anyway.
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.notify();
    this.options.onClose();
    if (this.source) await this.cancel(this.source);
  }
}
