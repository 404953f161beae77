import { Injectable, type OnModuleInit } from '@nestjs/common';
import { streamIdOf, type UserStudentLinksChangedData } from '@portal/projections';
import { userStreamAudience } from '../../platform/live/default-rules.js';
import { LiveRooms, RoomPolicy } from '../../platform/live/room-policy.js';

/**
 * Registers the area's live rule: a change of a partner's linked students (decision 0034) follows the
 * `user-{id}` rule (administrators and the partner's own `user:{id}` room) and also reaches each
 * student linked or unlinked.
 */
@Injectable()
export class StudentLinksSetup implements OnModuleInit {
  constructor(private readonly rooms: RoomPolicy) {}

  onModuleInit(): void {
    this.rooms.forEventType('UserStudentLinksChanged', (event) => {
      const partnerId = streamIdOf(event.stream, 'user');
      if (!partnerId) return [];
      const { linked = [], unlinked = [] } = (event.data ?? {}) as Partial<UserStudentLinksChangedData>;
      return [
        ...userStreamAudience(event, partnerId),
        ...[...linked, ...unlinked].map((studentId) => ({
          room: LiveRooms.user(studentId),
          data: { studentId },
        })),
      ];
    });
  }
}
