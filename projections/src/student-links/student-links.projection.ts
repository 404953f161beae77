import {
  defineProjection,
  FOLD_FROM,
  insertRows,
  type ProjectionEvent,
  type ProjectionTx,
} from '../projection.js';
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
  async applyBatch(events, tx) {
    if (events.length < FOLD_FROM) {
      for (const e of events) await this.apply(e, tx);
      return;
    }
    await foldLinks(events, tx);
  },
});

/**
 * A batch of link changes folded in memory (decision 0089): the links of the batch's partners are read
 * once, each event replaces its partner's set by the same rule as `apply` (a kept link keeps its
 * time), and the partners' rows are written once: one read, one delete, one insert per batch.
 */
async function foldLinks(events: readonly ProjectionEvent[], tx: ProjectionTx): Promise<void> {
  const partners = new Set(events.map((e) => (e.data as UserStudentLinksChangedData).userId.toLowerCase()));
  const { rows } = await tx.query<{ partner_id: string; student_id: string; linked_at: Date | string }>(
    `SELECT partner_id::text, student_id::text, linked_at FROM rm_student_links
      WHERE partner_id = ANY($1::uuid[])`,
    [[...partners]],
  );
  const links = new Map<string, Map<string, Date | string>>([...partners].map((p) => [p, new Map()]));
  for (const r of rows) links.get(r.partner_id)!.set(r.student_id, r.linked_at);
  for (const e of events) {
    const { userId, studentIds } = e.data as UserStudentLinksChangedData;
    const partner = userId.toLowerCase();
    const before = links.get(partner)!;
    const after = new Map<string, Date | string>();
    for (const id of studentIds) {
      const student = id.toLowerCase();
      after.set(student, before.get(student) ?? e.metadata.occurredAt);
    }
    links.set(partner, after);
  }
  await tx.query('DELETE FROM rm_student_links WHERE partner_id = ANY($1::uuid[])', [[...partners]]);
  await insertRows(
    tx,
    'rm_student_links',
    { partner_id: 'uuid', student_id: 'uuid', linked_at: 'timestamptz' },
    [...links].flatMap(([partner_id, students]) =>
      [...students].map(([student_id, linked_at]) => ({ partner_id, student_id, linked_at })),
    ),
  );
}
