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
  /** Only these students (none given: all). */
  studentIds?: string[];
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
    .any('e.student_id', f.studentIds, 'uuid')
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

export type SummaryBy = 'programme' | 'group';
export type SummaryPeriod = 'all' | 'week' | 'month';

export interface AttendanceSummaryFilter {
  by: SummaryBy;
  period?: SummaryPeriod;
  page?: number;
  size?: number;
  from?: string;
  to?: string;
  customerId?: string;
  programmeId?: string;
  groupId?: string;
  teacherId?: string;
  studentId?: string;
  studentIds?: string[];
  scope: ((bind: Bind) => string | null) | null;
}

/** One student in one programme (or group) and period: what was possible, attended, and why not. */
export interface AttendanceSummaryRow {
  key_id: string;
  key_name: string | null;
  student_id: string;
  student_name: string | null;
  /** First day of the period (yyyy-MM-dd), null for the whole range. */
  period_start: string | null;
  possible: number;
  attended: number;
  late: number;
  left_early: number;
  absences: number;
  absences_without_reason: number;
  absences_by_reason: Record<string, number>;
  planned_minutes: number;
  attended_minutes: number;
}

/** SQL lists of marks: attended, not a possible session, absent (shared with the report facts). */
export const ATTENDED = `('present', 'late', 'left_early')`;
export const NOT_POSSIBLE = `('not_required', 'tech_failure_provider')`;
export const ABSENT = `('absent_pending', 'absent', 'tech_failure_pupil')`;

/** The where clause every attendance list shares (entries `e` of lessons `l`, marked, not voided). */
function entryWhere(f: Omit<AttendanceEntryFilter, 'page' | 'size'>) {
  const where = filters()
    .raw('NOT e.voided')
    .raw('e.mark IS NOT NULL')
    .range('e.starts_at', f.from, f.to, '::timestamptz')
    .eq('e.customer_id', f.customerId, '::uuid')
    .eq('e.programme_id', f.programmeId, '::uuid')
    .eq('e.group_id', f.groupId, '::uuid')
    .eq('e.student_id', f.studentId, '::uuid')
    .any('e.student_id', f.studentIds, 'uuid')
    .rawIf(
      f.teacherId !== undefined,
      (b) => `(l.teacher_id = ${b(f.teacherId)}::uuid OR l.cover_teacher_id = ${b(f.teacherId)}::uuid)`,
    );
  if (f.scope) {
    const scope = f.scope(where.bind);
    if (scope) where.raw(scope);
  }
  return where;
}

/**
 * Attendance per student and programme (or group) and period (`attendance/programmes`,
 * `attendance/groups`): possible = marks other than not_required and a failure on our side; attended =
 * present, late, left early; minutes attended = the lesson's length less minutes late and missed.
 */
export function attendanceSummary(
  db: Queryable,
  f: AttendanceSummaryFilter,
): Promise<Page<AttendanceSummaryRow>> {
  const where = entryWhere(f);
  const key = f.by === 'programme' ? 'e.programme_id' : 'e.group_id';
  const period =
    f.period === 'week' || f.period === 'month'
      ? `to_char(date_trunc('${f.period}', e.local_date::date), 'YYYY-MM-DD')`
      : 'NULL::text';
  const inner = `SELECT ${key} AS key_id, e.student_id, ${period} AS period_start, e.absence_reason,
      count(*) FILTER (WHERE e.mark NOT IN ${NOT_POSSIBLE}) AS possible,
      count(*) FILTER (WHERE e.mark IN ${ATTENDED}) AS attended,
      count(*) FILTER (WHERE e.mark = 'late') AS late,
      count(*) FILTER (WHERE e.mark = 'left_early') AS left_early,
      count(*) FILTER (WHERE e.mark IN ${ABSENT}) AS absences,
      count(*) FILTER (WHERE e.mark = 'absent_pending') AS pending,
      coalesce(sum(e.duration_minutes) FILTER (WHERE e.mark NOT IN ${NOT_POSSIBLE}), 0) AS planned_minutes,
      coalesce(sum(greatest(e.duration_minutes - coalesce(e.minutes_late, 0) - coalesce(e.minutes_missed, 0), 0))
        FILTER (WHERE e.mark IN ${ATTENDED}), 0) AS attended_minutes
    FROM rm_register_entries e LEFT JOIN rm_lessons l ON l.id = e.lesson_id
    ${where.sql}
    GROUP BY 1, 2, 3, 4`;
  const names =
    f.by === 'programme'
      ? `LEFT JOIN rm_programmes k ON k.id = a.key_id`
      : `LEFT JOIN rm_groups k ON k.id = a.key_id`;
  const nameColumn = f.by === 'programme' ? 'k.title' : 'k.name';
  const from = `(SELECT x.key_id, x.student_id, x.period_start,
        sum(x.possible)::int AS possible, sum(x.attended)::int AS attended, sum(x.late)::int AS late,
        sum(x.left_early)::int AS left_early, sum(x.absences)::int AS absences,
        sum(x.pending)::int AS absences_without_reason,
        coalesce(jsonb_object_agg(x.absence_reason, x.absences) FILTER (WHERE x.absence_reason IS NOT NULL AND x.absences > 0), '{}'::jsonb) AS absences_by_reason,
        sum(x.planned_minutes)::int AS planned_minutes, sum(x.attended_minutes)::int AS attended_minutes
      FROM (${inner}) x GROUP BY 1, 2, 3) a
    ${names}
    LEFT JOIN rm_users s ON s.id = a.student_id`;
  return listPage<AttendanceSummaryRow>(db, {
    select: `a.*, ${nameColumn} AS key_name, s.full_name AS student_name`,
    from,
    where: { sql: '', params: where.params },
    orderBy: `lower(${nameColumn}) ASC NULLS LAST, a.key_id ASC, a.period_start ASC NULLS FIRST, lower(s.full_name) ASC NULLS LAST, a.student_id ASC`,
    page: f.page,
    size: f.size,
  });
}

