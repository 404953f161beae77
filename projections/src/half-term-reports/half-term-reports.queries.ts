import { filters, listPage, type Bind, type Page, type Queryable } from '../list-query.js';
import { lessonHasStudentSql } from '../lessons/lessons.queries.js';
import { ABSENT, ATTENDED, NOT_POSSIBLE } from '../attendance/attendance.queries.js';
import type { ReportFact } from '../report-content.js';
import type {
  HalfTermReportRow,
  ReportRevisionRow,
  ReportViewRow,
  ReportTimelineRow,
  TimeframeRow,
} from './half-term-reports.projection.js';
import type { ReportState } from './half-term-reports.events.js';

/**
 * Queries on the `half-term-reports` read models (decision 0057). "Today" is the timeframe's local
 * date in its timezone; a report is overdue when it is still with its writers (draft, returned) after
 * the timeframe's submit-by date.
 */

export const WRITING_STATES: readonly ReportState[] = ['draft', 'returned'];

/** SQL: the timeframe `t`'s local today at the bound instant `now`. */
const todaySql = (now: string) => `to_char((${now}::timestamptz AT TIME ZONE t.timezone), 'YYYY-MM-DD')`;
/** SQL: the report `r`'s submit-by: its extension (decision 0061), else the timeframe's. */
export const submitBySql = `GREATEST(COALESCE(r.extended_submit_by, t.submit_by), t.submit_by)`;
const overdueSql = (now: string) => `(r.state IN ('draft','returned') AND ${submitBySql} < ${todaySql(now)})`;

export interface HalfTermReportListRow extends HalfTermReportRow {
  student_name: string | null;
  programme_title: string | null;
  customer_name: string | null;
  timeframe_name: string;
  /** The report's submit-by: its extension, else the timeframe's. */
  submit_by: string;
  timeframe_submit_by: string;
  release_at: string;
  timezone: string;
  overdue: boolean;
  released: boolean;
  /** Who holds the QA and the lead claim (the live board and the queues; decision 0067). */
  qa_claimed_by_name: string | null;
  lead_claimed_by_name: string | null;
}

const select = (now: string) => `r.*, s.full_name AS student_name, p.title AS programme_title,
  c.name AS customer_name, t.name AS timeframe_name, ${submitBySql} AS submit_by,
  t.submit_by AS timeframe_submit_by, t.release_at, t.timezone,
  ${overdueSql(now)} AS overdue, (t.release_at <= ${todaySql(now)}) AS released,
  (SELECT u.full_name FROM rm_users u WHERE u.id = r.qa_claimed_by) AS qa_claimed_by_name,
  (SELECT u.full_name FROM rm_users u WHERE u.id = r.lead_claimed_by) AS lead_claimed_by_name`;
const FROM = `rm_half_term_reports r
  JOIN rm_report_timeframes t ON t.id = r.timeframe_id
  LEFT JOIN rm_users s ON s.id = r.student_id
  LEFT JOIN rm_programmes p ON p.id = r.programme_id
  LEFT JOIN rm_customers c ON c.id = r.customer_id`;

export type ReportQueue = 'qa' | 'qa-lead' | 'assignments';

export interface HalfTermReportFilter {
  page?: number;
  size?: number;
  timeframeId?: string;
  state?: ReportState[];
  customerId?: string;
  programmeId?: string;
  /** A writer (or co-writer), the QA reviewer or the QA lead of the report. */
  teacherId?: string;
  /** Only reports where this user writes (my-half-term-reports). */
  writerId?: string;
  overdue?: boolean;
  hasSuggestions?: boolean;
  /** Published and released only (partners). */
  releasedOnly?: boolean;
  /** Unassigned rows only (assignments). */
  unassignedOnly?: boolean;
  /**
   * The queue's claim (qa: `qa_claimed_by`, qa-lead: `lead_claimed_by`): this user's, or null for
   * unclaimed only; undefined: any.
   */
  claimedBy?: string | null;
  /** Only these reports (the live board: the reports someone has open). */
  ids?: string[];
  /** Queue order: qa and qa-lead oldest first in their state; assignments unassigned first. */
  queue?: ReportQueue;
  /** Which reports the reader may see (a condition on `r`); null: all. */
  scope?: ((bind: Bind) => string) | null;
  now?: string;
}

