import type { Queryable } from '../list-query.js';
import type {
  EnrolmentRow,
  GroupRow,
  GroupStudentRow,
  GroupTeacherRole,
  ProgrammeRow,
} from './programmes.projection.js';

/**
 * Queries on the programmes, groups and enrolments read models. Date columns are always read as
 * `yyyy-MM-dd` text (never a JS Date, whose meaning would depend on the host's zone).
 */

/** `rm_programmes` columns, dates as text; `alias` prefixes them (`p.`). */
export const programmeColumnsSql = (alias = ''): string => {
  const a = alias ? `${alias}.` : '';
  return `${a}id, ${a}network_id, ${a}customer_id, ${a}product_id, ${a}subject_id, ${a}year_group_id, ${a}kind,
    ${a}title, ${a}start_date::text AS start_date, ${a}end_date::text AS end_date, ${a}timezone, ${a}status,
    ${a}source_programme_id, ${a}created_at, ${a}updated_at, ${a}version::text AS version`;
};

export const enrolmentColumnsSql = (alias = ''): string => {
  const a = alias ? `${alias}.` : '';
  return `${a}id, ${a}student_id, ${a}programme_id, ${a}customer_id, ${a}start_date::text AS start_date,
    ${a}end_date::text AS end_date, ${a}status, ${a}placement_type, ${a}setting, ${a}reason_for_placement,
    ${a}withdrawal_reason, ${a}created_at, ${a}updated_at, ${a}version::text AS version`;
};

export async function programmeById(db: Queryable, id: string): Promise<ProgrammeRow | null> {
  const { rows } = await db.query<ProgrammeRow>(
    `SELECT ${programmeColumnsSql()} FROM rm_programmes WHERE id = $1`,
    [id],
  );
  return rows[0] ?? null;
}

export async function groupById(db: Queryable, id: string): Promise<GroupRow | null> {
  const { rows } = await db.query<GroupRow>(
    `SELECT id, programme_id, name, archived, created_at, updated_at, version::text AS version
       FROM rm_groups WHERE id = $1`,
    [id],
  );
  return rows[0] ?? null;
}

/** Ids of the group's members on a local date (from_date <= d and (to_date is null or to_date >= d)). */
export async function groupStudentsOn(db: Queryable, groupId: string, localDate: string): Promise<string[]> {
  const { rows } = await db.query<{ student_id: string }>(
    `SELECT DISTINCT student_id FROM rm_group_students
      WHERE group_id = $1 AND from_date <= $2::date AND (to_date IS NULL OR to_date >= $2::date)
      ORDER BY student_id`,
    [groupId, localDate],
  );
  return rows.map((r) => r.student_id);
}

/** The group's teachers, the lead first. */
export async function groupTeachers(
  db: Queryable,
  groupId: string,
): Promise<{ teacher_id: string; role: GroupTeacherRole }[]> {
  const { rows } = await db.query<{ teacher_id: string; role: GroupTeacherRole }>(
    `SELECT teacher_id, role FROM rm_group_teachers WHERE group_id = $1
      ORDER BY (role = 'lead') DESC, teacher_id`,
    [groupId],
  );
  return rows;
}

/** Every membership row of a group (history included), oldest first. */
export async function groupMemberships(db: Queryable, groupId: string): Promise<GroupStudentRow[]> {
  const { rows } = await db.query<GroupStudentRow>(
    `SELECT group_id, student_id, from_date::text AS from_date, to_date::text AS to_date
       FROM rm_group_students WHERE group_id = $1 ORDER BY from_date, student_id`,
    [groupId],
  );
  return rows;
}

export async function enrolmentById(db: Queryable, id: string): Promise<EnrolmentRow | null> {
  const { rows } = await db.query<EnrolmentRow>(
    `SELECT ${enrolmentColumnsSql()} FROM rm_enrolments WHERE id = $1`,
    [id],
  );
  return rows[0] ?? null;
}
