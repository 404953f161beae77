import { Injectable, type OnModuleInit } from '@nestjs/common';
import type { UserCustomFieldsDefinedData } from '@portal/projections';
import { LiveRooms, RoomPolicy } from '../../platform/live/room-policy.js';

/**
 * Registers the area's live rule: custom-field definitions (`user-custom-fields`, read by
 * administrators only) reach administrators (how many fields are defined).
 */
@Injectable()
export class CustomFieldsSetup implements OnModuleInit {
  constructor(private readonly rooms: RoomPolicy) {}

  onModuleInit(): void {
    this.rooms.forStream('userCustomFields', (event) => {
      const { fields = [] } = (event.data ?? {}) as Partial<UserCustomFieldsDefinedData>;
      return [{ room: LiveRooms.admins, data: { fieldCount: fields.length } }];
    });
  }
}
