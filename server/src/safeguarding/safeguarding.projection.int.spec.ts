import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { safeguardingProjection, type ProjectionEvent } from '@portal/projections';
import { PgliteSqlClient } from '../platform/sql/pglite-client.js';
import { PgSqlClient } from '../platform/sql/pg-client.js';
import type { SqlClient } from '../platform/sql/sql-client.js';
import { createTestDatabase, type TestDatabase } from '../platform/testing/postgres-test-database.js';

const A = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
const B = 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb';
const TYPE = 'cccccccc-cccc-4ccc-8ccc-cccccccccccc';
const S1 = 'dddddddd-dddd-4ddd-8ddd-dddddddddddd';
const S2 = 'eeeeeeee-eeee-4eee-8eee-eeeeeeeeeeee';
const OAK = 'ffffffff-ffff-4fff-8fff-ffffffffffff';
const LEAD = '11111111-1111-4111-8111-111111111111';
const TEACHER = '22222222-2222-4222-8222-222222222222';

const report = (incidentId: string, occurredAt: string, students: string[]) => ({
  incidentId,
  reporterId: TEACHER,
  students: students.map((studentId) => ({ studentId, customerId: OAK })),
  typeIds: [TYPE],
  occurredAt,
  lessonId: null,
  description: `Report ${incidentId.slice(0, 1)}`,
  immediateAction: 'none',
  leadToldVerbally: false,
  riskLevel: 'medium',
});

/** [stream, type, data] in commit order; recorded at 2026-11-01 plus one minute per event. */
const history: [string, string, unknown][] = [
  [
    `safeguarding-incident-type-${TYPE}`,
    'SafeguardingIncidentTypeCreated',
    { typeId: TYPE, name: 'Neglect', guidance: '' },
  ],
  [
    `safeguarding-incident-${A}`,
    'SafeguardingIncidentReported',
    report(A, '2026-10-31T12:00:00.000Z', [S1, S2]),
  ],
  [`safeguarding-incident-${A}`, 'SafeguardingIncidentAcknowledged', { incidentId: A, leadId: LEAD }],
  // Reported later, but happened long before A: the chronology puts it first.
  [`safeguarding-incident-${B}`, 'SafeguardingIncidentReported', report(B, '2026-01-15T08:00:00.000Z', [S1])],
  [`safeguarding-incident-${A}`, 'SafeguardingIncidentReviewStarted', { incidentId: A, leadId: LEAD }],
  [
    `safeguarding-incident-${A}`,
    'SafeguardingIncidentActionAdded',
    {
      incidentId: A,
      actionId: 'x1',
      description: 'Call home',
      assigneeId: LEAD,
      dueDate: '2026-11-05',
      referral: null,
    },
  ],
  [
    `safeguarding-incident-views-${A}`,
    'SafeguardingIncidentViewed',
    { incidentId: A, viewerId: LEAD, via: 'details' },
  ],
  [
    `safeguarding-incident-${A}`,
    'SafeguardingIncidentRiskLevelChanged',
    { incidentId: A, from: 'medium', to: 'high', reason: 'More concerns' },
  ],
  [
    `safeguarding-incident-${B}`,
    'SafeguardingIncidentCorrected',
    { incidentId: B, field: 'occurred_at', value: '2026-01-14T08:00:00.000Z', reason: 'Wrong day' },
  ],
  [`safeguarding-incident-${A}`, 'SafeguardingIncidentClosed', { incidentId: A, outcome: 'Resolved' }],
  [`safeguarding-incident-type-${TYPE}`, 'SafeguardingIncidentTypeRetired', { typeId: TYPE }],
];

const revisions = new Map<string, number>();
const recorded: ProjectionEvent[] = history.map(([stream, type, data], i) => {
  const revision = revisions.get(stream) ?? 0;
  revisions.set(stream, revision + 1);
  return {
    id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    stream,
    revision: BigInt(revision),
    position: BigInt(i + 1),
    type,
    data,
    metadata: { actorId: LEAD, occurredAt: new Date(Date.UTC(2026, 10, 1, 0, i)).toISOString() },
    createdAt: new Date(),
  };
});

