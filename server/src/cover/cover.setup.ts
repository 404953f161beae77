import { INTERNAL_PERMISSIONS } from '../identity/policy/policy.js';
import { Injectable, type OnModuleInit } from '@nestjs/common';
import { type LiveSummaries } from '@portal/projections';
import type { RecordedEvent } from '../platform/event-store/event-store.js';
import { LiveRooms, RoomPolicy, type Delivery } from '../platform/live/room-policy.js';
import { isAdmin, isInternal } from '../identity/policy/policy.js';

/** Non-administrator internal holders of CAN_ACCESS_COVER_REQUESTS (administrators hear it as admins). */
export const COVER_ROOM = 'teachers:cover';

type Data = {
  requestedBy?: string;
  mode?: string;
  teacherIds?: string[];
  teacherId?: string;
};

/**
 * Cover-request events (decision 0054) reach administrators, the requester (the outcome) and the
 * teacher who responded; a broadcast request reaches the `teachers:cover` room, a targeted one the
 * targeted teachers' rooms. Only `{ coverRequestId }`: each refetches through its own eligibility (a
 * teacher with a quality issue may be in the room, and the list never offers them anything).
 */
export function coverRequestAudience(
  event: RecordedEvent,
  coverRequestId: string,
): Delivery<LiveSummaries['coverRequest']>[] {
  const d = (event.data ?? {}) as Data;
  const data = { coverRequestId };
  const users = new Set<string>();
  if (d.requestedBy) users.add(d.requestedBy);
  if (d.teacherId) users.add(d.teacherId);
  if (d.mode === 'targeted') for (const t of d.teacherIds ?? []) users.add(t);
  return [
    { room: LiveRooms.admins, data },
    ...(d.mode === 'broadcast' ? [{ room: COVER_ROOM, data }] : []),
    ...[...users].map((id) => ({ room: LiveRooms.user(id), data })),
  ];
}

/** A join is evidence for administrators (the lesson's attendance screens come later). */
export function meetingAudience(
  event: RecordedEvent,
  meetingId: string,
): Delivery<LiveSummaries['meeting']>[] {
  const d = (event.data ?? {}) as { lessonId?: string };
  return [{ room: LiveRooms.admins, data: { meetingId, lessonId: d.lessonId ?? '' } }];
}

@Injectable()
export class CoverSetup implements OnModuleInit {
  constructor(private readonly rooms: RoomPolicy) {}

  onModuleInit(): void {
    this.rooms
      .addRooms((actor) =>
        isInternal(actor.permissions) &&
        !isAdmin(actor.permissions) &&
        actor.permissions.has(INTERNAL_PERMISSIONS.COVER_REQUESTS)
          ? [COVER_ROOM]
          : [],
      )
      .forStream('coverRequest', coverRequestAudience)
      .forStream('meeting', meetingAudience);
  }
}
