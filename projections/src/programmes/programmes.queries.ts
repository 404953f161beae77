import {
  filters,
  listPage,
  sortOf,
  type Bind,
  type Filters,
  type Page,
  type Queryable,
} from '../list-query.js';
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

// ---------------------------------------------------------------------------------------------------
// Lists (the server passes the viewer's scope as a SQL condition built with `bind`)

/** A viewer's restriction as a condition on the list's alias, or null for none. */
export type ScopeSql = ((bind: Bind) => string | null) | undefined;

const scoped = (f: Filters, scope: ScopeSql): Filters => {
  if (!scope) return f;
  const condition = scope(f.bind);
  return condition === null ? f : f.raw(condition);
};

export const PROGRAMME_SORTS = ['title', 'start_date', 'end_date', 'status', 'created_at'] as const;

export interface ProgrammeListFilter {
  page?: number;
  size?: number;
  status?: string;
  customerId?: string;
  productId?: string;
  subjectId?: string;
  /** Programmes with a group this teacher teaches. */
  teacherId?: string;
  /** Text searched in the title. */
  text?: string;
  sortBy?: string;
  descending?: boolean;
  scope?: ScopeSql;
}

/** A programme with the names a list shows beside the ids. */
export interface ProgrammeListRow extends ProgrammeRow {
  customer_name: string | null;
}

export const programmesOfTeacherSql = (teacher: string) =>
  `SELECT g.programme_id FROM rm_groups g JOIN rm_group_teachers t ON t.group_id = g.id WHERE t.teacher_id = ${teacher}`;

export const listProgrammes = (db: Queryable, f: ProgrammeListFilter): Promise<Page<ProgrammeListRow>> => {
  const where = scoped(
    filters()
      .eq('p.status', f.status)
      .eq('p.customer_id', f.customerId, '::uuid')
      .eq('p.product_id', f.productId, '::uuid')
      .eq('p.subject_id', f.subjectId, '::uuid')
      .rawIf(!!f.teacherId, (bind) => `p.id IN (${programmesOfTeacherSql(`${bind(f.teacherId)}::uuid`)})`)
      .contains('p.title', f.text),
    f.scope,
  );
  return listPage<ProgrammeListRow>(db, {
    select: `${programmeColumnsSql('p')}, c.name AS customer_name`,
    from: 'rm_programmes p LEFT JOIN rm_customers c ON c.id = p.customer_id',
    where,
    orderBy: sortOf(f.sortBy, PROGRAMME_SORTS, 'title', {
      descending: f.descending,
      tieBreak: 'p.id ASC',
      expressions: {
        title: 'lower(p.title)',
        start_date: 'p.start_date',
        end_date: 'p.end_date',
        status: 'p.status',
        created_at: 'p.created_at',
      },
    }),
    page: f.page,
    size: f.size,
  });
};

export interface ProgrammeStatistics {
  total: number;
  by_status: { status: string; count: number }[];
  by_product: { product_id: string | null; count: number }[];
  by_customer: { customer_id: string; customer_name: string | null; count: number }[];
  /** Distinct students with an open (requested, active or paused) enrolment in these programmes. */
  students_enrolled: number;
}