let db: TestDatabase | null = null;
const targets = [
  { name: 'PGlite', open: (): Promise<SqlClient> => PgliteSqlClient.open(), close: async () => {} },
  {
    name: 'PostgreSQL',
    open: async (): Promise<SqlClient> => {
      db = await createTestDatabase('portal_sg_projection');
      return new PgSqlClient(db.url);
    },
    close: async () => {
      await db?.drop();
    },
  },
];

describe.each(targets)('safeguarding projection on $name', (target) => {
  let sql: SqlClient;
  const reset = async () => {
    for (const t of safeguardingProjection.tables) await sql.query(`DROP TABLE IF EXISTS ${t}`);
    for (const ddl of safeguardingProjection.schema) await sql.query(ddl);
  };
  const apply = (events: ProjectionEvent[]) =>
    sql.transaction(async (tx) => {
      for (const e of events) await safeguardingProjection.apply(e, tx);
    });
  const dump = async () => {
    const out: Record<string, unknown[]> = {};
    for (const t of safeguardingProjection.tables)
      out[t] = (await sql.query(`SELECT * FROM ${t} ORDER BY 1, 2`)).rows;
    return out;
  };

  beforeAll(async () => {
    sql = await target.open();
  });
  afterAll(async () => {
    await sql.close();
    await target.close();
  });

  it('builds incidents, a per-student chronology by when things happened, views and retired types', async () => {
    await reset();
    await apply(recorded);
    const { rows: incidents } = await sql.query<Record<string, unknown>>(
      'SELECT * FROM rm_sg_incidents ORDER BY id',
    );
    expect(incidents[0]).toMatchObject({
      id: A,
      status: 'closed',
      risk_level: 'high',
      student_ids: [S1, S2],
      customer_ids: [OAK],
      acknowledged_by: LEAD,
      assigned_lead_id: LEAD,
      actions: [{ id: 'x1', description: 'Call home', assignee_id: LEAD, referral: null }],
    });
    expect(incidents[1]).toMatchObject({ id: B, status: 'reported' });
    expect(new Date(incidents[1]!.occurred_at as string).toISOString()).toBe('2026-01-14T08:00:00.000Z');
    const { rows: s1 } = await sql.query<{ incident_id: string; kind: string; occurred_at: Date }>(
      'SELECT * FROM rm_sg_chronology WHERE student_id = $1 ORDER BY occurred_at, position',
      [S1],
    );
    // B happened first (backdated, then corrected to an even earlier day); later steps at their time.
    expect(s1.map((r) => [r.incident_id, r.kind])).toEqual([
      [B, 'reported'],
      [A, 'reported'],
      [A, 'acknowledged'],
      [A, 'under_review'],
      [A, 'action'],
      [A, 'risk_changed'],
      [B, 'corrected'],
      [A, 'closed'],
    ]);
    expect(new Date(s1[0]!.occurred_at).toISOString()).toBe('2026-01-14T08:00:00.000Z');
    const { rows: s2 } = await sql.query('SELECT * FROM rm_sg_chronology WHERE student_id = $1', [S2]);
    expect(s2).toHaveLength(6);
    expect((await sql.query('SELECT * FROM rm_sg_views')).rows).toMatchObject([
      { incident_id: A, viewer_id: LEAD },
    ]);
    expect((await sql.query('SELECT retired FROM rm_sg_incident_types')).rows).toEqual([{ retired: true }]);
  });

  it('is idempotent (replaying every event again changes nothing) and a rebuild equals the incremental result', async () => {
    await reset();
    for (const e of recorded) await apply([e]);
    const incremental = await dump();
    await apply(recorded);
    expect(await dump()).toEqual(incremental);
    await reset();
    await apply(recorded);
    expect(await dump()).toEqual(incremental);
  });
});
