import { containsPattern, filters, listPage, type Page, type Queryable } from '../list-query.js';
import type { UserRow } from './users.projection.js';

/** Queries on `rm_users` (projection `users`). */

/**
 * A student's year group, as an SQL expression over a user id (`userIdSql`): the one the one-page
 * profile chose, else its free text (the only place a student's year group is recorded; decision 0059).
 */
const yearGroupOfSql = (userIdSql: string) =>
  `(SELECT COALESCE(yg.name, op.year_group) FROM rm_one_page_profiles op
     LEFT JOIN rm_year_groups yg ON yg.id = op.year_group_id WHERE op.user_id = ${userIdSql})`;

/**
 * A user row with its customer's name (spec §3 "first customer's name"), its year group (students, from
 * the one-page profile) and its one-page profile's id and progress when present (an id and progress
 * above 0), joined from those read models.
 */
/** The user's customer's name, as an SQL expression on `rm_users`. */
const CUSTOMER_NAME_SQL = `(SELECT c.name FROM rm_customers c WHERE c.id = rm_users.customer_id)`;

export const USER_COLUMNS = `rm_users.*,
  ${CUSTOMER_NAME_SQL} AS customer_name,
  ${yearGroupOfSql('rm_users.id')} AS year_group,
  (SELECT json_build_object('id', p.id, 'progress', p.progress) FROM rm_one_page_profiles p
    WHERE p.user_id = rm_users.id AND p.progress > 0) AS one_page_profile`;

/** What the guard needs to know of a signed-in user (every request runs it). */
export type ActorRow = Pick<
  UserRow,
  | 'has_access'
  | 'is_blocked'
  | 'permissions'
  | 'customer_id'
  | 'customer_type'
  | 'user_type'
  | 'first_name'
  | 'full_name'
  | 'customer_name'
>;

/** A user who is not deleted, as `ActorRow`: without USER_COLUMNS' year group and profile joins. */
export async function actorRowById(db: Queryable, id: string): Promise<ActorRow | null> {
  const { rows } = await db.query<ActorRow>(
    `SELECT has_access, is_blocked, permissions, customer_id, customer_type, user_type, first_name, full_name,
            ${CUSTOMER_NAME_SQL} AS customer_name
       FROM rm_users WHERE id = $1 AND deleted_at IS NULL`,
    [id],
  );
  return rows[0] ?? null;
}

/**
 * The users that hold `permission` (`holding`), or that do not and could (`eligibleType`), leaving out
 * deleted users (decision 0015); by full name. `text` matches name, login or e-mail.
 */
export const listPermissionUsers = (
  db: Queryable,
  f: {
    permission: string;
    holding: boolean;
    eligibleType: string;
    text?: string;
    page?: number;
    size?: number;
  },
): Promise<Page<UserRow>> => {
  const where = filters().raw('deleted_at IS NULL');
  const p = where.bind(f.permission);
  if (f.holding) where.raw(`jsonb_exists(permissions, ${p})`);
  else where.raw((b) => `NOT jsonb_exists(permissions, ${p}) AND user_type = ${b(f.eligibleType)}`);
  if (f.text)
    where.raw((b) => {
      const t = b(containsPattern(f.text!));
      return `(full_name ILIKE ${t} OR login ILIKE ${t} OR email ILIKE ${t})`;
    });
  return listPage<UserRow>(db, {
    select: USER_COLUMNS,
    from: 'rm_users',
    where,
    orderBy: 'full_name, id',
    page: f.page,
    size: f.size,
    pageFirst: true,
  });
};

/** A student as people tell them apart (issue 18): name, school and year group. */
export interface StudentFacts {
  id: string;
  name: string;
  /** The student's school (their customer). */
  school: string | null;
  /** From the one-page profile: the year group chosen there, else its free text. */
  year_group: string | null;
}

/** Name, school and year group of each of these users that exists. */
export async function studentFactsOf(
  db: Queryable,
  ids: readonly string[],
): Promise<Map<string, StudentFacts>> {
  if (ids.length === 0) return new Map();
  const { rows } = await db.query<StudentFacts>(
    `SELECT u.id::text AS id, u.full_name AS name, c.name AS school, ${yearGroupOfSql('u.id')} AS year_group
       FROM rm_users u
       LEFT JOIN rm_customers c ON c.id = u.customer_id
      WHERE u.id = ANY($1::uuid[])`,
    [[...new Set(ids)]],
  );
  return new Map(rows.map((r) => [r.id, r]));
}
