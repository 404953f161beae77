import { filters, type Bind, type Filters, type Queryable } from '../list-query.js';
import { lessonHasStudentSql } from './lessons.queries.js';

/**
 * The user reports that waited for the teaching area (spec §7 "Users"; decision 0058), read from the
 * lessons, programmes, enrolments and reference read models in one set-based query each. Dates are the
 * lessons' own local dates (`yyyy-MM-dd`, both ends included). A lesson is delivered by its cover
 * teacher when it has one, else by its teacher.
 */

/** SQL: the teacher who delivers lesson `alias`. */
const deliverer = (alias: string) => `COALESCE(${alias}.cover_teacher_id, ${alias}.teacher_id)`;

export interface DateRange {
  from: string;
  to: string;
}

/** Lessons on local dates from `from` to `to` (inclusive), not unscheduled. */
function lessonsIn(range: DateRange): Filters {
  return filters()
    .raw((p) => `l.local_date::date BETWEEN ${p(range.from)}::date AND ${p(range.to)}::date`)
    .raw(`l.status <> 'unscheduled'`);
}

const COUNTS = `
  count(*) FILTER (WHERE l.status = 'delivered')::int AS lessons_delivered,
  count(*) FILTER (WHERE l.status = 'planned')::int AS lessons_planned,
  count(*) FILTER (WHERE l.status = 'not_delivered')::int AS lessons_not_delivered,
  count(*) FILTER (WHERE l.status = 'cancelled')::int AS lessons_cancelled,
  COALESCE(sum(l.duration_minutes) FILTER (WHERE l.status = 'delivered'), 0)::int AS minutes_delivered,
  min(l.local_date) AS first_lesson,
  max(l.local_date) AS last_lesson`;

export interface LessonCounts {
  lessons_delivered: number;
  lessons_planned: number;
  lessons_not_delivered: number;
  lessons_cancelled: number;
  minutes_delivered: number;
  first_lesson: string | null;
  last_lesson: string | null;
}

export interface ProgrammeSummaryRow extends LessonCounts {
  programme_id: string;
  title: string;
  programme_status: string;
  customer_id: string;
  customer_name: string | null;
  subject_name: string | null;
}

/**
 * `users/{id}/programs/summary`: per programme, the user's lessons in the range — as the teacher who
 * delivers them, or as a student of the lesson's group on its date. `scope` limits the lessons to what
 * the reader may see (a condition on `l`; null: all).
 */
export async function programmeSummaryOf(
  db: Queryable,
  f: DateRange & { userId: string; as: 'teacher' | 'student'; scope: ((bind: Bind) => string) | null },
): Promise<ProgrammeSummaryRow[]> {
  const where = lessonsIn(f).raw((p) =>
    f.as === 'teacher'
      ? `${deliverer('l')} = ${p(f.userId)}::uuid`
      : lessonHasStudentSql('l', `${p(f.userId)}::uuid`),
  );
  if (f.scope) where.raw(f.scope);
  const { rows } = await db.query<ProgrammeSummaryRow>(
    `SELECT p.id AS programme_id, p.title, p.status AS programme_status, p.customer_id,
            c.name AS customer_name, s.name AS subject_name, ${COUNTS}
       FROM rm_lessons l JOIN rm_programmes p ON p.id = l.programme_id
       LEFT JOIN rm_customers c ON c.id = p.customer_id
       LEFT JOIN rm_subjects s ON s.id = p.subject_id
      ${where.sql}
      GROUP BY p.id, p.title, p.status, p.customer_id, c.name, s.name
      ORDER BY lower(p.title), p.id`,
    where.params,
  );
  return rows;
}

export interface DeliveredBySubjectRow {
  user_id: string;
  user_name: string;
  subject_id: string | null;
  subject_name: string | null;
  lessons_delivered: number;
  minutes_delivered: number;
}

