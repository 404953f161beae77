import { Injectable, type OnModuleInit } from '@nestjs/common';
import { isInternal } from '../identity/policy/policy.js';
import { RoomPolicy } from '../platform/live/room-policy.js';

/**
 * Every internal user (administrators and teachers): reference data changes reach their open
 * screens. A room of its own, since `admins` leaves teachers out.
 */
export const INTERNAL_ROOM = 'internal';

/** Registers the reference data's live rules (decision 0049): changes reach internal users. */
@Injectable()
export class ReferenceSetup implements OnModuleInit {
  constructor(private readonly rooms: RoomPolicy) {}

  onModuleInit(): void {
    this.rooms
      .addRooms((actor) => (isInternal(actor.permissions) ? [INTERNAL_ROOM] : []))
      .forStream('subject', (_event, subjectId) => [{ room: INTERNAL_ROOM, data: { subjectId } }])
      .forStream('yearGroup', (_event, yearGroupId) => [{ room: INTERNAL_ROOM, data: { yearGroupId } }])
      .forStream('product', (_event, productId) => [{ room: INTERNAL_ROOM, data: { productId } }]);
  }
}
