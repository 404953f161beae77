import { randomUUID } from 'node:crypto';
import type { EventMetadata, EventStore } from './event-store.js';

export interface DomainEvent {
  type: string;
  data: unknown;
}

/**
 * The write side of one command on one stream: read the stream, fold it into state, let the pure
 * decider choose the new events, append them expecting the revision read (a concurrent writer makes
 * the append fail with ConcurrencyError instead of losing an update). Returns the global position of
 * the last event written, or of the stream's last event when the decider wrote nothing.
 */
export async function decideAndAppend<State, Event extends DomainEvent>(
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
  const result = await store.append(
    stream,
    events.map((e) => ({ id: randomUUID(), type: e.type, data: e.data, metadata })),
    { expectedRevision: last ? last.revision : 'no_stream' },
  );
  return { position: result.position.toString(), events };
}
