import { Module, type OnModuleInit } from '@nestjs/common';
import { IdentityModule } from '../identity/identity.module.js';
import { LiveRooms, RoomPolicy } from '../platform/live/room-policy.js';
import { OnePageProfilesController } from './one-page-profiles.controller.js';

@Module({ imports: [IdentityModule], controllers: [OnePageProfilesController] })
export class OnePageProfilesModule implements OnModuleInit {
  constructor(private readonly rooms: RoomPolicy) {}

  /**
   * Profile changes reach administrators and the student (ids only, enough to refetch). Partners'
   * screens refetch on their next visit: the event does not carry the student's customer.
   */
  onModuleInit() {
    this.rooms.forStream('onePageProfile', (event, userId) => {
      const { profileId } = event.data as { profileId: string };
      return [
        { room: LiveRooms.admins, data: { profileId, userId } },
        { room: LiveRooms.user(userId), data: { profileId, userId } },
      ];
    });
  }
}
