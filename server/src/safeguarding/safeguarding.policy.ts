import type { IncidentActionRow, IncidentStepRow } from '@portal/projections';
import {
  MARKER_PERMISSIONS,
  PARTNER,
  SAFEGUARDING,
  hasAny,
  hasSafeguardingAccess,
  isInternal,
  isPartner,
  isSafeguardingLead,
  mayManageIncidentTypes,
} from '../identity/policy/policy.js';
import { permissionRule } from '../platform/auth/rule.js';
import {
  studentInScope,
  studentScope,
  type StudentScope,
  type StudentViewer,
} from '../core/access/student-scope.js';
import type {
  ChronologyEntryView,
  IncidentAudience,
  IncidentDetailsView,
  IncidentView,
  ReaderIncidentView,
} from './incidents.dto.js';

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

/** Partners with a submit permission (either), and every internal user. */
export function maySubmitAtAll(perms: Perms): boolean {
  return (
    isInternal(perms) ||
    hasAny(
      perms,
      PARTNER.SUBMIT_SAFEGUARDING_INCIDENT_FOR_ALL_STUDENTS,
      PARTNER.SUBMIT_SAFEGUARDING_INCIDENT_FOR_SELECTED_STUDENTS,
    )
  );
}

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

/** Route rules (`@Allow(...)`, decision 0046): what the guard checks before a handler runs. */
export const SafeguardingRules = {
  /** Internal users with safeguarding access or lead (the triage list, chronology). */
  access: permissionRule(hasSafeguardingAccess),
  /** Internal safeguarding leads (the workflow, the views log, verification). */
  lead: permissionRule(isSafeguardingLead, 'Only a safeguarding lead may do this'),
  /** Partner users (the partner list). */
  partner: permissionRule(isPartner),
  /** Internal users, and partners with a submit permission (the reportable students). */
  submit: permissionRule(maySubmitAtAll),
  /** Reads incident types (see `mayReportAtAll`). */
  readTypes: permissionRule(mayReportAtAll),
  /** Administrators with safeguarding access. */
  manageTypes: permissionRule(
    mayManageIncidentTypes,
    'Managing incident types needs an administrator with safeguarding access',
  ),
};

/**
 * The students a user may report about, as the one student scope (decision 0046): internal users
 * (super admins, teachers) any student; a partner the students of their own customer, only the ones
 * linked to them unless they hold SUBMIT_..._FOR_ALL_STUDENTS. Used by the reportable-students list and
 * by `reportRefusal`, so the two cannot disagree.
 */
export function reportScope(reporter: StudentViewer & { permissions: Perms }): StudentScope {
  return studentScope(reporter, {
    unrestricted: isInternal(reporter.permissions),
    seeAll: reporter.permissions.has(PARTNER.SUBMIT_SAFEGUARDING_INCIDENT_FOR_ALL_STUDENTS),
  });
}

export interface Reporter {
  userId: string;
  permissions: Perms;
  /** The partner's customer (null for internal users or a partner without one). */
  customerId: string | null;
  /** Students linked to the partner (the "selected students"). */
  linkedStudentIds: ReadonlySet<string>;
}

/**
 * May this user report an incident about these students? Internal users: any student. Partners with a
 * submit permission: the students of their `reportScope`. Returns the refusal reason, or null.
 */
