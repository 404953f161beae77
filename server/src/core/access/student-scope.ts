import type { Bind } from '@portal/projections';
import { ehcpScope, isAdmin, partnerVisibility } from '../../identity/policy/policy.js';

/**
 * "Which students may this user see": the one rule (decision 0046, from decision 0034), for every list
 * and check that shows students (users, one-page profiles, safeguarding, and the domains to come:
 * enrolments, lessons, attendance, reports). Unrestricted users (administrators by default) see every
 * student; anyone else sees only students of their own customer (none without a customer), and of
 * those only the students linked to them unless they may see all (SEE_ALL_STUDENTS_DETAILS by default).
 */

/** A customer id that matches no customer: a partner without a customer sees nothing of any. */
export const NO_CUSTOMER = '00000000-0000-0000-0000-000000000000';

/** What the rule needs of the viewer (an `Actor` has it). */
export interface StudentViewer {
  userId: string;
  permissions: Iterable<string> | ReadonlySet<string>;
  customerId: string | null;
}

/** The viewer's scope, decided once; `studentScopeSql` and `studentInScope` apply it. */
export type StudentScope =
  | { readonly all: true }
  | {
      readonly all: false;
      /** Their customer; null sees no student. */
      readonly customerId: string | null;
      /** Only students linked to this partner; null: all of the customer's students. */
      readonly linkedTo: string | null;
    };

export interface StudentScopeOptions {
  /** Sees every student (default: administrators). */
  unrestricted?: boolean;
  /** Sees all of their customer's students, not only linked ones (default: SEE_ALL_STUDENTS_DETAILS). */
  seeAll?: boolean;
}

export function studentScope(viewer: StudentViewer, options: StudentScopeOptions = {}): StudentScope {
  if (options.unrestricted ?? isAdmin(viewer.permissions)) return { all: true };
  const seeAll = options.seeAll ?? partnerVisibility(viewer.permissions).students;
  return { all: false, customerId: viewer.customerId, linkedTo: seeAll ? null : viewer.userId };
}

/**
 * When a row of `rm_student_links` (alias `l`) still counts (decision 0034): both users exist (not
 * deleted) and the student still belongs to the partner's customer. The one definition, used by the
 * links' own queries and by every student scope, so a student who moves customer or is deleted is
 * never shown through an old link.
 */
export const LIVE_LINK = `
  JOIN rm_users p ON p.id = l.partner_id AND p.deleted_at IS NULL AND p.user_type = 'partner'
  JOIN rm_users s ON s.id = l.student_id AND s.deleted_at IS NULL AND s.user_type = 'student'
                 AND s.customer_id = p.customer_id`;

/** SQL: the ids of the students linked to the partner whose id is the parameter `param` (e.g. `$3`). */
export const linkedStudentIdsSql = (param: string) =>
  `SELECT l.student_id FROM rm_student_links l ${LIVE_LINK} WHERE l.partner_id = ${param}`;

/**
 * The scope as a SQL condition on a student row (for `filters().raw((bind) => ...)`), or null when it
 * restricts nothing. `columns`: the row's id and customer columns. `customer: false` leaves the
 * customer condition to the caller (a list that scopes every row to the customer already).
 */
export function studentScopeSql(
  scope: StudentScope,
  bind: Bind,
  columns: { id: string; customerId: string } = { id: 'id', customerId: 'customer_id' },
  { customer = true }: { customer?: boolean } = {},
): string | null {
  if (scope.all) return null;
  const conditions: string[] = [];
  if (customer) {
    if (scope.customerId === null) return 'false';
    conditions.push(`${columns.customerId} = ${bind(scope.customerId)}`);
  }
  if (scope.linkedTo !== null)
    conditions.push(`${columns.id} IN (${linkedStudentIdsSql(bind(scope.linkedTo))})`);
  return conditions.length ? conditions.join(' AND ') : null;
}

/**
 * The scope as a check on one student. `isLinked(partnerId, studentId)` is asked only when the answer
 * depends on a link (pass a set of linked ids, or a read-model lookup).
 */
export function studentInScope(
  scope: StudentScope,
  student: { id: string; customerId: string | null },
  isLinked: (partnerId: string, studentId: string) => boolean,
): boolean;
export function studentInScope(
  scope: StudentScope,
  student: { id: string; customerId: string | null },
  isLinked: (partnerId: string, studentId: string) => Promise<boolean>,
): Promise<boolean>;
export function studentInScope(
  scope: StudentScope,
  student: { id: string; customerId: string | null },
  isLinked: (partnerId: string, studentId: string) => boolean | Promise<boolean>,
): boolean | Promise<boolean> {
  if (scope.all) return true;
  if (scope.customerId === null || student.customerId !== scope.customerId) return false;
  if (scope.linkedTo === null) return true;
  return isLinked(scope.linkedTo, student.id);
}

/**
 * The students whose EHCP files, reminders and requests a viewer reaches (decision 0035), as a scope:
 * administrators and internal holders of the EHCP permission every student; a partner holding it the
 * students of their own customer they can see (linked ones unless SEE_ALL_STUDENTS_DETAILS); null
 * without EHCP access. (`ehcpScope` in the policy says which of the three from the permissions alone.)
 */
export function ehcpStudentScope(viewer: StudentViewer): StudentScope | null {
  const reach = ehcpScope(viewer.permissions);
  if (reach === null) return null;
  return reach === 'all' ? { all: true } : studentScope(viewer, { unrestricted: false });
}
