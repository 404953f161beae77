/**
 * The permission catalogue (docs/decisions/0008, 0031, 0048): every permission string the portal knows,
 * in one module that the server's identity policy and the client's route predicates both import. Names
 * only, plus their display labels; who may do what is the server's policy (server/src/identity/policy)
 * and, for screens, client/src/app/access.ts. Keep each string identical: they are stored in users'
 * permission lists and in events.
 */

/** Marker permissions (spec §3): they give the user's type. */
export const MARKER_PERMISSIONS = {
  admin: 'USER_IS_ADMIN',
  teacher: 'USER_IS_TEACHER',
  student: 'USER_IS_STUDENT',
  partner: 'USER_IS_PARTNER',
} as const;
export const ALL_MARKER_PERMISSIONS: readonly string[] = Object.values(MARKER_PERMISSIONS);

/** Internal named permissions (spec §6 "Internal users need a named permission for ..."). */
export const INTERNAL_PERMISSIONS = {
  ATTENDANCE: 'CAN_MANAGE_ATTENDANCE',
  BLOCK_USERS: 'CAN_BLOCK_USERS',
  QUALITY_ISSUE: 'CAN_SET_QUALITY_ISSUE',
  IMPERSONATE: 'CAN_IMPERSONATE',
  BASES: 'CAN_MANAGE_BASES',
  COVER_REQUESTS: 'CAN_ACCESS_COVER_REQUESTS',
  RECORDINGS: 'CAN_ACCESS_RECORDINGS',
  PROGRAMME: 'CAN_MANAGE_PROGRAMMES',
  SUBJECT: 'CAN_MANAGE_SUBJECTS',
  OBJECTIVE: 'CAN_MANAGE_OBJECTIVES',
  PRODUCT: 'CAN_MANAGE_PRODUCTS',
  CUSTOMER_EDITS: 'CAN_EDIT_CUSTOMERS',
  TEMPLATES: 'CAN_MANAGE_TEMPLATES',
  LESSON_EDITS: 'CAN_EDIT_LESSONS',
  SCORES: 'CAN_EDIT_SCORES',
  SPAM_REPORTS: 'CAN_MANAGE_SPAM_REPORTS',
  QA_REVIEW: 'CAN_QA_REVIEW',
  QA_REVOKE: 'CAN_QA_REVOKE',
  QA_LEAD_REVIEW: 'CAN_QA_LEAD_REVIEW',
  QA_LEAD_REVOKE: 'CAN_QA_LEAD_REVOKE',
  CONTACT_TYPES_AND_FORMS: 'CAN_MANAGE_CONTACT_TYPES_AND_FORM_SUBMISSIONS',
  CURRICULUM_LEADERS: 'CAN_MANAGE_CURRICULUM_LEADERS',
  /**
   * "Half-term assignment access" (spec §2): reassign writers, QA reviewer and QA lead of the half-term
   * reports in the holder's scope; the all-assignments view stays admin-only (spec §6, decision 0057).
   */
  HALF_TERM_ASSIGNMENTS: 'CAN_MANAGE_HALF_TERM_ASSIGNMENTS',
  /** Admin-only areas "plus modify-user": custom fields, editing users' permissions. */
  MODIFY_USER: 'CAN_MODIFY_USER',
  ACTIVITY_PANEL: 'CAN_SEE_ACTIVITY_PANEL',
  NETWORK: 'CAN_MODIFY_NETWORK',
  AUDIT: 'AUDIT',
} as const;
export type InternalPermission = (typeof INTERNAL_PERMISSIONS)[keyof typeof INTERNAL_PERMISSIONS];

/**
 * Named permissions without an internal-role requirement (spec §6): whoever holds one may use the
 * area, whatever their type; administrators hold them implicitly (see `mayUseNamed`).
 */
export const NAMED_PERMISSIONS = {
  PARTNER_INVITATIONS: 'CAN_SEND_PARTNER_INVITATIONS',
  /**
   * "EHCP access and upload". The spec gives no name; this one follows decision 0008's CAN_* style
   * (decisions 0014, 0035).
   */
  EHCP: 'CAN_ACCESS_AND_UPLOAD_EHCP',
  /**
   * Spec §6 "others need the general join permission" (partners need PARTNER_CAN_JOIN_LESSONS). The
   * spec gives no name; a lesson's own teacher and cover teacher and its students join without it
   * (decision 0054).
   */
  JOIN_LESSONS: 'CAN_JOIN_LESSONS',
  /** Spec §6 "discard half-term reports" (decision 0057): discard and restore a report. */
  DISCARD_HALF_TERM_REPORTS: 'CAN_DISCARD_HALF_TERM_REPORTS',
} as const;
export type NamedPermission = (typeof NAMED_PERMISSIONS)[keyof typeof NAMED_PERMISSIONS];

/**
 * Safeguarding tiers (docs/decisions/0024-safeguarding-access-tiers.md). Unlike the internal named
 * permissions, administrators do NOT hold these implicitly: seeing incidents is a need-to-know grant.
 * Both need an internal user (admin or teacher); partners never qualify through these names.
 */
export const SAFEGUARDING = {
  /** Sees incidents (list, details, chronology) and joins the live `safeguarding` room. */
  ACCESS: 'CAN_ACCESS_SAFEGUARDING',
  /** A designated safeguarding lead: everything ACCESS gives, plus the workflow and the views log. */
  LEAD: 'CAN_LEAD_SAFEGUARDING',
} as const;

/** The kinds of customer-side users partner permissions are about (spec §6 ADD_NEW_*, EDIT_*, ...). */
export const PARTNER_USER_KINDS = [
  'SUPER_SYSADMINS',
  'SYSADMINS',
  'LINK_CONTACTS',
  'STUDENTS',
  'PARENTS',
] as const;
export type PartnerUserKind = (typeof PARTNER_USER_KINDS)[number];

