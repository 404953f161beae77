import {
  customerInvitationStream,
  type CustomerInvitationEvent,
  type CustomerInvitationSentData,
} from '@portal/projections';
import { DomainError } from '../platform/domain/domain-error.js';
import type { Aggregate } from '../platform/event-store/aggregate.js';

/** An invitation's state as the rules need it, folded from its stream. */
export type InvitationState =
  | { status: 'none' }
  | { status: 'pending' | 'accepted'; invitation: CustomerInvitationSentData; userId: string | null };

export type InvitationCommand =
  | { type: 'SendInvitation'; data: CustomerInvitationSentData }
  | { type: 'AcceptInvitation'; invitationId: string; userId: string };

export function evolveInvitation(state: InvitationState, event: CustomerInvitationEvent): InvitationState {
  switch (event.type) {
    case 'CustomerInvitationSent':
      return { status: 'pending', invitation: event.data, userId: null };
    case 'CustomerInvitationAccepted':
      return state.status === 'none' ? state : { ...state, status: 'accepted', userId: event.data.userId };
  }
}

export const foldInvitation = (events: CustomerInvitationEvent[]): InvitationState =>
  events.reduce(evolveInvitation, { status: 'none' } as InvitationState);

/** An invitation is sent once and accepted at most once. */
export function decideInvitation(
  command: InvitationCommand,
  state: InvitationState,
): CustomerInvitationEvent[] {
  switch (command.type) {
    case 'SendInvitation':
      if (state.status !== 'none') throw new DomainError('conflict', 'Invitation already exists');
      return [{ type: 'CustomerInvitationSent', data: command.data }];
    case 'AcceptInvitation':
      if (state.status === 'none') throw new DomainError('not_found', 'Invitation not found');
      if (state.status === 'accepted')
        throw new DomainError('conflict', 'Invitation has already been accepted');
      return [
        {
          type: 'CustomerInvitationAccepted',
          data: { invitationId: command.invitationId, userId: command.userId },
        },
      ];
  }
}

/** A partner invitation: stream `customer-invitation-{id}`. */
export const invitationAggregate: Aggregate<InvitationState, InvitationCommand, CustomerInvitationEvent> = {
  stream: customerInvitationStream,
  idOf: (command) => (command.type === 'SendInvitation' ? command.data.invitationId : command.invitationId),
  initialState: () => ({ status: 'none' }),
  evolve: evolveInvitation,
  decide: decideInvitation,
};
