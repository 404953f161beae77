import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { studentActivityProjection, type ProjectionEvent, type UserEvent } from '@portal/projections';
import { PgliteSqlClient } from '../../platform/sql/pglite-client.js';
import { PgSqlClient } from '../../platform/sql/pg-client.js';
import type { SqlClient } from '../../platform/sql/sql-client.js';
import { createTestDatabase, type TestDatabase } from '../../platform/testing/postgres-test-database.js';
import { StudentActivityReadModel } from './student-activity.read.js';

const student = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
const teacher = 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb';
const customerA = 'cccccccc-cccc-4ccc-8ccc-cccccccccccc';
const customerB = 'dddddddd-dddd-4ddd-8ddd-dddddddddddd';

const created = (userId: string, userType: 'student' | 'teacher'): UserEvent => ({
  type: 'UserCreated',
  data: {
    userId,
    login: `${userId}@example.com`,
    email: `${userId}@example.com`,
    firstName: 'A',
    lastName: 'B',
    userType,
    permissions: [],
    customerId: userType === 'student' ? customerA : null,
  },
});

/** [day of January 2026 (UTC noon), event]. */
const history: [number, UserEvent][] = [
  [1, created(student, 'student')],
  [1, created(teacher, 'teacher')],
  [3, { type: 'UserBlocked', data: { userId: student } }],
  [4, { type: 'UserDeactivated', data: { userId: student, scheduled: false } }],
  [6, { type: 'UserUnblocked', data: { userId: student } }], // still deactivated: no period
  [8, { type: 'UserActivated', data: { userId: student } }],
  [9, { type: 'UserProfileUpdated', data: { userId: student, changes: { customerId: customerB } } }],
  [9, { type: 'UserDeactivated', data: { userId: teacher, scheduled: false } }],
];

const events: ProjectionEvent[] = history.map(([day, e], i) => ({
  id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
  stream: `user-${e.data.userId}`,
  revision: BigInt(i),
  position: BigInt(i + 1),
  type: e.type,
  data: e.data,
  metadata: { actorId: null, occurredAt: new Date(Date.UTC(2026, 0, day, 12)).toISOString() },
  createdAt: new Date(),
}));

let db: TestDatabase | null = null;
const targets = [
  { name: 'PGlite', open: (): Promise<SqlClient> => PgliteSqlClient.open(), close: async () => {} },
  {
    name: 'PostgreSQL',
    open: async (): Promise<SqlClient> => {
      db = await createTestDatabase('portal_student_activity');
      return new PgSqlClient(db.url);
    },
    close: async () => {
      await db?.drop();
    },
  },
];

describe.each(targets)('student-activity projection on $name', (target) => {
  let sql: SqlClient;
  beforeAll(async () => {
    sql = await target.open();
    for (const ddl of studentActivityProjection.schema) await sql.query(ddl);
    await sql.transaction(async (tx) => {
      for (const e of events)
        if ((studentActivityProjection.handles as readonly string[]).includes(e.type))
          await studentActivityProjection.apply(e, tx);
    });
  });
  afterAll(async () => {
    await sql.close();
    await target.close();
  });

  it('keeps the periods in which a student had access and was not blocked (teachers are ignored)', async () => {
    const { rows } = await sql.query<{ started_at: Date; ended_at: Date | null }>(
      'SELECT started_at, ended_at FROM rm_student_active_periods WHERE user_id = $1 ORDER BY started_at',
      [student],
    );
    expect(
      rows.map((r) => [new Date(r.started_at).getUTCDate(), r.ended_at && new Date(r.ended_at).getUTCDate()]),
    ).toEqual([
      [1, 3],
      [8, null],
    ]);
    const { rows: teachers } = await sql.query('SELECT * FROM rm_student_activity WHERE user_id = $1', [
      teacher,
    ]);
    expect(teachers).toEqual([]);
  });

  it('counts active students per day (active at any moment of it) and per month, by current customer', async () => {
    const read = new StudentActivityReadModel(sql);
    const days = await read.activePerPeriod('2025-12-31', '2026-01-09', 'day', null);
    expect(days.map((d) => d.active)).toEqual([0, 1, 1, 1, 0, 0, 0, 0, 1, 1]);
    expect(days[0]!.period).toBe('2025-12-31');
    expect(await read.activePerPeriod('2026-01-04', '2026-01-07', 'month', null)).toEqual([
      { period: '2026-01', active: 0 },
    ]);
    expect(await read.activePerPeriod('2026-01-01', '2026-02-10', 'month', null)).toEqual([
      { period: '2026-01', active: 1 },
      { period: '2026-02', active: 1 },
    ]);
    expect((await read.activePerPeriod('2026-01-02', '2026-01-02', 'day', customerA))[0]!.active).toBe(0);
    expect((await read.activePerPeriod('2026-01-02', '2026-01-02', 'day', customerB))[0]!.active).toBe(1);
    expect(await read.activeNow(customerB)).toBe(1);
    expect(await read.activeNow(customerA)).toBe(0);
  });
});
