import { Injectable, type OnModuleInit } from '@nestjs/common';
import { LiveRooms, RoomPolicy } from '../../platform/live/room-policy.js';

/** Registers the area's live rule: a template change reaches administrators (which template changed). */
@Injectable()
export class PermissionTemplatesSetup implements OnModuleInit {
  constructor(private readonly rooms: RoomPolicy) {}

  onModuleInit(): void {
    this.rooms.forStream('permissionTemplate', (_event, templateId) => [
      { room: LiveRooms.admins, data: { templateId } },
    ]);
  }
}
