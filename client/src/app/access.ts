/**
 * Who may open what (spec §2, §6). Pure predicates over the stored permission list; no React, no storage.
 *
 * Marker permissions (spec §3) give the user's kind. Every permission string comes from the shared
 * catalogue (`@portal/projections/permissions`, decision 0048) that the server's identity policy imports
 * too; `access.unit.spec.ts` fails on a permission-like string in the client that is not catalogued.
 */

import {
  INTERNAL_PERMISSIONS,
  MARKER_PERMISSIONS,
  PARTNER,
  ROUTE_PERMISSIONS,
  SAFEGUARDING,
} from '@portal/projections/permissions';

export type PermissionList = readonly string[];
export type AccessPredicate = (permissions: PermissionList) => boolean;

/** Marker permissions (spec §3 "Marker permissions"), from the shared catalogue. */
export const USER_IS_ADMIN = MARKER_PERMISSIONS.admin;
export const USER_IS_TEACHER = MARKER_PERMISSIONS.teacher;
export const USER_IS_PARTNER = MARKER_PERMISSIONS.partner;
export const USER_IS_STUDENT = MARKER_PERMISSIONS.student;

/**
 * Internal named permissions: administrators hold them implicitly (the server's identity policy).
 * The safeguarding tiers are not implicit for administrators (ADR 0024).
 */
export const CAN_MANAGE_PROGRAMMES = INTERNAL_PERMISSIONS.PROGRAMME;
export const CAN_MODIFY_USER = INTERNAL_PERMISSIONS.MODIFY_USER;
export const CAN_ACCESS_RECORDINGS = INTERNAL_PERMISSIONS.RECORDINGS;
export const CAN_ACCESS_SAFEGUARDING = SAFEGUARDING.ACCESS;
export const CAN_LEAD_SAFEGUARDING = SAFEGUARDING.LEAD;
export const AUDIT = INTERNAL_PERMISSIONS.AUDIT;
export const CAN_BLOCK_USERS = INTERNAL_PERMISSIONS.BLOCK_USERS;
export const CAN_SET_QUALITY_ISSUE = INTERNAL_PERMISSIONS.QUALITY_ISSUE;
export const CAN_IMPERSONATE = INTERNAL_PERMISSIONS.IMPERSONATE;
export const CAN_MODIFY_NETWORK = INTERNAL_PERMISSIONS.NETWORK;
export const CAN_MANAGE_TEMPLATES = INTERNAL_PERMISSIONS.TEMPLATES;

/** Named permissions without an internal-role requirement (spec §6; ADR 0009). */
export const CAN_VIEW_TEACHERS_TIMETABLES = ROUTE_PERMISSIONS.TEACHERS_TIMETABLES;
export const CAN_ACCESS_HOMEWORKS_PANEL = ROUTE_PERMISSIONS.HOMEWORKS_PANEL;
export const CAN_ACCESS_PATHWAYS = ROUTE_PERMISSIONS.PATHWAYS;
export const CAN_SETUP_PATHWAYS = ROUTE_PERMISSIONS.PATHWAYS_SETUP;

/** Partner permissions (spec §6, prefix PARTNER_CAN_). */
export const PARTNER_CAN_SEE_ALL_STUDENTS_DETAILS = PARTNER.SEE_ALL_STUDENTS_DETAILS;
export const PARTNER_CAN_SEE_SUPER_SYSADMINS = PARTNER.SEE_SUPER_SYSADMINS;
export const PARTNER_CAN_SEE_SYSADMINS = PARTNER.SEE_SYSADMINS;
export const PARTNER_CAN_SEE_LINK_CONTACTS = PARTNER.SEE_LINK_CONTACTS;
export const PARTNER_CAN_SEE_PARENTS = PARTNER.SEE_PARENTS;
export const PARTNER_CAN_SEE_SAFEGUARDING_INCIDENT_REPORTS = PARTNER.SEE_SAFEGUARDING_INCIDENT_REPORTS;
export const PARTNER_CAN_EDIT_PROFILE_FOR_SELECTED_USER = PARTNER.EDIT_PROFILE_FOR_SELECTED_USER;
export const PARTNER_CAN_ACCESS_USER_RELATIONS = PARTNER.ACCESS_USER_RELATIONS;

/** Partner permissions that let a partner see users of some kind (the "partner see-user" requirement). */
export const PARTNER_SEE_USER_PERMISSIONS: readonly string[] = [
  PARTNER_CAN_SEE_ALL_STUDENTS_DETAILS,
  PARTNER_CAN_SEE_SUPER_SYSADMINS,
  PARTNER_CAN_SEE_SYSADMINS,
  PARTNER_CAN_SEE_LINK_CONTACTS,
  PARTNER_CAN_SEE_PARENTS,
];

// Building blocks: one permission, or any of several (spec §6 "checks exist for one permission or any of several").

