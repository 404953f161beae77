import { HttpStatus } from '@nestjs/common';
import type { UserEvent, UserImpersonatedData } from '../user.events.js';
import type { UserState } from '../user.decider.js';
import { isAdmin } from '../policy/policy.js';

export interface ImpersonateUser {
  type: 'ImpersonateUser';
  userId: string;
  impersonatorId: string;
  /** Administrators may impersonate teachers; other internal impersonators only students and partners. */
  impersonatorIsAdmin: boolean;
  via: UserImpersonatedData['via'];
}

export class ImpersonationError extends Error {
  constructor(
    readonly status: HttpStatus,
    readonly detail: string,
  ) {
    super(detail);
    this.name = 'ImpersonationError';
  }
}

const refuse = (status: HttpStatus, detail: string): never => {
  throw new ImpersonationError(status, detail);
};

/**
 * Whether the target account may be impersonated (docs/decisions/0012): it exists, is someone else,
 * is not an administrator (no one gains administrator rights this way), is a teacher only for an
 * administrator, is a student for the student token, and can sign in (not blocked, not deactivated).
 * The caller's own rights (the named permission, not already impersonating) are checked before.
 */
export function decideImpersonation(command: ImpersonateUser, state: UserState): UserEvent[] {
  if (!state.exists) return refuse(HttpStatus.NOT_FOUND, 'User not found');
  if (state.userId === command.impersonatorId) refuse(HttpStatus.CONFLICT, 'You cannot impersonate yourself');
  if (state.userType === 'super_admin' || isAdmin(state.permissions))
    refuse(HttpStatus.FORBIDDEN, 'Administrators cannot be impersonated');
  if (command.via === 'student-token' && state.userType !== 'student')
    refuse(HttpStatus.CONFLICT, 'Only students can be impersonated with a student token');
  if (state.userType === 'teacher' && !command.impersonatorIsAdmin)
    refuse(HttpStatus.FORBIDDEN, 'Only administrators can impersonate teachers');
  if (state.isBlocked) refuse(HttpStatus.CONFLICT, 'User is blocked');
  if (!state.hasAccess) refuse(HttpStatus.CONFLICT, 'User is deactivated');
  return [
    {
      type: 'UserImpersonated',
      data: { userId: state.userId, impersonatorId: command.impersonatorId, via: command.via },
    },
  ];
}
