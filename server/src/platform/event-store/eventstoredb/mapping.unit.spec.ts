import { describe, expect, it } from '@jest/globals';
import {
  ANY,
  NO_STREAM,
  START,
  STREAM_EXISTS,
  StreamNotFoundError,
  UnavailableError,
  WrongExpectedVersionError,
  type AllStreamResolvedEvent,
  type ResolvedEvent,
} from '@eventstore/db-client';
import { ConcurrencyError, EventStoreUnavailableError } from '../errors.js';
import {
  CONNECTION_STRING_ENV,
  KnownPositions,
  acceptsEvent,
  afterPosition,
  describeExpectedRevision,
  esdbPositionOf,
  isAfterPosition,
  isStreamNotFound,
  isSystemEvent,
  isTimeout,
  isUnavailable,
  isWrongExpectedVersion,
  positionOf,
  redactConnectionString,
  toEsdbEventData,
  toEsdbExpectedRevision,
  toEventMetadata,
  toReadPosition,
  toRecordedEvent,
  toServerFilter,
  translateError,
} from './mapping.js';

const NO_POSITION = 18446744073709551615n; // -1 as an unsigned 64-bit integer: the server's "no position"
const CREATED = new Date('2025-09-01T08:31:00.000Z');

function allEvent(
  overrides: Partial<{
    id: string;
    streamId: string;
    type: string;
    revision: bigint;
    data: unknown;
    metadata: unknown;
    isJson: boolean;
    position: { commit: bigint; prepare: bigint } | undefined;
  }> = {},
  commitPosition?: bigint,
): AllStreamResolvedEvent {
  const event = {
    id: 'f3a4b3d6-8e43-4b8f-9f0c-1f2a3b4c5d6e',
    streamId: 'user-1',
    type: 'UserBlocked',
    revision: 3n,
    data: { reason: 'x' },
    metadata: { actorId: 'a-1', occurredAt: '2025-09-01T08:30:00.000Z' },
    isJson: true,
    created: CREATED,
    position: { commit: 1234n, prepare: 1234n },
    ...overrides,
  };
  return { event, commitPosition } as unknown as AllStreamResolvedEvent;
}

function grpcError(code: number, message: string, exception?: string): Error {
  const error = new Error(`${code} ${message}`) as Error & {
    code: number;
    details: string;
    metadata: unknown;
  };
  error.code = code;
  error.details = message;
  error.metadata = { getMap: () => (exception ? { exception } : {}) };
  return error;
}

describe('eventstoredb mapping: expected revision', () => {
  it('maps the named expectations to the client constants', () => {
    expect(toEsdbExpectedRevision('no_stream')).toBe(NO_STREAM);
    expect(toEsdbExpectedRevision('stream_exists')).toBe(STREAM_EXISTS);
    expect(toEsdbExpectedRevision('any')).toBe(ANY);
  });

  it('maps numbers and bigints to a bigint revision', () => {
    expect(toEsdbExpectedRevision(0)).toBe(0n);
    expect(toEsdbExpectedRevision(7)).toBe(7n);
    expect(toEsdbExpectedRevision(42n)).toBe(42n);
    expect(toEsdbExpectedRevision(9007199254740993n)).toBe(9007199254740993n);
  });

  it('rejects negative, fractional and non-finite revisions, and unknown names', () => {
    expect(() => toEsdbExpectedRevision(-1)).toThrow(RangeError);
    expect(() => toEsdbExpectedRevision(-1n)).toThrow(RangeError);
    expect(() => toEsdbExpectedRevision(1.5)).toThrow(RangeError);
    expect(() => toEsdbExpectedRevision(Number.NaN)).toThrow(RangeError);
    expect(() => toEsdbExpectedRevision(Number.POSITIVE_INFINITY)).toThrow(RangeError);
    expect(() => toEsdbExpectedRevision('latest' as never)).toThrow(TypeError);
  });

  it('describes revisions for error messages', () => {
    expect(describeExpectedRevision(3n)).toBe('3');
    expect(describeExpectedRevision(4)).toBe('4');
    expect(describeExpectedRevision('no_stream')).toBe('no_stream');
    expect(describeExpectedRevision(undefined)).toBe('unknown');
    expect(describeExpectedRevision('')).toBe('unknown');
  });
});