export interface TutorComplianceRow {
  teacher_id: string;
  teacher_name: string | null;
  lessons: number;
  registers_taken: number;
  taken_on_time: number;
  not_taken: number;
  amendments: number;
  /** Automatic marks from meeting joins the teacher has not confirmed yet. */
  unconfirmed_auto_marks: number;
}

/**
 * Per teacher (the cover teacher when there is one) over lessons that have ended in [from, to):
 * lessons, registers taken, taken by the end of the next working day in the lesson's zone (Mon–Thu +1,
 * Fri +3, Sat +2, Sun +1, as `nextWorkingDayDeadline`), not taken, amendments to their registers.
 */
export function tutorCompliance(
  db: Queryable,
  f: {
    from?: string;
    to?: string;
    teacherId?: string;
    customerId?: string;
    now: string;
    page?: number;
    size?: number;
    /** A condition on the lesson `l`; null for all. */
    scope: ((bind: Bind) => string) | null;
  },
): Promise<Page<TutorComplianceRow>> {
  const where = filters()
    .raw(`l.status IN ('planned', 'delivered', 'not_delivered')`)
    .raw((b) => `l.ends_at <= ${b(f.now)}::timestamptz`)
    .range('l.starts_at', f.from, f.to, '::timestamptz')
    .eq('l.customer_id', f.customerId, '::uuid')
    .rawIf(
      f.teacherId !== undefined,
      (b) => `coalesce(l.cover_teacher_id, l.teacher_id) = ${b(f.teacherId)}::uuid`,
    );
  if (f.scope) where.raw(f.scope);
  const local = `(l.ends_at AT TIME ZONE l.timezone)`;
  const deadline = `((date_trunc('day', ${local}) + make_interval(days => CASE extract(isodow FROM ${local})::int
      WHEN 5 THEN 3 WHEN 6 THEN 2 ELSE 1 END) + interval '1 day') AT TIME ZONE l.timezone)`;
  const from = `(SELECT coalesce(l.cover_teacher_id, l.teacher_id) AS teacher_id,
        count(*)::int AS lessons,
        count(r.lesson_id)::int AS registers_taken,
        count(r.lesson_id) FILTER (WHERE r.opened_at <= ${deadline})::int AS taken_on_time,
        (count(*) - count(r.lesson_id))::int AS not_taken,
        coalesce(sum((SELECT count(*) FROM rm_attendance_amendments m WHERE m.lesson_id = l.id)), 0)::int AS amendments,
        coalesce(sum((SELECT count(*) FROM rm_register_entries x WHERE x.lesson_id = l.id AND x.source = 'meeting')), 0)::int
          AS unconfirmed_auto_marks
      FROM rm_lessons l LEFT JOIN rm_registers r ON r.lesson_id = l.id
      ${where.sql}
      GROUP BY 1) a
    LEFT JOIN rm_users t ON t.id = a.teacher_id`;
  return listPage<TutorComplianceRow>(db, {
    select: 'a.*, t.full_name AS teacher_name',
    from,
    where: { sql: '', params: where.params },
    orderBy: 'lower(t.full_name) ASC NULLS LAST, a.teacher_id ASC',
    page: f.page,
    size: f.size,
  });
}

export interface DifferentClassRow extends AttendanceEntryRow {
  home_group_name: string | null;
}

/** Students marked in a lesson of a group they were not in that day (guests on a register). */
export function differentClass(
  db: Queryable,
  f: Omit<AttendanceEntryFilter, 'pendingOnly' | 'markedOnly'>,
): Promise<Page<DifferentClassRow>> {
  const where = entryWhere(f).raw(`e.basis = 'guest'`);
  return listPage<DifferentClassRow>(db, {
    select: `e.*, s.full_name AS student_name, p.title AS programme_title, g.name AS group_name,
             t.full_name AS teacher_name, l.ends_at, l.local_start, l.timezone, hg.name AS home_group_name`,
    from: `${ENTRY_FROM} LEFT JOIN rm_groups hg ON hg.id = e.home_group_id`,
    where,
    orderBy: 'e.starts_at DESC, e.lesson_id ASC, e.student_id ASC',
    page: f.page,
    size: f.size,
  });
}