export function listHalfTermReports(
  db: Queryable,
  f: HalfTermReportFilter,
): Promise<Page<HalfTermReportListRow>> {
  const where = filters();
  const now = where.bind(f.now ?? new Date().toISOString());
  where.raw(`${now}::timestamptz IS NOT NULL`);
  where.eq('r.timeframe_id', f.timeframeId, '::uuid');
  where.any('r.state', f.state);
  where.any('r.id', f.ids, 'uuid');
  where.eq('r.customer_id', f.customerId, '::uuid');
  where.eq('r.programme_id', f.programmeId, '::uuid');
  if (f.teacherId)
    where.raw((p) => {
      const t = p(f.teacherId);
      return `(r.writer_ids @> jsonb_build_array(${t}::text) OR r.qa_reviewer_id = ${t}::uuid
        OR r.lead_reviewer_id = ${t}::uuid)`;
    });
  where.jsonHas('r.writer_ids', f.writerId);
  if (f.overdue !== undefined) where.raw(f.overdue ? overdueSql(now) : `NOT ${overdueSql(now)}`);
  if (f.hasSuggestions !== undefined)
    where.raw(f.hasSuggestions ? 'r.unresolved_suggestions > 0' : 'r.unresolved_suggestions = 0');
  if (f.releasedOnly)
    where.raw(
      `r.state = 'published' AND r.published_revision IS NOT NULL AND t.release_at <= ${todaySql(now)}`,
    );
  if (f.unassignedOnly)
    where.raw(
      `(jsonb_array_length(r.writer_ids) = 0 OR r.qa_reviewer_id IS NULL OR r.lead_reviewer_id IS NULL)`,
    );
  if (f.claimedBy !== undefined && (f.queue === 'qa' || f.queue === 'qa-lead')) {
    const column = f.queue === 'qa' ? 'r.qa_claimed_by' : 'r.lead_claimed_by';
    if (f.claimedBy === null) where.raw(`${column} IS NULL`);
    else where.eq(column, f.claimedBy, '::uuid');
  }
  if (f.scope) where.raw((p) => f.scope!(p));
  const orderBy =
    f.queue === 'qa' || f.queue === 'qa-lead'
      ? 'r.state_since ASC, r.id ASC'
      : f.queue === 'assignments'
        ? `(jsonb_array_length(r.writer_ids) = 0 OR r.qa_reviewer_id IS NULL OR r.lead_reviewer_id IS NULL) DESC,
           s.full_name ASC NULLS LAST, r.id ASC`
        : 't.submit_by DESC, s.full_name ASC NULLS LAST, r.id ASC';
  return listPage<HalfTermReportListRow>(db, {
    select: select(now),
    from: FROM,
    where,
    orderBy,
    page: f.page,
    size: f.size,
  });
}

export async function halfTermReportById(
  db: Queryable,
  id: string,
  now: string = new Date().toISOString(),
): Promise<HalfTermReportListRow | null> {
  const { rows } = await db.query<HalfTermReportListRow>(
    `SELECT ${select('$2')} FROM ${FROM} WHERE r.id = $1`,
    [id, now],
  );
  return rows[0] ?? null;
}

export async function halfTermReportTimeline(db: Queryable, id: string): Promise<ReportTimelineRow[]> {
  const { rows } = await db.query<ReportTimelineRow & { by_user: string | null }>(
    `SELECT l.event_id, l.report_id, l.type, l.by_user, u.full_name AS by_name, l.reason, l.state, l.hash,
            l.revision, l.at, l.position::text AS position
       FROM rm_half_term_report_timeline l LEFT JOIN rm_users u ON u.id = l.by_user
      WHERE l.report_id = $1 ORDER BY l.position`,
    [id],
  );
  return rows.map(({ by_user, ...row }) => ({ ...row, by: by_user }));
}

