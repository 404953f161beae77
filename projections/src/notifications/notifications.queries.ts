import { filters, listPage, type Page, type Queryable } from '../list-query.js';
import type { NotificationRow } from './notifications.projection.js';

/** Queries on the notification inbox (projection `notifications`). */

export interface InboxRow extends NotificationRow {
  unread: boolean;
}

/** One person's notifications, newest first, each marked unread when after their read cursor. */
export const inboxOf = (
  db: Queryable,
  userId: string,
  page?: { page?: number; size?: number },
): Promise<Page<InboxRow>> =>
  listPage<InboxRow>(db, {
    from: `rm_notifications n LEFT JOIN rm_notification_reads r ON r.user_id = n.user_id`,
    select: `n.*, n.position::text AS position, n.position > COALESCE(r.position, 0) AS unread`,
    where: filters().eq('n.user_id', userId),
    orderBy: 'n.position DESC, n.event_id',
    page: page?.page,
    size: page?.size,
  });

/**
 * How many of one person's notifications are unread, and the newest position (for "mark all read").
 * `readUpTo`: a cursor just written, which the read model may not hold yet (read your own write).
 */
export async function unreadOf(
  db: Queryable,
  userId: string,
  readUpTo = '0',
): Promise<{ count: number; newest: string | null }> {
  const { rows } = await db.query<{ count: number; newest: string | null }>(
    `SELECT count(*) FILTER (WHERE n.position > GREATEST(COALESCE(r.position, 0), $2::bigint))::int AS count,
            max(n.position)::text AS newest
       FROM rm_notifications n LEFT JOIN rm_notification_reads r ON r.user_id = n.user_id
      WHERE n.user_id = $1`,
    [userId, readUpTo],
  );
  return rows[0] ?? { count: 0, newest: null };
}
