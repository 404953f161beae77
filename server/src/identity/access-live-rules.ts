import { Injectable, type OnModuleInit } from '@nestjs/common';
import {
  EHCP_REMINDER_EVENT_TYPES,
  NETWORK_EVENT_TYPES,
  PERMISSION_TEMPLATE_EVENT_TYPES,
} from '@portal/projections';
import type { UserStudentLinksChangedData } from '@portal/projections';
import { userStreamAudience } from '../platform/live/default-rules.js';
import { LiveRooms, RoomPolicy } from '../platform/live/room-policy.js';

/**
 * Permission-template and network changes reach administrators on the live channel (only which one
 * changed, enough to refetch), and so do changes of the EHCP reminder list (how many students were
 * added and removed; no ids). `UserImpersonated` and `EhcpRequested` follow the `user-{id}` rule of
 * the platform.
 * A change of a partner's linked students (decision 0034) follows that rule too (administrators and
 * the partner's own `user:{id}` room) and also reaches each student linked or unlinked.
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
    for (const type of EHCP_REMINDER_EVENT_TYPES)
      this.rooms.forEventType(type, (event) => {
        const { added, removed } = event.data as { added: string[]; removed: string[] };
        return [{ room: LiveRooms.admins, data: { added: added.length, removed: removed.length } }];
      });
    this.rooms.forEventType('UserStudentLinksChanged', (event) => {
      const { linked = [], unlinked = [] } = (event.data ?? {}) as Partial<UserStudentLinksChangedData>;
      return [
        ...userStreamAudience(event),
        ...[...linked, ...unlinked].map((studentId) => ({
          room: LiveRooms.user(studentId),
          data: { studentId },
        })),
      ];
    });
  }
}