export function has(permissions: PermissionList, permission: string): boolean {
  return permissions.includes(permission);
}

export function hasAny(permissions: PermissionList, candidates: readonly string[]): boolean {
  return candidates.some((candidate) => permissions.includes(candidate));
}

// Roles.

export const isAdmin: AccessPredicate = (p) => has(p, USER_IS_ADMIN);
export const isTeacher: AccessPredicate = (p) => has(p, USER_IS_TEACHER);
export const isPartner: AccessPredicate = (p) => has(p, USER_IS_PARTNER);
/** Admin or teacher (spec §6 "internal"). */
export const isInternal: AccessPredicate = (p) => isAdmin(p) || isTeacher(p);
/** Portal access: admin, teacher or partner (spec §1). */
export const hasPortalAccess: AccessPredicate = (p) => isInternal(p) || isPartner(p);

/** An internal user with an internal named permission; administrators hold them all implicitly. */
export function internalMay(permissions: PermissionList, permission: string): boolean {
  if (isAdmin(permissions)) return true;
  return isInternal(permissions) && has(permissions, permission);
}

// Route requirements named in spec §2.

/** programmes/:id/groups/add, mentoring/programmes/:id/groups/add. Internal user with the programme permission. */
export const canModifyProgram: AccessPredicate = (p) => internalMay(p, CAN_MANAGE_PROGRAMMES);
/** users/import/:type, fields, users/permissions. Admin-only plus modify-user (spec §6). */
export const canModifyUser: AccessPredicate = (p) => isAdmin(p) && internalMay(p, CAN_MODIFY_USER);
/** my-users, my-users/import/:type, users/:id/enrolment, my-users/:id/details, my-users/:type/:id. */
export const canPartnerSeeUser: AccessPredicate = (p) =>
  isPartner(p) && hasAny(p, PARTNER_SEE_USER_PERMISSIONS);
/**
 * safeguarding-incidents. Internal user with safeguarding access or the lead permission. Tiered on
 * purpose: being an administrator does not by itself open safeguarding records (ADR 0024).
 */
export const canAccessSafeguarding: AccessPredicate = (p) =>
  isInternal(p) && hasAny(p, [CAN_ACCESS_SAFEGUARDING, CAN_LEAD_SAFEGUARDING]);
/** Super admins and teachers report safeguarding concerns; partners with a submit permission too (§6). */
export const mayReportSafeguarding: AccessPredicate = (p) =>
  isInternal(p) ||
  (isPartner(p) &&
    hasAny(p, [
      PARTNER.SUBMIT_SAFEGUARDING_INCIDENT_FOR_ALL_STUDENTS,
      PARTNER.SUBMIT_SAFEGUARDING_INCIDENT_FOR_SELECTED_STUDENTS,
    ]));
/** Safeguarding leads acknowledge, review, assign and close incidents. */
export const isSafeguardingLead: AccessPredicate = (p) => isInternal(p) && has(p, CAN_LEAD_SAFEGUARDING);
/** my-safeguarding-incidents. */
export const canPartnerSeeIncidentReports: AccessPredicate = (p) =>
  isPartner(p) && has(p, PARTNER_CAN_SEE_SAFEGUARDING_INCIDENT_REPORTS);
/**
 * half-term-reports/assignments: "half-term assignment access" (CAN_MANAGE_HALF_TERM_ASSIGNMENTS,
 * decision 0057); administrators hold it implicitly and alone see all assignments (spec §6).
 */
export const canAccessHalfTermAssignments: AccessPredicate = (p) =>
  internalMay(p, INTERNAL_PERMISSIONS.HALF_TERM_ASSIGNMENTS);
/** half-term-reports-qa: QA reviewers (CAN_QA_REVIEW; administrators implicitly). */
export const canQaReviewReports: AccessPredicate = (p) => internalMay(p, INTERNAL_PERMISSIONS.QA_REVIEW);
/** half-term-reports-qa-lead: QA leads (CAN_QA_LEAD_REVIEW; administrators implicitly). */
export const canLeadReviewReports: AccessPredicate = (p) =>
  internalMay(p, INTERNAL_PERMISSIONS.QA_LEAD_REVIEW);
/** half-term-reports (the list of all): the server's rule, readers of every report and assignment managers. */
export const canListHalfTermReports: AccessPredicate = (p) =>
  [
    INTERNAL_PERMISSIONS.QA_REVIEW,
    INTERNAL_PERMISSIONS.QA_REVOKE,
    INTERNAL_PERMISSIONS.QA_LEAD_REVIEW,
    INTERNAL_PERMISSIONS.QA_LEAD_REVOKE,
    INTERNAL_PERMISSIONS.HALF_TERM_ASSIGNMENTS,
  ].some((perm) => internalMay(p, perm));
