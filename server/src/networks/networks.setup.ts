import { Injectable, type OnModuleInit } from '@nestjs/common';
import { LiveRooms, RoomPolicy } from '../platform/live/room-policy.js';

/** Registers the area's live rule: a network change reaches administrators (which network changed). */
@Injectable()
export class NetworksSetup implements OnModuleInit {
  constructor(private readonly rooms: RoomPolicy) {}

  onModuleInit(): void {
    this.rooms.forStream('network', (_event, networkId) => [{ room: LiveRooms.admins, data: { networkId } }]);
  }
}
