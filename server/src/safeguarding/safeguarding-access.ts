import {
  MARKER_PERMISSIONS,
  PARTNER,
  SAFEGUARDING,
  hasAny,
  hasSafeguardingAccess,
  isInternal,
  isPartner,
} from '../identity/policy/policy.js';

/**
 * Who may do what with safeguarding incidents (docs/decisions/0024-safeguarding-access-tiers.md).
 * Pure: the controllers pass the actor's permissions and what they know of the actor and the incident.
 */
type Perms = ReadonlySet<string>;

/** Guard lists (any of): the precise checks below run in the handlers. */
export const REPORTER_PERMISSIONS = [
  MARKER_PERMISSIONS.admin,
  MARKER_PERMISSIONS.teacher,
  PARTNER.SUBMIT_SAFEGUARDING_INCIDENT_FOR_ALL_STUDENTS,
  PARTNER.SUBMIT_SAFEGUARDING_INCIDENT_FOR_SELECTED_STUDENTS,
  PARTNER.SEE_SAFEGUARDING_INCIDENT_REPORTS,
];
export const TYPE_MANAGERS = [MARKER_PERMISSIONS.admin];
export const SEE_PERMISSIONS = [SAFEGUARDING.ACCESS, SAFEGUARDING.LEAD];
export const LEAD_PERMISSIONS = [SAFEGUARDING.LEAD];
export const PARTNER_SEE = [PARTNER.SEE_SAFEGUARDING_INCIDENT_REPORTS];

/** Reads incident types: anyone who may report, and partners who see reports (they need the names). */
export function mayReportAtAll(perms: Perms): boolean {
  if (isInternal(perms)) return true;
  return (
    isPartner(perms) &&
    hasAny(
      perms,
      PARTNER.SUBMIT_SAFEGUARDING_INCIDENT_FOR_ALL_STUDENTS,
      PARTNER.SUBMIT_SAFEGUARDING_INCIDENT_FOR_SELECTED_STUDENTS,
      PARTNER.SEE_SAFEGUARDING_INCIDENT_REPORTS,
    )
  );
}

export interface Reporter {
  permissions: Perms;
  /** The partner's customer (null for internal users or a partner without one). */
  customerId: string | null;
  /** Students linked to the partner (the "selected students"). */
  linkedStudentIds: ReadonlySet<string>;
}

/**
 * May this user report an incident about these students? Super admins and teachers: any student.
 * Partners: with SUBMIT_..._FOR_ALL_STUDENTS, students of their own customer; with the selected-students
 * variant, only students linked to them. Returns the refusal reason, or null when allowed.
 */
export function reportRefusal(
  reporter: Reporter,
  students: { id: string; customerId: string | null }[],
): string | null {
  const perms = reporter.permissions;
  if (isInternal(perms)) return null;
  if (!isPartner(perms)) return 'Only administrators, teachers and permitted partners report incidents';
  const all = perms.has(PARTNER.SUBMIT_SAFEGUARDING_INCIDENT_FOR_ALL_STUDENTS);
  const selected = perms.has(PARTNER.SUBMIT_SAFEGUARDING_INCIDENT_FOR_SELECTED_STUDENTS);
  for (const s of students) {
    const ownCustomer = reporter.customerId !== null && s.customerId === reporter.customerId;
    if (all && ownCustomer) continue;
    if (selected && ownCustomer && reporter.linkedStudentIds.has(s.id)) continue;
    return all || selected
      ? `You may not report an incident about student ${s.id}`
      : 'You do not have permission to report safeguarding incidents';
  }
  return null;
}

export interface Reader {
  userId: string;
  permissions: Perms;
  customerId: string | null;
}

/**
 * May this user read this incident? Users with safeguarding access (and leads); the reporter (their own
 * report); a partner with SEE_SAFEGUARDING_INCIDENT_REPORTS when a student of the incident belongs to
 * their customer.
 */
export function mayReadIncident(
  reader: Reader,
  incident: { reporter_id: string; customer_ids: string[] },
): boolean {
  if (hasSafeguardingAccess(reader.permissions)) return true;
  if (incident.reporter_id === reader.userId) return true;
  return partnerMaySeeIncident(reader, incident);
}

export function partnerMaySeeIncident(reader: Reader, incident: { customer_ids: string[] }): boolean {
  return (
    isPartner(reader.permissions) &&
    reader.permissions.has(PARTNER.SEE_SAFEGUARDING_INCIDENT_REPORTS) &&
    reader.customerId !== null &&
    incident.customer_ids.includes(reader.customerId)
  );
}