export async function halfTermReportRevisions(db: Queryable, id: string): Promise<ReportRevisionRow[]> {
  const { rows } = await db.query<ReportRevisionRow>(
    `SELECT * FROM rm_half_term_report_revisions WHERE report_id = $1 ORDER BY revision`,
    [id],
  );
  return rows;
}

export interface TimeframeListRow extends TimeframeRow {
  report_count: number;
  counts: Partial<Record<ReportState, number>>;
}

export async function timeframeById(db: Queryable, id: string): Promise<TimeframeRow | null> {
  const { rows } = await db.query<TimeframeRow>(`SELECT * FROM rm_report_timeframes WHERE id = $1`, [id]);
  return rows[0] ?? null;
}

export function listTimeframes(
  db: Queryable,
  f: { page?: number; size?: number; query?: string; halfTerm?: string; academicYear?: string },
): Promise<Page<TimeframeListRow>> {
  const where = filters();
  where.contains('t.name', f.query);
  where.eq('t.half_term', f.halfTerm);
  where.eq('t.academic_year', f.academicYear);
  return listPage<TimeframeListRow>(db, {
    select: `t.*,
      (SELECT count(*)::int FROM rm_half_term_reports r WHERE r.timeframe_id = t.id) AS report_count,
      COALESCE((SELECT jsonb_object_agg(x.state, x.n) FROM (SELECT r.state, count(*)::int AS n
        FROM rm_half_term_reports r WHERE r.timeframe_id = t.id GROUP BY r.state) x), '{}'::jsonb) AS counts`,
    from: 'rm_report_timeframes t',
    where,
    orderBy: 't.opens_at DESC, t.id ASC',
    page: f.page,
    size: f.size,
  });
}

export interface ProgressCount {
  id: string;
  name: string | null;
  total: number;
  with_writers: number;
  submitted: number;
  published: number;
  overdue: number;
}

/** Progress of a timeframe: counts by state, per writer (the first writer) and per customer. */
export async function timeframeProgress(
  db: Queryable,
  timeframeId: string,
  now: string = new Date().toISOString(),
): Promise<{
  counts: Partial<Record<ReportState, number>>;
  teachers: ProgressCount[];
  customers: ProgressCount[];
}> {
  const measures = `count(*)::int AS total,
    count(*) FILTER (WHERE r.state IN ('draft','returned'))::int AS with_writers,
    count(*) FILTER (WHERE r.state NOT IN ('draft','returned'))::int AS submitted,
    count(*) FILTER (WHERE r.state = 'published')::int AS published,
    count(*) FILTER (WHERE ${overdueSql('$2')})::int AS overdue`;
  const { rows: counts } = await db.query<{ state: ReportState; n: number }>(
    `SELECT r.state, count(*)::int AS n FROM rm_half_term_reports r WHERE r.timeframe_id = $1 GROUP BY r.state`,
    [timeframeId],
  );
  const { rows: teachers } = await db.query<ProgressCount>(
    `SELECT r.writer_ids->>0 AS id, u.full_name AS name, ${measures}
       FROM rm_half_term_reports r JOIN rm_report_timeframes t ON t.id = r.timeframe_id
       LEFT JOIN rm_users u ON u.id::text = r.writer_ids->>0
      WHERE r.timeframe_id = $1 AND r.state <> 'discarded' AND $2::timestamptz IS NOT NULL
      GROUP BY r.writer_ids->>0, u.full_name ORDER BY overdue DESC, name ASC NULLS FIRST`,
    [timeframeId, now],
  );
  const { rows: customers } = await db.query<ProgressCount>(
    `SELECT r.customer_id::text AS id, c.name, ${measures}
       FROM rm_half_term_reports r JOIN rm_report_timeframes t ON t.id = r.timeframe_id
       LEFT JOIN rm_customers c ON c.id = r.customer_id
      WHERE r.timeframe_id = $1 AND r.state <> 'discarded' AND $2::timestamptz IS NOT NULL
      GROUP BY r.customer_id, c.name ORDER BY overdue DESC, c.name ASC`,
    [timeframeId, now],
  );
  return { counts: Object.fromEntries(counts.map((c) => [c.state, c.n])), teachers, customers };
}

