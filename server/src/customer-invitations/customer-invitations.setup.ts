import { Injectable, type OnModuleInit } from '@nestjs/common';
import type { CustomerInvitationSentData } from '@portal/projections';
import { LiveRooms, RoomPolicy } from '../platform/live/room-policy.js';

/**
 * Registers the area's live rule: customer invitations reach administrators (which invitation, for
 * which customer; never the address).
 */
@Injectable()
export class CustomerInvitationsSetup implements OnModuleInit {
  constructor(private readonly rooms: RoomPolicy) {}

  onModuleInit(): void {
    this.rooms.forStream('customerInvitation', (event, invitationId) => {
      const { customerId } = (event.data ?? {}) as Partial<CustomerInvitationSentData>;
      return [{ room: LiveRooms.admins, data: customerId ? { invitationId, customerId } : { invitationId } }];
    });
  }
}
