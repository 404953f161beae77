import { programmesOfTeacherSql, type Bind } from '@portal/projections';
import {
  hasAny,
  INTERNAL_PERMISSIONS,
  internalMay,
  isInternal,
  isPartner,
  isStudent,
  isTeacher,
  PARTNER,
} from '../identity/policy/policy.js';
import { permissionRule, rule } from '../platform/auth/rule.js';
import type { Actor } from '../platform/auth/request-context.js';
import { linkedStudentIdsSql, studentScope, studentScopeSql } from '../core/access/student-scope.js';

/**
 * Who may see and change programmes, groups and enrolments (spec §6; docs/decisions/0051). Pure
 * predicates, plus the viewer's scope as SQL conditions for the list queries (like `student-scope.ts`).
 */
const MANAGE = INTERNAL_PERMISSIONS.PROGRAMME;

type Viewer = Pick<Actor, 'userId' | 'permissions' | 'customerId'>;

/** Internal users with CAN_MANAGE_PROGRAMMES (administrators implicitly) create and change all. */
export const mayManageProgrammes = (perms: ReadonlySet<string>) => internalMay(perms, MANAGE);

/** Teachers, partners and students read (their own); managers read everything. */
export const mayReadProgrammes = (perms: ReadonlySet<string>) =>
  isInternal(perms) || isPartner(perms) || isStudent(perms);

/** Withdrawing a student: managers, or a partner holding WITHDRAW_STUDENT_FROM_ENROLLMENT (own students). */
export const mayWithdrawSome = (perms: ReadonlySet<string>) =>
  mayManageProgrammes(perms) || (isPartner(perms) && hasAny(perms, PARTNER.WITHDRAW_STUDENT_FROM_ENROLLMENT));

export const ProgrammeRules = {
  read: permissionRule(mayReadProgrammes),
  manage: permissionRule(mayManageProgrammes),
  withdraw: permissionRule(mayWithdrawSome),
  /** `/programmes/my` and `/my-students`: teachers and partners. */
  own: rule(
    (actor) => isTeacher(actor.permissions) || isPartner(actor.permissions) || isStudent(actor.permissions),
  ),
};

/** Programmes with a (current or past) member or enrolment among the students `studentsSql` selects. */
const programmesOfStudentsSql = (studentsSql: string) =>
  `(p.id IN (SELECT programme_id FROM rm_enrolments WHERE student_id IN (${studentsSql}))
    OR p.id IN (SELECT g.programme_id FROM rm_groups g JOIN rm_group_students s ON s.group_id = g.id
                 WHERE s.student_id IN (${studentsSql})))`;

/**
 * The programmes a viewer may see, as a condition on `rm_programmes p` (null: all):
 * - managers: all;
 * - teachers: those with a group they teach;
 * - partners: their customer's, all of them with SEE_ALL_PROGRAMME_DETAILS, else only those of their
 *   selected (linked) students (link contacts, parents);
 * - students: their own (enrolled or in a group);
 * - anyone else: none.
 */
export function programmeScopeSql(viewer: Viewer, bind: Bind, { own = false } = {}): string | null {
  const perms = viewer.permissions;
  if (!own && mayManageProgrammes(perms)) return null;
  if (isTeacher(perms) || (own && mayManageProgrammes(perms)))
    return `p.id IN (${programmesOfTeacherSql(`${bind(viewer.userId)}::uuid`)})`;
  if (isPartner(perms)) {
    if (!viewer.customerId) return 'false';
    const customer = `p.customer_id = ${bind(viewer.customerId)}::uuid`;
    if (hasAny(perms, PARTNER.SEE_ALL_PROGRAMME_DETAILS)) return customer;
    return `${customer} AND ${programmesOfStudentsSql(linkedStudentIdsSql(`${bind(viewer.userId)}::uuid`))}`;
  }
  if (isStudent(perms)) return programmesOfStudentsSql(`${bind(viewer.userId)}::uuid`);
  return 'false';
}

/**
 * The enrolments a viewer may see, as a condition on `rm_enrolments e` (null: all): managers all,
 * teachers those of programmes they teach, partners those of students in their student scope (decision
 * 0046), students their own.
 */
export function enrolmentScopeSql(viewer: Viewer, bind: Bind): string | null {
  const perms = viewer.permissions;
  if (mayManageProgrammes(perms)) return null;
  if (isTeacher(perms))
    return `e.programme_id IN (${programmesOfTeacherSql(`${bind(viewer.userId)}::uuid`)})`;
  if (isPartner(perms))
    return (
      studentScopeSql(studentScope(viewer), bind, { id: 'e.student_id', customerId: 'e.customer_id' }) ?? null
    );
  if (isStudent(perms)) return `e.student_id = ${bind(viewer.userId)}::uuid`;
  return 'false';
}

/** The students of a group a viewer may see listed (null: all): partners only those in their scope. */
export function memberScopeSql(viewer: Viewer, bind: Bind): string | null {
  if (!isPartner(viewer.permissions)) return null;
  return studentScopeSql(studentScope(viewer), bind, { id: 'u.id', customerId: 'u.customer_id' });
}