describe('eventstoredb mapping: events written', () => {
  const now = '2026-01-02T03:04:05.000Z';

  it('writes JSON events with our id, type, data and metadata', () => {
    const meta = {
      actorId: 'actor',
      impersonatorId: 'admin',
      correlationId: 'corr',
      causationId: 'cause',
      occurredAt: '2025-09-01T08:30:00.000Z',
      hash: 'abc',
    };
    const written = toEsdbEventData(
      { id: 'id-1', type: 'UserBlocked', data: { a: [1, 2] }, metadata: meta },
      now,
    );
    expect(written).toEqual({
      id: 'id-1',
      contentType: 'application/json',
      type: 'UserBlocked',
      data: { a: [1, 2] },
      metadata: meta,
    });
  });

  it('defaults actorId to null and occurredAt to the time of the append', () => {
    expect(toEsdbEventData({ id: 'id-2', type: 'T', data: {} }, now).metadata).toEqual({
      actorId: null,
      occurredAt: now,
    });
    expect(
      toEsdbEventData({ id: 'id-3', type: 'T', data: {}, metadata: { correlationId: 'c' } }, now).metadata,
    ).toEqual({ actorId: null, correlationId: 'c', occurredAt: now });
  });

  it('stores missing data as JSON null and keeps scalar data', () => {
    expect(toEsdbEventData({ id: 'id-4', type: 'T', data: undefined }, now).data).toBeNull();
    expect(toEsdbEventData({ id: 'id-5', type: 'T', data: 5 }, now).data).toBe(5);
    expect(toEsdbEventData({ id: 'id-6', type: 'T', data: 'text' }, now).data).toBe('text');
  });
});

describe('eventstoredb mapping: events read', () => {
  it('maps a $all event, taking its commit position as our position', () => {
    const recorded = toRecordedEvent(allEvent());
    expect(recorded).toEqual({
      id: 'f3a4b3d6-8e43-4b8f-9f0c-1f2a3b4c5d6e',
      stream: 'user-1',
      revision: 3n,
      position: 1234n,
      type: 'UserBlocked',
      data: { reason: 'x' },
      metadata: { actorId: 'a-1', occurredAt: '2025-09-01T08:30:00.000Z' },
      createdAt: CREATED,
    });
  });

  it('uses the commit position, not the prepare position', () => {
    expect(toRecordedEvent(allEvent({ position: { commit: 900n, prepare: 950n } }))!.position).toBe(900n);
    expect(positionOf(allEvent({ position: { commit: 900n, prepare: 950n } }))).toBe(900n);
    expect(esdbPositionOf(allEvent({ position: { commit: 900n, prepare: 950n } }))).toEqual({
      commit: 900n,
      prepare: 950n,
    });
  });

  it("falls back to the resolved event's commit position", () => {
    const resolved = allEvent({ position: undefined }, 777n);
    expect(positionOf(resolved)).toBe(777n);
    expect(esdbPositionOf(resolved)).toEqual({ commit: 777n, prepare: 777n });
    expect(toRecordedEvent(resolved)!.position).toBe(777n);
  });

  it('treats the unsigned -1 as no position, and refuses to invent one', () => {
    const resolved = allEvent({ position: { commit: NO_POSITION, prepare: NO_POSITION } });
    expect(positionOf(resolved)).toBeUndefined();
    expect(() => toRecordedEvent(resolved)).toThrow(EventStoreUnavailableError);
    expect(() => toRecordedEvent(resolved)).toThrow(/did not report a position/);
    expect(positionOf(allEvent({ position: { commit: NO_POSITION, prepare: NO_POSITION } }, 55n))).toBe(55n);
  });

  it('maps stream reads (ResolvedEvent) the same way', () => {
    const resolved = allEvent() as unknown as ResolvedEvent;
    expect(toRecordedEvent(resolved)!.stream).toBe('user-1');
  });

  it('returns null for an unresolved link (no event)', () => {
    expect(toRecordedEvent({ commitPosition: 5n })).toBeNull();
  });

  it('fills metadata written by other tools: none, binary, or partial', () => {
    expect(toRecordedEvent(allEvent({ metadata: undefined }))!.metadata).toEqual({
      actorId: null,
      occurredAt: CREATED.toISOString(),
    });
    expect(toEventMetadata(new Uint8Array([1, 2]), CREATED)).toEqual({
      actorId: null,
      occurredAt: CREATED.toISOString(),
    });
    expect(toEventMetadata(['not', 'an', 'object'], CREATED)).toEqual({
      actorId: null,
      occurredAt: CREATED.toISOString(),
    });
    expect(toEventMetadata({ impersonatorId: 'i', extra: 1 }, CREATED)).toEqual({
      actorId: null,
      impersonatorId: 'i',
      extra: 1,
      occurredAt: CREATED.toISOString(),
    });
  });

  it('decodes binary data as text', () => {
    const recorded = toRecordedEvent(allEvent({ isJson: false, data: new TextEncoder().encode('héllo') }));
    expect(recorded!.data).toBe('héllo');
  });

  it('recognises system events by type or stream', () => {
    expect(isSystemEvent({ type: '$metadata', stream: '$$user-1' })).toBe(true);
    expect(isSystemEvent({ type: 'UserCreated', stream: '$users' })).toBe(true);
    expect(isSystemEvent({ type: '$>', stream: 'links' })).toBe(true);
    expect(isSystemEvent({ type: 'UserCreated', stream: 'user-1' })).toBe(false);
  });
});

