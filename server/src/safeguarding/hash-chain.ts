import { createHash, randomUUID } from 'node:crypto';
import type { ChainLink } from '@portal/projections';
import type { EventMetadata, EventStore, RecordedEvent } from '../platform/event-store/event-store.js';
import type { DomainEvent } from '../platform/event-store/decide-and-append.js';

/**
 * Tamper evidence for incident streams (docs/decisions/0026-safeguarding-hash-chain.md): every event
 * carries `chainHash = sha256(canonical JSON of { type, data, previous })` and `chainPrevious` in its
 * metadata. Changing, removing or reordering a stored event breaks the chain from that event on.
 */

/** JSON with object keys sorted at every level (stable across jsonb round trips). */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value ?? null);
  if (Array.isArray(value))
    return `[${value.map((v) => canonicalJson(v === undefined ? null : v)).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}

export function chainHash(type: string, data: unknown, previous: string): string {
  return createHash('sha256').update(canonicalJson({ type, data, previous })).digest('hex');
}

/** The links for `events` appended after a stream whose last link is `previous`. */
export function linkEvents(events: readonly DomainEvent[], previous: string): ChainLink[] {
  const links: ChainLink[] = [];
  let prev = previous;
  for (const e of events) {
    // Hash what the store will return: the data after a JSON round trip.
    const hash = chainHash(e.type, JSON.parse(JSON.stringify(e.data)) as unknown, prev);
    links.push({ chainHash: hash, chainPrevious: prev });
    prev = hash;
  }
  return links;
}

export interface ChainVerification {
  valid: boolean;
  events: number;
  /** Revision of the first event whose link does not match (absent when valid). */
  broken_at?: number;
}

export function verifyChain(events: readonly RecordedEvent[]): ChainVerification {
  let previous = '';
  for (const e of events) {
    const meta = e.metadata as Partial<ChainLink>;
    const expected = chainHash(e.type, e.data, previous);
    if (meta.chainPrevious !== previous || meta.chainHash !== expected)
      return { valid: false, events: events.length, broken_at: Number(e.revision) };
    previous = expected;
  }
  return { valid: true, events: events.length };
}

/**
 * `decideAndAppend` for chained streams: read, fold, decide, link each new event to the last stored
 * link, append with the expected revision.
 */
export async function decideAndAppendChained<State, Event extends DomainEvent>(
  store: EventStore,
  stream: string,
  fold: (events: Event[]) => State,
  decide: (state: State) => Event[],
  metadata: Partial<EventMetadata>,
): Promise<{ position: string; events: Event[] }> {
  const recorded = await store.readStream(stream);
  const state = fold(recorded.map((e) => ({ type: e.type, data: e.data }) as Event));
  const events = decide(state);
  const last = recorded.at(-1);
  if (events.length === 0) return { position: (last?.position ?? 0n).toString(), events };
  const previous = (last?.metadata as Partial<ChainLink> | undefined)?.chainHash ?? '';
  const links = linkEvents(events, previous);
  const result = await store.append(
    stream,
    events.map((e, i) => ({
      id: randomUUID(),
      type: e.type,
      data: e.data,
      metadata: { ...metadata, ...links[i] },
    })),
    { expectedRevision: last ? last.revision : 'no_stream' },
  );
  return { position: result.position.toString(), events };
}