/** `users/coms`: delivered lessons per teacher and subject (one teacher, or all; some subjects, or all). */
export async function deliveredBySubject(
  db: Queryable,
  f: DateRange & { userId?: string; subjectIds?: string[] },
): Promise<DeliveredBySubjectRow[]> {
  const where = lessonsIn(f)
    .raw(`l.status = 'delivered'`)
    .eq(deliverer('l'), f.userId, '::uuid')
    .any('p.subject_id', f.subjectIds, 'uuid');
  const { rows } = await db.query<DeliveredBySubjectRow>(
    `SELECT u.id AS user_id, u.full_name AS user_name, p.subject_id, s.name AS subject_name,
            count(*)::int AS lessons_delivered, COALESCE(sum(l.duration_minutes), 0)::int AS minutes_delivered
       FROM rm_lessons l JOIN rm_programmes p ON p.id = l.programme_id
       JOIN rm_users u ON u.id = ${deliverer('l')}
       LEFT JOIN rm_subjects s ON s.id = p.subject_id
      ${where.sql}
      GROUP BY u.id, u.full_name, p.subject_id, s.name
      ORDER BY lower(u.full_name), u.id, lower(s.name) NULLS LAST`,
    where.params,
  );
  return rows;
}

export interface TeacherForCustomerRow extends LessonCounts {
  teacher_id: string;
  teacher_name: string;
  programmes: string;
}

/** `teachers_for_customer/{id}/report`: the teachers who deliver a customer's lessons in the range. */
export async function teachersForCustomer(
  db: Queryable,
  f: DateRange & { customerId: string },
): Promise<TeacherForCustomerRow[]> {
  const where = lessonsIn(f).eq('l.customer_id', f.customerId, '::uuid');
  const { rows } = await db.query<TeacherForCustomerRow>(
    `SELECT u.id AS teacher_id, u.full_name AS teacher_name,
            string_agg(DISTINCT p.title, '; ') AS programmes, ${COUNTS}
       FROM rm_lessons l JOIN rm_programmes p ON p.id = l.programme_id
       JOIN rm_users u ON u.id = ${deliverer('l')}
      ${where.sql}
      GROUP BY u.id, u.full_name
      ORDER BY lower(u.full_name), u.id`,
    where.params,
  );
  return rows;
}

export interface ProgrammeFacets {
  productIds?: string[];
  subjectIds?: string[];
  yearGroupIds?: string[];
  keyStages?: string[];
}

/** Conditions on the programme `p` and its year group `yg`. */
function facets(where: Filters, f: ProgrammeFacets): Filters {
  return where
    .any('p.product_id', f.productIds, 'uuid')
    .any('p.subject_id', f.subjectIds, 'uuid')
    .any('p.year_group_id', f.yearGroupIds, 'uuid')
    .any(`COALESCE(yg.key_stage, 'Not set')`, f.keyStages);
}

const PROGRAMME_JOINS = `
  JOIN rm_programmes p ON p.id = l.programme_id
  LEFT JOIN rm_customers c ON c.id = p.customer_id
  LEFT JOIN rm_products pr ON pr.id = p.product_id
  LEFT JOIN rm_subjects s ON s.id = p.subject_id
  LEFT JOIN rm_year_groups yg ON yg.id = p.year_group_id`;

export interface TeacherDeliveringRow {
  teacher_id: string;
  teacher_name: string;
  programme_id: string;
  programme_title: string;
  customer_name: string | null;
  product_name: string | null;
  subject_name: string | null;
  year_group_name: string | null;
  key_stage: string | null;
  lessons_delivered: number;
  minutes_delivered: number;
  first_lesson: string;
  last_lesson: string;
}

/** `teachers_delivering_courses/report`: per teacher and programme, the lessons delivered in the range. */
export async function teachersDeliveringCourses(
  db: Queryable,
  f: DateRange & ProgrammeFacets,
): Promise<TeacherDeliveringRow[]> {
  const where = facets(lessonsIn(f).raw(`l.status = 'delivered'`), f);
  const { rows } = await db.query<TeacherDeliveringRow>(
    `SELECT u.id AS teacher_id, u.full_name AS teacher_name, p.id AS programme_id, p.title AS programme_title,
            c.name AS customer_name, pr.name AS product_name, s.name AS subject_name,
            yg.name AS year_group_name, yg.key_stage,
            count(*)::int AS lessons_delivered, COALESCE(sum(l.duration_minutes), 0)::int AS minutes_delivered,
            min(l.local_date) AS first_lesson, max(l.local_date) AS last_lesson
       FROM rm_lessons l ${PROGRAMME_JOINS}
       JOIN rm_users u ON u.id = ${deliverer('l')}
      ${where.sql}
      GROUP BY u.id, u.full_name, p.id, p.title, c.name, pr.name, s.name, yg.name, yg.key_stage
      ORDER BY lower(u.full_name), u.id, lower(p.title), p.id`,
    where.params,
  );
  return rows;
}