describe('eventstoredb mapping: positions', () => {
  it('starts reads at START for 0n (or below), else at the position itself', () => {
    expect(toReadPosition(0n)).toBe(START);
    expect(toReadPosition(-5n)).toBe(START);
    expect(toReadPosition(4096n)).toEqual({ commit: 4096n, prepare: 4096n });
    expect(toReadPosition(4096n, 4100n)).toEqual({ commit: 4096n, prepare: 4100n });
  });

  it('is exclusive: the event at fromPosition is skipped', () => {
    expect(isAfterPosition({ position: 10n }, 10n)).toBe(false);
    expect(isAfterPosition({ position: 11n }, 10n)).toBe(true);
    expect(isAfterPosition({ position: 1n }, 0n)).toBe(true);
    const events = [{ position: 5n }, { position: 10n }, { position: 15n }, { position: 20n }];
    expect(afterPosition(events, 10n)).toEqual([{ position: 15n }, { position: 20n }]);
    expect(afterPosition(events, 0n)).toEqual(events);
    expect(afterPosition(events, 20n)).toEqual([]);
  });

  it('remembers record boundaries and finds the closest earlier one', () => {
    const known = new KnownPositions();
    known.remember({ commit: 100n, prepare: 100n });
    known.remember({ commit: 300n, prepare: 310n });
    known.remember({ commit: 200n, prepare: 200n });
    expect(known.exact(300n)).toEqual({ commit: 300n, prepare: 310n });
    expect(known.exact(250n)).toBeUndefined();
    expect(known.before(250n)).toEqual({ commit: 200n, prepare: 200n });
    expect(known.before(300n)).toEqual({ commit: 200n, prepare: 200n });
    expect(known.before(100n)).toBeUndefined();
    expect(known.before(10_000n)).toEqual({ commit: 300n, prepare: 310n });
  });

  it('ignores missing or invalid positions and stays within its capacity', () => {
    const known = new KnownPositions(3);
    known.remember(undefined);
    known.remember({ commit: 0n, prepare: 0n });
    known.remember({ commit: NO_POSITION, prepare: NO_POSITION });
    expect(known.size).toBe(0);
    for (const p of [10n, 20n, 30n, 40n]) known.remember({ commit: p, prepare: p });
    expect(known.size).toBe(3);
    expect(known.exact(10n)).toBeUndefined();
    expect(known.exact(40n)).toEqual({ commit: 40n, prepare: 40n });
  });
});

