import {
  INTERNAL_PERMISSIONS,
  NAMED_PERMISSIONS,
  PARTNER,
  hasAny,
  internalMay,
  isInternal,
  isPartner,
  isStudent,
  mayUseNamed,
} from '../identity/policy/policy.js';
import { permissionRule } from '../platform/auth/rule.js';
import { mayEditLessons } from '../lessons/lessons.policy.js';
import type { MeetingRole } from '@portal/projections';

/**
 * Who may do what with cover requests and meeting joins (pure; decision 0054).
 * - Cover requests are an internal area: a lesson's teacher raises cover for their own planned future
 *   lessons (a teacher may not cancel lessons, only raise cover); internal users with CAN_EDIT_LESSONS
 *   (administrators implicitly) raise it for any lesson, see every request and cancel any.
 * - Taking cover (being offered, accepting, declining) needs CAN_ACCESS_COVER_REQUESTS (spec §6) and
 *   no quality issue (spec §4: "a teacher with a quality issue cannot access cover requests").
 * - Joining a lesson's meeting: its teacher and cover teacher; internal users with CAN_JOIN_LESSONS
 *   (administrators implicitly); students of its group on that date; partners of its school with
 *   PARTNER_CAN_JOIN_LESSONS (link contacts and parents: only lessons of their selected students).
 */
export const mayUseCoverRequests = (perms: ReadonlySet<string>) => isInternal(perms);
export const seesAllCoverRequests = (perms: ReadonlySet<string>) => mayEditLessons(perms);
export const mayRequestCoverForAnyLesson = (perms: ReadonlySet<string>) => mayEditLessons(perms);

/** Whether a user may be offered and take cover: the named permission and no quality issue. */
export const mayTakeCover = (perms: ReadonlySet<string>, hasQualityIssue: boolean) =>
  internalMay(perms, INTERNAL_PERMISSIONS.COVER_REQUESTS) && !hasQualityIssue;

export const mayCancelCoverRequest = (
  actor: { userId: string; permissions: ReadonlySet<string> },
  requestedBy: string,
) => actor.userId === requestedBy || mayEditLessons(actor.permissions);

/** May call the join endpoint at all (the lesson decides the rest). */
export const mayTryJoining = (perms: ReadonlySet<string>) =>
  isInternal(perms) || isStudent(perms) || isPartner(perms);

/**
 * The role a user joins a lesson in, or `refused` (403: they can see the lesson but may not join), or
 * null (404: not theirs to see). `studentInLesson`: the user is a student of its group that day;
 * `partnerSeesLesson`: a partner of its school (selected students only for link contacts and parents).
 */
export function joinRole(
  actor: { userId: string; permissions: ReadonlySet<string> },
  lesson: { teacher_id: string; cover_teacher_id: string | null },
  facts: { studentInLesson: boolean; partnerSeesLesson: boolean },
): MeetingRole | 'refused' | null {
  const perms = actor.permissions;
  if (lesson.teacher_id === actor.userId) return 'teacher';
  if (lesson.cover_teacher_id === actor.userId) return 'cover_teacher';
  if (isInternal(perms)) return mayUseNamed(perms, NAMED_PERMISSIONS.JOIN_LESSONS) ? 'staff' : 'refused';
  if (isStudent(perms)) return facts.studentInLesson ? 'student' : null;
  if (isPartner(perms)) {
    if (!facts.partnerSeesLesson) return null;
    return hasAny(perms, PARTNER.JOIN_LESSONS) ? 'partner' : 'refused';
  }
  return null;
}

export const CoverRules = {
  use: permissionRule(mayUseCoverRequests, 'Cover requests are for internal users'),
  join: permissionRule(mayTryJoining),
};