/** Counts over the programmes the scope lets the viewer see. */
export async function programmeStatistics(db: Queryable, scope?: ScopeSql): Promise<ProgrammeStatistics> {
  const where = scoped(filters(), scope);
  const base = `SELECT p.* FROM rm_programmes p ${where.sql}`;
  const params = [...where.params];
  const count = (n: unknown) => Number(n);
  const [byStatus, byProduct, byCustomer, students] = await Promise.all([
    db.query<{ status: string; count: string }>(
      `SELECT status, count(*)::text AS count FROM (${base}) p GROUP BY status ORDER BY status`,
      params,
    ),
    db.query<{ product_id: string | null; count: string }>(
      `SELECT product_id, count(*)::text AS count FROM (${base}) p GROUP BY product_id ORDER BY count(*) DESC, product_id`,
      params,
    ),
    db.query<{ customer_id: string; customer_name: string | null; count: string }>(
      `SELECT p.customer_id, c.name AS customer_name, count(*)::text AS count FROM (${base}) p
         LEFT JOIN rm_customers c ON c.id = p.customer_id
        GROUP BY p.customer_id, c.name ORDER BY count(*) DESC, c.name`,
      params,
    ),
    db.query<{ count: string }>(
      `SELECT count(DISTINCT e.student_id)::text AS count FROM (${base}) p
         JOIN rm_enrolments e ON e.programme_id = p.id AND e.status IN ('requested', 'active', 'paused')`,
      params,
    ),
  ]);
  return {
    total: byStatus.rows.reduce((sum, r) => sum + count(r.count), 0),
    by_status: byStatus.rows.map((r) => ({ status: r.status, count: count(r.count) })),
    by_product: byProduct.rows.map((r) => ({ product_id: r.product_id, count: count(r.count) })),
    by_customer: byCustomer.rows.map((r) => ({
      customer_id: r.customer_id,
      customer_name: r.customer_name,
      count: count(r.count),
    })),
    students_enrolled: count(students.rows[0]?.count ?? 0),
  };
}

/** Teachers of every group of a programme (live routing of programme and enrolment events). */
export async function programmeTeacherIds(db: Queryable, programmeId: string): Promise<string[]> {
  const { rows } = await db.query<{ teacher_id: string }>(
    `SELECT DISTINCT t.teacher_id FROM rm_group_teachers t JOIN rm_groups g ON g.id = t.group_id
      WHERE g.programme_id = $1 ORDER BY t.teacher_id`,
    [programmeId],
  );
  return rows.map((r) => r.teacher_id);
}

export interface GroupListFilter {
  page?: number;
  size?: number;
  programmeId?: string;
  teacherId?: string;
  /** Groups the student is (or was) a member of. */
  studentId?: string;
  text?: string;
  /** A condition on the group's programme (alias `p`). */
  scope?: ScopeSql;
}

export interface GroupListRow extends GroupRow {
  programme_title: string;
  customer_id: string;
  /** Members today (in the programme's time zone). */
  student_count: number;
  lead_teacher_id: string | null;
  lead_teacher_name: string | null;
}

export const listGroups = (db: Queryable, f: GroupListFilter): Promise<Page<GroupListRow>> => {
  const where = scoped(
    filters()
      .eq('g.programme_id', f.programmeId, '::uuid')
      .rawIf(
        !!f.teacherId,
        (bind) =>
          `g.id IN (SELECT group_id FROM rm_group_teachers WHERE teacher_id = ${bind(f.teacherId)}::uuid)`,
      )
      .rawIf(
        !!f.studentId,
        (bind) =>
          `g.id IN (SELECT group_id FROM rm_group_students WHERE student_id = ${bind(f.studentId)}::uuid)`,
      )
      .contains('g.name', f.text),
    f.scope,
  );
  return listPage<GroupListRow>(db, {
    select: `g.id, g.programme_id, g.name, g.archived, g.created_at, g.updated_at, g.version::text AS version,
      p.title AS programme_title, p.customer_id,
      (SELECT count(DISTINCT s.student_id)::int FROM rm_group_students s
        WHERE s.group_id = g.id AND s.from_date <= (now() AT TIME ZONE p.timezone)::date
          AND (s.to_date IS NULL OR s.to_date >= (now() AT TIME ZONE p.timezone)::date)) AS student_count,
      lt.teacher_id AS lead_teacher_id, lu.full_name AS lead_teacher_name`,
    from: `rm_groups g JOIN rm_programmes p ON p.id = g.programme_id
      LEFT JOIN rm_group_teachers lt ON lt.group_id = g.id AND lt.role = 'lead'
      LEFT JOIN rm_users lu ON lu.id = lt.teacher_id`,
    where,
    orderBy: 'lower(p.title), lower(g.name), g.id',
    page: f.page,
    size: f.size,
  });
};

