/**
 * The one permission policy of the portal (spec §6). Permissions are strings in a user's
 * `permission_list`; roles and customer roles are derived from them. Names the spec does not give are
 * listed in docs/decisions/0008-permission-names.md.
 */

import {
  MARKER_PERMISSIONS,
  INTERNAL_PERMISSIONS,
  NAMED_PERMISSIONS,
  PARTNER,
  PARTNER_PERMISSIONS,
  SAFEGUARDING,
  type InternalPermission,
  type NamedPermission,
  type PartnerUserKind,
} from '@portal/projections/permissions';

/** The names themselves live in the shared catalogue (decision 0048); re-exported for the server. */
export {
  MARKER_PERMISSIONS,
  ALL_MARKER_PERMISSIONS,
  INTERNAL_PERMISSIONS,
  type InternalPermission,
  NAMED_PERMISSIONS,
  type NamedPermission,
  PARTNER_USER_KINDS,
  type PartnerUserKind,
  PARTNER_PREFIX,
  PARTNER,
  PARTNER_PERMISSIONS,
  permissionLabel,
  ROUTE_PERMISSIONS,
  SAFEGUARDING,
} from '@portal/projections/permissions';

export type UserType = 'super_admin' | 'teacher' | 'partner' | 'student';
export const USER_TYPES: readonly UserType[] = ['super_admin', 'teacher', 'partner', 'student'];

/** The marker permission of each user type. */
export const MARKER_FOR_TYPE: Record<UserType, string> = {
  super_admin: MARKER_PERMISSIONS.admin,
  teacher: MARKER_PERMISSIONS.teacher,
  partner: MARKER_PERMISSIONS.partner,
  student: MARKER_PERMISSIONS.student,
};

/** Type labels (spec §3): super_admin Administrator, teacher Teacher, customer Customer, student Student. */
export const TYPE_LABELS: Record<UserType, string> = {
  super_admin: 'Administrator',
  teacher: 'Teacher',
  partner: 'Customer',
  student: 'Student',
};

/** Granted separately, never through the assignable list or a role (spec §6). */
export const SEPARATELY_GRANTED: readonly string[] = [
  PARTNER.SET_ABSENCE_REASON,
  PARTNER.SUBMIT_SAFEGUARDING_INCIDENT_FOR_ALL_STUDENTS,
  PARTNER.SUBMIT_SAFEGUARDING_INCIDENT_FOR_SELECTED_STUDENTS,
  PARTNER.REQUEST_BOOKINGS,
];

export const ASSIGNABLE_PARTNER_PERMISSIONS: readonly string[] = PARTNER_PERMISSIONS.filter(
  (perm) => !SEPARATELY_GRANTED.includes(perm),
);

/** View permissions: names containing CAN_SEE, plus list-and-watch-recordings. */
export const isViewPermission = (perm: string) =>
  perm.includes('CAN_SEE') || perm === PARTNER.LIST_AND_WATCH_RECORDINGS;
export const VIEW_PERMISSIONS: readonly string[] = ASSIGNABLE_PARTNER_PERMISSIONS.filter(isViewPermission);
export const ACTION_PERMISSIONS: readonly string[] = ASSIGNABLE_PARTNER_PERMISSIONS.filter(
  (perm) => !isViewPermission(perm),
);

/** Customer-side roles (spec §3 enumeration and §6). */
export type CustomerRole = 'super-admin' | 'admin' | 'link-contact' | 'parent';
export const CUSTOMER_ROLES: readonly CustomerRole[] = ['super-admin', 'admin', 'link-contact', 'parent'];
export const CUSTOMER_ROLE_LABELS: Record<CustomerRole, string> = {
  'super-admin': 'Super System Administrator',
  admin: 'System Administrator',
  'link-contact': 'Link Contact',
  parent: 'Parent / Carer',
};

