/**
 * Pure translations between our EventStore port and @eventstore/db-client (EventStoreDB / KurrentDB).
 * No I/O here: everything is unit-tested without a server (see mapping.unit.spec.ts).
 * Decisions: docs/decisions/0005-eventstoredb-adapter.md.
 */
import {
  ANY,
  NO_STREAM,
  START,
  STREAM_EXISTS,
  StreamNotFoundError,
  WrongExpectedVersionError,
  eventTypeFilter,
  excludeSystemEvents,
  jsonEvent,
  streamNameFilter,
  type AllStreamResolvedEvent,
  type AppendExpectedRevision,
  type EventData as EsdbEventData,
  type Filter,
  type JSONType,
  type Position,
  type ReadPosition,
  type ResolvedEvent,
} from '@eventstore/db-client';
import {
  matchesFilter,
  type EventData,
  type EventMetadata,
  type ExpectedRevision,
  type RecordedEvent,
  type SubscriptionFilter,
} from '../event-store.js';
import { ConcurrencyError, EventStoreUnavailableError } from '../errors.js';

/** The environment variable that selects this adapter; named in every "cannot reach" message. */
export const CONNECTION_STRING_ENV = 'EVENTSTORE_CONNECTION_STRING';

/** gRPC status codes we interpret (https://grpc.github.io/grpc/core/md_doc_statuscodes.html). */
const GRPC_DEADLINE_EXCEEDED = 4;
const GRPC_ABORTED = 10; // EventStoreDB answers a server-side timeout with ABORTED
const GRPC_UNAVAILABLE = 14;

/** Positions at or above 2^63 are the server's "no position" (-1 sent as an unsigned 64-bit integer). */
const MAX_VALID_POSITION = (1n << 63n) - 1n;

// ---------------------------------------------------------------------------------------------------
// Expected revision
// ---------------------------------------------------------------------------------------------------

/** Our expected revision, as the client's constant or a bigint. Rejects negative or fractional numbers. */
export function toEsdbExpectedRevision(expected: ExpectedRevision): AppendExpectedRevision {
  switch (expected) {
    case 'no_stream':
      return NO_STREAM;
    case 'stream_exists':
      return STREAM_EXISTS;
    case 'any':
      return ANY;
  }
  if (typeof expected === 'number' && !Number.isSafeInteger(expected)) {
    throw new RangeError(`expectedRevision must be a whole number, got ${expected}`);
  }
  if (typeof expected !== 'bigint' && typeof expected !== 'number') {
    throw new TypeError(`Unknown expectedRevision: ${String(expected)}`);
  }
  const revision = BigInt(expected);
  if (revision < 0n) throw new RangeError('expectedRevision must be >= 0');
  return revision;
}

/** How an expected (or actual) revision reads in a ConcurrencyError message. */
export function describeExpectedRevision(expected: unknown): string {
  if (typeof expected === 'bigint' || typeof expected === 'number') return expected.toString();
  if (typeof expected === 'string' && expected.length > 0) return expected;
  return 'unknown';
}

// ---------------------------------------------------------------------------------------------------
// Events in
// ---------------------------------------------------------------------------------------------------

/**
 * The ESDB event to write: JSON data, and our metadata as the ESDB event metadata, with `actorId`
 * defaulting to null and `occurredAt` to `now` (the time of the append).
 */
export function toEsdbEventData(event: EventData, now: string): EsdbEventData {
  const metadata: EventMetadata = {
    actorId: null,
    ...event.metadata,
    occurredAt: event.metadata?.occurredAt ?? now,
  };
  return jsonEvent({
    id: event.id,
    type: event.type,
    // JSON.stringify accepts any JSON value; the client's JSONType is narrower than what it serialises.
    data: (event.data ?? null) as JSONType,
    metadata,
  });
}

// ---------------------------------------------------------------------------------------------------
// Events out
// ---------------------------------------------------------------------------------------------------

type AnyResolvedEvent = ResolvedEvent | AllStreamResolvedEvent;

/** System streams and types ($-prefixed) are EventStoreDB's own and never reach our callers from $all. */
export function isSystemEvent(event: { type: string; stream: string }): boolean {
  return event.type.startsWith('$') || event.stream.startsWith('$');
}