/** One candidate report of a timeframe: an enrolment with lessons in the period, and who taught them. */
export interface ReportCandidate {
  student_id: string;
  programme_id: string;
  customer_id: string;
  lesson_counts: { teacherId: string; delivered: number; planned: number }[];
}

/**
 * The enrolments in the timeframe's scope, active during its period, with at least one lesson planned
 * or delivered in the period in which the student was in the lesson's group; per teacher (the cover
 * teacher when there was one) the lessons delivered and planned.
 */
export async function reportCandidates(db: Queryable, t: TimeframeRow): Promise<ReportCandidate[]> {
  const { rows } = await db.query<{
    student_id: string;
    programme_id: string;
    customer_id: string;
    teacher_id: string;
    delivered: number;
    planned: number;
  }>(
    `SELECT e.student_id, e.programme_id, e.customer_id,
            COALESCE(l.cover_teacher_id, l.teacher_id) AS teacher_id,
            count(*) FILTER (WHERE l.status = 'delivered')::int AS delivered,
            count(*) FILTER (WHERE l.status = 'planned')::int AS planned
       FROM rm_enrolments e
       JOIN rm_programmes p ON p.id = e.programme_id
       LEFT JOIN rm_customers c ON c.id = e.customer_id
       JOIN rm_lessons l ON l.programme_id = e.programme_id
        AND l.status IN ('delivered','planned')
        AND l.local_date >= $1 AND l.local_date <= $2
        AND ${lessonHasStudentSql('l', 'e.student_id')}
      WHERE e.start_date <= $2::date AND (e.end_date IS NULL OR e.end_date >= $1::date)
        AND e.status NOT IN ('requested', 'withdrawn')
        AND ($3::uuid IS NULL OR p.network_id = $3::uuid OR c.network_id = $3::uuid)
        AND (cardinality($4::uuid[]) = 0 OR e.customer_id = ANY($4::uuid[]))
        AND (cardinality($5::uuid[]) = 0 OR e.programme_id = ANY($5::uuid[]))
        AND (cardinality($6::uuid[]) = 0 OR p.product_id = ANY($6::uuid[]))
      GROUP BY e.student_id, e.programme_id, e.customer_id, COALESCE(l.cover_teacher_id, l.teacher_id)
      ORDER BY e.student_id, e.programme_id`,
    [t.period_from, t.period_to, t.network_id, t.scope.customerIds, t.scope.programmeIds, t.scope.productIds],
  );
  const byKey = new Map<string, ReportCandidate>();
  for (const row of rows) {
    const key = `${row.student_id}|${row.programme_id}`;
    let c = byKey.get(key);
    if (!c) {
      c = {
        student_id: row.student_id,
        programme_id: row.programme_id,
        customer_id: row.customer_id,
        lesson_counts: [],
      };
      byKey.set(key, c);
    }
    c.lesson_counts.push({ teacherId: row.teacher_id, delivered: row.delivered, planned: row.planned });
  }
  return [...byKey.values()];
}

