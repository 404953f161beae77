import { filters, listPage, type Bind, type Page, type Queryable } from '../list-query.js';
import type {
  AmendmentRow,
  PlannedAbsenceRow,
  RegisterEntryRow,
  RegisterRow,
} from './attendance.projection.js';

/**
 * Queries on the attendance read models (projection `attendance`, decision 0056). Lessons come from
 * `rm_lessons`, names from `rm_users`. Scopes are SQL conditions the server's access rules build.
 */

export interface RegisterEntryListRow extends RegisterEntryRow {
  student_name: string | null;
}

export async function registerOf(
  db: Queryable,
  lessonId: string,
): Promise<{ register: RegisterRow | null; entries: RegisterEntryListRow[] }> {
  const { rows: registers } = await db.query<RegisterRow>(`SELECT * FROM rm_registers WHERE lesson_id = $1`, [
    lessonId,
  ]);
  const { rows: entries } = await db.query<RegisterEntryListRow>(
    `SELECT e.*, u.full_name AS student_name FROM rm_register_entries e
       LEFT JOIN rm_users u ON u.id = e.student_id
      WHERE e.lesson_id = $1 ORDER BY e.basis, lower(u.full_name), e.student_id`,
    [lessonId],
  );
  return { register: registers[0] ?? null, entries };
}

export async function amendmentsOf(db: Queryable, lessonId: string): Promise<AmendmentRow[]> {
  const { rows } = await db.query<AmendmentRow>(
    `SELECT * FROM rm_attendance_amendments WHERE lesson_id = $1 ORDER BY position, id`,
    [lessonId],
  );
  return rows;
}

/** Names of users by id (students on a register that is not open yet, guests). */
export async function namesOf(db: Queryable, ids: readonly string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const { rows } = await db.query<{ id: string; full_name: string }>(
    `SELECT id, full_name FROM rm_users WHERE id = ANY($1::uuid[])`,
    [ids],
  );
  return new Map(rows.map((r) => [r.id, r.full_name]));
}

/** Planned absences in force on a local date for some students (not withdrawn), oldest first. */
export async function plannedAbsencesOn(
  db: Queryable,
  studentIds: readonly string[],
  localDate: string,
): Promise<PlannedAbsenceRow[]> {
  if (studentIds.length === 0) return [];
  const { rows } = await db.query<PlannedAbsenceRow>(
    `SELECT * FROM rm_planned_absences
      WHERE student_id = ANY($1::uuid[]) AND NOT withdrawn AND from_date <= $2 AND to_date >= $2
      ORDER BY created_at, id`,
    [studentIds, localDate],
  );
  return rows;
}

export async function plannedAbsenceById(db: Queryable, id: string): Promise<PlannedAbsenceRow | null> {
  const { rows } = await db.query<PlannedAbsenceRow>(`SELECT * FROM rm_planned_absences WHERE id = $1`, [id]);
  return rows[0] ?? null;
}

export interface PlannedAbsenceListRow extends PlannedAbsenceRow {
  student_name: string | null;
}

export interface PlannedAbsenceFilter {
  page?: number;
  size?: number;
  studentId?: string;
  customerId?: string;
  /** Absences that end on or after this local date. */
  from?: string;
  /** Absences that start on or before this local date. */
  to?: string;
  withdrawn?: boolean;
  /** A condition on the student row `s` (rm_users): who the reader may see; null for all. */
  studentScope: ((bind: Bind) => string | null) | null;
}

export const listPlannedAbsences = (
  db: Queryable,
  f: PlannedAbsenceFilter,
): Promise<Page<PlannedAbsenceListRow>> => {
  const where = filters()
    .eq('a.student_id', f.studentId, '::uuid')
    .eq('a.customer_id', f.customerId, '::uuid')
    .rawIf(f.from !== undefined, (b) => `a.to_date >= ${b(f.from)}`)
    .rawIf(f.to !== undefined, (b) => `a.from_date <= ${b(f.to)}`)
    .rawIf(!f.withdrawn, 'NOT a.withdrawn');
  if (f.studentScope) {
    const scope = f.studentScope(where.bind);
    if (scope) where.raw(scope);
  }
  return listPage<PlannedAbsenceListRow>(db, {
    select: 'a.*, s.full_name AS student_name',
    from: 'rm_planned_absences a LEFT JOIN rm_users s ON s.id = a.student_id',
    where,
    orderBy: 'a.from_date DESC, a.id ASC',
    page: f.page,
    size: f.size,
  });
};

export type RegisterState = 'not_open' | 'open' | 'taken' | 'voided';

export interface LessonRegisterRow {
  id: string;
  programme_id: string;
  programme_title: string | null;
  group_id: string;
  group_name: string | null;
  customer_id: string;
  teacher_id: string;
  teacher_name: string | null;
  cover_teacher_id: string | null;
  starts_at: Date;
  ends_at: Date;
  timezone: string;
  local_date: string;
  local_start: string;
  status: string;
  opened_at: Date | null;
  roster: number;
  marked: number;
  pending: number;
  register_state: RegisterState;
}

