import { Injectable, type OnModuleInit } from '@nestjs/common';
import { LiveRooms, RoomPolicy } from '../platform/live/room-policy.js';

/**
 * Registers the area's live rule: a change of the EHCP reminder list reaches administrators (how many
 * students were added and removed; no ids). `EhcpRequested` is on the student's `user-{id}` stream and
 * follows the platform's rule.
 */
@Injectable()
export class EhcpSetup implements OnModuleInit {
  constructor(private readonly rooms: RoomPolicy) {}

  onModuleInit(): void {
    this.rooms.forStream('ehcpReminders', (event) => {
      const { added = [], removed = [] } = (event.data ?? {}) as { added?: string[]; removed?: string[] };
      return [{ room: LiveRooms.admins, data: { added: added.length, removed: removed.length } }];
    });
  }
}