/** Whether a timeframe already has reports (its scope and period then stay as they are). */
export async function timeframeReportCount(db: Queryable, timeframeId: string): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM rm_half_term_reports WHERE timeframe_id = $1`,
    [timeframeId],
  );
  return rows[0]?.n ?? 0;
}

/** Users by id with their permissions (to check assignees). */
export async function reportAssignees(
  db: Queryable,
  ids: string[],
): Promise<{ id: string; permissions: string[]; user_type: string; full_name: string }[]> {
  if (ids.length === 0) return [];
  const { rows } = await db.query<{
    id: string;
    permissions: string[];
    user_type: string;
    full_name: string;
  }>(
    `SELECT id, permissions, user_type, full_name FROM rm_users WHERE id = ANY($1::uuid[]) AND deleted_at IS NULL`,
    [ids],
  );
  return rows;
}

export interface DueSummaryRow {
  id: string;
  name: string;
  submit_by: string;
  draft: number;
  returned: number;
  overdue: boolean;
}

/**
 * The reminder modal's summary (decision 0057): per open timeframe (today, in its zone, from opens_at
 * to the hard close or the QA date), the writer's reports still with them (draft, returned).
 */
export async function dueSummary(
  db: Queryable,
  writerId: string,
  now: string = new Date().toISOString(),
): Promise<DueSummaryRow[]> {
  const { rows } = await db.query<DueSummaryRow>(
    `SELECT t.id, t.name, t.submit_by,
            count(*) FILTER (WHERE r.state = 'draft')::int AS draft,
            count(*) FILTER (WHERE r.state = 'returned')::int AS returned,
            (t.submit_by < ${todaySql('$2')}) AS overdue
       FROM rm_half_term_reports r JOIN rm_report_timeframes t ON t.id = r.timeframe_id
      WHERE r.writer_ids @> jsonb_build_array($1::text) AND r.state IN ('draft', 'returned')
        AND t.opens_at <= ${todaySql('$2')} AND COALESCE(t.closes_at, t.qa_by) >= ${todaySql('$2')}
      GROUP BY t.id, t.name, t.submit_by
      ORDER BY t.submit_by, t.id`,
    [writerId, now],
  );
  return rows;
}

/** The names of the other students with a report in the same timeframe (the name-conflict check). */
export async function otherStudentNames(db: Queryable, reportId: string): Promise<string[]> {
  const { rows } = await db.query<{ full_name: string }>(
    `SELECT DISTINCT u.full_name
       FROM rm_half_term_reports me
       JOIN rm_half_term_reports other ON other.timeframe_id = me.timeframe_id AND other.student_id <> me.student_id
       JOIN rm_users u ON u.id = other.student_id
      WHERE me.id = $1 AND u.full_name <> ''
      ORDER BY u.full_name`,
    [reportId],
  );
  return rows.map((r) => r.full_name);
}

/** The partners' read receipts of a report, newest first. */
export async function halfTermReportViews(db: Queryable, reportId: string): Promise<ReportViewRow[]> {
  const { rows } = await db.query<ReportViewRow>(
    `SELECT v.viewer_id, u.full_name AS viewer_name, v.revision, v.via, v.at
       FROM rm_half_term_report_views v LEFT JOIN rm_users u ON u.id = v.viewer_id
      WHERE v.report_id = $1 ORDER BY v.at DESC, v.event_id`,
    [reportId],
  );
  return rows;
}

export interface TimelineForMetrics {
  report_id: string;
  writer_id: string | null;
  type: string;
  by: string | null;
  at: Date;
}

/** Every workflow event of a timeframe's reports, in order (the QA metrics are computed from it). */
export async function timeframeTimeline(db: Queryable, timeframeId: string): Promise<TimelineForMetrics[]> {
  const { rows } = await db.query<TimelineForMetrics>(
    `SELECT e.report_id, r.writer_ids->>0 AS writer_id, e.type, e.by_user AS by, e.at
       FROM rm_half_term_report_timeline e JOIN rm_half_term_reports r ON r.id = e.report_id
      WHERE r.timeframe_id = $1 ORDER BY e.position`,
    [timeframeId],
  );
  return rows;
}

/** Full names by id. */
export async function userNames(db: Queryable, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const { rows } = await db.query<{ id: string; full_name: string }>(
    `SELECT id, full_name FROM rm_users WHERE id = ANY($1::uuid[])`,
    [ids],
  );
  return new Map(rows.map((r) => [r.id, r.full_name]));
}

/** A report still with its writers, with what the deadline job needs (decision 0061). */
export interface DueReportRow {
  id: string;
  timeframe_id: string;
  timeframe_name: string;
  writer_ids: string[];
  student_name: string | null;
  programme_title: string | null;
  /** The report's submit-by (its extension, else the timeframe's). */
  submit_by: string;
  timeframe_submit_by: string;
  missed_submit_by: string | null;
  reminder_offsets: number[];
  /** The timeframe's local today at `now`. */
  today: string;
}

/**
 * Reports still with their writers (draft, returned) in timeframes open for writing at `now`: those
 * whose submit-by passed (`missed`, not yet recorded as missed for that date) or is still ahead
 * (`due`, for reminders).
 */
export async function reportsWithWriters(
  db: Queryable,
  now: string,
  which: 'missed' | 'due',
): Promise<DueReportRow[]> {
  const today = todaySql('$1');
  const condition =
    which === 'missed'
      ? `${submitBySql} < ${today} AND r.missed_submit_by IS DISTINCT FROM ${submitBySql}`
      : `${submitBySql} >= ${today} AND t.opens_at <= ${today}`;
  const { rows } = await db.query<DueReportRow>(
    `SELECT r.id, r.timeframe_id, t.name AS timeframe_name, r.writer_ids, s.full_name AS student_name,
            p.title AS programme_title, ${submitBySql} AS submit_by, t.submit_by AS timeframe_submit_by,
            r.missed_submit_by, t.reminder_offsets, ${today} AS today
       FROM ${FROM}
      WHERE r.state IN ('draft', 'returned') AND ${condition}
      ORDER BY r.timeframe_id, r.id
      LIMIT 20000`,
    [now],
  );
  return rows;
}

export interface ReportSuggestionRow {
  suggestion_id: string;
  author_id: string | null;
  author_name: string | null;
  inserted: string;
  deleted: string;
  state: 'open' | 'accepted' | 'rejected';
  made_at: Date;
  resolved_by: string | null;
  resolved_by_name: string | null;
  resolved_at: Date | null;
}

/** A report's suggestions (decision 0060), open first, then by when they were made. */
export async function reportSuggestions(db: Queryable, reportId: string): Promise<ReportSuggestionRow[]> {
  const { rows } = await db.query<ReportSuggestionRow>(
    `SELECT s.suggestion_id, s.author_id, a.full_name AS author_name, s.inserted, s.deleted, s.state, s.made_at,
            s.resolved_by, b.full_name AS resolved_by_name, s.resolved_at
       FROM rm_half_term_report_suggestions s
       LEFT JOIN rm_users a ON a.id = s.author_id
       LEFT JOIN rm_users b ON b.id = s.resolved_by
      WHERE s.report_id = $1
      ORDER BY (s.state = 'open') DESC, s.made_at, s.suggestion_id`,
    [reportId],
  );
  return rows;
}

/** Where to e-mail these users (their notification e-mail, else their login e-mail); erased, deleted
 * and deactivated users are left out. */
export async function mailRecipients(
  db: Queryable,
  ids: string[],
): Promise<Map<string, { email: string; full_name: string }>> {
  if (ids.length === 0) return new Map();
  const { rows } = await db.query<{ id: string; email: string; full_name: string }>(
    `SELECT id, COALESCE(NULLIF(notification_email, ''), email) AS email, full_name FROM rm_users
      WHERE id = ANY($1::uuid[]) AND deleted_at IS NULL AND NOT personal_data_erased AND has_access`,
    [ids],
  );
  return new Map(rows.map((r) => [r.id, { email: r.email, full_name: r.full_name }]));
}

export interface RefusedEditRow {
  event_id: string;
  by_user: string;
  by_name: string | null;
  reason: string;
  removed: string;
  inserted: string;
  at: Date;
}

/** Edits the server refused (kept, decision 0060), newest first; only `byUser`'s unless null. */
export async function refusedEdits(
  db: Queryable,
  reportId: string,
  byUser: string | null,
): Promise<RefusedEditRow[]> {
  const { rows } = await db.query<RefusedEditRow>(
    `SELECT e.event_id, e.by_user, u.full_name AS by_name, e.reason, e.removed, e.inserted, e.at
       FROM rm_half_term_report_refused_edits e LEFT JOIN rm_users u ON u.id = e.by_user
      WHERE e.report_id = $1 AND ($2::uuid IS NULL OR e.by_user = $2::uuid)
      ORDER BY e.position DESC`,
    [reportId, byUser],
  );
  return rows;
}

export interface SuggestionForMetrics {
  report_id: string;
  author_id: string | null;
  writer_id: string | null;
  state: 'open' | 'accepted' | 'rejected';
}

/** Every suggestion of a timeframe's reports (suggestions per report and acceptance rate). */
export async function timeframeSuggestions(
  db: Queryable,
  timeframeId: string,
): Promise<SuggestionForMetrics[]> {
  const { rows } = await db.query<SuggestionForMetrics>(
    `SELECT s.report_id, s.author_id, r.writer_ids->>0 AS writer_id, s.state
       FROM rm_half_term_report_suggestions s JOIN rm_half_term_reports r ON r.id = s.report_id
      WHERE r.timeframe_id = $1`,
    [timeframeId],
  );
  return rows;
}

/**
 * The facts of a report's draft (decision 0068), from the attendance and lesson read models: the
 * student's marked sessions of the programme in the period (possible = not "not required" and not a
 * failure on our side; attended = present, late, left early; the percentage to one decimal) and the
 * programme's lessons the student was in (delivered, planned, cancelled). Dates are the lessons' local
 * dates, so the period is the timeframe's own.
 */
export async function reportFacts(
  db: Queryable,
  r: { studentId: string; programmeId: string; periodFrom: string; periodTo: string; position: string },
): Promise<ReportFact[]> {
  const [attendance, lessons] = await Promise.all([
    db.query<{ possible: number; attended: number; late: number; absences: number }>(
      `SELECT count(*) FILTER (WHERE e.mark NOT IN ${NOT_POSSIBLE})::int AS possible,
              count(*) FILTER (WHERE e.mark IN ${ATTENDED})::int AS attended,
              count(*) FILTER (WHERE e.mark = 'late')::int AS late,
              count(*) FILTER (WHERE e.mark IN ${ABSENT})::int AS absences
         FROM rm_register_entries e
        WHERE e.student_id = $1 AND e.programme_id = $2 AND e.local_date >= $3 AND e.local_date <= $4
          AND NOT e.voided AND e.mark IS NOT NULL`,
      [r.studentId, r.programmeId, r.periodFrom, r.periodTo],
    ),
    db.query<{ delivered: number; planned: number; cancelled: number }>(
      `SELECT count(*) FILTER (WHERE l.status = 'delivered')::int AS delivered,
              count(*) FILTER (WHERE l.status = 'planned')::int AS planned,
              count(*) FILTER (WHERE l.status = 'cancelled')::int AS cancelled
         FROM rm_lessons l
        WHERE l.programme_id = $2 AND l.local_date >= $3 AND l.local_date <= $4
          AND ${lessonHasStudentSql('l', '$1::uuid')}`,
      [r.studentId, r.programmeId, r.periodFrom, r.periodTo],
    ),
  ]);
  const a = attendance.rows[0] ?? { possible: 0, attended: 0, late: 0, absences: 0 };
  const l = lessons.rows[0] ?? { delivered: 0, planned: 0, cancelled: 0 };
  const period = `${r.periodFrom}/${r.periodTo}`;
  return [
    {
      kind: 'attendance',
      period,
      values: {
        possible: a.possible,
        attended: a.attended,
        late: a.late,
        absences: a.absences,
        percent: a.possible ? Math.round((a.attended / a.possible) * 1000) / 10 : 0,
      },
      sourcePosition: r.position,
    },
    {
      kind: 'lessons',
      period,
      values: { delivered: l.delivered, planned: l.planned, cancelled: l.cancelled },
      sourcePosition: r.position,
    },
  ];
}

/** The published reports of a timeframe (of one customer when given), by school and student (batch PDFs). */
export async function publishedReportIds(
  db: Queryable,
  timeframeId: string,
  customerId: string | null,
): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>(
    `SELECT r.id FROM rm_half_term_reports r
       LEFT JOIN rm_users s ON s.id = r.student_id
       LEFT JOIN rm_customers c ON c.id = r.customer_id
      WHERE r.timeframe_id = $1 AND r.state = 'published' AND r.published_revision IS NOT NULL
        AND ($2::uuid IS NULL OR r.customer_id = $2::uuid)
      ORDER BY c.name ASC NULLS LAST, s.full_name ASC NULLS LAST, r.id ASC`,
    [timeframeId, customerId],
  );
  return rows.map((r) => r.id);
}
