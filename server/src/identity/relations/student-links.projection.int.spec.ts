import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  studentLinksProjection,
  type ProjectionEvent,
  type UserStudentLinksChangedData,
} from '@portal/projections';
import type { SqlClient } from '../../platform/sql/sql-client.js';
import { sqlTargets } from '../../platform/testing/sql-targets.js';

const P1 = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
const P2 = 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb';
const S1 = 'cccccccc-cccc-4ccc-8ccc-cccccccccccc';
const S2 = 'dddddddd-dddd-4ddd-8ddd-dddddddddddd';
const S3 = 'eeeeeeee-eeee-4eee-8eee-eeeeeeeeeeee';

const history: UserStudentLinksChangedData[] = [
  { userId: P1, studentIds: [S1, S2], linked: [S1, S2], unlinked: [] },
  { userId: P2, studentIds: [S2], linked: [S2], unlinked: [] },
  { userId: P1, studentIds: [S2, S3], linked: [S3], unlinked: [S1] },
  { userId: P2, studentIds: [], linked: [], unlinked: [S2] },
];

const revisions = new Map<string, bigint>();
const events: ProjectionEvent[] = history.map((data, i) => {
  const revision = revisions.get(data.userId) ?? 1n;
  revisions.set(data.userId, revision + 1n);
  return {
    id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    stream: `user-${data.userId}`,
    revision,
    position: BigInt(i + 1),
    type: 'UserStudentLinksChanged',
    data,
    metadata: { actorId: null, occurredAt: new Date(Date.UTC(2026, 0, i + 1)).toISOString() },
    createdAt: new Date(),
  };
});

describe.each(sqlTargets('portal_student_links_rm'))('student-links projection on $name', (target) => {
  let sql: SqlClient;
  beforeAll(async () => {
    sql = await target.open();
  });
  afterAll(async () => {
    await sql.close();
    await target.close();
  });

  const reset = async () => {
    await sql.query('DROP TABLE IF EXISTS rm_student_links');
    for (const ddl of studentLinksProjection.schema) await sql.query(ddl);
  };
  const apply = (batch: ProjectionEvent[]) =>
    sql.transaction(async (tx) => {
      for (const e of batch) await studentLinksProjection.apply(e, tx);
    });
  const dump = async () =>
    (
      await sql.query<{ partner_id: string; student_id: string; linked_at: Date }>(
        'SELECT partner_id, student_id, linked_at FROM rm_student_links ORDER BY partner_id, student_id',
      )
    ).rows.map((r) => [r.partner_id, r.student_id, new Date(r.linked_at).toISOString().slice(0, 10)]);

  it('folds the history (a kept link keeps its time), is idempotent, and a rebuild equals it', async () => {
    await reset();
    for (const e of events) await apply([e]);
    const incremental = await dump();
    expect(incremental).toEqual([
      [P1, S2, '2026-01-01'],
      [P1, S3, '2026-01-03'],
    ]);
    await apply(events); // the whole history again
    expect(await dump()).toEqual(incremental);
    await apply([events[2]!]); // one event again
    expect(await dump()).toEqual(incremental);
    await reset();
    await apply(events);
    expect(await dump()).toEqual(incremental);
  });
});
