import { LIVE_REPLAY_LIMIT, type LiveMessage, type ResumeResult } from '@portal/projections';
import type { EventStore, RecordedEvent } from '../event-store/event-store.js';
import type { RoomPolicy } from './room-policy.js';

/** Parses a client's position (a decimal string of a non-negative bigint), or null. */
export function parsePosition(value: unknown): bigint | null {
  if (typeof value !== 'string' || !/^\d{1,20}$/.test(value)) return null;
  return BigInt(value);
}

export function liveMessage(event: RecordedEvent, data: unknown): LiveMessage {
  return { type: event.type, stream: event.stream, position: event.position.toString(), data };
}

/**
 * Sends a socket what its rooms may see of the events after `after`, in position order, reading at
 * most `limit` events from the store (`truncated` when there were more).
 */
export async function replayMissed(
  store: EventStore,
  policy: RoomPolicy,
  rooms: ReadonlySet<string>,
  after: bigint,
  send: (message: LiveMessage) => void,
  limit = LIVE_REPLAY_LIMIT,
  pageSize = 500,
): Promise<ResumeResult> {
  let from = after;
  let scanned = 0;
  let replayed = 0;
  while (scanned < limit) {
    const page = await store.readAll({ fromPosition: from, maxCount: Math.min(pageSize, limit - scanned) });
    if (page.length === 0) return { replayed, upTo: from.toString(), truncated: false };
    for (const event of page) {
      const delivery = policy.deliveryFor(event, rooms);
      if (delivery) {
        send(liveMessage(event, delivery.data));
        replayed++;
      }
    }
    scanned += page.length;
    from = page[page.length - 1]!.position;
  }
  const more = await store.readAll({ fromPosition: from, maxCount: 1 });
  return { replayed, upTo: from.toString(), truncated: more.length > 0 };
}