/** A membership row with the student's name, for a group's page. */
export interface GroupMemberRow extends GroupStudentRow {
  full_name: string | null;
  customer_id: string | null;
}

export async function groupMembersWithNames(db: Queryable, groupId: string): Promise<GroupMemberRow[]> {
  const { rows } = await db.query<GroupMemberRow>(
    `SELECT s.group_id, s.student_id, s.from_date::text AS from_date, s.to_date::text AS to_date,
            u.full_name, u.customer_id
       FROM rm_group_students s LEFT JOIN rm_users u ON u.id = s.student_id
      WHERE s.group_id = $1 ORDER BY lower(u.full_name), s.student_id, s.from_date`,
    [groupId],
  );
  return rows;
}

export async function groupTeachersWithNames(
  db: Queryable,
  groupId: string,
): Promise<{ teacher_id: string; role: GroupTeacherRole; full_name: string | null }[]> {
  const { rows } = await db.query<{ teacher_id: string; role: GroupTeacherRole; full_name: string | null }>(
    `SELECT t.teacher_id, t.role, u.full_name FROM rm_group_teachers t LEFT JOIN rm_users u ON u.id = t.teacher_id
      WHERE t.group_id = $1 ORDER BY (t.role = 'lead') DESC, lower(u.full_name), t.teacher_id`,
    [groupId],
  );
  return rows;
}

export const ENROLMENT_SORTS = ['start_date', 'end_date', 'status', 'created_at'] as const;

export interface EnrolmentListFilter {
  page?: number;
  size?: number;
  studentId?: string;
  programmeId?: string;
  customerId?: string;
  status?: string;
  sortBy?: string;
  descending?: boolean;
  /** A condition on the enrolment (alias `e`). */
  scope?: ScopeSql;
}

export interface EnrolmentListRow extends EnrolmentRow {
  student_name: string | null;
  programme_title: string | null;
  customer_name: string | null;
}

export const listEnrolments = (db: Queryable, f: EnrolmentListFilter): Promise<Page<EnrolmentListRow>> =>
  listPage<EnrolmentListRow>(db, {
    select: `${enrolmentColumnsSql('e')}, u.full_name AS student_name, p.title AS programme_title,
      c.name AS customer_name`,
    from: `rm_enrolments e LEFT JOIN rm_users u ON u.id = e.student_id
      LEFT JOIN rm_programmes p ON p.id = e.programme_id LEFT JOIN rm_customers c ON c.id = e.customer_id`,
    where: scoped(
      filters()
        .eq('e.student_id', f.studentId, '::uuid')
        .eq('e.programme_id', f.programmeId, '::uuid')
        .eq('e.customer_id', f.customerId, '::uuid')
        .eq('e.status', f.status),
      f.scope,
    ),
    orderBy: sortOf(f.sortBy, ENROLMENT_SORTS, 'start_date', {
      descending: f.descending ?? true,
      tieBreak: 'e.id ASC',
      expressions: {
        start_date: 'e.start_date',
        end_date: 'e.end_date',
        status: 'e.status',
        created_at: 'e.created_at',
      },
    }),
    page: f.page,
    size: f.size,
  });

/** The student's open (requested, active or paused) enrolment in the programme, if any. */
export async function openEnrolmentOf(
  db: Queryable,
  studentId: string,
  programmeId: string,
): Promise<string | null> {
  const { rows } = await db.query<{ id: string }>(
    `SELECT id FROM rm_enrolments WHERE student_id = $1 AND programme_id = $2
        AND status IN ('requested', 'active', 'paused') ORDER BY created_at LIMIT 1`,
    [studentId, programmeId],
  );
  return rows[0]?.id ?? null;
}

/** A teacher's current student: a member today of a group the teacher teaches. */
export interface TeacherStudentRow {
  student_id: string;
  full_name: string | null;
  customer_id: string | null;
  customer_name: string | null;
  group_id: string;
  group_name: string;
  programme_id: string;
  programme_title: string;
  year_group_id: string | null;
  role: GroupTeacherRole;
  from_date: string;
  /** The student's one-page profile, when they have one. */
  one_page_profile_id: string | null;
}