function validPosition(value: bigint | undefined): value is bigint {
  return value !== undefined && value >= 0n && value <= MAX_VALID_POSITION;
}

/**
 * The full ESDB position {commit, prepare} of a resolved event, or undefined when the server did not
 * report one. We only ever look at the event itself (links are not resolved).
 */
export function esdbPositionOf(resolved: AnyResolvedEvent): Position | undefined {
  const recorded = resolved.event as { position?: Position } | undefined;
  const position = recorded?.position;
  if (position && validPosition(position.commit) && validPosition(position.prepare)) {
    return { commit: position.commit, prepare: position.prepare };
  }
  if (validPosition(resolved.commitPosition)) {
    return { commit: resolved.commitPosition, prepare: resolved.commitPosition };
  }
  return undefined;
}

/** Our global position: the event's commit position (unique per event for gRPC writes). */
export function positionOf(resolved: AnyResolvedEvent): bigint | undefined {
  return esdbPositionOf(resolved)?.commit;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  if (value instanceof Uint8Array) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/** Our metadata from the ESDB metadata; tolerates events written by other tools (no or binary metadata). */
export function toEventMetadata(raw: unknown, createdAt: Date): EventMetadata {
  const stored = isPlainObject(raw) ? raw : {};
  const occurredAt = typeof stored.occurredAt === 'string' ? stored.occurredAt : createdAt.toISOString();
  const actorId = typeof stored.actorId === 'string' ? stored.actorId : null;
  return { ...stored, actorId, occurredAt };
}

/**
 * Maps a resolved ESDB event to our RecordedEvent. Returns null when there is no event to map (an
 * unresolved link). Throws when the server did not report a position: positions are the backbone of
 * projections, and a made-up one would silently corrupt checkpoints.
 */
export function toRecordedEvent(resolved: AnyResolvedEvent): RecordedEvent | null {
  const event = resolved.event;
  if (!event) return null;
  const position = positionOf(resolved);
  if (position === undefined) {
    throw new EventStoreUnavailableError(
      `EventStoreDB did not report a position for event ${event.id} in stream "${event.streamId}". ` +
        'This adapter needs a server that reports positions on reads (EventStoreDB 24.x / KurrentDB 25.x).',
    );
  }
  let data: unknown = event.data;
  if (!event.isJson && data instanceof Uint8Array) data = Buffer.from(data).toString('utf8');
  const createdAt = event.created instanceof Date ? event.created : new Date(event.created);
  return {
    id: event.id,
    stream: event.streamId,
    revision: event.revision,
    position,
    type: event.type,
    data,
    metadata: toEventMetadata(event.metadata, createdAt),
    createdAt,
  };
}

// ---------------------------------------------------------------------------------------------------
// Positions: ours are exclusive bigints, ESDB's are inclusive {commit, prepare}
// ---------------------------------------------------------------------------------------------------

/**
 * Where an ESDB read should start for our exclusive `fromPosition`. ESDB starts inclusive at a record
 * boundary, so we start AT the given position (or at a known earlier one) and drop everything up to
 * and including `fromPosition` with {@link isAfterPosition}. `prepare` defaults to `commit`, which is
 * what EventStoreDB reports for every event written over gRPC.
 */
export function toReadPosition(fromPosition: bigint, prepare: bigint = fromPosition): ReadPosition {
  if (fromPosition <= 0n) return START;
  return { commit: fromPosition, prepare };
}

/** True when the event comes strictly after our exclusive `fromPosition`. */
export function isAfterPosition(event: { position: bigint }, fromPosition: bigint): boolean {
  return event.position > fromPosition;
}

/** Keeps the events strictly after `fromPosition`, in their order. */
export function afterPosition<E extends { position: bigint }>(events: E[], fromPosition: bigint): E[] {
  return events.filter((e) => isAfterPosition(e, fromPosition));
}

/**
 * A bounded memory of positions known to sit on a record boundary (each event we appended or read),
 * so a read can start exactly there, or at the closest earlier one when asked for an arbitrary position.
 */
export class KnownPositions {
  private readonly positions = new Map<bigint, bigint>();

  constructor(private readonly capacity = 10_000) {}

  remember(position: Position | undefined): void {
    if (!position || !validPosition(position.commit) || !validPosition(position.prepare)) return;
    if (position.commit === 0n) return;
    this.positions.delete(position.commit);
    this.positions.set(position.commit, position.prepare);
    if (this.positions.size > this.capacity) {
      const oldest = this.positions.keys().next();
      if (!oldest.done) this.positions.delete(oldest.value);
    }
  }

  /** The exact ESDB position for our position, if we have seen an event there. */
  exact(commit: bigint): Position | undefined {
    const prepare = this.positions.get(commit);
    return prepare === undefined ? undefined : { commit, prepare };
  }

  /** The greatest known position strictly below `commit`. */
  before(commit: bigint): Position | undefined {
    let best: Position | undefined;
    for (const [c, p] of this.positions) {
      if (c < commit && (!best || c > best.commit)) best = { commit: c, prepare: p };
    }
    return best;
  }

  get size(): number {
    return this.positions.size;
  }
}

// ---------------------------------------------------------------------------------------------------
// Filters
// ---------------------------------------------------------------------------------------------------

/**
 * The server-side filter for a subscription. EventStoreDB takes one filter (stream names OR event
 * types), so we send the most selective one we have (stream prefixes first) and apply the whole
 * filter again on the client with {@link acceptsEvent}. Without a filter we still exclude system events.
 */
export function toServerFilter(filter?: SubscriptionFilter): Filter {
  if (filter?.streamPrefixes && filter.streamPrefixes.length > 0) {
    return streamNameFilter({ prefixes: [...filter.streamPrefixes] });
  }
  if (filter?.eventTypePrefixes && filter.eventTypePrefixes.length > 0) {
    return eventTypeFilter({ prefixes: [...filter.eventTypePrefixes] });
  }
  return excludeSystemEvents();
}

/** What a subscriber or $all reader sees: no system events, and only what the filter asks for. */
export function acceptsEvent(event: { type: string; stream: string }, filter?: SubscriptionFilter): boolean {
  return !isSystemEvent(event) && matchesFilter(event, filter);
}

// ---------------------------------------------------------------------------------------------------
// Errors
// ---------------------------------------------------------------------------------------------------

interface ErrorLike {
  type?: unknown;
  name?: unknown;
  code?: unknown;
  message?: unknown;
  details?: unknown;
  streamName?: unknown;
  expectedVersion?: unknown;
  actualVersion?: unknown;
  metadata?: unknown;
  cause?: unknown;
}

function asErrorLike(error: unknown): ErrorLike {
  return error !== null && typeof error === 'object' ? error : {};
}

function constructorName(error: unknown): string | undefined {
  if (error === null || typeof error !== 'object') return undefined;
  const ctor = (error as { constructor?: { name?: unknown } }).constructor;
  return typeof ctor?.name === 'string' ? ctor.name : undefined;
}

/** The `exception` header EventStoreDB puts on gRPC errors (a plain ServiceError keeps it in metadata). */
function exceptionHeader(error: ErrorLike): string | undefined {
  // grpc-js Metadata: values are strings, or Buffers for binary headers.
  const metadata = error.metadata as
    { getMap?: () => Record<string, string | Buffer | undefined> } | undefined;
  if (typeof metadata?.getMap !== 'function') return undefined;
  try {
    const value = metadata.getMap().exception;
    return value === undefined || value === null ? undefined : value.toString();
  } catch {
    return undefined;
  }
}

function errorText(error: unknown): string {
  const e = asErrorLike(error);
  const parts = [e.message, e.details].filter((p): p is string => typeof p === 'string' && p.length > 0);
  if (parts.length === 0 && typeof error === 'string') parts.push(error);
  return parts.join(' ');
}

function isNamed(error: unknown, className: string, type: string): boolean {
  const e = asErrorLike(error);
  return (
    e.type === type ||
    e.name === className ||
    constructorName(error) === className ||
    exceptionHeader(e) === type
  );
}

export function isWrongExpectedVersion(error: unknown): boolean {
  return (
    error instanceof WrongExpectedVersionError ||
    isNamed(error, 'WrongExpectedVersionError', 'wrong-expected-version')
  );
}

export function isStreamNotFound(error: unknown): boolean {
  return error instanceof StreamNotFoundError || isNamed(error, 'StreamNotFoundError', 'stream-not-found');
}

const UNREACHABLE_TEXT =
  /\bUNAVAILABLE\b|ECONNREFUSED|ECONNRESET|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ETIMEDOUT|connection refused|No connection established|Failed to connect|Failed to discover/i;

/** The server cannot be reached: gRPC code 14 / UnavailableError, or a socket-level failure. */
export function isUnavailable(error: unknown): boolean {
  const e = asErrorLike(error);
  if (
    e.code === GRPC_UNAVAILABLE ||
    e.type === 'unavailable' ||
    constructorName(error) === 'UnavailableError'
  ) {
    return true;
  }
  if (
    typeof e.code === 'string' &&
    /^(ECONNREFUSED|ECONNRESET|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH)$/.test(e.code)
  ) {
    return true;
  }
  if (UNREACHABLE_TEXT.test(errorText(error))) return true;
  return e.cause !== undefined && e.cause !== error && isUnavailable(e.cause);
}

/** The server did not answer in time (client deadline or server-side timeout). */
export function isTimeout(error: unknown): boolean {
  const e = asErrorLike(error);
  return (
    e.code === GRPC_DEADLINE_EXCEEDED ||
    e.code === GRPC_ABORTED ||
    e.type === 'deadline-exceeded' ||
    e.type === 'timeout' ||
    constructorName(error) === 'DeadlineExceededError' ||
    constructorName(error) === 'TimeoutError' ||
    /deadline exceeded/i.test(errorText(error))
  );
}

/** Hides the password of `esdb://user:password@host` before the string reaches a log or an error. */
export function redactConnectionString(connectionString: string): string {
  return connectionString.replace(/^([a-z+]+:\/\/[^:@/]+):[^@/]*@/i, '$1:***@');
}

export interface ErrorContext {
  /** The stream being appended to or read, for ConcurrencyError. */
  stream?: string;
  /** Our expected revision, when appending. */
  expectedRevision?: ExpectedRevision;
  /** The connection string in use, shown redacted. */
  connectionString?: string;
}

function unavailableMessage(what: string, error: unknown, context: ErrorContext): string {
  const where = context.connectionString ? ` at ${redactConnectionString(context.connectionString)}` : '';
  const detail = errorText(error);
  return (
    `EventStoreDB ${what}${where}${detail ? ` (${detail})` : ''}. ` +
    `Check ${CONNECTION_STRING_ENV} and that the EventStoreDB server is running.`
  );
}

/**
 * Translates whatever the client threw into our error vocabulary:
 * - wrong expected version (typed error, or a plain error carrying its type/name) -> ConcurrencyError;
 * - unreachable (code 14, UNAVAILABLE, connection refused) -> EventStoreUnavailableError naming
 *   EVENTSTORE_CONNECTION_STRING; a deadline or server timeout likewise;
 * - anything else is returned as an Error, unchanged when it already is one.
 */
export function translateError(error: unknown, context: ErrorContext = {}): Error {
  if (error instanceof ConcurrencyError || error instanceof EventStoreUnavailableError) return error;
  if (isWrongExpectedVersion(error)) {
    const e = asErrorLike(error);
    const stream = context.stream ?? (typeof e.streamName === 'string' ? e.streamName : 'unknown');
    const expected =
      context.expectedRevision !== undefined
        ? describeExpectedRevision(context.expectedRevision)
        : describeExpectedRevision(e.expectedVersion);
    return new ConcurrencyError(stream, expected, describeExpectedRevision(e.actualVersion));
  }
  if (isUnavailable(error)) {
    return new EventStoreUnavailableError(unavailableMessage('is unreachable', error, context), {
      cause: error,
    });
  }
  if (isTimeout(error)) {
    return new EventStoreUnavailableError(unavailableMessage('did not answer in time', error, context), {
      cause: error,
    });
  }
  if (error instanceof Error) return error;
  return new Error(errorText(error) || `EventStoreDB client failed: ${String(error)}`, { cause: error });
}
