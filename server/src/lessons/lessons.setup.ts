import { Injectable, type OnModuleInit } from '@nestjs/common';
import type { LessonAudience, LiveSummaries } from '@portal/projections';
import type { RecordedEvent } from '../platform/event-store/event-store.js';
import { LiveRooms, RoomPolicy, type Delivery } from '../platform/live/room-policy.js';

type Data = Partial<LessonAudience> & {
  previousTeacherId?: string | null;
  previousCoverTeacherId?: string | null;
  scheduleId?: string | null;
  programmeId?: string;
};

/** The teachers an event concerns: the teacher, the cover teacher, and whoever it took the lesson from. */
const teachersOf = (d: Data) =>
  [d.teacherId, d.coverTeacherId, d.previousTeacherId, d.previousCoverTeacherId].filter(
    (id): id is string => typeof id === 'string' && id.length > 0,
  );

/**
 * Lesson and schedule changes (decision 0053) reach administrators, the lesson's (or schedule's)
 * teacher and cover teacher — also the one just replaced — and the customer's room (its partners and
 * students, who refetch through their own scope). Each sees only which lesson or schedule changed.
 */
export function lessonAudience(event: RecordedEvent, lessonId: string): Delivery<LiveSummaries['lesson']>[] {
  const d = (event.data ?? {}) as Data;
  const data = { lessonId };
  return [
    {
      room: LiveRooms.admins,
      data: d.scheduleId !== undefined ? { lessonId, scheduleId: d.scheduleId } : data,
    },
    ...teachersOf(d).map((id) => ({ room: LiveRooms.user(id), data })),
    ...(d.customerId ? [{ room: LiveRooms.customer(d.customerId), data }] : []),
  ];
}

export function scheduleAudience(
  event: RecordedEvent,
  scheduleId: string,
): Delivery<LiveSummaries['schedule']>[] {
  const d = (event.data ?? {}) as Data;
  const data = { scheduleId };
  return [
    { room: LiveRooms.admins, data: d.programmeId ? { scheduleId, programmeId: d.programmeId } : data },
    ...teachersOf(d).map((id) => ({ room: LiveRooms.user(id), data })),
    ...(d.customerId ? [{ room: LiveRooms.customer(d.customerId), data }] : []),
  ];
}

/** Registers the area's live rules. */
@Injectable()
export class LessonsSetup implements OnModuleInit {
  constructor(private readonly rooms: RoomPolicy) {}

  onModuleInit(): void {
    this.rooms.forStream('lesson', lessonAudience).forStream('schedule', scheduleAudience);
  }
}
