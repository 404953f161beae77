import { filters, listPage, type Page, type Queryable } from '../list-query.js';
import type { PermissionChangeRow } from './permission-audit.projection.js';

/** Queries on `rm_permission_changes` (projection `permission_audit`). */

/** A permission change as listed: the instants as ISO strings. */
export type PermissionChangeItem = Omit<PermissionChangeRow, 'recorded_at' | 'occurred_at'> & {
  recorded_at: string;
  occurred_at: string;
};

/** The permission-change log, newest first; `from`/`to` bound `recorded_at` inclusively. */
export const listPermissionChanges = (
  db: Queryable,
  f: { page?: number; size?: number; user_id?: string; permission?: string; from?: string; to?: string },
): Promise<Page<PermissionChangeItem>> => {
  const where = filters().eq('user_id', f.user_id, '::uuid');
  if (f.permission)
    where.raw((p) => {
      const n = p(f.permission);
      return `(jsonb_exists(added, ${n}) OR jsonb_exists(removed, ${n}))`;
    });
  if (f.from) where.raw((p) => `recorded_at >= ${p(f.from)}::timestamptz`);
  if (f.to) where.raw((p) => `recorded_at <= ${p(f.to)}::timestamptz`);
  return listPage<PermissionChangeRow, PermissionChangeItem>(db, {
    select: `position::text AS position, user_id, recorded_at, occurred_at, actor_id, impersonator_id, kind,
              permissions, added, removed`,
    from: 'rm_permission_changes',
    where,
    orderBy: 'rm_permission_changes.position DESC',
    page: f.page,
    size: f.size,
    map: (r) => ({
      ...r,
      recorded_at: new Date(r.recorded_at).toISOString(),
      occurred_at: new Date(r.occurred_at).toISOString(),
    }),
  });
};

/**
 * Who held `permission` at `at`, and since when without interruption (walking each holder's changes
 * backwards from `at`).
 */
export async function permissionHoldersAt(
  db: Queryable,
  permission: string,
  at: string,
): Promise<{ user_id: string; since: string }[]> {
  const { rows } = await db.query<{ user_id: string; permissions: string[] }>(
    `SELECT DISTINCT ON (user_id) user_id, permissions
       FROM rm_permission_changes WHERE recorded_at <= $1::timestamptz
      ORDER BY user_id, rm_permission_changes.position DESC`,
    [at],
  );
  const holders = rows.filter((r) => r.permissions.includes(permission)).map((r) => r.user_id);
  const items: { user_id: string; since: string }[] = [];
  for (const userId of holders) {
    const { rows: changes } = await db.query<{ recorded_at: Date; permissions: string[] }>(
      `SELECT recorded_at, permissions FROM rm_permission_changes
        WHERE user_id = $1 AND recorded_at <= $2::timestamptz ORDER BY rm_permission_changes.position DESC`,
      [userId, at],
    );
    let since = changes[0]!.recorded_at;
    for (const c of changes) {
      if (!c.permissions.includes(permission)) break;
      since = c.recorded_at;
    }
    items.push({ user_id: userId, since: new Date(since).toISOString() });
  }
  return items;
}
