import { filters, listPage, type Page, type Queryable } from '../list-query.js';
import type { NotificationRow } from './notifications.projection.js';

/** Queries on the notification inbox (projection `notifications`). */

/**
 * An attendance alert (decision 0061) reaches its contact only while they see attendance and the
 * student: all of their school's with SEE_ALL_STUDENTS_DETAILS, else the students linked to them
 * (link contacts, parents). Other notifications pass.
 */
const alertReach = (n: string) => `(${n}.kind NOT IN ('absence-no-reason', 'attendance-amended') OR EXISTS (
    SELECT 1 FROM rm_users cu
     WHERE cu.id = ${n}.user_id AND cu.permissions @> '["PARTNER_CAN_SEE_ATTENDANCE"]'::jsonb
       AND (cu.permissions @> '["PARTNER_CAN_SEE_ALL_STUDENTS_DETAILS"]'::jsonb
            OR EXISTS (SELECT 1 FROM rm_student_links sl
                        WHERE sl.partner_id = cu.id AND sl.student_id = (${n}.detail->>'studentId')::uuid))))`;

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
    where: filters().eq('n.user_id', userId).raw(alertReach('n')),
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
      WHERE n.user_id = $1 AND ${alertReach('n')}`,
    [userId, readUpTo],
  );
  return rows[0] ?? { count: 0, newest: null };
}

export interface AttendanceContactRow {
  user_id: string;
  frequency: 'each-change' | 'daily';
  full_name: string;
  email: string;
  customer_type: string | null;
}

/** A school's attendance contacts (decision 0061), by name; erased or deleted users drop out. */
export async function attendanceContactsOf(
  db: Queryable,
  customerId: string,
): Promise<AttendanceContactRow[]> {
  const { rows } = await db.query<AttendanceContactRow>(
    `SELECT c.user_id, c.frequency, u.full_name, u.email, u.customer_type
       FROM rm_notify_attendance_contacts c
       JOIN rm_users u ON u.id = c.user_id AND u.deleted_at IS NULL AND NOT u.personal_data_erased
      WHERE c.customer_id = $1
      ORDER BY lower(u.full_name), c.user_id`,
    [customerId],
  );
  return rows;
}

/** One attendance alert of one contact, with what its e-mail says (decision 0061). */
export interface AttendanceAlertMailRow {
  event_id: string;
  user_id: string;
  kind: 'absence-no-reason' | 'attendance-amended';
  created_at: Date;
  email: string;
  full_name: string;
  timezone: string;
  student_name: string | null;
  starts_at: Date | null;
  /** The student's mark now (an absence may have had its reason given since). */
  mark: string | null;
  /** Daily digests: the contact's local day the alert belongs to. */
  day: string;
}

const alertMailSelect = (frequency: 'each-change' | 'daily', where: string, key: string) => `
  SELECT n.event_id, n.user_id, n.kind, n.created_at,
         COALESCE(NULLIF(u.notification_email, ''), u.email) AS email, u.full_name,
         COALESCE(u.timezone, 'Europe/London') AS timezone,
         s.full_name AS student_name, e.starts_at, e.mark,
         to_char((($1::timestamptz AT TIME ZONE COALESCE(u.timezone, 'Europe/London'))::date - 1), 'YYYY-MM-DD') AS day
    FROM rm_notifications n
    JOIN rm_users u ON u.id = n.user_id AND u.deleted_at IS NULL AND NOT u.personal_data_erased AND u.has_access
    LEFT JOIN rm_register_entries e
      ON e.lesson_id = (n.detail->>'lessonId')::uuid AND e.student_id = (n.detail->>'studentId')::uuid
    LEFT JOIN rm_users s ON s.id = e.student_id
   WHERE n.kind IN ('absence-no-reason', 'attendance-amended') AND ${alertReach('n')}
     AND EXISTS (SELECT 1 FROM rm_notify_attendance_contacts c
                  WHERE c.user_id = n.user_id AND c.frequency = '${frequency}')
     AND ${where}
     AND NOT EXISTS (SELECT 1 FROM mail_once m WHERE m.key = ${key})
   ORDER BY n.user_id, n.position
   LIMIT 2000`;

/**
 * Alerts of "each-change" contacts not yet e-mailed, from the last two days before `now` (older ones
 * are not worth a mail any more; a projection rebuild does not bring them back as new).
 */
export async function pendingEachChangeAlerts(db: Queryable, now: string): Promise<AttendanceAlertMailRow[]> {
  const { rows } = await db.query<AttendanceAlertMailRow>(
    alertMailSelect(
      'each-change',
      `n.created_at > $1::timestamptz - interval '2 days' AND n.created_at <= $1::timestamptz`,
      `'each:' || n.event_id || ':' || n.user_id`,
    ),
    [now],
  );
  return rows;
}

/**
 * Alerts of "daily" contacts from their previous local day (in their own zone), for the contacts
 * whose digest of that day was not sent yet: one mail per contact per day.
 */
export async function pendingDailyDigests(db: Queryable, now: string): Promise<AttendanceAlertMailRow[]> {
  const tz = `COALESCE(u.timezone, 'Europe/London')`;
  const today = `($1::timestamptz AT TIME ZONE ${tz})::date`;
  const { rows } = await db.query<AttendanceAlertMailRow>(
    alertMailSelect(
      'daily',
      `n.created_at >= ((${today} - 1)::timestamp AT TIME ZONE ${tz})
       AND n.created_at < ((${today})::timestamp AT TIME ZONE ${tz})`,
      `'daily:' || n.user_id || ':' || to_char(${today} - 1, 'YYYY-MM-DD')`,
    ),
    [now],
  );
  return rows;
}
