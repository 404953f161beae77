import type { Bind } from '@portal/projections';
import {
  INTERNAL_PERMISSIONS,
  PARTNER,
  hasAny,
  internalMay,
  isInternal,
  isPartner,
} from '../identity/policy/policy.js';
import { permissionRule } from '../platform/auth/rule.js';
import type { Actor } from '../platform/auth/request-context.js';
import { studentScope, studentScopeSql, type StudentScope } from '../core/access/student-scope.js';
import { readsAllLessons } from '../lessons/lessons.policy.js';
import { mayEditCustomers } from '../customers/customers.policy.js';

/**
 * Who may do what with registers and attendance (pure; decision 0056, spec §6):
 * - internal users with CAN_MANAGE_ATTENDANCE (administrators implicitly) take and amend every register
 *   at any time, and read all attendance;
 * - the lesson's teacher and its cover teacher take its register and amend it until the end of the
 *   next working day (the deadline is the decider's);
 * - lesson editors and programme managers read every register;
 * - partners with SEE_ATTENDANCE read their customer's students' entries (link contacts and parents:
 *   their selected students only); with SET_ABSENCE_REASON they give reasons and planned absences for
 *   the same students. A partner never takes a register.
 */
const ATTENDANCE = INTERNAL_PERMISSIONS.ATTENDANCE;

export const mayManageAttendance = (perms: ReadonlySet<string>) => internalMay(perms, ATTENDANCE);
export const partnerSeesAttendance = (perms: ReadonlySet<string>) =>
  isPartner(perms) && hasAny(perms, PARTNER.SEE_ATTENDANCE);
export const partnerSetsReasons = (perms: ReadonlySet<string>) =>
  isPartner(perms) && hasAny(perms, PARTNER.SET_ABSENCE_REASON);

export interface LessonPeople {
  customerId: string;
  teacherId: string;
  coverTeacherId: string | null;
}

type Who = Pick<Actor, 'userId' | 'permissions' | 'customerId'>;

export const teachesLesson = (actor: Who, lesson: LessonPeople) =>
  isInternal(actor.permissions) &&
  (actor.userId === lesson.teacherId || actor.userId === lesson.coverTeacherId);

/** How the actor may write this lesson's register: `admin` any time, `teacher` until the deadline, or not at all. */
export function registerRole(actor: Who, lesson: LessonPeople): 'admin' | 'teacher' | null {
  if (mayManageAttendance(actor.permissions)) return 'admin';
  if (teachesLesson(actor, lesson)) return 'teacher';
  return null;
}

/**
 * What of the register the actor reads: `all` of it, `students` (a partner: those in their scope, the
 * caller filters with `studentScopeOf`), or null (404).
 */
export function registerReach(actor: Who, lesson: LessonPeople): 'all' | 'students' | null {
  if (registerRole(actor, lesson) !== null || readsAllLessons(actor.permissions)) return 'all';
  if (
    (partnerSeesAttendance(actor.permissions) || partnerSetsReasons(actor.permissions)) &&
    actor.customerId !== null &&
    actor.customerId === lesson.customerId
  )
    return 'students';
  return null;
}

/** The students a partner reaches (their customer's; selected ones for link contacts and parents). */
export const studentScopeOf = (actor: Who): StudentScope =>
  studentScope({ userId: actor.userId, permissions: actor.permissions, customerId: actor.customerId });

/**
 * The attendance entries (`e`, joined with its lesson `l`) an actor may read in lists, as a SQL
 * condition, or null for all: managers and lesson readers all; other internal users (teachers) their
 * own and covered lessons; partners with SEE_ATTENDANCE their students' entries.
 */
export function attendanceEntryScope(actor: Who): ((bind: Bind) => string | null) | null {
  const perms = actor.permissions;
  if (mayManageAttendance(perms) || readsAllLessons(perms)) return null;
  if (isInternal(perms))
    return (bind) => {
      const me = bind(actor.userId);
      return `(l.teacher_id = ${me}::uuid OR l.cover_teacher_id = ${me}::uuid)`;
    };
  if (partnerSeesAttendance(perms))
    return (bind) =>
      studentScopeSql(studentScopeOf(actor), bind, { id: 'e.student_id', customerId: 'e.customer_id' }) ??
      'true';
  return () => 'false';
}

/** Who may read attendance lists at all. */
export const mayReadAttendance = (perms: ReadonlySet<string>) =>
  isInternal(perms) || partnerSeesAttendance(perms);

/**
 * A school's attendance contacts (decision 0061): partners with EDIT_ATTENDANCE_CONTACTS change their
 * own school's list; customer editors and attendance staff any school's (the controller keeps a
 * partner to their own school). Every partner of the school and internal users read it.
 */
export const mayEditAttendanceContacts = (perms: ReadonlySet<string>) =>
  mayEditCustomers(perms) ||
  mayManageAttendance(perms) ||
  (isPartner(perms) && hasAny(perms, PARTNER.EDIT_ATTENDANCE_CONTACTS));
export const mayReadAttendanceContacts = (perms: ReadonlySet<string>) =>
  isInternal(perms) || isPartner(perms);

export const AttendanceRules = {
  /** Reading registers: internal users (their own lessons at least) and partners who see attendance or give reasons. */
  readRegisters: permissionRule((p) => isInternal(p) || partnerSeesAttendance(p) || partnerSetsReasons(p)),
  /** Writing registers: internal users (whether this lesson is theirs is checked on the lesson). */
  takeRegisters: permissionRule(isInternal, 'Only the lesson’s teacher or attendance staff take registers'),
  /** Giving absence reasons and planned absences. */
  reasons: permissionRule(
    (p) => partnerSetsReasons(p) || mayManageAttendance(p),
    'You may not give absence reasons',
  ),
  readLists: permissionRule(mayReadAttendance),
  /** Register compliance per tutor: internal users (teachers see their own). */
  readTutors: permissionRule(isInternal),
  readPlannedAbsences: permissionRule(
    (p) => mayManageAttendance(p) || partnerSeesAttendance(p) || partnerSetsReasons(p),
  ),
};
