import { describe, expect, it } from '@jest/globals';
import { DomainError, type ErrorKind } from '../../platform/domain/domain-error.js';
import { fold } from '../user.decider.js';
import type { UserCreatedData, UserEvent } from '../user.events.js';
import { decideImpersonation, type ImpersonateUser } from './impersonation.decider.js';

const TARGET = '11111111-1111-4111-8111-111111111111';
const ADMIN = '22222222-2222-4222-8222-222222222222';

const created = (userType: UserCreatedData['userType'], permissions: string[]): UserEvent => ({
  type: 'UserCreated',
  data: {
    userId: TARGET,
    login: 't@example.com',
    email: 't@example.com',
    firstName: 'T',
    lastName: 'T',
    userType,
    permissions,
    customerId: userType === 'student' || userType === 'partner' ? ADMIN : null,
  },
});
const student = created('student', ['USER_IS_STUDENT']);
const teacher = created('teacher', ['USER_IS_TEACHER']);
const partner = created('partner', ['USER_IS_PARTNER']);
const admin = created('super_admin', ['USER_IS_ADMIN']);

const byAdmin: ImpersonateUser = {
  type: 'ImpersonateUser',
  userId: TARGET,
  impersonatorId: ADMIN,
  impersonatorIsAdmin: true,
  via: 'access-token',
};
const impersonated = (via: ImpersonateUser['via']): UserEvent[] => [
  { type: 'UserImpersonated', data: { userId: TARGET, impersonatorId: ADMIN, via } },
];

const rows: Array<{
  name: string;
  given: UserEvent[];
  when: ImpersonateUser;
  then: UserEvent[] | [ErrorKind, string];
}> = [
  {
    name: 'an admin impersonates a student',
    given: [student],
    when: byAdmin,
    then: impersonated('access-token'),
  },
  {
    name: 'an admin impersonates a teacher',
    given: [teacher],
    when: byAdmin,
    then: impersonated('access-token'),
  },
  {
    name: 'a teacher with the permission impersonates a partner',
    given: [partner],
    when: { ...byAdmin, impersonatorIsAdmin: false },
    then: impersonated('access-token'),
  },
  {
    name: 'a teacher with the permission cannot impersonate another teacher',
    given: [teacher],
    when: { ...byAdmin, impersonatorIsAdmin: false },
    then: ['forbidden', 'Only administrators can impersonate teachers'],
  },
  {
    name: 'nobody impersonates an administrator',
    given: [admin],
    when: byAdmin,
    then: ['forbidden', 'Administrators cannot be impersonated'],
  },
  {
    name: 'an unknown user is not found',
    given: [],
    when: byAdmin,
    then: ['not_found', 'User not found'],
  },
  {
    name: 'nobody impersonates themselves',
    given: [teacher],
    when: { ...byAdmin, impersonatorId: TARGET },
    then: ['conflict', 'You cannot impersonate yourself'],
  },
  {
    name: 'a blocked user cannot be impersonated',
    given: [student, { type: 'UserBlocked', data: { userId: TARGET } }],
    when: byAdmin,
    then: ['conflict', 'User is blocked'],
  },
  {
    name: 'a deactivated user cannot be impersonated',
    given: [student, { type: 'UserDeactivated', data: { userId: TARGET, scheduled: false } }],
    when: byAdmin,
    then: ['conflict', 'User is deactivated'],
  },
  {
    name: 'the student token impersonates a student',
    given: [student],
    when: { ...byAdmin, via: 'student-token' },
    then: impersonated('student-token'),
  },
  {
    name: 'the student token refuses a teacher',
    given: [teacher],
    when: { ...byAdmin, via: 'student-token' },
    then: ['conflict', 'Only students can be impersonated with a student token'],
  },
  {
    name: 'an impersonation leaves the account as it was',
    given: [student, ...impersonated('access-token')],
    when: byAdmin,
    then: impersonated('access-token'),
  },
];

describe('impersonation decider', () => {
  it.each(rows)('$name', ({ given, when, then }) => {
    const state = fold(given);
    if (then.length > 0 && typeof then[0] === 'string') {
      const [kind, detail] = then as [ErrorKind, string];
      let error: unknown;
      try {
        decideImpersonation(when, state);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(DomainError);
      expect(error).toMatchObject({ kind, detail });
    } else {
      expect(decideImpersonation(when, state)).toEqual(then);
    }
  });
});
