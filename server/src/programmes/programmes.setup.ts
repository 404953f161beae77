import { Injectable, type OnModuleInit } from '@nestjs/common';
import type { RecordedEvent } from '../platform/event-store/event-store.js';
import { LiveRooms, RoomPolicy, type Delivery } from '../platform/live/room-policy.js';

/** The routing fields every programme, group and enrolment event carries (docs/decisions/0051). */
const routing = (event: RecordedEvent): { customerId: string | null; teacherIds: string[] } => {
  const data = (event.data ?? {}) as { customerId?: unknown; teacherIds?: unknown };
  return {
    customerId: typeof data.customerId === 'string' ? data.customerId : null,
    teacherIds: Array.isArray(data.teacherIds)
      ? data.teacherIds.filter((t): t is string => typeof t === 'string')
      : [],
  };
};

/** Administrators first (they may see the most), then the school's room, then each teacher's own room. */
function audience<D>(event: RecordedEvent, forAdmins: D, forOthers: D): Delivery<D>[] {
  const { customerId, teacherIds } = routing(event);
  return [
    { room: LiveRooms.admins, data: forAdmins },
    ...(customerId ? [{ room: LiveRooms.customer(customerId), data: forOthers }] : []),
    ...teacherIds.map((t) => ({ room: LiveRooms.user(t), data: forOthers })),
  ];
}

/**
 * Live rules of the teaching backbone's first aggregates: a programme, group or enrolment change
 * reaches administrators, the programme's school (its partners' `customer:{id}` room) and the group's
 * (or programme's) teachers, as ids only. The enrolment's student id goes to administrators only: a
 * school's room also holds parents and link contacts, who may not see every student.
 */
@Injectable()
export class ProgrammesSetup implements OnModuleInit {
  constructor(private readonly rooms: RoomPolicy) {}

  onModuleInit(): void {
    this.rooms
      .forStream('programme', (event, programmeId) => audience(event, { programmeId }, { programmeId }))
      .forStream('group', (event, groupId) => {
        const programmeId = String((event.data as { programmeId?: string }).programmeId ?? '');
        return audience(event, { groupId, programmeId }, { groupId, programmeId });
      })
      .forStream('enrolment', (event, enrolmentId) => {
        const data = event.data as { programmeId?: string; studentId?: string };
        const programmeId = String(data.programmeId ?? '');
        return audience(
          event,
          { enrolmentId, programmeId, ...(data.studentId ? { studentId: data.studentId } : {}) },
          { enrolmentId, programmeId },
        );
      });
  }
}
