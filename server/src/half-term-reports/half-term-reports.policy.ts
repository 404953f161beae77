import type { Bind, ReportState } from '@portal/projections';
import {
  INTERNAL_PERMISSIONS,
  NAMED_PERMISSIONS,
  PARTNER,
  hasAny,
  internalMay,
  isAdmin,
  isInternal,
  isPartner,
  mayUseNamed,
  partnerVisibility,
} from '../identity/policy/policy.js';
import { permissionRule } from '../platform/auth/rule.js';
import type { Actor } from '../platform/auth/request-context.js';
import { linkedStudentIdsSql, NO_CUSTOMER } from '../core/access/student-scope.js';

/**
 * Who may do what with half-term reports (pure; spec §2, §6; decision 0057).
 * - Timeframes: internal users read them; administrators create, change and generate.
 * - Reports are read by administrators and holders of a QA permission (every report), by their writers,
 *   and by holders of CAN_MANAGE_HALF_TERM_ASSIGNMENTS for the programmes whose groups they teach (their
 *   scope); the all-assignments view is admin-only.
 * - QA review (claim, release, request changes, approve): CAN_QA_REVIEW; revoking an approval:
 *   CAN_QA_REVOKE (the approver) or a QA lead; lead review (claim, release, return, publish):
 *   CAN_QA_LEAD_REVIEW; revoking a publication: CAN_QA_LEAD_REVOKE; discard and restore:
 *   CAN_DISCARD_HALF_TERM_REPORTS. Administrators hold the internal ones implicitly.
 * - Partners with PARTNER_CAN_SEE_ASSESSMENTS read their school's published reports from the release
 *   date; link contacts and parents (without SEE_ALL_STUDENTS_DETAILS) only their selected students'.
 *   Anything else is invisible (404).
 */
const P = INTERNAL_PERMISSIONS;

export const mayQaReview = (perms: ReadonlySet<string>) => internalMay(perms, P.QA_REVIEW);
export const mayLeadReview = (perms: ReadonlySet<string>) => internalMay(perms, P.QA_LEAD_REVIEW);
export const mayRevokeQaApproval = (perms: ReadonlySet<string>) =>
  internalMay(perms, P.QA_REVOKE) || mayLeadReview(perms);
export const mayRevokePublication = (perms: ReadonlySet<string>) => internalMay(perms, P.QA_LEAD_REVOKE);
export const mayDiscardReports = (perms: ReadonlySet<string>) =>
  mayUseNamed(perms, NAMED_PERMISSIONS.DISCARD_HALF_TERM_REPORTS);
export const mayManageAssignments = (perms: ReadonlySet<string>) =>
  internalMay(perms, P.HALF_TERM_ASSIGNMENTS);
export const seesAllAssignments = (perms: ReadonlySet<string>) => isAdmin(perms);
export const mayManageTimeframes = (perms: ReadonlySet<string>) => isAdmin(perms);
/** Per-report deadline extensions (decision 0061): administrators and QA leads. */
export const mayExtendDeadlines = (perms: ReadonlySet<string>) => isAdmin(perms) || mayLeadReview(perms);
export const partnerSeesReports = (perms: ReadonlySet<string>) =>
  isPartner(perms) && hasAny(perms, PARTNER.SEE_ASSESSMENTS);

/** Reads every report (administrators, QA reviewers and leads). */
export const readsAllReports = (perms: ReadonlySet<string>) =>
  isAdmin(perms) ||
  mayQaReview(perms) ||
  mayLeadReview(perms) ||
  internalMay(perms, P.QA_REVOKE) ||
  mayRevokePublication(perms);

/** The report list (`GET /half-term-reports/`): readers of all, and assignment managers (scoped). */
export const mayListReports = (perms: ReadonlySet<string>) =>
  readsAllReports(perms) || mayManageAssignments(perms);

/** SQL on `rm_half_term_reports r`: the programmes whose groups `me` (a bound id) teaches. */
export const teachesProgrammeSql = (me: string) =>
  `EXISTS (SELECT 1 FROM rm_groups g JOIN rm_group_teachers gt ON gt.group_id = g.id
     WHERE g.programme_id = r.programme_id AND gt.teacher_id = ${me}::uuid)`;

/** The reports an internal user sees in lists, as a condition on `r`; null: all. */
export function internalReportScope(
  actor: Pick<Actor, 'userId' | 'permissions'>,
): ((bind: Bind) => string) | null {
  if (readsAllReports(actor.permissions)) return null;
  return (bind) => {
    const me = bind(actor.userId);
    const own = `r.writer_ids @> jsonb_build_array(${me}::text)`;
    return mayManageAssignments(actor.permissions) ? `(${own} OR ${teachesProgrammeSql(me)})` : own;
  };
}

