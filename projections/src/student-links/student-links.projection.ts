import { defineProjection, type ProjectionEvent } from '../projection.js';
import type { UserStudentLinksChangedData } from '../users/user-events.js';

/**
 * Partner ↔ student relations ("selected students", spec §6; docs/decisions/0034): one row per link,
 * from `UserStudentLinksChanged` on the partner's stream. Rows hold ids only; whether a link still
 * counts (student not deleted, still of the partner's customer) is decided by the queries, joined with
 * `rm_users`, so a student who moves customer is never shown through an old link.
 */
export interface StudentLinkRow {
  partner_id: string;
  student_id: string;
  linked_at: Date;
}

export const studentLinksProjection = defineProjection({
  name: 'student-links',
  version: 1,
  tables: ['rm_student_links'],
  schema: [
    `CREATE TABLE IF NOT EXISTS rm_student_links (
       partner_id uuid NOT NULL,
       student_id uuid NOT NULL,
       linked_at  timestamptz NOT NULL,
       PRIMARY KEY (partner_id, student_id)
     )`,
    `CREATE INDEX IF NOT EXISTS rm_student_links_student ON rm_student_links (student_id)`,
  ],
  handles: ['UserStudentLinksChanged'],
  async apply(event: ProjectionEvent, tx) {
    const { userId, studentIds } = event.data as UserStudentLinksChangedData;
    // The event carries the whole set: applying it again (a replay) gives the same rows, and a kept
    // link keeps the time it was first made.
    await tx.query(
      'DELETE FROM rm_student_links WHERE partner_id = $1 AND NOT (student_id = ANY($2::uuid[]))',
      [userId, studentIds],
    );
    await tx.query(
      `INSERT INTO rm_student_links (partner_id, student_id, linked_at)
       SELECT $1, s, $3 FROM unnest($2::uuid[]) AS s
       ON CONFLICT (partner_id, student_id) DO NOTHING`,
      [userId, studentIds, event.metadata.occurredAt],
    );
  },
});