/** partner/half-term-reports: partners who may see assessments. */
export const canPartnerSeeAssessments: AccessPredicate = (p) =>
  isPartner(p) && has(p, PARTNER.SEE_ASSESSMENTS);
/** lessons, my-lessons, timetable: internal users, and partners with the lesson-details permission (the API's rule). */
export const canReadLessons: AccessPredicate = (p) =>
  isInternal(p) || (isPartner(p) && has(p, PARTNER.SEE_ALL_LESSON_DETAILS));
/**
 * my-child/:id?: partners who see only their selected students (parents and link contacts; decision
 * 0062). The server's rule is wider (any partner for a student in scope); the page is theirs.
 */
export const isFamilyPartner: AccessPredicate = (p) =>
  isPartner(p) && !has(p, PARTNER_CAN_SEE_ALL_STUDENTS_DETAILS);
/**
 * attendance, attendance/groups, attendance/programmes, attendance/different-class: the attendance
 * lists' API rule (decision 0056): internal users, and partners with SEE_ATTENDANCE.
 */
export const canReadAttendance: AccessPredicate = (p) =>
  isInternal(p) || (isPartner(p) && has(p, PARTNER.SEE_ATTENDANCE));
/** Adding and renaming customers: internal users with "customer edits" (administrators implicitly), as the API. */
export const canEditCustomers: AccessPredicate = (p) => internalMay(p, INTERNAL_PERMISSIONS.CUSTOMER_EDITS);
/** customers: customer editors (CAN_EDIT_CUSTOMERS; administrators implicitly) and partners, as the API. */
export const canReadCustomers: AccessPredicate = (p) => canEditCustomers(p) || isPartner(p);
/** timetables/teachers: administrators, or anyone holding the permission (the server's rule, decision 0058). */
export const canViewTeachersTimetables: AccessPredicate = (p) =>
  isAdmin(p) || has(p, CAN_VIEW_TEACHERS_TIMETABLES);
/** homeworks. */
export const canAccessHomeworksPanel: AccessPredicate = (p) => has(p, CAN_ACCESS_HOMEWORKS_PANEL);
/** pathways, pathways/details/:id?. */
export const canAccessPathways: AccessPredicate = (p) => has(p, CAN_ACCESS_PATHWAYS);
/** pathways/setup/:id?. */
export const canSetupPathways: AccessPredicate = (p) => has(p, CAN_SETUP_PATHWAYS);
/** users/:id/audit: the user's history and past states (the audit endpoints' rule). */
export const canAudit: AccessPredicate = (p) => internalMay(p, AUDIT);
/** recordings. Internal user with the view-all-recordings permission. */
export const canViewAllRecordings: AccessPredicate = (p) => internalMay(p, CAN_ACCESS_RECORDINGS);
/** partner/organization, partner/organization/:id/contacts. */
export const canPartnerEditProfile: AccessPredicate = (p) =>
  isPartner(p) && has(p, PARTNER_CAN_EDIT_PROFILE_FOR_SELECTED_USER);
/** partner/relationships/:tabName?: partners holding the user-relations permission (ADR 0034). */
export const canPartnerAccessUserRelations: AccessPredicate = (p) =>
  isPartner(p) && has(p, PARTNER_CAN_ACCESS_USER_RELATIONS);
/**
 * Changing who is linked to whom (ADR 0034): administrators with modify-user, and partners with the
 * user-relations permission (the server also requires their customer role to be super-admin or admin).
 */
export const canManageUserRelations: AccessPredicate = (p) =>
  canModifyUser(p) || canPartnerAccessUserRelations(p);
/** customers/details/:id. Spec §6: the partner dashboard is for admin or partner. */
export const hasPartnerAccess: AccessPredicate = (p) => isAdmin(p) || isPartner(p);
/** Areas spec §6 lists as admin-only (students, teachers, partner users, admins, groups, reports, ...). */
export const adminOnly: AccessPredicate = isAdmin;

/** Creating or changing a network: spec §6 "Network modify needs admin plus the network permission". */
export const canModifyNetwork: AccessPredicate = (p) => isAdmin(p) && has(p, CAN_MODIFY_NETWORK);
/** Reading networks (the networks API): administrators, or holders of the network permission. */
export const canReadNetworks: AccessPredicate = (p) => isAdmin(p) || has(p, CAN_MODIFY_NETWORK);

/** permission-templates, permission-templates/:id: the permission templates API's rule. */
export const canManagePermissionTemplates: AccessPredicate = (p) => internalMay(p, CAN_MANAGE_TEMPLATES);

/** Display name of a user's kind from the marker permissions (spec §3 "Type labels"). */
export function userTypeLabel(permissions: PermissionList): string {
  if (isAdmin(permissions)) return 'Administrator';
  if (isTeacher(permissions)) return 'Teacher';
  if (isPartner(permissions)) return 'Customer';
  if (has(permissions, USER_IS_STUDENT)) return 'Student';
  return 'User';
}
