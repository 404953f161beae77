import { Module, type OnModuleInit } from '@nestjs/common';
import { IdentityModule } from '../identity/identity.module.js';
import { LiveRooms, RoomPolicy } from '../platform/live/room-policy.js';
import { CustomersController } from './customers.controller.js';

@Module({ imports: [IdentityModule], controllers: [CustomersController] })
export class CustomersModule implements OnModuleInit {
  constructor(private readonly rooms: RoomPolicy) {}

  /** Customer changes reach administrators and that customer's own users (only which customer changed). */
  onModuleInit() {
    this.rooms.forStream('customer', (_event, customerId) => [
      { room: LiveRooms.admins, data: { customerId } },
      { room: LiveRooms.customer(customerId), data: { customerId } },
    ]);
  }
}
