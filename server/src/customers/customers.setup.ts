import { Injectable, type OnModuleInit } from '@nestjs/common';
import { LiveRooms, RoomPolicy } from '../platform/live/room-policy.js';

/** Registers the area's live rule (the one way a domain registers its wiring, like SafeguardingSetup). */
@Injectable()
export class CustomersSetup implements OnModuleInit {
  constructor(private readonly rooms: RoomPolicy) {}

  /** Customer changes reach administrators and that customer's own users (only which customer changed). */
  onModuleInit(): void {
    this.rooms.forStream('customer', (_event, customerId) => [
      { room: LiveRooms.admins, data: { customerId } },
      { room: LiveRooms.customer(customerId), data: { customerId } },
    ]);
  }
}
