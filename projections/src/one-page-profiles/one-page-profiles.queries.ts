import {
  containsPattern,
  filters,
  listPage,
  type Filters,
  type Page,
  type Queryable,
} from '../list-query.js';
import type { UserRow } from '../users/users.projection.js';
import type { OnePageProfileRow } from './one-page-profiles.projection.js';

/** Queries on `rm_one_page_profiles` (projection `one_page_profiles`), with the student's names from `rm_users`. */

export type OnePageProfileWithStudent = OnePageProfileRow &
  Pick<UserRow, 'first_name' | 'last_name' | 'full_name' | 'customer_id'> & {
    /** The student's school. */
    customer_name: string | null;
    /** The chosen year group's name (else the profile's free text `year_group`). */
    year_group_name: string | null;
  };

const SELECT =
  'p.*, u.first_name, u.last_name, u.full_name, u.customer_id, c.name AS customer_name, yg.name AS year_group_name';
const FROM = `rm_one_page_profiles p JOIN rm_users u ON u.id = p.user_id
  LEFT JOIN rm_customers c ON c.id = u.customer_id LEFT JOIN rm_year_groups yg ON yg.id = p.year_group_id`;

export interface OnePageProfileListFilter {
  page?: number;
  size?: number;
  /** Text searched in the student's full name and the preferred name. */
  text?: string;
  customerId?: string;
}

/**
 * Profiles by student name, ties by profile id. `scope` holds the reader's visibility conditions
 * (on `u`, the student's row), built by the caller's access rules.
 */
export function listOnePageProfiles(
  db: Queryable,
  f: OnePageProfileListFilter,
  scope: Filters = filters(),
): Promise<Page<OnePageProfileWithStudent>> {
  const where = scope
    .rawIf(!!f.text, (p) => {
      const n = p(containsPattern(f.text ?? ''));
      return `(u.full_name ILIKE ${n} OR p.preferred_name ILIKE ${n})`;
    })
    .eq('u.customer_id', f.customerId);
  return listPage<OnePageProfileWithStudent>(db, {
    select: SELECT,
    from: FROM,
    where,
    orderBy: 'u.full_name, p.id',
    page: f.page,
    size: f.size,
  });
}

export async function onePageProfileById(
  db: Queryable,
  id: string,
): Promise<OnePageProfileWithStudent | null> {
  const { rows } = await db.query<OnePageProfileWithStudent>(
    `SELECT ${SELECT} FROM ${FROM} WHERE p.id = $1`,
    [id],
  );
  return rows[0] ?? null;
}