/** Lessons starting in [from, to) that take place, with their register's state; `scope` limits them (alias `l`). */
export async function lessonRegisters(
  db: Queryable,
  f: { from: string; to: string; scope: ((bind: Bind) => string) | null; customerId?: string },
): Promise<LessonRegisterRow[]> {
  const where = filters()
    .range('l.starts_at', f.from, f.to, '::timestamptz')
    .raw(`l.status IN ('planned', 'delivered', 'not_delivered')`)
    .eq('l.customer_id', f.customerId, '::uuid');
  if (f.scope) where.raw(f.scope);
  const { rows } = await db.query<LessonRegisterRow>(
    `SELECT l.id, l.programme_id, p.title AS programme_title, l.group_id, g.name AS group_name, l.customer_id,
            l.teacher_id, t.full_name AS teacher_name, l.cover_teacher_id, l.starts_at, l.ends_at, l.timezone,
            l.local_date, l.local_start, l.status, r.opened_at,
            coalesce(c.roster, 0)::int AS roster, coalesce(c.marked, 0)::int AS marked,
            coalesce(c.pending, 0)::int AS pending,
            CASE WHEN r.lesson_id IS NULL THEN 'not_open'
                 WHEN r.voided THEN 'voided'
                 WHEN coalesce(c.marked, 0) >= coalesce(c.roster, 0) THEN 'taken'
                 ELSE 'open' END AS register_state
       FROM rm_lessons l
       LEFT JOIN rm_programmes p ON p.id = l.programme_id
       LEFT JOIN rm_groups g ON g.id = l.group_id
       LEFT JOIN rm_users t ON t.id = coalesce(l.cover_teacher_id, l.teacher_id)
       LEFT JOIN rm_registers r ON r.lesson_id = l.id
       LEFT JOIN LATERAL (
         SELECT count(*) AS roster, count(e.mark) AS marked,
                count(*) FILTER (WHERE e.mark = 'absent_pending') AS pending
           FROM rm_register_entries e WHERE e.lesson_id = l.id) c ON true
       ${where.sql}
      ORDER BY l.starts_at, l.id`,
    where.params,
  );
  return rows;
}

export interface AttendanceEntryRow extends RegisterEntryRow {
  student_name: string | null;
  programme_title: string | null;
  group_name: string | null;
  teacher_name: string | null;
  ends_at: Date;
  local_start: string;
  timezone: string;
}

export interface AttendanceEntryFilter {
  page?: number;
  size?: number;
  from?: string;
  to?: string;
  customerId?: string;
  programmeId?: string;
  groupId?: string;
  teacherId?: string;
  studentId?: string;
  /** Only `absent_pending` entries (absences still waiting for a reason). */
  pendingOnly?: boolean;
  /** Only marked entries. */
  markedOnly?: boolean;
  /** Conditions on the entry `e` and its lesson `l` from the reader's access rules; null for all. */
  scope: ((bind: Bind) => string | null) | null;
}

const ENTRY_FROM = `rm_register_entries e
  JOIN rm_lessons l ON l.id = e.lesson_id
  LEFT JOIN rm_users s ON s.id = e.student_id
  LEFT JOIN rm_programmes p ON p.id = e.programme_id
  LEFT JOIN rm_groups g ON g.id = e.group_id
  LEFT JOIN rm_users t ON t.id = coalesce(l.cover_teacher_id, l.teacher_id)`;

/** Register entries (not voided) with names, latest lesson first. */
export const listAttendanceEntries = (
  db: Queryable,
  f: AttendanceEntryFilter,
): Promise<Page<AttendanceEntryRow>> => {
  const where = filters()
    .raw('NOT e.voided')
    .range('e.starts_at', f.from, f.to, '::timestamptz')
    .eq('e.customer_id', f.customerId, '::uuid')
    .eq('e.programme_id', f.programmeId, '::uuid')
    .eq('e.group_id', f.groupId, '::uuid')
    .eq('e.student_id', f.studentId, '::uuid')
    .rawIf(
      f.teacherId !== undefined,
      (b) => `(l.teacher_id = ${b(f.teacherId)}::uuid OR l.cover_teacher_id = ${b(f.teacherId)}::uuid)`,
    )
    .rawIf(f.pendingOnly === true, `e.mark = 'absent_pending'`)
    .rawIf(f.markedOnly === true, 'e.mark IS NOT NULL');
  if (f.scope) {
    const scope = f.scope(where.bind);
    if (scope) where.raw(scope);
  }
  return listPage<AttendanceEntryRow>(db, {
    select: `e.*, s.full_name AS student_name, p.title AS programme_title, g.name AS group_name,
             t.full_name AS teacher_name, l.ends_at, l.local_start, l.timezone`,
    from: ENTRY_FROM,
    where,
    orderBy: 'e.starts_at DESC, e.lesson_id ASC, e.student_id ASC',
    page: f.page,
    size: f.size,
  });
};

/** The group of a programme a student belongs to on a date (a guest's home group), or null. */
export async function homeGroupOf(
  db: Queryable,
  studentId: string,
  programmeId: string,
  localDate: string,
): Promise<string | null> {
  const { rows } = await db.query<{ group_id: string }>(
    `SELECT gs.group_id FROM rm_group_students gs JOIN rm_groups g ON g.id = gs.group_id
      WHERE gs.student_id = $1 AND g.programme_id = $2 AND gs.from_date <= $3::date
        AND (gs.to_date IS NULL OR gs.to_date >= $3::date)
      ORDER BY gs.group_id LIMIT 1`,
    [studentId, programmeId, localDate],
  );
  return rows[0]?.group_id ?? null;
}
