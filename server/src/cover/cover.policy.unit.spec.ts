import { describe, expect, it } from '@jest/globals';
import { joinRole, mayCancelCoverRequest, mayTakeCover } from './cover.policy.js';

const perms = (...p: string[]) => new Set(p);
const lesson = { teacher_id: 'teach', cover_teacher_id: 'cover' };
const none = { studentInLesson: false, partnerSeesLesson: false };

describe('cover policy', () => {
  it.each([
    [
      'a teacher with the cover permission',
      perms('USER_IS_TEACHER', 'CAN_ACCESS_COVER_REQUESTS'),
      false,
      true,
    ],
    [
      'the same teacher with a quality issue',
      perms('USER_IS_TEACHER', 'CAN_ACCESS_COVER_REQUESTS'),
      true,
      false,
    ],
    ['a teacher without the permission', perms('USER_IS_TEACHER'), false, false],
    ['an administrator (implicitly)', perms('USER_IS_ADMIN'), false, true],
    ['a partner holding the name', perms('USER_IS_PARTNER', 'CAN_ACCESS_COVER_REQUESTS'), false, false],
  ])('%s may take cover: %s', (_who, p, qualityIssue, expected) => {
    expect(mayTakeCover(p, qualityIssue)).toBe(expected);
  });

  it('lets the requester or a lesson editor cancel', () => {
    expect(mayCancelCoverRequest({ userId: 'r', permissions: perms('USER_IS_TEACHER') }, 'r')).toBe(true);
    expect(mayCancelCoverRequest({ userId: 'x', permissions: perms('USER_IS_TEACHER') }, 'r')).toBe(false);
    expect(
      mayCancelCoverRequest({ userId: 'x', permissions: perms('USER_IS_TEACHER', 'CAN_EDIT_LESSONS') }, 'r'),
    ).toBe(true);
  });

  it.each<[string, string, Set<string>, typeof none, ReturnType<typeof joinRole>]>([
    ['the teacher', 'teach', perms('USER_IS_TEACHER'), none, 'teacher'],
    ['the cover teacher', 'cover', perms('USER_IS_TEACHER'), none, 'cover_teacher'],
    ['another teacher without the join permission', 'x', perms('USER_IS_TEACHER'), none, 'refused'],
    ['a teacher with CAN_JOIN_LESSONS', 'x', perms('USER_IS_TEACHER', 'CAN_JOIN_LESSONS'), none, 'staff'],
    ['an administrator', 'x', perms('USER_IS_ADMIN'), none, 'staff'],
    ['a student of the group', 's', perms('USER_IS_STUDENT'), { ...none, studentInLesson: true }, 'student'],
    ['another student', 's', perms('USER_IS_STUDENT'), none, null],
    [
      'a partner of the school with JOIN_LESSONS',
      'p',
      perms('USER_IS_PARTNER', 'PARTNER_CAN_JOIN_LESSONS'),
      { ...none, partnerSeesLesson: true },
      'partner',
    ],
    [
      'a partner of the school without it',
      'p',
      perms('USER_IS_PARTNER'),
      { ...none, partnerSeesLesson: true },
      'refused',
    ],
    ['a partner of another school', 'p', perms('USER_IS_PARTNER', 'PARTNER_CAN_JOIN_LESSONS'), none, null],
  ])('join: %s → %s', (_who, userId, p, facts, expected) => {
    expect(joinRole({ userId, permissions: p }, lesson, facts)).toBe(expected);
  });
});