export function reportRefusal(
  reporter: Reporter,
  students: { id: string; customerId: string | null }[],
): string | null {
  const perms = reporter.permissions;
  if (isInternal(perms)) return null;
  if (!isPartner(perms)) return 'Only administrators, teachers and permitted partners report incidents';
  const mayReport = maySubmitAtAll(perms);
  const scope = reportScope(reporter);
  for (const s of students) {
    if (mayReport && studentInScope(scope, s, (_partner, id) => reporter.linkedStudentIds.has(id))) continue;
    return mayReport
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
 * Which view of this incident this user gets, or null when they may not read it (decision 0037):
 * - 'case': users with safeguarding access (and leads), the whole record;
 * - 'partner': a partner with SEE_SAFEGUARDING_INCIDENT_REPORTS when a student of the incident belongs to
 *   their customer: the facts, the steps and what was done, without the lead's case notes;
 * - 'reporter': whoever reported it (without access of their own): what they reported and its status.
 */
export function incidentAudience(
  reader: Reader,
  incident: { reporter_id: string; customer_ids: string[] },
): IncidentAudience | null {
  if (hasSafeguardingAccess(reader.permissions)) return 'case';
  if (partnerMaySeeIncident(reader, incident)) return 'partner';
  if (incident.reporter_id === reader.userId) return 'reporter';
  return null;
}

/** May this user read this incident at all (in one of the views of `incidentAudience`)? */
export function mayReadIncident(
  reader: Reader,
  incident: { reporter_id: string; customer_ids: string[] },
): boolean {
  return incidentAudience(reader, incident) !== null;
}

export function partnerMaySeeIncident(reader: Reader, incident: { customer_ids: string[] }): boolean {
  return (
    isPartner(reader.permissions) &&
    reader.permissions.has(PARTNER.SEE_SAFEGUARDING_INCIDENT_REPORTS) &&
    reader.customerId !== null &&
    incident.customer_ids.includes(reader.customerId)
  );
}

/**
 * The partner's chronology: steps the school may know of, with the lead's own words replaced where they
 * are case notes (risk reasons, correction reasons, the note on informing the partner, reopening
 * reasons). Escalations and claims (internal triage) and any kind not named here are left out.
 */
const PARTNER_TIMELINE: Readonly<Record<string, 'as-is' | { summary: string }>> = {
  reported: 'as-is',
  acknowledged: 'as-is',
  under_review: 'as-is',
  action: 'as-is',
  referral: 'as-is',
  partner_informed: { summary: 'Partner informed' },
  partner_feedback: 'as-is',
  risk_changed: { summary: 'Risk level changed' },
  corrected: { summary: 'Record corrected' },
  closed: 'as-is',
  reopened: { summary: 'Reopened' },
};

function partnerTimeline(timeline: readonly ChronologyEntryView[]): ChronologyEntryView[] {
  return timeline.flatMap((entry) => {
    const rule = PARTNER_TIMELINE[entry.kind];
    if (rule === undefined) return [];
    return [{ ...entry, summary: rule === 'as-is' ? entry.summary : rule.summary, actor_id: null }];
  });
}

/**
 * An incident as `audience` may read it. `reportedRiskLevel`: the level the reporter chose (the
 * reporter view shows what they reported, not the lead's later assessment). `timeline`: the
 * incident's chronology, for the details (the lists have none).
 */
export function incidentViewFor(
  audience: IncidentAudience,
  incident: IncidentView,
  options: { timeline?: readonly ChronologyEntryView[]; reportedRiskLevel?: string } = {},
): IncidentDetailsView {
  const timeline = options.timeline ? [...options.timeline] : undefined;
  if (audience === 'case') return { audience, ...incident, ...(timeline ? { timeline } : {}) };
  const reported: ReaderIncidentView = {
    audience,
    id: incident.id,
    status: incident.status,
    risk_level: incident.risk_level,
    reporter: incident.reporter,
    students: incident.students,
    types: incident.types,
    occurred_at: incident.occurred_at,
    reported_at: incident.reported_at,
    lesson_id: incident.lesson_id,
    description: incident.description,
    immediate_action: incident.immediate_action,
    lead_told_verbally: incident.lead_told_verbally,
    acknowledged_at: incident.acknowledged_at,
    closed_at: incident.closed_at,
    position: incident.position,
  };
  if (audience === 'reporter')
    return { ...reported, risk_level: options.reportedRiskLevel ?? incident.risk_level };
  return {
    ...reported,
    customer_ids: incident.customer_ids,
    // What was done, and that a referral was made and to whom; not the agency's reference (the lead's
    // handle on the case) nor who on the staff is assigned.
    actions: (incident.actions as IncidentActionRow[]).map((a) => ({
      id: a.id,
      description: a.description,
      due_date: a.due_date,
      added_at: a.added_at,
      referral: a.referral ? { agency: a.referral.agency } : null,
    })),
    partner_informed: (incident.partner_informed as IncidentStepRow[]).map((p) => ({ at: p.at })),
    // The school's own feedback.
    partner_feedback: (incident.partner_feedback as IncidentStepRow[]).map((p) => ({
      at: p.at,
      text: p.text,
    })),
    ...(timeline ? { timeline: partnerTimeline(timeline) } : {}),
  };
}
