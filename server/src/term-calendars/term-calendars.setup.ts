import { Injectable, type OnModuleInit } from '@nestjs/common';
import { RoomPolicy } from '../platform/live/room-policy.js';
import { INTERNAL_ROOM } from '../reference/reference.setup.js';

/**
 * Term calendar changes reach internal users' open screens (decision 0049). Partners read calendars
 * but are not told live: later events do not carry the calendar's customer, and the rules are pure.
 */
@Injectable()
export class TermCalendarsSetup implements OnModuleInit {
  constructor(private readonly rooms: RoomPolicy) {}

  onModuleInit(): void {
    this.rooms.forStream('termCalendar', (_event, calendarId) => [
      { room: INTERNAL_ROOM, data: { calendarId } },
    ]);
  }
}
