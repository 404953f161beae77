import type { UserEvent, UserImpersonatedData } from '../user.events.js';
import { userStreamShape, type UserState } from '../user.decider.js';
import { isAdmin } from '../policy/policy.js';
import { DomainError, type ErrorKind } from '../../platform/domain/domain-error.js';
import type { Aggregate } from '../../platform/event-store/aggregate.js';

export interface ImpersonateUser {
  type: 'ImpersonateUser';
  userId: string;
  impersonatorId: string;
  /** Administrators may impersonate teachers; other internal impersonators only students and partners. */
  impersonatorIsAdmin: boolean;
  via: UserImpersonatedData['via'];
}

const refuse = (kind: ErrorKind, detail: string): never => {
  throw new DomainError(kind, detail);
};

/**
 * Whether the target account may be impersonated (docs/decisions/0012): it exists, is someone else,
 * is not an administrator (no one gains administrator rights this way), is a teacher only for an
 * administrator, is a student for the student token, and can sign in (not blocked, not deactivated).
 * The caller's own rights (the named permission, not already impersonating) are checked before.
 */
export function decideImpersonation(command: ImpersonateUser, state: UserState): UserEvent[] {
  if (!state.exists) return refuse('not_found', 'User not found');
  if (state.userId === command.impersonatorId) refuse('conflict', 'You cannot impersonate yourself');
  if (state.userType === 'super_admin' || isAdmin(state.permissions))
    refuse('forbidden', 'Administrators cannot be impersonated');
  if (command.via === 'student-token' && state.userType !== 'student')
    refuse('conflict', 'Only students can be impersonated with a student token');
  if (state.userType === 'teacher' && !command.impersonatorIsAdmin)
    refuse('forbidden', 'Only administrators can impersonate teachers');
  if (state.isBlocked) refuse('conflict', 'User is blocked');
  if (!state.hasAccess) refuse('conflict', 'User is deactivated');
  return [
    {
      type: 'UserImpersonated',
      data: { userId: state.userId, impersonatorId: command.impersonatorId, via: command.via },
    },
  ];
}

/** Impersonation is decided on the target user's own stream (`UserImpersonated`), with its own rules. */
export const impersonationAggregate: Aggregate<UserState, ImpersonateUser, UserEvent> = {
  stream: userStreamShape.stream,
  idOf: (command) => command.userId,
  initialState: userStreamShape.initialState,
  evolve: userStreamShape.evolve,
  decide: decideImpersonation,
};