const ADMIN_ROLE_EXCLUDES: readonly string[] = [
  PARTNER.SEE_SUPER_SYSADMINS,
  PARTNER.ADD_NEW.SUPER_SYSADMINS,
  PARTNER.EDIT.SUPER_SYSADMINS,
  PARTNER.DISABLE.SUPER_SYSADMINS,
  PARTNER.ADD_NEW.SYSADMINS,
  PARTNER.EDIT.SYSADMINS,
  PARTNER.DISABLE.SYSADMINS,
  PARTNER.DISABLE.STUDENTS,
];

/** The permission set each customer role grants (spec §6, "Customer-side roles"). */
export const CUSTOMER_ROLE_PERMISSIONS: Record<CustomerRole, readonly string[]> = {
  'super-admin': ASSIGNABLE_PARTNER_PERMISSIONS,
  admin: ASSIGNABLE_PARTNER_PERMISSIONS.filter((perm) => !ADMIN_ROLE_EXCLUDES.includes(perm)),
  'link-contact': [
    PARTNER.SEE_SYSADMINS,
    PARTNER.SEE_PARENTS,
    PARTNER.EDIT.STUDENTS,
    PARTNER.CHANGE_PASSWORD_FOR_SELECTED_USER,
    PARTNER.SEE_ATTENDANCE,
    PARTNER.SEE_ASSESSMENTS,
    PARTNER.SUBMIT_SAFEGUARDING_INCIDENT_FOR_SELECTED_STUDENTS,
    PARTNER.SET_ABSENCE_REASON,
    PARTNER.ACCESS_CONTACT_US_FORM,
  ],
  parent: [
    PARTNER.SEE_ATTENDANCE,
    PARTNER.SEE_ASSESSMENTS,
    PARTNER.SET_ABSENCE_REASON,
    PARTNER.ACCESS_CONTACT_US_FORM,
  ],
};

/** Which partner-permission kind a customer-side user is. Teachers and admins are no kind. */
export function partnerKindOf(user: {
  userType: UserType;
  customerType?: CustomerRole | null;
}): PartnerUserKind | null {
  if (user.userType === 'student') return 'STUDENTS';
  if (user.userType !== 'partner') return null;
  switch (user.customerType) {
    case 'super-admin':
      return 'SUPER_SYSADMINS';
    case 'admin':
      return 'SYSADMINS';
    case 'link-contact':
      return 'LINK_CONTACTS';
    case 'parent':
      return 'PARENTS';
    default:
      return null;
  }
}

type PermissionSource = Iterable<string> | ReadonlySet<string>;
const asSet = (perms: PermissionSource): ReadonlySet<string> =>
  perms instanceof Set ? perms : new Set(perms);

export const hasAny = (perms: PermissionSource, ...anyOf: string[]): boolean => {
  const set = asSet(perms);
  return anyOf.some((perm) => set.has(perm));
};
export const isAdmin = (perms: PermissionSource) => hasAny(perms, MARKER_PERMISSIONS.admin);
export const isTeacher = (perms: PermissionSource) => hasAny(perms, MARKER_PERMISSIONS.teacher);
/** Admins and teachers together are "internal". */
export const isInternal = (perms: PermissionSource) =>
  hasAny(perms, MARKER_PERMISSIONS.admin, MARKER_PERMISSIONS.teacher);
export const isPartner = (perms: PermissionSource) => hasAny(perms, MARKER_PERMISSIONS.partner);
export const isStudent = (perms: PermissionSource) => hasAny(perms, MARKER_PERMISSIONS.student);

/**
 * Only administrators act on an administrator's account (docs/decisions/0037-first-user-trust-access.md):
 * an internal named permission (blocking, quality issues, modify-user) or a partner permission never
 * reaches an administrator, so a teacher holding CAN_BLOCK_USERS cannot lock the administrators out.
 * The user decider applies it to every command one user sends about another's account.
 */
export function mayActOnAccountOf(actor: PermissionSource, target: PermissionSource): boolean {
  return !isAdmin(target) || isAdmin(actor);
}