/** Each student's first use of the lesson's join link (`JoinLinkUsed`, decision 0054); order- and duplicate-proof. */
export async function firstStudentJoins(db: Queryable, lessonId: string): Promise<Map<string, Date>> {
  const { rows } = await db.query<{ user_id: string; first_joined_at: Date }>(
    `SELECT user_id, min(joined_at) AS first_joined_at FROM rm_meeting_joins
      WHERE lesson_id = $1 AND role = 'student' GROUP BY user_id`,
    [lessonId],
  );
  return new Map(rows.map((r) => [r.user_id, new Date(r.first_joined_at)]));
}

export interface SessionMarkRow {
  student_id: string;
  student_name: string | null;
  customer_id: string;
  /** The school's local date and half (AM before 12:00) of the lesson's start, in the school's zone. */
  session_date: string;
  session: 'AM' | 'PM';
  lesson_id: string;
  mark: string;
  absence_reason: string | null;
  suggested_code: string | null;
  reason_missing: boolean;
  lessons: number;
}

/** The best mark first: attended beats excused beats absent; a missing reason last. */
const MARK_RANK = `CASE e.mark WHEN 'present' THEN 1 WHEN 'late' THEN 2 WHEN 'left_early' THEN 3
  WHEN 'not_required' THEN 4 WHEN 'tech_failure_provider' THEN 5 WHEN 'absent' THEN 6
  WHEN 'tech_failure_pupil' THEN 7 ELSE 8 END`;

/**
 * The school's view (design §5, Arbor's "best mark"): per student and morning or afternoon session in
 * the school's time zone (its network's; Europe/London without one), the best mark of the session's
 * lessons, with its suggested code and whether a reason is still missing. Latest session first.
 */
export function partnerSessions(
  db: Queryable,
  f: Omit<AttendanceEntryFilter, 'pendingOnly' | 'markedOnly'>,
): Promise<Page<SessionMarkRow>> {
  const where = entryWhere(f);
  const tz = `coalesce(n.timezone, 'Europe/London')`;
  const local = `(e.starts_at AT TIME ZONE ${tz})`;
  const inner = `SELECT e.student_id, e.customer_id, e.lesson_id, e.mark, e.absence_reason, e.suggested_code,
        to_char(${local}, 'YYYY-MM-DD') AS session_date,
        CASE WHEN ${local}::time < time '12:00' THEN 'AM' ELSE 'PM' END AS session,
        ${MARK_RANK} AS rank
      FROM rm_register_entries e JOIN rm_lessons l ON l.id = e.lesson_id
      LEFT JOIN rm_customers c ON c.id = e.customer_id
      LEFT JOIN rm_networks n ON n.id = c.network_id
      ${where.sql}`;
  const from = `(SELECT DISTINCT ON (x.student_id, x.session_date, x.session)
        x.student_id, x.customer_id, x.lesson_id, x.mark, x.absence_reason, x.suggested_code, x.session_date,
        x.session, x.mark = 'absent_pending' AS reason_missing,
        (count(*) OVER (PARTITION BY x.student_id, x.session_date, x.session))::int AS lessons
      FROM (${inner}) x
      ORDER BY x.student_id, x.session_date, x.session, x.rank, x.lesson_id) b
    LEFT JOIN rm_users s ON s.id = b.student_id`;
  return listPage<SessionMarkRow>(db, {
    select: 'b.*, s.full_name AS student_name',
    from,
    where: { sql: '', params: where.params },
    orderBy: 'b.session_date DESC, b.session DESC, lower(s.full_name) ASC NULLS LAST, b.student_id ASC',
    page: f.page,
    size: f.size,
  });
}

/**
 * Lessons whose register is still untaken (no mark at all) that ended between `endedAfter` and
 * `endedBefore`, and that some student joined: what the automatic marking pass looks at.
 */
export async function untakenLessonsWithJoins(
  db: Queryable,
  f: { endedAfter: string; endedBefore: string },
): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>(
    `SELECT l.id FROM rm_lessons l
      WHERE l.status IN ('planned', 'delivered') AND l.ends_at > $1::timestamptz AND l.ends_at <= $2::timestamptz
        AND NOT EXISTS (SELECT 1 FROM rm_register_entries e WHERE e.lesson_id = l.id AND e.mark IS NOT NULL)
        AND EXISTS (SELECT 1 FROM rm_meeting_joins j WHERE j.lesson_id = l.id AND j.role = 'student')
      ORDER BY l.ends_at, l.id`,
    [f.endedAfter, f.endedBefore],
  );
  return rows.map((r) => r.id);
}
