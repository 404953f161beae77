import { defineProjection, type ProjectionEvent } from '../projection.js';

/**
 * The EHCP reminder list (spec §7 `GET/PUT /api/v1/users/students/ehcp-reminder`, decision 0035): the
 * students staff want reminding about until an EHCP is on file. One stream, `ehcp-reminders`; each
 * change records the students added to and removed from the list.
 */
export interface EhcpRemindersChangedData {
  added: string[];
  removed: string[];
}

export type EhcpReminderEvent = { type: 'EhcpRemindersChanged'; data: EhcpRemindersChangedData };

export const EHCP_REMINDER_EVENT_TYPES: readonly EhcpReminderEvent['type'][] = ['EhcpRemindersChanged'];

export const EHCP_REMINDERS_STREAM = 'ehcp-reminders';

export interface EhcpReminderRow {
  student_id: string;
  added_at: Date;
  added_by: string | null;
}

export const ehcpRemindersProjection = defineProjection({
  name: 'ehcp_reminders',
  version: 1,
  tables: ['rm_ehcp_reminders'],
  schema: [
    `CREATE TABLE IF NOT EXISTS rm_ehcp_reminders (
       student_id  uuid PRIMARY KEY,
       added_at    timestamptz NOT NULL,
       added_by    uuid
     )`,
  ],
  handles: EHCP_REMINDER_EVENT_TYPES,
  async apply(event: ProjectionEvent, tx) {
    const { added, removed } = event.data as EhcpRemindersChangedData;
    if (removed.length > 0)
      await tx.query('DELETE FROM rm_ehcp_reminders WHERE student_id = ANY($1::uuid[])', [removed]);
    if (added.length > 0)
      await tx.query(
        `INSERT INTO rm_ehcp_reminders (student_id, added_at, added_by)
         SELECT unnest($1::uuid[]), $2, $3 ON CONFLICT (student_id) DO NOTHING`,
        [added, event.metadata.occurredAt, event.metadata.actorId ?? null],
      );
  },
});
