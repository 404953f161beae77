import { Injectable, type OnModuleInit } from '@nestjs/common';
import { LiveRooms, RoomPolicy } from '../platform/live/room-policy.js';

/** Registers the area's live rule (the one way a domain registers its wiring, like SafeguardingSetup). */
@Injectable()
export class OnePageProfilesSetup implements OnModuleInit {
  constructor(private readonly rooms: RoomPolicy) {}

  /**
   * Profile changes reach administrators and the student (ids only, enough to refetch). Partners'
   * screens refetch on their next visit: the event does not carry the student's customer.
   */
  onModuleInit(): void {
    this.rooms.forStream('onePageProfile', (event, userId) => {
      const { profileId } = event.data as { profileId: string };
      return [
        { room: LiveRooms.admins, data: { profileId, userId } },
        { room: LiveRooms.user(userId), data: { profileId, userId } },
      ];
    });
  }
}