export const PARTNER_PREFIX = 'PARTNER_CAN_';
const p = <S extends string>(name: S) => `${PARTNER_PREFIX}${name}` as const;
const perKind = <V extends string>(verb: V) =>
  Object.fromEntries(PARTNER_USER_KINDS.map((k) => [k, `${PARTNER_PREFIX}${verb}_${k}`])) as Record<
    PartnerUserKind,
    `PARTNER_CAN_${V}_${PartnerUserKind}`
  >;

/** Partner permissions, in the order spec §6 lists them. */
export const PARTNER = {
  SEE_ALL_STUDENTS_DETAILS: p('SEE_ALL_STUDENTS_DETAILS'),
  SEE_SUPER_SYSADMINS: p('SEE_SUPER_SYSADMINS'),
  SEE_SYSADMINS: p('SEE_SYSADMINS'),
  SEE_LINK_CONTACTS: p('SEE_LINK_CONTACTS'),
  SEE_PARENTS: p('SEE_PARENTS'),
  EDIT_ALL_STUDENTS: p('EDIT_ALL_STUDENTS'),
  ADD_NEW: perKind('ADD_NEW'),
  EDIT: perKind('EDIT'),
  DISABLE: perKind('DISABLE'),
  DELETE: perKind('DELETE'),
  SEE_ALL_PROGRAMME_DETAILS: p('SEE_ALL_PROGRAMME_DETAILS'),
  SEE_ALL_LESSON_DETAILS: p('SEE_ALL_LESSON_DETAILS'),
  JOIN_LESSONS: p('JOIN_LESSONS'),
  LIST_AND_WATCH_RECORDINGS: p('LIST_AND_WATCH_RECORDINGS'),
  SEE_SAFEGUARDING_INCIDENT_REPORTS: p('SEE_SAFEGUARDING_INCIDENT_REPORTS'),
  SEE_ATTENDANCE: p('SEE_ATTENDANCE'),
  SEE_ASSESSMENTS: p('SEE_ASSESSMENTS'),
  ACCESS_AUTOENROLLMENTS: p('ACCESS_AUTOENROLLMENTS'),
  WITHDRAW_STUDENT_FROM_ENROLLMENT: p('WITHDRAW_STUDENT_FROM_ENROLLMENT'),
  SUBMIT_SAFEGUARDING_INCIDENT_FOR_ALL_STUDENTS: p('SUBMIT_SAFEGUARDING_INCIDENT_FOR_ALL_STUDENTS'),
  SUBMIT_SAFEGUARDING_INCIDENT_FOR_SELECTED_STUDENTS: p('SUBMIT_SAFEGUARDING_INCIDENT_FOR_SELECTED_STUDENTS'),
  SEE_CONTACT_INFORMATION_IN_DASHBOARD: p('SEE_CONTACT_INFORMATION_IN_DASHBOARD'),
  EDIT_ATTENDANCE_CONTACTS: p('EDIT_ATTENDANCE_CONTACTS'),
  EDIT_SAFEGUARDING_CONTACTS: p('EDIT_SAFEGUARDING_CONTACTS'),
  SET_ABSENCE_REASON: p('SET_ABSENCE_REASON'),
  REQUEST_BOOKINGS: p('REQUEST_BOOKINGS'),
  ACCESS_CONTACT_US_FORM: p('ACCESS_CONTACT_US_FORM'),
  ACCESS_USER_RELATIONS: p('ACCESS_USER_RELATIONS'),
  EDIT_PROFILE_FOR_SELECTED_USER: p('EDIT_PROFILE_FOR_SELECTED_USER'),
  CHANGE_PASSWORD_FOR_SELECTED_USER: p('CHANGE_PASSWORD_FOR_SELECTED_USER'),
} as const;

/** Every PARTNER_CAN_* permission, in catalogue order. */
export const PARTNER_PERMISSIONS: readonly string[] = Object.values(PARTNER).flatMap((v) =>
  typeof v === 'string' ? [v] : Object.values(v),
);

/** "PARTNER_CAN_SEE_ALL_STUDENTS_DETAILS" → "See All Students Details". */
export function permissionLabel(perm: string): string {
  const bare = perm.startsWith(PARTNER_PREFIX) ? perm.slice(PARTNER_PREFIX.length) : perm;
  return bare
    .split('_')
    .filter(Boolean)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1).toLowerCase())
    .join(' ');
}

/**
 * Named permissions the client's routes require before their server area exists (spec §2, §6; strings
 * chosen in docs/decisions/0009-client-route-permissions.md). Whoever holds one may open the screen.
 */
export const ROUTE_PERMISSIONS = {
  TEACHERS_TIMETABLES: 'CAN_VIEW_TEACHERS_TIMETABLES',
  HOMEWORKS_PANEL: 'CAN_ACCESS_HOMEWORKS_PANEL',
  PATHWAYS: 'CAN_ACCESS_PATHWAYS',
  PATHWAYS_SETUP: 'CAN_SETUP_PATHWAYS',
} as const;

/** Every permission string of the catalogue, in catalogue order. */
export const ALL_PERMISSIONS: readonly string[] = [
  ...ALL_MARKER_PERMISSIONS,
  ...Object.values(INTERNAL_PERMISSIONS),
  ...Object.values(NAMED_PERMISSIONS),
  ...Object.values(SAFEGUARDING),
  ...PARTNER_PERMISSIONS,
  ...Object.values(ROUTE_PERMISSIONS),
];
const catalogued = new Set(ALL_PERMISSIONS);

/** Whether a string is a permission of the catalogue. */
export const isCataloguedPermission = (name: string): boolean => catalogued.has(name);