/** The scope of the assignments screen: all (administrators with `all`), or the manager's programmes. */
export function assignmentScope(
  actor: Pick<Actor, 'userId' | 'permissions'>,
  all: boolean,
): ((bind: Bind) => string) | null {
  if (all && seesAllAssignments(actor.permissions)) return null;
  return (bind) => teachesProgrammeSql(bind(actor.userId));
}

/** The partner's reports as a condition on `r` (their customer; selected students unless they see all). */
export function partnerReportScope(
  actor: Pick<Actor, 'userId' | 'permissions' | 'customerId'>,
): (bind: Bind) => string {
  const seeAll = partnerVisibility(actor.permissions).students;
  return (bind) => {
    const customer = `r.customer_id = ${bind(actor.customerId ?? NO_CUSTOMER)}::uuid`;
    if (seeAll) return customer;
    return `${customer} AND r.student_id IN (${linkedStudentIdsSql(`${bind(actor.userId)}::uuid`)})`;
  };
}

/** What a report row must hold for the checks below. */
export interface ReportFacts {
  state: ReportState;
  writer_ids: string[];
  qa_claimed_by: string | null;
  lead_claimed_by: string | null;
  customer_id: string;
  published_revision: number | null;
  released: boolean;
}

export type ReportAccess = 'staff' | 'writer' | 'manager' | 'partner';

/**
 * How an actor may see one report, or null (404). `teachesProgramme` and `linkedToStudent` are facts
 * the caller read (the manager's scope, a link contact's selected students).
 */
export function reportAccess(
  actor: Pick<Actor, 'userId' | 'permissions' | 'customerId'>,
  row: ReportFacts,
  facts: { teachesProgramme: boolean; linkedToStudent: boolean },
): ReportAccess | null {
  const perms = actor.permissions;
  if (readsAllReports(perms)) return 'staff';
  if (isInternal(perms)) {
    if (row.writer_ids.includes(actor.userId)) return 'writer';
    if (mayManageAssignments(perms) && facts.teachesProgramme) return 'manager';
    return null;
  }
  if (!partnerSeesReports(perms)) return null;
  if (row.state !== 'published' || row.published_revision === null || !row.released) return null;
  if (actor.customerId === null || row.customer_id !== actor.customerId) return null;
  if (!partnerVisibility(perms).students && !facts.linkedToStudent) return null;
  return 'partner';
}

export type DocumentMode = 'edit' | 'suggest' | 'view';

/**
 * The most the actor may do with the live text in the report's state (brief §2, decision 0060):
 * draft and returned: writers edit; in_qa: the QA claimer edits (the editor opens suggesting, editing
 * directly is their choice) and writers suggest and resolve suggestions; in_lead_review: the lead
 * claimer edits (opens suggesting), writers suggest; submitted, qa_approved, published and discarded:
 * everyone views. Partners never open the live text (they read the published revision).
 */
export function documentMode(
  actor: Pick<Actor, 'userId' | 'permissions'>,
  row: Pick<ReportFacts, 'state' | 'writer_ids' | 'qa_claimed_by' | 'lead_claimed_by'>,
  access: ReportAccess | null,
): DocumentMode | null {
  if (access === null || access === 'partner') return null;
  const me = actor.userId;
  const writer = row.writer_ids.includes(me);
  switch (row.state) {
    case 'draft':
    case 'returned':
      return writer ? 'edit' : 'view';
    case 'in_qa':
      return row.qa_claimed_by === me ? 'edit' : writer ? 'suggest' : 'view';
    case 'in_lead_review':
      return row.lead_claimed_by === me ? 'edit' : writer ? 'suggest' : 'view';
    default:
      return 'view';
  }
}

export const ReportRules = {
  internal: permissionRule(isInternal, 'Half-term reports are for internal users'),
  list: permissionRule(mayListReports, 'You cannot see the list of all half-term reports'),
  qa: permissionRule(mayQaReview, 'You need the QA review permission'),
  lead: permissionRule(mayLeadReview, 'You need the QA lead review permission'),
  revokeApproval: permissionRule(mayRevokeQaApproval, 'You need the QA revoke or QA lead permission'),
  revokePublication: permissionRule(mayRevokePublication, 'You need the QA lead revoke permission'),
  discard: permissionRule(mayDiscardReports, 'You need the discard half-term reports permission'),
  assignments: permissionRule(mayManageAssignments, 'You need half-term assignment access'),
  timeframes: permissionRule(mayManageTimeframes, 'Only administrators set up timeframes'),
  extendDeadline: permissionRule(mayExtendDeadlines, 'Only administrators and QA leads extend deadlines'),
  partner: permissionRule(partnerSeesReports, 'You cannot see assessments'),
};
