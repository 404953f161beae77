import { describe, expect, it } from '@jest/globals';
import {
  ACTION_PERMISSIONS,
  ASSIGNABLE_PARTNER_PERMISSIONS,
  CUSTOMER_ROLE_LABELS,
  CUSTOMER_ROLE_PERMISSIONS,
  INTERNAL_PERMISSIONS,
  PARTNER,
  PARTNER_PERMISSIONS,
  VIEW_PERMISSIONS,
  NAMED_PERMISSIONS,
  ehcpScope,
  hasAny,
  maySendEhcpRequests,
  initialPermissions,
  internalMay,
  isAdmin,
  isInternal,
  isPartner,
  mayAccessCoverRequests,
  partnerKindOf,
  partnerMaySee,
  partnerVisibility,
  permissionLabel,
  typeLabel,
  userTypeOf,
} from './policy.js';

describe('roles from marker permissions', () => {
  it.each([
    [['USER_IS_ADMIN'], true, true, false, 'super_admin', 'Administrator'],
    [['USER_IS_TEACHER'], false, true, false, 'teacher', 'Teacher'],
    [['USER_IS_PARTNER', PARTNER.SEE_PARENTS], false, false, true, 'partner', 'Customer'],
    [['USER_IS_STUDENT'], false, false, false, 'student', 'Student'],
    [['CAN_BLOCK_USERS'], false, false, false, null, ''],
  ])(
    '%j → admin %s, internal %s, partner %s, type %s, label %j',
    (perms, admin, internal, partner, type, label) => {
      expect(isAdmin(perms)).toBe(admin);
      expect(isInternal(perms)).toBe(internal);
      expect(isPartner(perms)).toBe(partner);
      expect(userTypeOf(perms)).toBe(type);
      expect(typeLabel(perms)).toBe(label);
    },
  );

  it('hasAny checks one permission or any of several, on arrays and sets', () => {
    expect(hasAny(['A', 'B'], 'B')).toBe(true);
    expect(hasAny(new Set(['A']), 'X', 'A')).toBe(true);
    expect(hasAny(['A'], 'X', 'Y')).toBe(false);
    expect(hasAny([])).toBe(false);
  });

  it.each([
    [['USER_IS_ADMIN'], INTERNAL_PERMISSIONS.BLOCK_USERS, true],
    [['USER_IS_TEACHER'], INTERNAL_PERMISSIONS.BLOCK_USERS, false],
    [['USER_IS_TEACHER', 'CAN_BLOCK_USERS'], INTERNAL_PERMISSIONS.BLOCK_USERS, true],
    [['USER_IS_TEACHER', 'CAN_BLOCK_USERS'], INTERNAL_PERMISSIONS.QUALITY_ISSUE, false],
    [['USER_IS_PARTNER', 'CAN_BLOCK_USERS'], INTERNAL_PERMISSIONS.BLOCK_USERS, false],
    [['USER_IS_STUDENT', 'CAN_SET_QUALITY_ISSUE'], INTERNAL_PERMISSIONS.QUALITY_ISSUE, false],
  ])('internalMay(%j, %s) = %s', (perms, permission, expected) => {
    expect(internalMay(perms, permission)).toBe(expected);
  });
});

