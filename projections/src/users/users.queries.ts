import { containsPattern, filters, listPage, type Page, type Queryable } from '../list-query.js';
import type { UserRow } from './users.projection.js';

/** Queries on `rm_users` (projection `users`). */

/**
 * A user row with its customer's name (spec §3 "first customer's name") and its one-page profile's id
 * and progress when present (an id and progress above 0), joined from those read models.
 */
export const USER_COLUMNS = `rm_users.*,
  (SELECT c.name FROM rm_customers c WHERE c.id = rm_users.customer_id) AS customer_name,
  (SELECT json_build_object('id', p.id, 'progress', p.progress) FROM rm_one_page_profiles p
    WHERE p.user_id = rm_users.id AND p.progress > 0) AS one_page_profile`;

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
  });
};
