import { expect } from '@jest/globals';
import { studentLinksProjection, type ProjectionEvent } from '@portal/projections';
import { describeFoldInBatches, record } from '../../platform/testing/projection-contract.js';

/**
 * Decision 0089: a batch of link changes reads its partners' links once, replaces each partner's set
 * in memory event by event, and writes the partners' rows once. Whatever the batch boundaries, the
 * rows must be those of event-by-event apply: a kept link keeps the time it was first made, a link
 * removed and made again takes the new time, a student listed twice is one link, ids may come in
 * capitals, and a partner may have links from before the batch.
 */
const id = (n: number) => `abcdef00-0000-4000-8000-${String(n).padStart(12, '0')}`;
const [P1, P2, P3] = [id(1), id(2), id(3)];
const [S1, S2, S3, S4] = [id(11), id(12), id(13), id(14)];
const links = (userId: string, studentIds: string[]) =>
  [`user-${userId}`, 'UserStudentLinksChanged', { userId, studentIds, linked: [], unlinked: [] }] as const;

const history: ProjectionEvent[] = record([
  links(P1, [S1, S2]), // 0
  links(P2, [S2]), // 1
  links(P3, [S4]), // 2
  links(P1, [S2, S3]), // 3: S1 goes, S2 keeps its time
  links(P2, []), // 4
  links(P2, [S2, S2.toUpperCase(), S3]), // 5: S2 listed twice
  links(P1.toUpperCase(), [S3, S1.toUpperCase()]), // 6: S1 made again, new time
  links(P3, [S4, S1]), // 7
  links(P2, [S3]), // 8
  links(P1, [S1, S3, S4]), // 9
  links(P3, [S1]), // 10
  links(P2, [S3, S4]), // 11
  links(P1, [S1, S3, S4]), // 12: the same set again
  links(P3, []), // 13
  links(P3, [S2]), // 14
  links(P2, [S4, S3]), // 15
  links(P1, [S4, S1]), // 16
  links(P3, [S2, S3]), // 17
  links(P2, [S4, S3, S1]), // 18
  links(P1, [S1]), // 19
]);

const at = (i: number) => history[i]!.metadata.occurredAt.slice(0, 19);

describeFoldInBatches(
  'student-links projection',
  'portal_student_links_fold',
  studentLinksProjection,
  history,
  {
    title: 'event by event, the history sets every links rule',
    async check(sql) {
      const { rows } = await sql.query<{ p: string; s: string; at: string }>(
        `SELECT partner_id::text AS p, student_id::text AS s,
              to_char(linked_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS') AS at
         FROM rm_student_links ORDER BY partner_id, student_id`,
      );
      expect(rows).toEqual([
        { p: P1, s: S1, at: at(6) },
        { p: P2, s: S1, at: at(18) },
        { p: P2, s: S3, at: at(5) },
        { p: P2, s: S4, at: at(11) },
        { p: P3, s: S2, at: at(14) },
        { p: P3, s: S3, at: at(17) },
      ]);
    },
  },
);
