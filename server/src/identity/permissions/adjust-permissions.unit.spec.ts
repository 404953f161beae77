import { describe, expect, it } from '@jest/globals';
import { UserError, decide, fold, type UserCommand } from '../user.decider.js';
import type { UserEvent } from '../user.events.js';

const userId = '00000000-0000-4000-8000-000000000001';
const created: UserEvent = {
  type: 'UserCreated',
  data: {
    userId,
    login: 't@example.com',
    email: 't@example.com',
    firstName: 'T',
    lastName: 'T',
    userType: 'teacher',
    permissions: ['USER_IS_TEACHER', 'CAN_BLOCK_USERS'],
  },
};
/** Permission changes are sent by administrators (PUT /permissions/{id}/assign). */
const byAdmin = { userId: '00000000-0000-4000-8000-0000000000ad', permissions: ['USER_IS_ADMIN'] };
const adjust = (grant: string[], revoke: string[]): UserCommand => ({
  type: 'AdjustPermissions',
  userId,
  grant,
  revoke,
});

const rows: Array<{ name: string; given: UserEvent[]; when: UserCommand; then: UserEvent[] | 'error' }> = [
  {
    name: 'granting adds to the current list',
    given: [created],
    when: adjust(['CAN_AUDIT'], []),
    then: [
      {
        type: 'UserPermissionsChanged',
        data: {
          userId,
          permissions: ['USER_IS_TEACHER', 'CAN_BLOCK_USERS', 'CAN_AUDIT'],
          added: ['CAN_AUDIT'],
          removed: [],
        },
      },
    ],
  },
  {
    name: 'revoking removes from the current list',
    given: [created],
    when: adjust([], ['CAN_BLOCK_USERS']),
    then: [
      {
        type: 'UserPermissionsChanged',
        data: { userId, permissions: ['USER_IS_TEACHER'], added: [], removed: ['CAN_BLOCK_USERS'] },
      },
    ],
  },
  {
    name: 'granting a held permission writes nothing',
    given: [created],
    when: adjust(['CAN_BLOCK_USERS'], []),
    then: [],
  },
  {
    name: 'revoking a missing permission writes nothing',
    given: [created],
    when: adjust([], ['CAN_AUDIT']),
    then: [],
  },
  {
    name: 'the list is read from the stream, not from the caller',
    given: [
      created,
      {
        type: 'UserPermissionsChanged',
        data: { userId, permissions: ['USER_IS_TEACHER'], added: [], removed: ['CAN_BLOCK_USERS'] },
      },
    ],
    when: adjust(['CAN_AUDIT'], []),
    then: [
      {
        type: 'UserPermissionsChanged',
        data: { userId, permissions: ['USER_IS_TEACHER', 'CAN_AUDIT'], added: ['CAN_AUDIT'], removed: [] },
      },
    ],
  },
  {
    name: 'the type marker cannot be revoked',
    given: [created],
    when: adjust([], ['USER_IS_TEACHER']),
    then: 'error',
  },
  { name: 'an unknown user is refused', given: [], when: adjust(['CAN_AUDIT'], []), then: 'error' },
];

describe('AdjustPermissions (user decider)', () => {
  it.each(rows)('$name', ({ given, when, then }) => {
    if (then === 'error') expect(() => decide(when, fold(given), byAdmin)).toThrow(UserError);
    else expect(decide(when, fold(given), byAdmin)).toEqual(then);
  });
});