describe('eventstoredb mapping: subscription filters', () => {
  it('sends stream prefixes to the server when there are any', () => {
    const filter = toServerFilter({ streamPrefixes: ['user-', 'network-'], eventTypePrefixes: ['User'] });
    expect(filter).toMatchObject({ filterOn: 'streamName', prefixes: ['user-', 'network-'] });
  });

  it('sends event type prefixes otherwise', () => {
    expect(toServerFilter({ eventTypePrefixes: ['Safeguarding.'] })).toMatchObject({
      filterOn: 'eventType',
      prefixes: ['Safeguarding.'],
    });
  });

  it('excludes system events on the server when there is nothing to filter on', () => {
    for (const filter of [undefined, {}, { streamPrefixes: [] }, { eventTypePrefixes: [] }]) {
      expect(toServerFilter(filter)).toMatchObject({ filterOn: 'eventType', regex: '^[^$].*' });
    }
  });

  it('applies the whole filter, and the system exclusion, on the client', () => {
    const filter = { streamPrefixes: ['user-'], eventTypePrefixes: ['User'] };
    expect(acceptsEvent({ type: 'UserBlocked', stream: 'user-1' }, filter)).toBe(true);
    expect(acceptsEvent({ type: 'NetworkCreated', stream: 'user-1' }, filter)).toBe(false);
    expect(acceptsEvent({ type: 'UserBlocked', stream: 'network-1' }, filter)).toBe(false);
    expect(acceptsEvent({ type: 'UserBlocked', stream: 'user-1' })).toBe(true);
    expect(acceptsEvent({ type: '$metadata', stream: 'user-1' })).toBe(false);
    expect(acceptsEvent({ type: 'UserCreated', stream: '$users' })).toBe(false);
    expect(acceptsEvent({ type: 'X', stream: 'y' }, { eventTypePrefixes: [] })).toBe(false);
  });
});