/**
 * The students a teacher teaches today across their groups (one row per student and group), with
 * their school and the programme's year group. "Today" is each programme's own local date.
 */
export async function teacherCurrentStudents(db: Queryable, teacherId: string): Promise<TeacherStudentRow[]> {
  const { rows } = await db.query<TeacherStudentRow>(
    `SELECT s.student_id, u.full_name, u.customer_id, c.name AS customer_name, g.id AS group_id,
            g.name AS group_name, p.id AS programme_id, p.title AS programme_title, p.year_group_id,
            t.role, s.from_date::text AS from_date, op.id AS one_page_profile_id
       FROM rm_group_teachers t
       JOIN rm_groups g ON g.id = t.group_id AND NOT g.archived
       JOIN rm_programmes p ON p.id = g.programme_id AND p.status IN ('draft', 'active', 'paused')
       JOIN rm_group_students s ON s.group_id = g.id
        AND s.from_date <= (now() AT TIME ZONE p.timezone)::date
        AND (s.to_date IS NULL OR s.to_date >= (now() AT TIME ZONE p.timezone)::date)
       LEFT JOIN rm_users u ON u.id = s.student_id
       LEFT JOIN rm_customers c ON c.id = u.customer_id
       LEFT JOIN rm_one_page_profiles op ON op.user_id = s.student_id
      WHERE t.teacher_id = $1 AND (u.id IS NULL OR u.deleted_at IS NULL)
      ORDER BY lower(u.full_name), s.student_id, lower(g.name)`,
    [teacherId],
  );
  return rows;
}

/** Whether the student is in a group the teacher teaches today (the same rule as `teacherCurrentStudents`). */
export async function teacherHasStudentNow(
  db: Queryable,
  teacherId: string,
  studentId: string,
): Promise<boolean> {
  const { rows } = await db.query(
    `SELECT 1 FROM rm_group_teachers t
       JOIN rm_groups g ON g.id = t.group_id AND NOT g.archived
       JOIN rm_programmes p ON p.id = g.programme_id AND p.status IN ('draft', 'active', 'paused')
       JOIN rm_group_students s ON s.group_id = g.id AND s.student_id = $2
        AND s.from_date <= (now() AT TIME ZONE p.timezone)::date
        AND (s.to_date IS NULL OR s.to_date >= (now() AT TIME ZONE p.timezone)::date)
      WHERE t.teacher_id = $1 LIMIT 1`,
    [teacherId, studentId],
  );
  return rows.length > 0;
}

/** Whether a row with this id exists in a reference table that may not exist yet (422 otherwise). */
export async function referenceRowExists(
  db: Queryable,
  table: 'rm_products' | 'rm_subjects' | 'rm_year_groups',
  id: string,
): Promise<boolean> {
  const { rows } = await db.query<{ present: boolean }>('SELECT to_regclass($1) IS NOT NULL AS present', [
    table,
  ]);
  if (!rows[0]?.present) return false;
  const found = await db.query(`SELECT 1 FROM ${table} WHERE id = $1`, [id]);
  return found.rows.length > 0;
}

/** The product's max group size, or null (no product, no limit, or no products read model yet). */
export async function productMaxGroupSize(db: Queryable, productId: string | null): Promise<number | null> {
  if (!productId) return null;
  const { rows } = await db.query<{ present: boolean }>(
    "SELECT to_regclass('rm_products') IS NOT NULL AS present",
  );
  if (!rows[0]?.present) return null;
  const found = await db.query<{ max_group_size: number | null }>(
    'SELECT max_group_size FROM rm_products WHERE id = $1',
    [productId],
  );
  const max = found.rows[0]?.max_group_size;
  return max === null || max === undefined ? null : Number(max);
}