/** The user type given by the marker permissions (admin wins over teacher over partner over student). */
export function userTypeOf(perms: PermissionSource): UserType | null {
  if (isAdmin(perms)) return 'super_admin';
  if (isTeacher(perms)) return 'teacher';
  if (isPartner(perms)) return 'partner';
  if (isStudent(perms)) return 'student';
  return null;
}

/** The type label from the permissions ("Administrator", "Teacher", "Customer", "Student"; "" if none). */
export function typeLabel(perms: PermissionSource): string {
  const type = userTypeOf(perms);
  return type ? TYPE_LABELS[type] : '';
}

/**
 * An internal user with a named permission (spec §6): administrators hold every internal named
 * permission implicitly; teachers need it in their list; partners and students never qualify.
 */
export function internalMay(perms: PermissionSource, permission: InternalPermission): boolean {
  if (isAdmin(perms)) return true;
  return isInternal(perms) && hasAny(perms, permission);
}

/** A named permission without internal-role requirement: administrators, or anyone holding it. */
export function mayUseNamed(perms: PermissionSource, permission: NamedPermission): boolean {
  return isAdmin(perms) || hasAny(perms, permission);
}

/**
 * What a partner may see of their own customer's users: themselves, all students with
 * SEE_ALL_STUDENTS_DETAILS (without it, only the "selected" students linked to them: decision 0034,
 * checked against the student-links read model, not here), and the customer roles whose SEE_*
 * permission they hold. Everything else is invisible (404).
 */
export interface PartnerVisibility {
  students: boolean;
  customerTypes: CustomerRole[];
}

const SEE_ROLE: Record<CustomerRole, string> = {
  'super-admin': PARTNER.SEE_SUPER_SYSADMINS,
  admin: PARTNER.SEE_SYSADMINS,
  'link-contact': PARTNER.SEE_LINK_CONTACTS,
  parent: PARTNER.SEE_PARENTS,
};

export function partnerVisibility(perms: PermissionSource): PartnerVisibility {
  const set = asSet(perms);
  return {
    students: set.has(PARTNER.SEE_ALL_STUDENTS_DETAILS),
    customerTypes: CUSTOMER_ROLES.filter((role) => set.has(SEE_ROLE[role])),
  };
}

export function partnerMaySee(
  visibility: PartnerVisibility,
  target: { userType: string; customerType: string | null },
): boolean {
  if (target.userType === 'student') return visibility.students;
  if (target.userType !== 'partner' || !target.customerType) return false;
  return (visibility.customerTypes as string[]).includes(target.customerType);
}

/**
 * EHCP access (student files, the EHCP reminder list): administrators and internal holders of the
 * EHCP permission reach every student; a partner holding it reaches only the students of their own
 * customer they can see (decision 0035). `'all'`, `'own-customer'` or null (no EHCP access).
 */
export function ehcpScope(perms: PermissionSource): 'all' | 'own-customer' | null {
  if (isAdmin(perms)) return 'all';
  if (!hasAny(perms, NAMED_PERMISSIONS.EHCP)) return null;
  if (isInternal(perms)) return 'all';
  return isPartner(perms) ? 'own-customer' : null;
}

/** Any EHCP access (decision 0037): EHCP files, EHCP entries in a student's files, the latest EHCP file. */
export const mayAccessEhcp = (perms: PermissionSource): boolean => ehcpScope(perms) !== null;

export type StudentFileAction = 'view' | 'upload' | 'delete';

/**
 * Student files (decision 0037), for a reader who may see the student. "EHCP access and upload" is the
 * spec's one file permission: adding files (an upload URL, registering a file of any type: an upload URL
 * does not know what the file will be) and deleting them need it, and so does anything about an EHCP file
 * (listing, downloading). Without it, whoever sees the student reads and downloads its other files.
 */
export function mayUseStudentFiles(
  perms: PermissionSource,
  action: StudentFileAction,
  fileType: string | null,
): boolean {
  if (mayAccessEhcp(perms)) return true;
  return action === 'view' && fileType !== 'EHCP';
}

