import type { LiveSummaries } from '@portal/projections';
import type { RecordedEvent } from '../event-store/event-store.js';
import { LiveRooms, type Delivery, type RoomPolicy } from './room-policy.js';

/** Marker permission of internal administrators (spec §3). */
export const ADMIN_PERMISSION = 'USER_IS_ADMIN';

/**
 * The portal's own rooms and the rule for `user-{id}` streams; domain modules register the rest.
 * `collab-*` document streams have no rule on purpose: Yjs updates never go on the live channel.
 */
export function registerDefaultLiveRules(policy: RoomPolicy): void {
  policy.addRooms((actor) => {
    const rooms: string[] = [];
    if (actor.permissions.has(ADMIN_PERMISSION)) rooms.push(LiveRooms.admins);
    if (actor.customerId) rooms.push(LiveRooms.customer(actor.customerId));
    return rooms;
  });
  policy.forStream('user', userStreamAudience);
}

/**
 * `user-{id}` events go to administrators (a small summary: who, login, type) and to the user
 * themselves (only that their account changed). Enough to refetch; never the payload itself.
 */
export function userStreamAudience(event: RecordedEvent, userId: string): Delivery<LiveSummaries['user']>[] {
  const data = (event.data ?? {}) as Record<string, unknown>;
  const summary: { userId: string; login?: string; userType?: string } = { userId };
  for (const field of ['login', 'userType'] as const) {
    const value = data[field];
    if (typeof value === 'string') summary[field] = value;
  }
  return [
    { room: LiveRooms.admins, data: summary },
    { room: LiveRooms.user(userId), data: { userId } },
  ];
}
