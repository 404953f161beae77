/**
 * The event store port. Semantics follow EventStoreDB so every adapter behaves the same:
 * see docs/architecture.md ("The event store").
 */

export type ExpectedRevision = bigint | number | 'no_stream' | 'stream_exists' | 'any';

export interface EventMetadata {
  /** The user on whose behalf the event was written (null for the system). */
  actorId: string | null;
  /** Set when an administrator acted while impersonating `actorId`. */
  impersonatorId?: string | null;
  correlationId?: string | null;
  causationId?: string | null;
  /** When the fact happened (ISO 8601). Defaults to the time of the append. */
  occurredAt: string;
  /** Extra, adapter-neutral fields (for example a hash chain link). */
  [extra: string]: unknown;
}

export interface EventData<Type extends string = string, Data = unknown> {
  /** UUID chosen by the writer; appending the same id again is idempotent. */
  id: string;
  type: Type;
  data: Data;
  metadata?: Partial<EventMetadata>;
}

export interface RecordedEvent<Type extends string = string, Data = unknown> {
  id: string;
  stream: string;
  /** 0-based position of the event inside its stream. */
  revision: bigint;
  /** Global position: strictly increasing in commit order across all streams. */
  position: bigint;
  type: Type;
  data: Data;
  metadata: EventMetadata;
  createdAt: Date;
}

export interface AppendOptions {
  expectedRevision: ExpectedRevision;
}

export interface AppendResult {
  /** Revision of the last event of the stream after the append. */
  nextExpectedRevision: bigint;
  /** Global position of the last event written (or already stored, when idempotent). */
  position: bigint;
}

export type Direction = 'forwards' | 'backwards';

export interface ReadStreamOptions {
  direction?: Direction;
  /** Inclusive. Defaults to the start (forwards) or the end (backwards). */
  fromRevision?: bigint | number;
  maxCount?: number;
}

export interface ReadAllOptions {
  /** Exclusive: events with a position strictly greater are returned. 0n (default) reads from the start. */
  fromPosition?: bigint;
  /**
   * At most this many events. Fewer means the log held no further event (of `types`, when given) when
   * it was read: the projection runner stops its catch-up there instead of reading again (decision 0090).
   */
  maxCount?: number;
  /**
   * Only events of these types are needed (the projection runner's catch-up, decision 0073): an
   * adapter that can filter on the server returns only those, `maxCount` of them; one that cannot
   * (EventStoreDB) may return others too, and the caller skips them. Either way no event of these
   * types after `fromPosition` is left out of a page.
   */
  types?: readonly string[];
  /**
   * Events of these types are wanted without their payload (decision 0080): an adapter that can leave
   * it out on the server delivers them with `data` null; one that cannot delivers it anyway.
   */
  withoutData?: readonly string[];
  /**
   * The caller reads no personal field (decision 0089): the personal-data decorator then leaves them
   * encrypted instead of decrypting them. Other adapters ignore it.
   */
  sealed?: boolean;
}

export interface SubscriptionFilter {
  /** Only events whose type starts with one of these prefixes. */
  eventTypePrefixes?: string[];
  /** Only events whose stream starts with one of these prefixes. */
  streamPrefixes?: string[];
}

export interface SubscribeToAllOptions {
  /** Exclusive; events after this position are delivered. 0n (default) delivers everything. */
  fromPosition?: bigint;
  filter?: SubscriptionFilter;
  /** As `ReadAllOptions.withoutData`: these types may arrive with `data` null. */
  withoutData?: readonly string[];
}

/**
 * A catch-up subscription: an async iterable that replays past events, then stays live.
 * `close()` ends the iteration.
 */
export interface Subscription extends AsyncIterable<RecordedEvent> {
  close(): Promise<void>;
}

export interface EventStore {
  /** Which adapter this is: 'pglite', 'postgres' or 'eventstoredb'. */
  readonly kind: EventStoreKind;
  append(stream: string, events: EventData[], options: AppendOptions): Promise<AppendResult>;
  readStream(stream: string, options?: ReadStreamOptions): Promise<RecordedEvent[]>;
  readAll(options?: ReadAllOptions): Promise<RecordedEvent[]>;
  subscribeToAll(options?: SubscribeToAllOptions): Subscription;
  /** Position of the last event written, 0n when empty. */
  headPosition(): Promise<bigint>;
  close(): Promise<void>;
}

export type EventStoreKind = 'pglite' | 'postgres' | 'eventstoredb';

/** Nest injection token for the EventStore port. */
export const EVENT_STORE = Symbol('EVENT_STORE');

export function matchesFilter(event: { type: string; stream: string }, filter?: SubscriptionFilter): boolean {
  if (!filter) return true;
  if (filter.eventTypePrefixes && !filter.eventTypePrefixes.some((p) => event.type.startsWith(p)))
    return false;
  if (filter.streamPrefixes && !filter.streamPrefixes.some((p) => event.stream.startsWith(p))) return false;
  return true;
}