/** The reader of a user record: their permissions and, for partners, their customer role. */
export interface RecordReader {
  permissions: PermissionSource;
  customerType: string | null;
}

/**
 * Additional notes about a user (the user's `notes`, their contacts' notes and their one-page profile's
 * notes) are the provider's and the school's staff notes (decision 0037): administrators and partner
 * users read them; parents never (spec §6 "Parents cannot see additional user notes"), nor students
 * (about themselves) or teachers.
 */
export function mayReadStaffNotes(reader: RecordReader): boolean {
  if (isAdmin(reader.permissions)) return true;
  return isPartner(reader.permissions) && reader.customerType !== 'parent';
}

/**
 * A link contact sees "basic parent details" (spec §6): of a parent, who they are and whether they can
 * sign in, not the full user record (decision 0037).
 */
export function seesBasicDetailsOnly(
  reader: RecordReader,
  target: { userType: string; customerType: string | null },
): boolean {
  return (
    !isAdmin(reader.permissions) &&
    isPartner(reader.permissions) &&
    reader.customerType === 'link-contact' &&
    target.userType === 'partner' &&
    target.customerType === 'parent'
  );
}

/**
 * Full user records (permission list, notes, quality-issue reason, settings) are for administrators, and
 * for partners about the users of their own customer they may see. Other internal users listing users
 * (teachers and the tutors list) get the spec's "simple user" (§3), decision 0037.
 */
export const seesFullUserRecords = (perms: PermissionSource): boolean => isAdmin(perms) || isPartner(perms);

/**
 * Whose online status (open live connections) a user may read (decision 0037): administrators
 * everyone's; teachers only other tutors' (the users their lists show them); nobody else. Being online
 * tells when someone is at their screen, so it follows who may list the person.
 */
export function onlineStatusScope(perms: PermissionSource): 'all' | readonly UserType[] | null {
  if (isAdmin(perms)) return 'all';
  if (isTeacher(perms)) return ['teacher'];
  return null;
}

/**
 * Spec §6: "Sending EHCP requests needs a super admin or admin customer profile plus EHCP access and
 * user relations access". Only partner users have a customer profile, so administrators do not send
 * them (they upload the EHCP themselves).
 */
export function maySendEhcpRequests(perms: PermissionSource, customerType: string | null): boolean {
  return (
    isPartner(perms) &&
    (customerType === 'super-admin' || customerType === 'admin') &&
    hasAny(perms, NAMED_PERMISSIONS.EHCP) &&
    hasAny(perms, PARTNER.ACCESS_USER_RELATIONS)
  );
}

/** Cover requests (spec §4): internal users with the permission, except a teacher with a quality issue. */
export function mayAccessCoverRequests(perms: PermissionSource, hasQualityIssue: boolean): boolean {
  if (isTeacher(perms) && !isAdmin(perms) && hasQualityIssue) return false;
  return internalMay(perms, INTERNAL_PERMISSIONS.COVER_REQUESTS);
}

/** The permissions a new user of a type (and customer role) starts with. */
export function initialPermissions(userType: UserType, customerType?: CustomerRole | null): string[] {
  const role = userType === 'partner' && customerType ? CUSTOMER_ROLE_PERMISSIONS[customerType] : [];
  return [MARKER_FOR_TYPE[userType], ...role];
}

export const hasSafeguardingAccess = (perms: PermissionSource) =>
  isInternal(perms) && hasAny(perms, SAFEGUARDING.ACCESS, SAFEGUARDING.LEAD);
export const isSafeguardingLead = (perms: PermissionSource) =>
  isInternal(perms) && hasAny(perms, SAFEGUARDING.LEAD);
/** Administrators with safeguarding access manage incident types. */
export const mayManageIncidentTypes = (perms: PermissionSource) =>
  isAdmin(perms) && hasSafeguardingAccess(perms);
