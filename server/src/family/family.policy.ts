import { PARTNER, hasAny, isAdmin, isPartner } from '../identity/policy/policy.js';
import { permissionRule } from '../platform/auth/rule.js';
import type { Actor } from '../platform/auth/request-context.js';
import { studentInScope, studentScope } from '../core/access/student-scope.js';

/**
 * Who reads a child's overview (pure; decision 0062, issue 18 "a my-child page"): administrators any
 * student; a partner user a student in their student scope — their own customer's students, and of
 * those only the ones linked to them unless they see all students' details (parents and link contacts:
 * their selected students). Everyone else, and a student out of scope, gets 404.
 *
 * What the overview holds follows spec §6: the child's lessons (parents and link contacts "see
 * programme and lesson details for selected students"), the school's contacts, and the released
 * half-term reports only for those who see assessments (the partner reports' own rule).
 */
export const mayReadChildOverviews = (perms: ReadonlySet<string>) => isAdmin(perms) || isPartner(perms);

export const seesChildReports = (perms: ReadonlySet<string>) =>
  isAdmin(perms) || (isPartner(perms) && hasAny(perms, PARTNER.SEE_ASSESSMENTS));

type Who = Pick<Actor, 'userId' | 'permissions' | 'customerId'>;

/** Whether `actor` reaches this student (`isLinked` asked only for a partner limited to linked students). */
export function childInReach(
  actor: Who,
  student: { id: string; customerId: string | null; userType: string },
  isLinked: (partnerId: string, studentId: string) => Promise<boolean>,
): Promise<boolean> {
  if (student.userType !== 'student' || !mayReadChildOverviews(actor.permissions))
    return Promise.resolve(false);
  return studentInScope(studentScope(actor), student, isLinked);
}

export const FamilyRules = {
  read: permissionRule(mayReadChildOverviews),
};
