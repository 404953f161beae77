import { Injectable, type OnModuleInit } from '@nestjs/common';
import { NETWORK_EVENT_TYPES, PERMISSION_TEMPLATE_EVENT_TYPES } from '@portal/projections';
import { LiveRooms, RoomPolicy } from '../platform/live/room-policy.js';

/**
 * Permission-template and network changes reach administrators on the live channel (only which one
 * changed, enough to refetch). `UserImpersonated` follows the `user-{id}` rule of the platform.
 */
@Injectable()
export class AccessLiveRules implements OnModuleInit {
  constructor(private readonly rooms: RoomPolicy) {}

  onModuleInit() {
    for (const type of PERMISSION_TEMPLATE_EVENT_TYPES)
      this.rooms.forEventType(type, (event) => [
        { room: LiveRooms.admins, data: { templateId: (event.data as { templateId: string }).templateId } },
      ]);
    for (const type of NETWORK_EVENT_TYPES)
      this.rooms.forEventType(type, (event) => [
        { room: LiveRooms.admins, data: { networkId: (event.data as { networkId: string }).networkId } },
      ]);
  }
}
