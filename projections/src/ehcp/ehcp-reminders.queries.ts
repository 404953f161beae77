import type { Queryable } from '../list-query.js';
import type { EhcpReminderRow } from './ehcp-reminders.projection.js';

/** Queries on `rm_ehcp_reminders` (projection `ehcp-reminders`). */

/** The reminder rows of these students (those on the list). */
export async function ehcpRemindersFor(
  db: Queryable,
  studentIds: readonly string[],
): Promise<EhcpReminderRow[]> {
  const { rows } = await db.query<EhcpReminderRow>(
    'SELECT * FROM rm_ehcp_reminders WHERE student_id = ANY($1::uuid[])',
    [studentIds],
  );
  return rows;
}
