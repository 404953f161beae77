import { describe, expect, it } from '@jest/globals';
import { DomainError, type ErrorKind } from '../platform/domain/domain-error.js';
import type { CustomerInvitationEvent, CustomerInvitationSentData } from '@portal/projections';
import { decideInvitation, foldInvitation, type InvitationCommand } from './customer-invitation.decider.js';

const invitationId = '00000000-0000-4000-8000-00000000000a';
const userId = '00000000-0000-4000-8000-00000000000b';
const sent: CustomerInvitationSentData = {
  invitationId,
  customerId: '00000000-0000-4000-8000-0000000000c1',
  email: 'new.head@school.example.com',
  customerType: 'admin',
  invitedBy: null,
};
const sentEvent: CustomerInvitationEvent = { type: 'CustomerInvitationSent', data: sent };
const accepted: CustomerInvitationEvent = {
  type: 'CustomerInvitationAccepted',
  data: { invitationId, userId },
};

type Row = [string, CustomerInvitationEvent[], InvitationCommand, CustomerInvitationEvent[] | ErrorKind];
const table: Row[] = [
  ['send an invitation', [], { type: 'SendInvitation', data: sent }, [sentEvent]],
  ['send the same invitation twice', [sentEvent], { type: 'SendInvitation', data: sent }, 'conflict'],
  [
    'accept a pending invitation',
    [sentEvent],
    { type: 'AcceptInvitation', invitationId, userId },
    [accepted],
  ],
  ['accept twice', [sentEvent, accepted], { type: 'AcceptInvitation', invitationId, userId }, 'conflict'],
  ['accept an unknown invitation', [], { type: 'AcceptInvitation', invitationId, userId }, 'not_found'],
];

describe('customer invitation decider: given events, when command, then events or error', () => {
  it.each(table)('%s', (_name, given, command, then) => {
    const state = foldInvitation(given);
    if (Array.isArray(then)) {
      expect(decideInvitation(command, state)).toEqual(then);
      return;
    }
    expect(() => decideInvitation(command, state)).toThrow(DomainError);
    try {
      decideInvitation(command, state);
    } catch (e) {
      expect((e as DomainError).kind).toBe(then);
    }
  });
});
