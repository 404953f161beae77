import { createHash } from 'node:crypto';
import type { ChainLink } from '@portal/projections';
import type { DomainEvent } from '../platform/event-store/aggregate.js';
import type { RecordedEvent } from '../platform/event-store/event-store.js';

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
 * The aggregate hook (`linkMetadata`) that chains new events to the stream's last stored link; the
 * runner appends them at the revision it read, so two writers cannot both link to the same event.
 */
export function chainLinks(last: RecordedEvent | undefined, events: readonly DomainEvent[]): ChainLink[] {
  const previous = (last?.metadata as Partial<ChainLink> | undefined)?.chainHash ?? '';
  return linkEvents(events, previous);
}