describe('eventstoredb mapping: errors', () => {
  const connectionString = 'esdb://admin:changeit@eventstore:2113?tls=false';

  it('turns WrongExpectedVersionError into ConcurrencyError', () => {
    const error = new WrongExpectedVersionError(undefined, {
      streamName: 'user-1',
      expected: 0n,
      current: 2n,
    });
    const translated = translateError(error, { stream: 'user-1', expectedRevision: 0n });
    expect(translated).toBeInstanceOf(ConcurrencyError);
    expect(translated).toMatchObject({ stream: 'user-1', expected: '0', actual: '2' });
    expect(translated.message).toMatch(/revision/);
  });

  it('reports a missing stream as no_stream and falls back to the error for stream and expectation', () => {
    const error = new WrongExpectedVersionError(undefined, {
      streamName: 'user-2',
      expected: 'stream_exists',
      current: 'no_stream',
    });
    expect(translateError(error)).toMatchObject({
      stream: 'user-2',
      expected: 'stream_exists',
      actual: 'no_stream',
    });
  });

  it('recognises a wrong expected version by type, name or exception header when the error is plain', () => {
    const byType = {
      type: 'wrong-expected-version',
      streamName: 's',
      expectedVersion: 1n,
      actualVersion: 3n,
    };
    expect(isWrongExpectedVersion(byType)).toBe(true);
    expect(translateError(byType)).toMatchObject({ stream: 's', expected: '1', actual: '3' });

    const byName = Object.assign(new Error('Wrong expected version'), { name: 'WrongExpectedVersionError' });
    expect(translateError(byName, { stream: 'x', expectedRevision: 'no_stream' })).toBeInstanceOf(
      ConcurrencyError,
    );

    const byHeader = grpcError(9, 'Wrong expected version', 'wrong-expected-version');
    expect(isWrongExpectedVersion(byHeader)).toBe(true);
    expect(translateError(byHeader, { stream: 'y', expectedRevision: 4 })).toMatchObject({
      stream: 'y',
      expected: '4',
      actual: 'unknown',
    });
  });

  it('turns a plain gRPC code 14 error into EventStoreUnavailableError naming the variable', () => {
    const error = grpcError(
      14,
      'UNAVAILABLE: No connection established. Last error: Error: connect ECONNREFUSED 127.0.0.1:1.',
    );
    const translated = translateError(error, { connectionString });
    expect(translated).toBeInstanceOf(EventStoreUnavailableError);
    expect(translated.message).toContain(CONNECTION_STRING_ENV);
    expect(translated.message).toContain('esdb://admin:***@eventstore:2113?tls=false');
    expect(translated.message).not.toContain('changeit');
    expect(translated.message).toContain('ECONNREFUSED');
    expect(translated.cause).toBe(error);
  });

  it('recognises unavailability by typed error, type, socket code or message', () => {
    expect(isUnavailable(new UnavailableError())).toBe(true);
    expect(isUnavailable({ type: 'unavailable' })).toBe(true);
    expect(isUnavailable(Object.assign(new Error('socket'), { code: 'ECONNREFUSED' }))).toBe(true);
    expect(isUnavailable(new Error('connect ECONNREFUSED 127.0.0.1:2113'))).toBe(true);
    expect(isUnavailable(new Error('Failed to discover after 10 attempts.'))).toBe(true);
    expect(isUnavailable(new Error('wrapper', { cause: grpcError(14, 'UNAVAILABLE') }))).toBe(true);
    expect(isUnavailable(new Error('Bad request'))).toBe(false);
    expect(translateError(new UnavailableError()).message).toContain(CONNECTION_STRING_ENV);
  });

  it('turns deadlines and server timeouts into EventStoreUnavailableError too', () => {
    for (const error of [grpcError(4, 'DEADLINE_EXCEEDED: Deadline exceeded'), { type: 'timeout' }]) {
      expect(isTimeout(error)).toBe(true);
      const translated = translateError(error, { connectionString: 'esdb://localhost:2113?tls=false' });
      expect(translated).toBeInstanceOf(EventStoreUnavailableError);
      expect(translated.message).toMatch(/did not answer in time/);
      expect(translated.message).toContain(CONNECTION_STRING_ENV);
    }
  });

  it('recognises a missing stream by typed error, type or name', () => {
    expect(isStreamNotFound(new StreamNotFoundError(undefined, 'user-1'))).toBe(true);
    expect(isStreamNotFound({ type: 'stream-not-found' })).toBe(true);
    expect(isStreamNotFound(Object.assign(new Error('nope'), { name: 'StreamNotFoundError' }))).toBe(true);
    expect(isStreamNotFound(grpcError(5, 'not found', 'stream-not-found'))).toBe(true);
    expect(isStreamNotFound(new Error('other'))).toBe(false);
  });

  it('passes our own errors and unrelated errors through, and wraps non-errors', () => {
    const concurrency = new ConcurrencyError('s', '1', '2');
    expect(translateError(concurrency)).toBe(concurrency);
    const unavailable = new EventStoreUnavailableError('down');
    expect(translateError(unavailable)).toBe(unavailable);
    const other = new TypeError('bad input');
    expect(translateError(other)).toBe(other);
    const wrapped = translateError('Impossible situation');
    expect(wrapped).toBeInstanceOf(Error);
    expect(wrapped.message).toBe('Impossible situation');
    expect(translateError(undefined).message).toMatch(/EventStoreDB client failed/);
  });

  it('redacts passwords in connection strings', () => {
    expect(redactConnectionString('esdb://admin:changeit@localhost:2113?tls=true')).toBe(
      'esdb://admin:***@localhost:2113?tls=true',
    );
    expect(redactConnectionString('esdb+discover://u:p@cluster.dns:2113')).toBe(
      'esdb+discover://u:***@cluster.dns:2113',
    );
    expect(redactConnectionString('esdb://localhost:2113?tls=false')).toBe('esdb://localhost:2113?tls=false');
  });
});
