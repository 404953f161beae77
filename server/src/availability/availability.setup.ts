import { Injectable, type OnModuleInit } from '@nestjs/common';
import type { AvailabilitySetData } from '@portal/projections';
import { LiveRooms, RoomPolicy } from '../platform/live/room-policy.js';

/**
 * Registers the area's live rule: availability (`user-availability-{id}`) reaches administrators
 * (whose, which type and week) and the user themselves, like their own `user-{id}` stream.
 */
@Injectable()
export class AvailabilitySetup implements OnModuleInit {
  constructor(private readonly rooms: RoomPolicy) {}

  onModuleInit(): void {
    this.rooms.forStream('userAvailability', (event, userId) => {
      const { type, week } = (event.data ?? {}) as Partial<AvailabilitySetData>;
      return [
        { room: LiveRooms.admins, data: { userId, type, week } },
        { room: LiveRooms.user(userId), data: { userId } },
      ];
    });
  }
}
