import { filters, listPage, type Bind, type Page, type Queryable } from '../list-query.js';
import { lessonHasAnyStudentSql, lessonHasStudentSql } from '../lessons/lessons.queries.js';
import type { CoverRequestRow, CoverStatus, MeetingJoinRow } from './cover.projection.js';

/**
 * Queries on `rm_cover_requests` and `rm_meeting_joins` (projection `cover-requests`, decision 0054).
 * The status a reader sees is derived: an open request whose first lesson has started is `expired`.
 */

export interface CoverRequestListRow extends Omit<CoverRequestRow, 'status'> {
  status: CoverStatus;
  requested_by_name: string | null;
  filled_by_name: string | null;
}

/** SQL: the status as read at `now` (a bound instant). */
const statusSql = (now: string) =>
  `CASE WHEN r.status = 'open' AND r.first_starts_at <= ${now}::timestamptz THEN 'expired' ELSE r.status END`;

const select = (now: string) =>
  `r.*, ${statusSql(now)} AS status, q.full_name AS requested_by_name, f.full_name AS filled_by_name`;
const FROM = `rm_cover_requests r
  LEFT JOIN rm_users q ON q.id = r.requested_by
  LEFT JOIN rm_users f ON f.id = r.filled_by`;

/** SQL: the open, unexpired requests offered to teacher `me` (not their own lesson, not declined by them). */
export const coverOfferedToSql = (me: string, now: string) =>
  `(r.status = 'open' AND r.first_starts_at > ${now}::timestamptz
    AND (r.mode = 'broadcast' OR r.teacher_ids @> jsonb_build_array(${me}::text))
    AND NOT r.lesson_teacher_ids @> jsonb_build_array(${me}::text)
    AND r.requested_by <> ${me}::uuid
    AND NOT r.responses @> jsonb_build_array(jsonb_build_object('teacherId', ${me}::text, 'response', 'declined')))`;

export interface CoverRequestFilter {
  page?: number;
  size?: number;
  status?: CoverStatus[];
  requestedBy?: string;
  /** Requests that include this lesson. */
  lessonId?: string;
  /** Only requests offered to this teacher now (see `coverOfferedToSql`). */
  offeredTo?: string;
  /** Which requests the reader may see (a condition on `r`); null: all. */
  scope?: ((bind: Bind, now: string) => string) | null;
  /** The instant the status is read at (default: now). */
  now?: string;
}

/** A page of cover requests, soonest first lesson first, ties by id. */
export function listCoverRequests(db: Queryable, f: CoverRequestFilter): Promise<Page<CoverRequestListRow>> {
  const where = filters();
  const nowRef = where.bind(f.now ?? new Date().toISOString());
  // Every bound parameter must be typed in the statement (the count query may not use it otherwise).
  where.raw(`${nowRef}::timestamptz IS NOT NULL`);
  if (f.status?.length) where.raw((p) => `${statusSql(nowRef)} = ANY(${p([...f.status!])}::text[])`);
  where.eq('r.requested_by', f.requestedBy, '::uuid');
  where.jsonHas('r.lesson_ids', f.lessonId);
  if (f.offeredTo) where.raw((p) => coverOfferedToSql(`${p(f.offeredTo)}`, nowRef));
  if (f.scope) where.raw((p) => f.scope!(p, nowRef));
  return listPage<CoverRequestListRow>(db, {
    select: select(nowRef),
    from: FROM,
    where,
    orderBy: 'r.first_starts_at ASC, r.id ASC',
    page: f.page,
    size: f.size,
  });
}

export async function coverRequestById(
  db: Queryable,
  id: string,
  now: string = new Date().toISOString(),
): Promise<CoverRequestListRow | null> {
  const { rows } = await db.query<CoverRequestListRow>(
    `SELECT ${select('$2')} FROM ${FROM} WHERE r.id = $1`,
    [id, now],
  );
  return rows[0] ?? null;
}

/** The lessons a cover request is about, as its screen shows them. */
export interface CoverLessonRow {
  id: string;
  starts_at: Date;
  ends_at: Date;
  timezone: string;
  local_date: string;
  local_start: string;
  status: string;
  teacher_id: string;
  teacher_name: string | null;
  cover_teacher_id: string | null;
  customer_id: string;
  group_id: string;
  programme_title: string | null;
  group_name: string | null;
}

export async function coverLessons(db: Queryable, lessonIds: string[]): Promise<CoverLessonRow[]> {
  if (lessonIds.length === 0) return [];
  const { rows } = await db.query<CoverLessonRow>(
    `SELECT l.id, l.starts_at, l.ends_at, l.timezone, l.local_date, l.local_start, l.status, l.teacher_id,
            t.full_name AS teacher_name, l.cover_teacher_id, l.customer_id, l.group_id,
            p.title AS programme_title, g.name AS group_name
       FROM rm_lessons l
       LEFT JOIN rm_users t ON t.id = l.teacher_id
       LEFT JOIN rm_programmes p ON p.id = l.programme_id
       LEFT JOIN rm_groups g ON g.id = l.group_id
      WHERE l.id = ANY($1::uuid[])
      ORDER BY l.starts_at, l.id`,
    [lessonIds],
  );
  return rows;
}

/** The lesson that carries a meeting id (lessons carry one each). */
export async function lessonIdByMeeting(db: Queryable, meetingId: string): Promise<string | null> {
  const { rows } = await db.query<{ id: string }>(`SELECT id FROM rm_lessons WHERE meeting_id = $1::uuid`, [
    meetingId,
  ]);
  return rows[0]?.id ?? null;
}

/** Who used the join link of a lesson, in order. */
export async function meetingJoinsOfLesson(db: Queryable, lessonId: string): Promise<MeetingJoinRow[]> {
  const { rows } = await db.query<MeetingJoinRow>(
    `SELECT * FROM rm_meeting_joins WHERE lesson_id = $1 ORDER BY joined_at, event_id`,
    [lessonId],
  );
  return rows;
}

/** A user's cover-relevant facts: internal permissions and the quality-issue flag (rm_users). */
export interface CoverTeacherFacts {
  id: string;
  permissions: string[];
  has_quality_issue: boolean;
  full_name: string;
}

export async function coverTeacherFacts(db: Queryable, id: string): Promise<CoverTeacherFacts | null> {
  const { rows } = await db.query<CoverTeacherFacts>(
    `SELECT id, permissions, has_quality_issue, full_name FROM rm_users WHERE id = $1 AND deleted_at IS NULL`,
    [id],
  );
  return rows[0] ?? null;
}

/** Whether the student belongs to the lesson's group on its date. */
export async function studentInLesson(db: Queryable, lessonId: string, studentId: string): Promise<boolean> {
  const { rows } = await db.query(
    `SELECT 1 FROM rm_lessons l WHERE l.id = $1 AND ${lessonHasStudentSql('l', '$2::uuid')}`,
    [lessonId, studentId],
  );
  return rows.length > 0;
}

/**
 * Whether one of a set of students (`studentIdsSql`, a subquery over the parameter `$2`) belongs to the
 * lesson's group on its date: a link contact's or parent's selected students.
 */
export async function lessonHasAnyOf(
  db: Queryable,
  lessonId: string,
  studentIdsSql: string,
  param: unknown,
): Promise<boolean> {
  const { rows } = await db.query(
    `SELECT 1 FROM rm_lessons l WHERE l.id = $1 AND ${lessonHasAnyStudentSql('l', studentIdsSql)}`,
    [lessonId, param],
  );
  return rows.length > 0;
}
