/**
 * The assignable partner permissions (spec §6), copied from the server's policy
 * (server/src/identity/policy/policy.ts) because no endpoint lists them yet; see ADR 0022.
 * Keep in the policy's catalogue order.
 */

export const PARTNER_PREFIX = 'PARTNER_CAN_';
const KINDS = ['SUPER_SYSADMINS', 'SYSADMINS', 'LINK_CONTACTS', 'STUDENTS', 'PARENTS'] as const;
const perKind = (verb: string) => KINDS.map((kind) => `${PARTNER_PREFIX}${verb}_${kind}`);
const p = (name: string) => `${PARTNER_PREFIX}${name}`;

/** Every PARTNER_CAN_* permission, in the policy's order. */
export const PARTNER_PERMISSIONS: readonly string[] = [
  p('SEE_ALL_STUDENTS_DETAILS'),
  p('SEE_SUPER_SYSADMINS'),
  p('SEE_SYSADMINS'),
  p('SEE_LINK_CONTACTS'),
  p('SEE_PARENTS'),
  p('EDIT_ALL_STUDENTS'),
  ...perKind('ADD_NEW'),
  ...perKind('EDIT'),
  ...perKind('DISABLE'),
  ...perKind('DELETE'),
  p('SEE_ALL_PROGRAMME_DETAILS'),
  p('SEE_ALL_LESSON_DETAILS'),
  p('JOIN_LESSONS'),
  p('LIST_AND_WATCH_RECORDINGS'),
  p('SEE_SAFEGUARDING_INCIDENT_REPORTS'),
  p('SEE_ATTENDANCE'),
  p('SEE_ASSESSMENTS'),
  p('ACCESS_AUTOENROLLMENTS'),
  p('WITHDRAW_STUDENT_FROM_ENROLLMENT'),
  p('SUBMIT_SAFEGUARDING_INCIDENT_FOR_ALL_STUDENTS'),
  p('SUBMIT_SAFEGUARDING_INCIDENT_FOR_SELECTED_STUDENTS'),
  p('SEE_CONTACT_INFORMATION_IN_DASHBOARD'),
  p('EDIT_ATTENDANCE_CONTACTS'),
  p('EDIT_SAFEGUARDING_CONTACTS'),
  p('SET_ABSENCE_REASON'),
  p('REQUEST_BOOKINGS'),
  p('ACCESS_CONTACT_US_FORM'),
  p('ACCESS_USER_RELATIONS'),
  p('EDIT_PROFILE_FOR_SELECTED_USER'),
  p('CHANGE_PASSWORD_FOR_SELECTED_USER'),
];

/** Granted separately, never through the assignable list (spec §6). */
export const SEPARATELY_GRANTED: readonly string[] = [
  p('SET_ABSENCE_REASON'),
  p('SUBMIT_SAFEGUARDING_INCIDENT_FOR_ALL_STUDENTS'),
  p('SUBMIT_SAFEGUARDING_INCIDENT_FOR_SELECTED_STUDENTS'),
  p('REQUEST_BOOKINGS'),
];

export const ASSIGNABLE_PARTNER_PERMISSIONS: readonly string[] = PARTNER_PERMISSIONS.filter(
  (perm) => !SEPARATELY_GRANTED.includes(perm),
);

/** View permissions: names containing CAN_SEE, plus list-and-watch-recordings (spec §6). */
export const isViewPermission = (perm: string): boolean =>
  perm.includes('CAN_SEE') || perm === p('LIST_AND_WATCH_RECORDINGS');
export const VIEW_PERMISSIONS = ASSIGNABLE_PARTNER_PERMISSIONS.filter(isViewPermission);
export const ACTION_PERMISSIONS = ASSIGNABLE_PARTNER_PERMISSIONS.filter((perm) => !isViewPermission(perm));

/** Internal named permissions (the server policy's INTERNAL_PERMISSIONS), for teachers and admins. */
export const INTERNAL_PERMISSIONS: readonly string[] = [
  'CAN_MANAGE_ATTENDANCE',
  'CAN_BLOCK_USERS',
  'CAN_SET_QUALITY_ISSUE',
  'CAN_IMPERSONATE',
  'CAN_MANAGE_BASES',
  'CAN_ACCESS_COVER_REQUESTS',
  'CAN_ACCESS_RECORDINGS',
  'CAN_MANAGE_PROGRAMMES',
  'CAN_MANAGE_SUBJECTS',
  'CAN_MANAGE_OBJECTIVES',
  'CAN_MANAGE_PRODUCTS',
  'CAN_EDIT_CUSTOMERS',
  'CAN_MANAGE_TEMPLATES',
  'CAN_EDIT_LESSONS',
  'CAN_EDIT_SCORES',
  'CAN_MANAGE_SPAM_REPORTS',
  'CAN_QA_REVIEW',
  'CAN_QA_REVOKE',
  'CAN_QA_LEAD_REVIEW',
  'CAN_QA_LEAD_REVOKE',
  'CAN_MANAGE_CONTACT_TYPES_AND_FORM_SUBMISSIONS',
  'CAN_MANAGE_CURRICULUM_LEADERS',
  'CAN_MODIFY_USER',
  'CAN_SEE_ACTIVITY_PANEL',
  'CAN_MODIFY_NETWORK',
  'AUDIT',
];

/** "PARTNER_CAN_SEE_ALL_STUDENTS_DETAILS" → "See All Students Details" (prefix dropped, title case). */
export function permissionLabel(perm: string): string {
  const bare = perm.startsWith(PARTNER_PREFIX)
    ? perm.slice(PARTNER_PREFIX.length)
    : perm.startsWith('CAN_')
      ? perm.slice('CAN_'.length)
      : perm;
  return bare
    .split('_')
    .filter(Boolean)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1).toLowerCase())
    .join(' ');
}
