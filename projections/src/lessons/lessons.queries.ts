import { filters, listPage, type Bind, type Page, type Queryable } from '../list-query.js';
import type { LessonRow, LessonStatus, ScheduleRow } from './lessons.projection.js';

/**
 * Queries on `rm_lessons` and `rm_schedules` (projection `lessons`). Student membership is read from
 * the programmes area's `rm_group_students` (time-bound: a student belongs to a lesson's group when the
 * lesson's local date lies in one of their membership periods).
 */

/** A lesson row with the names a screen shows. */
export interface LessonListRow extends LessonRow {
  programme_title: string | null;
  group_name: string | null;
  teacher_name: string | null;
  cover_teacher_name: string | null;
}

/** Statuses that occupy the teacher and the students (a clash can only be with one of these). */
export const OCCUPYING_STATUSES: readonly LessonStatus[] = ['planned', 'delivered', 'not_delivered'];

/** SQL: the lesson `alias` has `student` (a parameter placeholder) in its group on its date. */
export const lessonHasStudentSql = (alias: string, student: string) =>
  `EXISTS (SELECT 1 FROM rm_group_students gs WHERE gs.group_id = ${alias}.group_id
     AND gs.student_id = ${student} AND gs.from_date <= ${alias}.local_date::date
     AND (gs.to_date IS NULL OR gs.to_date >= ${alias}.local_date::date))`;

/** SQL: the lesson `alias` has one of the students of the subquery `studentIds` on its date. */
export const lessonHasAnyStudentSql = (alias: string, studentIdsSubquery: string) =>
  `EXISTS (SELECT 1 FROM rm_group_students gs WHERE gs.group_id = ${alias}.group_id
     AND gs.student_id IN (${studentIdsSubquery}) AND gs.from_date <= ${alias}.local_date::date
     AND (gs.to_date IS NULL OR gs.to_date >= ${alias}.local_date::date))`;

export const LESSON_SELECT = `l.*, p.title AS programme_title, g.name AS group_name, t.full_name AS teacher_name, c.full_name AS cover_teacher_name`;
export const LESSON_FROM = `rm_lessons l
  LEFT JOIN rm_programmes p ON p.id = l.programme_id
  LEFT JOIN rm_groups g ON g.id = l.group_id
  LEFT JOIN rm_users t ON t.id = l.teacher_id
  LEFT JOIN rm_users c ON c.id = l.cover_teacher_id`;

export interface LessonListFilter {
  page?: number;
  size?: number;
  /** Instants: lessons starting at or after `from`, and before `to`. */
  from?: string;
  to?: string;
  status?: LessonStatus[];
  programmeId?: string;
  groupId?: string;
  /** The teacher, or the cover teacher. */
  teacherId?: string;
  customerId?: string;
  /** Lessons of the groups the student belonged to on the lesson's date. */
  studentId?: string;
  /** Which lessons the reader may see (a condition on `l`, from the server's access rules); null: all. */
  scope?: ((bind: Bind) => string) | null;
  /** Latest first (default: earliest first). */
  descending?: boolean;
}

/** A page of lessons in start order, ties by id. */
export const listLessons = (db: Queryable, f: LessonListFilter): Promise<Page<LessonListRow>> => {
  const where = filters()
    .range('l.starts_at', f.from, f.to, '::timestamptz')
    .any('l.status', f.status)
    .eq('l.programme_id', f.programmeId, '::uuid')
    .eq('l.group_id', f.groupId, '::uuid')
    .eq('l.customer_id', f.customerId, '::uuid');
  if (f.teacherId)
    where.raw(
      (p) => `(l.teacher_id = ${p(f.teacherId)}::uuid OR l.cover_teacher_id = $${where.params.length}::uuid)`,
    );
  if (f.studentId) where.raw((p) => lessonHasStudentSql('l', `${p(f.studentId)}::uuid`));
  if (f.scope) where.raw(f.scope);
  const dir = f.descending ? 'DESC' : 'ASC';
  return listPage<LessonListRow>(db, {
    select: LESSON_SELECT,
    from: LESSON_FROM,
    where,
    orderBy: `l.starts_at ${dir}, l.id ${dir}`,
    page: f.page,
    size: f.size,
  });
};

/** Every lesson matching the filter in one array (a week's timetable: bounded by `from`/`to`). */
export async function lessonsBetween(
  db: Queryable,
  f: Omit<LessonListFilter, 'page' | 'size'> & { from: string; to: string },
): Promise<LessonListRow[]> {
  return (await listLessons(db, { ...f, page: 1, size: 1000 })).items;
}

export async function lessonById(db: Queryable, id: string): Promise<LessonListRow | null> {
  const { rows } = await db.query<LessonListRow>(
    `SELECT ${LESSON_SELECT} FROM ${LESSON_FROM} WHERE l.id = $1`,
    [id],
  );
  return rows[0] ?? null;
}

