import { describe, expect, it } from '@jest/globals';
import { USER_IS_ADMIN, USER_IS_PARTNER, USER_IS_TEACHER } from '../../app/access';
import type { UserView } from './api';
import { addableKinds, kindBySlug, kindOfUser, mayActOn, visibleKinds } from './my-users';

type Target = Pick<UserView, 'user_type' | 'customer_profile'>;
const student: Target = { user_type: 'student', customer_profile: null };
const role = (type: 'super-admin' | 'admin' | 'link-contact' | 'parent'): Target => ({
  user_type: 'partner',
  customer_profile: { type, type_label: null },
});
const teacher: Target = { user_type: 'teacher', customer_profile: null };

/** The link-contact role's permissions (server CUSTOMER_ROLE_PERMISSIONS['link-contact']). */
const linkContact = [
  USER_IS_PARTNER,
  'PARTNER_CAN_SEE_SYSADMINS',
  'PARTNER_CAN_SEE_PARENTS',
  'PARTNER_CAN_EDIT_STUDENTS',
  'PARTNER_CAN_CHANGE_PASSWORD_FOR_SELECTED_USER',
  'PARTNER_CAN_SEE_ATTENDANCE',
];

describe('my-users rules', () => {
  it('shows the kinds the SEE_* permissions allow, in spec order', () => {
    expect(visibleKinds(linkContact).map((k) => k.slug)).toEqual(['sysadmins', 'parents']);
    expect(
      visibleKinds([USER_IS_PARTNER, 'PARTNER_CAN_SEE_PARENTS', 'PARTNER_CAN_SEE_ALL_STUDENTS_DETAILS']).map(
        (k) => k.slug,
      ),
    ).toEqual(['students', 'parents']);
    expect(visibleKinds([USER_IS_PARTNER])).toEqual([]);
  });

  it('offers adding only the kinds with ADD_NEW_<KIND>; administrators add any', () => {
    expect(addableKinds(linkContact)).toEqual([]);
    expect(
      addableKinds([USER_IS_PARTNER, 'PARTNER_CAN_ADD_NEW_STUDENTS', 'PARTNER_CAN_ADD_NEW_PARENTS']).map(
        (k) => k.kind,
      ),
    ).toEqual(['STUDENTS', 'PARENTS']);
    expect(addableKinds([USER_IS_ADMIN])).toHaveLength(5);
  });

  it.each([
    // given permissions, when acting on, then allowed
    ['link contact edits a student', linkContact, 'edit', student, true],
    ['link contact edits a parent', linkContact, 'edit', role('parent'), false],
    ['link contact changes a parent password', linkContact, 'password', role('parent'), true],
    ['link contact disables a student', linkContact, 'disable', student, false],
    [
      'EDIT_ALL_STUDENTS edits a student',
      [USER_IS_PARTNER, 'PARTNER_CAN_EDIT_ALL_STUDENTS'],
      'edit',
      student,
      true,
    ],
    [
      'EDIT_ALL_STUDENTS edits a sysadmin',
      [USER_IS_PARTNER, 'PARTNER_CAN_EDIT_ALL_STUDENTS'],
      'edit',
      role('admin'),
      false,
    ],
    [
      'EDIT_PROFILE_FOR_SELECTED_USER edits a super sysadmin',
      [USER_IS_PARTNER, 'PARTNER_CAN_EDIT_PROFILE_FOR_SELECTED_USER'],
      'edit',
      role('super-admin'),
      true,
    ],
    [
      'DISABLE_SYSADMINS disables a sysadmin',
      [USER_IS_PARTNER, 'PARTNER_CAN_DISABLE_SYSADMINS'],
      'disable',
      role('admin'),
      true,
    ],
    [
      'a partner never acts on a teacher',
      [USER_IS_PARTNER, 'PARTNER_CAN_EDIT_PROFILE_FOR_SELECTED_USER'],
      'edit',
      teacher,
      false,
    ],
    [
      'a teacher holding a partner permission',
      [USER_IS_TEACHER, 'PARTNER_CAN_EDIT_STUDENTS'],
      'edit',
      student,
      false,
    ],
    ['an administrator', [USER_IS_ADMIN], 'disable', teacher, true],
  ] as const)('%s → %s', (_name, permissions, action, target, allowed) => {
    expect(mayActOn(permissions, action, target)).toBe(allowed);
  });

  it('maps users and route segments to kinds', () => {
    expect(kindOfUser(role('link-contact'))?.slug).toBe('link-contacts');
    expect(kindOfUser(student)?.kind).toBe('STUDENTS');
    expect(kindOfUser(teacher)).toBeUndefined();
    expect(kindBySlug('parents')?.customerType).toBe('parent');
    expect(kindBySlug('teachers')).toBeUndefined();
  });
});
