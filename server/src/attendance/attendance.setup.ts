import { Injectable, type OnModuleInit } from '@nestjs/common';
import type { LiveSummaries } from '@portal/projections';
import type { RecordedEvent } from '../platform/event-store/event-store.js';
import { LiveRooms, RoomPolicy, type Delivery } from '../platform/live/room-policy.js';

/**
 * Register events live in the lesson streams, so the lessons' rule already routes them (decision
 * 0056): administrators, the teacher and cover teacher, and the customer's room (the school's open
 * attendance screen refetches through its own scope). Planned absences go to administrators and the
 * student's customer room.
 */
export function plannedAbsenceAudience(
  event: RecordedEvent,
  plannedAbsenceId: string,
): Delivery<LiveSummaries['plannedAbsence']>[] {
  const d = (event.data ?? {}) as { studentId?: string; customerId?: string };
  const data = { plannedAbsenceId, studentId: d.studentId ?? '' };
  return [
    { room: LiveRooms.admins, data },
    ...(d.customerId ? [{ room: LiveRooms.customer(d.customerId), data }] : []),
  ];
}

@Injectable()
export class AttendanceSetup implements OnModuleInit {
  constructor(private readonly rooms: RoomPolicy) {}

  onModuleInit(): void {
    this.rooms.forStream('plannedAbsence', plannedAbsenceAudience);
  }
}
