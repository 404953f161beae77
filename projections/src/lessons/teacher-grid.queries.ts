import type { AvailabilityRow } from '../availability/availability.projection.js';
import { filters, listPage, type Bind, type Page, type Queryable } from '../list-query.js';
import { LESSON_FROM, LESSON_SELECT, type LessonListRow } from './lessons.queries.js';
import type { LessonStatus } from './lessons.projection.js';

/**
 * The teachers' timetable grid (`GET /timetables/teachers`, decision 0058): a page of teachers, their
 * lessons in one week and their availability, in three set-based reads whatever the page size.
 */

export interface GridTeacherRow {
  id: string;
  full_name: string;
  timezone: string | null;
  requested_number_of_lessons_per_week: number | null;
}

export interface GridTeacherFilter {
  page?: number;
  size?: number;
  /** Name, login or e-mail contains. */
  query?: string;
  /** Teachers who lead or assist a group of a programme in this subject. */
  subjectId?: string;
}

/** Active teachers by name, one page. */
export function gridTeachers(db: Queryable, f: GridTeacherFilter): Promise<Page<GridTeacherRow>> {
  const where = filters()
    .raw(`u.user_type = 'teacher' AND u.status = 'active' AND u.deleted_at IS NULL`)
    .contains('u.search_text', f.query?.toLowerCase(), 'LIKE');
  if (f.subjectId)
    where.raw(
      (p) => `EXISTS (SELECT 1 FROM rm_group_teachers gt JOIN rm_groups g ON g.id = gt.group_id
                JOIN rm_programmes p ON p.id = g.programme_id
               WHERE gt.teacher_id = u.id AND p.subject_id = ${p(f.subjectId)}::uuid)`,
    );
  return listPage<GridTeacherRow>(db, {
    select: 'u.id, u.full_name, u.timezone, u.requested_number_of_lessons_per_week',
    from: 'rm_users u',
    where,
    orderBy: 'u.full_name ASC, u.id ASC',
    page: f.page,
    size: f.size,
  });
}

/** A lesson of the grid, and whether the reader may see its details (else it shows as busy time). */
export interface GridLessonRow extends LessonListRow {
  visible: boolean;
}

/**
 * The lessons the teachers teach or cover between two instants, in start order; `scope` (a condition
 * on `l`, null: all) decides which ones the reader may see in detail.
 */
export async function lessonsOfTeachers(
  db: Queryable,
  f: {
    teacherIds: readonly string[];
    from: string;
    to: string;
    statuses: readonly LessonStatus[];
    scope: ((bind: Bind) => string) | null;
  },
): Promise<GridLessonRow[]> {
  if (f.teacherIds.length === 0) return [];
  const where = filters()
    .raw((p) => {
      const ids = p(f.teacherIds);
      return `(l.teacher_id = ANY(${ids}::uuid[]) OR l.cover_teacher_id = ANY(${ids}::uuid[]))`;
    })
    .range('l.starts_at', f.from, f.to, '::timestamptz')
    .any('l.status', f.statuses);
  const visible = f.scope ? f.scope(where.bind) : 'true';
  const { rows } = await db.query<GridLessonRow>(
    `SELECT ${LESSON_SELECT}, (${visible}) AS visible FROM ${LESSON_FROM} ${where.sql}
      ORDER BY l.starts_at, l.id`,
    where.params,
  );
  return rows;
}

/** Per user: the week's own availability list of `type`, else the recurring one (absent: none). */
export async function availabilityOfUsers(
  db: Queryable,
  userIds: readonly string[],
  type: string,
  week: string,
): Promise<Map<string, AvailabilityRow>> {
  if (userIds.length === 0) return new Map();
  const { rows } = await db.query<AvailabilityRow>(
    `SELECT DISTINCT ON (user_id) * FROM rm_user_availability
      WHERE user_id = ANY($1::uuid[]) AND type = $2 AND week IN ($3, '')
      ORDER BY user_id, week DESC`,
    [userIds, type, week],
  );
  return new Map(rows.map((r) => [r.user_id, r]));
}
