import { Injectable, type OnModuleInit } from '@nestjs/common';
import {
  streamIdOf,
  type AvailabilitySetData,
  type UserCustomFieldsDefinedData,
  type CustomerInvitationSentData,
  type UserStudentLinksChangedData,
} from '@portal/projections';
import { userStreamAudience } from '../platform/live/default-rules.js';
import { LiveRooms, RoomPolicy } from '../platform/live/room-policy.js';

/**
 * Live rules of identity's sub-domains (stream kinds of the shared registry, decision 0044), each with
 * only what a room needs to refetch:
 * - permission templates, networks → administrators (which one changed);
 * - the EHCP reminder list → administrators (how many students were added and removed; no ids);
 * - availability (`user-availability-{id}`) → administrators (whose, which type and week) and the user
 *   themselves, like their own `user-{id}` stream;
 * - custom-field definitions (`user-custom-fields`, read by administrators only) → administrators
 *   (how many fields are defined);
 * - customer invitations → administrators (which invitation, for which customer; never the address).
 * `UserImpersonated` and `EhcpRequested` follow the platform's `user-{id}` rule. A change of a
 * partner's linked students (decision 0034) follows that rule too (administrators and the partner's
 * own `user:{id}` room) and also reaches each student linked or unlinked.
 */
@Injectable()
export class AccessLiveRules implements OnModuleInit {
  constructor(private readonly rooms: RoomPolicy) {}

  onModuleInit() {
    this.rooms
      .forStream('permissionTemplate', (_event, templateId) => [
        { room: LiveRooms.admins, data: { templateId } },
      ])
      .forStream('network', (_event, networkId) => [{ room: LiveRooms.admins, data: { networkId } }])
      .forStream('ehcpReminders', (event) => {
        const { added = [], removed = [] } = (event.data ?? {}) as { added?: string[]; removed?: string[] };
        return [{ room: LiveRooms.admins, data: { added: added.length, removed: removed.length } }];
      })
      .forStream('userAvailability', (event, userId) => {
        const { type, week } = (event.data ?? {}) as Partial<AvailabilitySetData>;
        return [
          { room: LiveRooms.admins, data: { userId, type, week } },
          { room: LiveRooms.user(userId), data: { userId } },
        ];
      })
      .forStream('userCustomFields', (event) => {
        const { fields = [] } = (event.data ?? {}) as Partial<UserCustomFieldsDefinedData>;
        return [{ room: LiveRooms.admins, data: { fieldCount: fields.length } }];
      })
      .forStream('customerInvitation', (event, invitationId) => {
        const { customerId } = (event.data ?? {}) as Partial<CustomerInvitationSentData>;
        return [
          { room: LiveRooms.admins, data: customerId ? { invitationId, customerId } : { invitationId } },
        ];
      });
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