/** SQL: joins each lesson `l` to the students of its group on its date (`gs.student_id`). */
const LESSON_STUDENTS = `JOIN rm_group_students gs ON gs.group_id = l.group_id
  AND gs.from_date <= l.local_date::date AND (gs.to_date IS NULL OR gs.to_date >= l.local_date::date)`;

export interface StudentWithLessonsRow extends LessonCounts {
  student_id: string;
  student_name: string;
  customer_name: string | null;
  programmes: string;
}

/** `students-with-lessons/report`: students with lessons in the range, per student. */
export async function studentsWithLessons(db: Queryable, f: DateRange): Promise<StudentWithLessonsRow[]> {
  const where = lessonsIn(f);
  const { rows } = await db.query<StudentWithLessonsRow>(
    `SELECT u.id AS student_id, u.full_name AS student_name, c.name AS customer_name,
            string_agg(DISTINCT p.title, '; ') AS programmes, ${COUNTS}
       FROM rm_lessons l ${LESSON_STUDENTS}
       JOIN rm_users u ON u.id = gs.student_id
       JOIN rm_programmes p ON p.id = l.programme_id
       LEFT JOIN rm_customers c ON c.id = u.customer_id
      ${where.sql}
      GROUP BY u.id, u.full_name, c.name
      ORDER BY lower(u.full_name), u.id`,
    where.params,
  );
  return rows;
}

export interface StudentsByKeyStageRow {
  key_stage: string;
  year_group_name: string | null;
  students: number;
  lessons_delivered: number;
}

/** `students-by-keystage/report`: distinct students with delivered lessons per key stage and year group. */
export async function studentsByKeyStage(
  db: Queryable,
  f: DateRange & ProgrammeFacets,
): Promise<StudentsByKeyStageRow[]> {
  const where = facets(lessonsIn(f).raw(`l.status = 'delivered'`), f);
  const { rows } = await db.query<StudentsByKeyStageRow>(
    `SELECT COALESCE(yg.key_stage, 'Not set') AS key_stage, yg.name AS year_group_name,
            count(DISTINCT gs.student_id)::int AS students, count(DISTINCT l.id)::int AS lessons_delivered
       FROM rm_lessons l ${LESSON_STUDENTS} ${PROGRAMME_JOINS}
      ${where.sql}
      GROUP BY COALESCE(yg.key_stage, 'Not set'), yg.name
      ORDER BY 1, 2 NULLS LAST`,
    where.params,
  );
  return rows;
}

export interface SourceOfEducationRow {
  student_id: string;
  student_name: string;
  customer_name: string | null;
  programme_title: string;
  placement_type: string;
  setting: string;
  reason_for_placement: string;
  status: string;
  start_date: string;
  end_date: string | null;
}

/**
 * `students/source-of-education/report`: the enrolments open at some point of the range — the
 * commissioning school (the student's source of education), the placement type, setting and reason.
 */
export async function sourceOfEducation(db: Queryable, f: DateRange): Promise<SourceOfEducationRow[]> {
  const { rows } = await db.query<SourceOfEducationRow>(
    `SELECT e.student_id, u.full_name AS student_name, c.name AS customer_name, p.title AS programme_title,
            e.placement_type, e.setting, e.reason_for_placement, e.status,
            to_char(e.start_date, 'YYYY-MM-DD') AS start_date, to_char(e.end_date, 'YYYY-MM-DD') AS end_date
       FROM rm_enrolments e JOIN rm_users u ON u.id = e.student_id
       JOIN rm_programmes p ON p.id = e.programme_id
       LEFT JOIN rm_customers c ON c.id = e.customer_id
      WHERE e.start_date <= $2::date AND (e.end_date IS NULL OR e.end_date >= $1::date)
      ORDER BY lower(c.name) NULLS LAST, lower(u.full_name), e.start_date, e.id`,
    [f.from, f.to],
  );
  return rows;
}
