import { Injectable, type OnModuleInit } from '@nestjs/common';
import type { NotificationsReadData } from '@portal/projections';
import { LiveRooms, RoomPolicy } from '../platform/live/room-policy.js';

/**
 * Live rule of the notification read cursor: only the person themselves hears that they marked their
 * notifications read (their other tabs clear the bell). New notifications need no rule of their own:
 * the events they come from already reach the people they are for (docs/decisions/0055-notifications.md).
 */
@Injectable()
export class NotificationsSetup implements OnModuleInit {
  constructor(private readonly policy: RoomPolicy) {}

  onModuleInit(): void {
    this.policy.forStream('notifications', (event, userId) => [
      {
        room: LiveRooms.user(userId),
        data: { upToPosition: (event.data as NotificationsReadData).upToPosition },
      },
    ]);
  }
}