/** Whether the viewer's scope (a condition on `rm_programmes p`) lets them see the programme. */
export async function programmeVisible(db: Queryable, id: string, scope: ScopeSql): Promise<boolean> {
  const where = scoped(filters().eq('p.id', id, '::uuid'), scope);
  const { rows } = await db.query(`SELECT 1 FROM rm_programmes p ${where.sql}`, [...where.params]);
  return rows.length > 0;
}

/** Whether the viewer's scope (a condition on `rm_enrolments e`) lets them see the enrolment. */
export async function enrolmentVisible(db: Queryable, id: string, scope: ScopeSql): Promise<boolean> {
  const where = scoped(filters().eq('e.id', id, '::uuid'), scope);
  const { rows } = await db.query(`SELECT 1 FROM rm_enrolments e ${where.sql}`, [...where.params]);
  return rows.length > 0;
}

/** Of `ids`, the users the scope (a condition on `rm_users u`) lets the viewer see. */
export async function visibleUserIds(
  db: Queryable,
  ids: readonly string[],
  scope: ScopeSql,
): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const where = scoped(filters().any('u.id', ids, 'uuid'), scope);
  const { rows } = await db.query<{ id: string }>(`SELECT u.id FROM rm_users u ${where.sql}`, [
    ...where.params,
  ]);
  return new Set(rows.map((r) => r.id));
}

/** A user's type and customer, to check a student or teacher named in a command. */
export async function userKindOf(
  db: Queryable,
  id: string,
): Promise<{ user_type: string; customer_id: string | null; full_name: string } | null> {
  const { rows } = await db.query<{ user_type: string; customer_id: string | null; full_name: string }>(
    'SELECT user_type, customer_id, full_name FROM rm_users WHERE id = $1 AND deleted_at IS NULL',
    [id],
  );
  return rows[0] ?? null;
}

/** The time zone of a customer's network, or null (no network, or no customer). */
export async function customerNetwork(
  db: Queryable,
  customerId: string,
): Promise<{ network_id: string | null; timezone: string | null } | null> {
  const { rows } = await db.query<{ network_id: string | null; timezone: string | null }>(
    `SELECT c.network_id, n.timezone FROM rm_customers c LEFT JOIN rm_networks n ON n.id = c.network_id
      WHERE c.id = $1`,
    [customerId],
  );
  return rows[0] ?? null;
}

/** A programme's (non-archived) groups with their teachers, to copy a programme. */
export async function programmeGroupsWithTeachers(
  db: Queryable,
  programmeId: string,
): Promise<{ id: string; name: string; teachers: { teacher_id: string; role: GroupTeacherRole }[] }[]> {
  const { rows } = await db.query<{
    id: string;
    name: string;
    teachers: { teacher_id: string; role: GroupTeacherRole }[];
  }>(
    `SELECT g.id, g.name,
            COALESCE((SELECT json_agg(json_build_object('teacher_id', t.teacher_id, 'role', t.role)
                                      ORDER BY (t.role = 'lead') DESC, t.teacher_id)
                        FROM rm_group_teachers t WHERE t.group_id = g.id), '[]'::json) AS teachers
       FROM rm_groups g WHERE g.programme_id = $1 AND NOT g.archived ORDER BY g.created_at, g.id`,
    [programmeId],
  );
  return rows;
}

/** Names of year groups by id (empty when the reference read model is not there yet). */
export async function yearGroupNamesOf(db: Queryable, ids: readonly string[]): Promise<Map<string, string>> {
  const wanted = [...new Set(ids)];
  if (wanted.length === 0) return new Map();
  const { rows } = await db.query<{ present: boolean }>(
    "SELECT to_regclass('rm_year_groups') IS NOT NULL AS present",
  );
  if (!rows[0]?.present) return new Map();
  const found = await db.query<{ id: string; name: string }>(
    'SELECT id, name FROM rm_year_groups WHERE id = ANY($1::uuid[])',
    [wanted],
  );
  return new Map(found.rows.map((r) => [r.id, r.name]));
}