describe('partner permission catalogue (spec §6)', () => {
  it('lists every PARTNER_CAN_* once, expanded per user kind', () => {
    expect(new Set(PARTNER_PERMISSIONS).size).toBe(PARTNER_PERMISSIONS.length);
    expect(PARTNER_PERMISSIONS.every((perm) => perm.startsWith('PARTNER_CAN_'))).toBe(true);
    expect(PARTNER_PERMISSIONS).toHaveLength(6 + 4 * 5 + 20);
    for (const kind of ['SUPER_SYSADMINS', 'SYSADMINS', 'LINK_CONTACTS', 'STUDENTS', 'PARENTS'])
      for (const verb of ['ADD_NEW', 'EDIT', 'DISABLE', 'DELETE'])
        expect(PARTNER_PERMISSIONS).toContain(`PARTNER_CAN_${verb}_${kind}`);
  });

  it('assignable = all except absence reason, both safeguarding submits and request bookings', () => {
    const excluded = PARTNER_PERMISSIONS.filter((perm) => !ASSIGNABLE_PARTNER_PERMISSIONS.includes(perm));
    expect(excluded.sort()).toEqual(
      [
        'PARTNER_CAN_REQUEST_BOOKINGS',
        'PARTNER_CAN_SET_ABSENCE_REASON',
        'PARTNER_CAN_SUBMIT_SAFEGUARDING_INCIDENT_FOR_ALL_STUDENTS',
        'PARTNER_CAN_SUBMIT_SAFEGUARDING_INCIDENT_FOR_SELECTED_STUDENTS',
      ].sort(),
    );
  });

  it('splits assignable into view (CAN_SEE + recordings) and action permissions', () => {
    expect(VIEW_PERMISSIONS).toEqual([
      'PARTNER_CAN_SEE_ALL_STUDENTS_DETAILS',
      'PARTNER_CAN_SEE_SUPER_SYSADMINS',
      'PARTNER_CAN_SEE_SYSADMINS',
      'PARTNER_CAN_SEE_LINK_CONTACTS',
      'PARTNER_CAN_SEE_PARENTS',
      'PARTNER_CAN_SEE_ALL_PROGRAMME_DETAILS',
      'PARTNER_CAN_SEE_ALL_LESSON_DETAILS',
      'PARTNER_CAN_LIST_AND_WATCH_RECORDINGS',
      'PARTNER_CAN_SEE_SAFEGUARDING_INCIDENT_REPORTS',
      'PARTNER_CAN_SEE_ATTENDANCE',
      'PARTNER_CAN_SEE_ASSESSMENTS',
      'PARTNER_CAN_SEE_CONTACT_INFORMATION_IN_DASHBOARD',
    ]);
    expect([...VIEW_PERMISSIONS, ...ACTION_PERMISSIONS].sort()).toEqual(
      [...ASSIGNABLE_PARTNER_PERMISSIONS].sort(),
    );
    expect(ACTION_PERMISSIONS).toContain('PARTNER_CAN_JOIN_LESSONS');
  });

  it.each([
    ['PARTNER_CAN_SEE_ALL_STUDENTS_DETAILS', 'See All Students Details'],
    ['PARTNER_CAN_ADD_NEW_LINK_CONTACTS', 'Add New Link Contacts'],
    ['PARTNER_CAN_LIST_AND_WATCH_RECORDINGS', 'List And Watch Recordings'],
    ['CAN_BLOCK_USERS', 'Can Block Users'],
  ])('label of %s is %j', (perm, label) => {
    expect(permissionLabel(perm)).toBe(label);
  });
});

describe('customer roles (spec §6)', () => {
  it('have the spec labels', () => {
    expect(CUSTOMER_ROLE_LABELS).toEqual({
      'super-admin': 'Super System Administrator',
      admin: 'System Administrator',
      'link-contact': 'Link Contact',
      parent: 'Parent / Carer',
    });
  });

  it('super-admin gets every assignable permission and none of the separate ones', () => {
    expect(CUSTOMER_ROLE_PERMISSIONS['super-admin']).toEqual(ASSIGNABLE_PARTNER_PERMISSIONS);
  });

  it('admin is super-admin without super sysadmin see/add/edit/disable, sysadmin add/edit/disable, disable students', () => {
    const missing = ASSIGNABLE_PARTNER_PERMISSIONS.filter(
      (perm) => !CUSTOMER_ROLE_PERMISSIONS.admin.includes(perm),
    );
    expect(missing.sort()).toEqual(
      [
        'PARTNER_CAN_SEE_SUPER_SYSADMINS',
        'PARTNER_CAN_ADD_NEW_SUPER_SYSADMINS',
        'PARTNER_CAN_EDIT_SUPER_SYSADMINS',
        'PARTNER_CAN_DISABLE_SUPER_SYSADMINS',
        'PARTNER_CAN_ADD_NEW_SYSADMINS',
        'PARTNER_CAN_EDIT_SYSADMINS',
        'PARTNER_CAN_DISABLE_SYSADMINS',
        'PARTNER_CAN_DISABLE_STUDENTS',
      ].sort(),
    );
  });

  it.each([
    [
      'link-contact',
      [
        'PARTNER_CAN_SEE_SYSADMINS',
        'PARTNER_CAN_SEE_PARENTS',
        'PARTNER_CAN_EDIT_STUDENTS',
        'PARTNER_CAN_CHANGE_PASSWORD_FOR_SELECTED_USER',
        'PARTNER_CAN_SEE_ATTENDANCE',
        'PARTNER_CAN_SEE_ASSESSMENTS',
        'PARTNER_CAN_SUBMIT_SAFEGUARDING_INCIDENT_FOR_SELECTED_STUDENTS',
        'PARTNER_CAN_SET_ABSENCE_REASON',
        'PARTNER_CAN_ACCESS_CONTACT_US_FORM',
      ],
    ],
    [
      'parent',
      [
        'PARTNER_CAN_SEE_ATTENDANCE',
        'PARTNER_CAN_SEE_ASSESSMENTS',
        'PARTNER_CAN_SET_ABSENCE_REASON',
        'PARTNER_CAN_ACCESS_CONTACT_US_FORM',
      ],
    ],
  ] as const)('%s has exactly %j', (role, perms) => {
    expect([...CUSTOMER_ROLE_PERMISSIONS[role]].sort()).toEqual([...perms].sort());
    expect(CUSTOMER_ROLE_PERMISSIONS[role].every((perm) => PARTNER_PERMISSIONS.includes(perm))).toBe(true);
  });

  it.each([
    ['student', null, 'STUDENTS'],
    ['partner', 'super-admin', 'SUPER_SYSADMINS'],
    ['partner', 'admin', 'SYSADMINS'],
    ['partner', 'link-contact', 'LINK_CONTACTS'],
    ['partner', 'parent', 'PARENTS'],
    ['teacher', null, null],
    ['super_admin', null, null],
  ] as const)('a %s (%s) is partner kind %s', (userType, customerType, kind) => {
    expect(partnerKindOf({ userType, customerType })).toBe(kind);
  });

  it('initial permissions are the marker plus the customer role', () => {
    expect(initialPermissions('teacher')).toEqual(['USER_IS_TEACHER']);
    expect(initialPermissions('partner', 'parent')).toEqual([
      'USER_IS_PARTNER',
      ...CUSTOMER_ROLE_PERMISSIONS.parent,
    ]);
  });
});

