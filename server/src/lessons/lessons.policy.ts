import { HttpStatus } from '@nestjs/common';
import type { Bind, Queryable } from '@portal/projections';
import { lessonHasAnyStudentSql, lessonHasStudentSql } from '@portal/projections';
import {
  INTERNAL_PERMISSIONS,
  PARTNER,
  ROUTE_PERMISSIONS,
  hasAny,
  internalMay,
  isAdmin,
  isInternal,
  isPartner,
  isStudent,
  partnerVisibility,
} from '../identity/policy/policy.js';
import { permissionRule } from '../platform/auth/rule.js';
import { Problem } from '../platform/http/problem.js';
import { isLinkedStudent, personFacts, type PersonFacts } from './teaching-lookup.js';
import type { Actor } from '../platform/auth/request-context.js';
import { linkedStudentIdsSql, NO_CUSTOMER, studentScope } from '../core/access/student-scope.js';

/**
 * Who may read and change lessons and schedules (pure; decisions 0046, 0053):
 * - internal users with CAN_EDIT_LESSONS (administrators implicitly) read every lesson and edit,
 *   cancel, reschedule and cover them; CAN_MANAGE_PROGRAMMES manages schedules (and reads every lesson);
 * - other internal users (teachers) read the lessons they teach or cover;
 * - partners with SEE_ALL_LESSON_DETAILS read their customer's lessons; link contacts and parents
 *   (without SEE_ALL_STUDENTS_DETAILS) only lessons of their selected students;
 * - students read the lessons of the groups they belong to on the lesson's date.
 * Everything else is invisible (404).
 */
const EDIT = INTERNAL_PERMISSIONS.LESSON_EDITS;
const PROGRAMMES = INTERNAL_PERMISSIONS.PROGRAMME;

export const mayEditLessons = (perms: ReadonlySet<string>) => internalMay(perms, EDIT);
export const mayManageSchedules = (perms: ReadonlySet<string>) => internalMay(perms, PROGRAMMES);
/** Reads every lesson, unscoped. */
export const readsAllLessons = (perms: ReadonlySet<string>) =>
  mayEditLessons(perms) || mayManageSchedules(perms);
export const partnerSeesLessons = (perms: ReadonlySet<string>) =>
  isPartner(perms) && hasAny(perms, PARTNER.SEE_ALL_LESSON_DETAILS);
export const mayReadLessons = (perms: ReadonlySet<string>) =>
  isInternal(perms) || partnerSeesLessons(perms) || isStudent(perms);

/**
 * The lessons an actor may see, as a condition on `rm_lessons l` (for `listLessons`' `scope`), or
 * null for all of them.
 */
export function lessonScope(
  actor: Pick<Actor, 'userId' | 'permissions' | 'customerId'>,
): ((bind: Bind) => string) | null {
  const perms = actor.permissions;
  if (readsAllLessons(perms)) return null;
  if (isInternal(perms))
    return (bind) => {
      const me = bind(actor.userId);
      return `(l.teacher_id = ${me}::uuid OR l.cover_teacher_id = ${me}::uuid)`;
    };
  if (partnerSeesLessons(perms)) {
    const scope = studentScope({ userId: actor.userId, permissions: perms, customerId: actor.customerId });
    if (scope.all) return null;
    return (bind) => {
      const customer = `l.customer_id = ${bind(scope.customerId ?? NO_CUSTOMER)}::uuid`;
      if (scope.linkedTo === null) return customer;
      return `${customer} AND ${lessonHasAnyStudentSql('l', linkedStudentIdsSql(`${bind(scope.linkedTo)}::uuid`))}`;
    };
  }
  if (isStudent(perms)) return (bind) => lessonHasStudentSql('l', `${bind(actor.userId)}::uuid`);
  return () => 'false';
}

/** Whether `viewer` may see `target`'s timetable: themselves, lesson readers of all, a partner for their students. */
export function mayReadTimetableOf(
  viewer: Pick<Actor, 'userId' | 'permissions' | 'customerId'>,
  target: { id: string; user_type: string; customer_id: string | null },
): 'self' | 'all' | 'partner' | null {
  if (viewer.userId === target.id) return 'self';
  if (readsAllLessons(viewer.permissions)) return 'all';
  if (
    partnerSeesLessons(viewer.permissions) &&
    target.user_type === 'student' &&
    viewer.customerId !== null &&
    target.customer_id === viewer.customerId
  )
    return 'partner';
  return null;
}

export const LessonRules = {
  read: permissionRule(mayReadLessons),
  edit: permissionRule(mayEditLessons),
  schedules: permissionRule(mayManageSchedules),
  teachersGrid: permissionRule((perms) => mayViewTeachersTimetables(perms)),
};

/**
 * The teachers' timetables grid (spec §2 "needs teachers timetables", §6: a named permission without an
 * internal-role requirement): administrators, or anyone holding CAN_VIEW_TEACHERS_TIMETABLES. Lessons
 * outside the holder's own lesson scope show as busy time without details (decision 0058).
 */
export const mayViewTeachersTimetables = (perms: ReadonlySet<string>) =>
  isAdmin(perms) || perms.has(ROUTE_PERMISSIONS.TEACHERS_TIMETABLES);

/**
 * The user whose timetable (or programmes summary) `actor` asks for, with how they may read it and
 * whether it is a teacher's (an internal user's) or a student's; 404 for a user they may not see —
 * a partner without SEE_ALL_STUDENTS_DETAILS sees only their selected students.
 */
export async function readableTimetableUser(
  db: Queryable,
  actor: Pick<Actor, 'userId' | 'permissions' | 'customerId'>,
  userId: string,
): Promise<{ target: PersonFacts; access: 'self' | 'all' | 'partner'; teacher: boolean }> {
  const target = await personFacts(db, userId);
  const access = target && mayReadTimetableOf(actor, target);
  const hidden = () => new Problem(HttpStatus.NOT_FOUND, 'User not found');
  if (!target || !access) throw hidden();
  if (
    access === 'partner' &&
    !partnerVisibility(actor.permissions).students &&
    !(await isLinkedStudent(db, actor.userId, userId))
  )
    throw hidden();
  return { target, access, teacher: isInternal(new Set(target.permissions)) };
}