/** Whether the lesson passes a reader's scope condition (see `LessonListFilter.scope`). */
export async function lessonVisible(
  db: Queryable,
  id: string,
  scope: ((bind: Bind) => string) | null,
): Promise<boolean> {
  if (!scope) return true;
  const where = filters().eq('l.id', id, '::uuid').raw(scope);
  const { rows } = await db.query(`SELECT 1 FROM rm_lessons l ${where.sql}`, [...where.params]);
  return rows.length > 0;
}

export interface Clash {
  lessonId: string;
  reason: 'teacher' | 'student';
  startsAt: string;
}

/**
 * The first lesson that a lesson from `startsAt` to `endsAt` would clash with: one the teacher already
 * teaches or covers, or one of the students' other lessons (membership on that lesson's date), that
 * overlaps it in time and still takes place. `excludeIds`: the lesson itself.
 */
export async function findClash(
  db: Queryable,
  c: { teacherIds: string[]; studentIds: string[]; startsAt: string; endsAt: string; excludeIds: string[] },
): Promise<Clash | null> {
  const params = [c.startsAt, c.endsAt, c.excludeIds, OCCUPYING_STATUSES, c.teacherIds, c.studentIds];
  const { rows } = await db.query<{ id: string; reason: 'teacher' | 'student'; starts_at: string }>(
    `SELECT l.id, CASE WHEN l.teacher_id = ANY($5::uuid[]) OR l.cover_teacher_id = ANY($5::uuid[])
                       THEN 'teacher' ELSE 'student' END AS reason,
            to_char(l.starts_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS starts_at
       FROM rm_lessons l
      WHERE l.starts_at < $2::timestamptz AND l.ends_at > $1::timestamptz
        AND NOT (l.id = ANY($3::uuid[])) AND l.status = ANY($4::text[])
        AND (l.teacher_id = ANY($5::uuid[]) OR l.cover_teacher_id = ANY($5::uuid[])
             OR (cardinality($6::uuid[]) > 0 AND ${lessonHasAnyStudentSql('l', 'SELECT unnest($6::uuid[])')}))
      ORDER BY l.starts_at, l.id LIMIT 1`,
    params,
  );
  const row = rows[0];
  return row ? { lessonId: row.id, reason: row.reason, startsAt: row.starts_at } : null;
}

/** The lessons of one schedule from a local date on (any status: the planner decides what to touch). */
export async function scheduleLessonsFrom(
  db: Queryable,
  scheduleId: string,
  fromLocalDate: string,
): Promise<LessonRow[]> {
  const { rows } = await db.query<LessonRow>(
    `SELECT * FROM rm_lessons WHERE schedule_id = $1 AND local_date >= $2 ORDER BY local_date, local_start`,
    [scheduleId, fromLocalDate],
  );
  return rows;
}

export interface ScheduleListRow extends ScheduleRow {
  group_name: string | null;
  teacher_name: string | null;
}

const SCHEDULE_SELECT = `s.*, g.name AS group_name, t.full_name AS teacher_name`;
const SCHEDULE_FROM = `rm_schedules s LEFT JOIN rm_groups g ON g.id = s.group_id LEFT JOIN rm_users t ON t.id = s.teacher_id`;

export async function scheduleById(db: Queryable, id: string): Promise<ScheduleListRow | null> {
  const { rows } = await db.query<ScheduleListRow>(
    `SELECT ${SCHEDULE_SELECT} FROM ${SCHEDULE_FROM} WHERE s.id = $1`,
    [id],
  );
  return rows[0] ?? null;
}

export interface ScheduleListFilter {
  page?: number;
  size?: number;
  programmeId?: string;
  teacherId?: string;
  groupId?: string;
}

export const listSchedules = (db: Queryable, f: ScheduleListFilter): Promise<Page<ScheduleListRow>> =>
  listPage<ScheduleListRow>(db, {
    select: SCHEDULE_SELECT,
    from: SCHEDULE_FROM,
    where: filters()
      .eq('s.programme_id', f.programmeId, '::uuid')
      .eq('s.teacher_id', f.teacherId, '::uuid')
      .eq('s.group_id', f.groupId, '::uuid'),
    orderBy: 's.created_at, s.id',
    page: f.page,
    size: f.size,
  });

/** Every schedule (the daily planner pass). */
export async function allScheduleIds(db: Queryable): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>(`SELECT id FROM rm_schedules ORDER BY id`);
  return rows.map((r) => r.id);
}

/** Counts of a schedule's lessons by status, and how many were edited on their own. */
export async function scheduleLessonCounts(
  db: Queryable,
  scheduleId: string,
): Promise<{ status: string; detached: boolean; n: number }[]> {
  const { rows } = await db.query<{ status: string; detached: boolean; n: string }>(
    `SELECT status, detached, count(*)::text AS n FROM rm_lessons WHERE schedule_id = $1 GROUP BY status, detached`,
    [scheduleId],
  );
  return rows.map((r) => ({ ...r, n: Number(r.n) }));
}