describe('partner visibility within their customer', () => {
  it.each([
    ['super-admin', 'student', null, true],
    ['super-admin', 'partner', 'super-admin', true],
    ['admin', 'partner', 'super-admin', false],
    ['admin', 'partner', 'admin', true],
    ['link-contact', 'partner', 'admin', true],
    ['link-contact', 'partner', 'parent', true],
    ['link-contact', 'student', null, false],
    ['parent', 'partner', 'parent', false],
    ['parent', 'student', null, false],
    ['super-admin', 'teacher', null, false],
  ] as const)('a %s sees a %s (%s): %s', (role, userType, customerType, expected) => {
    const visibility = partnerVisibility(CUSTOMER_ROLE_PERMISSIONS[role]);
    expect(partnerMaySee(visibility, { userType, customerType })).toBe(expected);
  });
});

describe('cover requests (spec §4: a teacher with a quality issue cannot access them)', () => {
  it.each([
    [['USER_IS_TEACHER', 'CAN_ACCESS_COVER_REQUESTS'], false, true],
    [['USER_IS_TEACHER', 'CAN_ACCESS_COVER_REQUESTS'], true, false],
    [['USER_IS_TEACHER'], false, false],
    [['USER_IS_ADMIN'], false, true],
    [['USER_IS_PARTNER', 'CAN_ACCESS_COVER_REQUESTS'], false, false],
  ])('%j with quality issue %s → %s', (perms, hasQualityIssue, expected) => {
    expect(mayAccessCoverRequests(perms, hasQualityIssue)).toBe(expected);
  });
});

describe('EHCP access and EHCP requests (spec §6, decision 0035)', () => {
  const EHCP = NAMED_PERMISSIONS.EHCP;
  const RELATIONS = PARTNER.ACCESS_USER_RELATIONS;
  it.each([
    [['USER_IS_ADMIN'], 'all'],
    [['USER_IS_TEACHER'], null],
    [['USER_IS_TEACHER', EHCP], 'all'],
    [['USER_IS_PARTNER', EHCP], 'own-customer'],
    [['USER_IS_PARTNER'], null],
    [['USER_IS_STUDENT', EHCP], null],
  ])('ehcpScope(%j) = %s', (perms, scope) => {
    expect(ehcpScope(perms)).toBe(scope);
  });

  it.each([
    [['USER_IS_PARTNER', EHCP, RELATIONS], 'super-admin', true],
    [['USER_IS_PARTNER', EHCP, RELATIONS], 'admin', true],
    [['USER_IS_PARTNER', EHCP, RELATIONS], 'link-contact', false],
    [['USER_IS_PARTNER', EHCP, RELATIONS], 'parent', false],
    [['USER_IS_PARTNER', EHCP], 'super-admin', false],
    [['USER_IS_PARTNER', RELATIONS], 'super-admin', false],
    [['USER_IS_ADMIN', EHCP, RELATIONS], null, false],
  ])('maySendEhcpRequests(%j, %s) = %s', (perms, customerType, expected) => {
    expect(maySendEhcpRequests(perms, customerType)).toBe(expected);
  });
});
