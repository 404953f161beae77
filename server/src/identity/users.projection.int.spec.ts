import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { usersProjection, type ProjectionEvent, type UserEvent } from '@portal/projections';
import { PgliteSqlClient } from '../platform/sql/pglite-client.js';
import { PgSqlClient } from '../platform/sql/pg-client.js';
import type { SqlClient } from '../platform/sql/sql-client.js';
import { createTestDatabase, type TestDatabase } from '../platform/testing/postgres-test-database.js';

const userId = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
const customerId = 'cccccccc-cccc-4ccc-8ccc-cccccccccccc';
const networkId = 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb';

const history: UserEvent[] = [
  {
    type: 'UserCreated',
    data: {
      userId,
      login: 'Jo@Example.com',
      email: 'Jo@Example.com',
      firstName: 'Jo',
      lastName: 'Bloggs',
      userType: 'teacher',
      permissions: ['USER_IS_TEACHER'],
      customerId,
      timezone: null,
      awaitingActivation: true,
      customFields: { f1: 'one', f2: 2 },
    },
  },
  { type: 'UserProfileUpdated', data: { userId, changes: { firstName: 'Joanna', notes: 'n' } } },
  { type: 'UserBlocked', data: { userId } },
  { type: 'QualityIssueSet', data: { userId, reason: 'late' } },
  { type: 'UserDeactivationScheduled', data: { userId, at: '2030-01-01T00:00:00.000Z' } },
  {
    type: 'UserPermissionsChanged',
    data: {
      userId,
      permissions: ['USER_IS_TEACHER', 'CAN_EDIT_LESSONS'],
      added: ['CAN_EDIT_LESSONS'],
      removed: [],
    },
  },
  { type: 'ActiveNetworkChanged', data: { userId, networkId } },
  {
    type: 'UserContactAdded',
    data: { userId, contactId: 'c1', name: 'Mum', email: null, phone: null, relationship: null, notes: null },
  },
  {
    type: 'UserContactAdded',
    data: { userId, contactId: 'c2', name: 'Dad', email: null, phone: null, relationship: null, notes: null },
  },
  {
    type: 'UserContactUpdated',
    data: {
      userId,
      contactId: 'c1',
      name: 'Mother',
      email: null,
      phone: '1',
      relationship: null,
      notes: null,
    },
  },
  { type: 'UserContactRemoved', data: { userId, contactId: 'c2' } },
  { type: 'PasswordChanged', data: { userId } },
  { type: 'AccountActivated', data: { userId } },
  { type: 'UserProfileUpdated', data: { userId, changes: { customFields: { f1: null, f3: '2030-01-01' } } } },
  {
    type: 'UserSettingsChanged',
    data: {
      userId,
      changes: { birthDate: '2001-02-03', receiveWeeklySummaryReports: true, requestedLessonsPerWeek: 5 },
    },
  },
  { type: 'UserSettingsChanged', data: { userId, changes: { requestedLessonsPerWeek: null } } },
  { type: 'NotificationEmailChangeRequested', data: { userId, email: 'jo@home.example.com' } },
  { type: 'NotificationEmailVerified', data: { userId, email: 'jo@home.example.com' } },
  { type: 'NotificationEmailChangeRequested', data: { userId, email: 'next@home.example.com' } },
];

const recorded: ProjectionEvent[] = history.map((e, i) => ({
  id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
  stream: `user-${userId}`,
  revision: BigInt(i),
  position: BigInt(i + 1),
  type: e.type,
  data: e.data,
  metadata: { actorId: null, occurredAt: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString() },
  createdAt: new Date(),
}));

interface Target {
  name: string;
  open(): Promise<SqlClient>;
  close(): Promise<void>;
}
let db: TestDatabase | null = null;
const targets: Target[] = [
  { name: 'PGlite', open: () => PgliteSqlClient.open(), close: async () => {} },
  {
    name: 'PostgreSQL',
    open: async () => {
      db = await createTestDatabase('portal_users_projection');
      return new PgSqlClient(db.url);
    },
    close: async () => {
      await db?.drop();
    },
  },
];

describe.each(targets)('users projection on $name', (target) => {
  let sql: SqlClient;
  const reset = async () => {
    await sql.query('DROP TABLE IF EXISTS rm_users');
    for (const ddl of usersProjection.schema) await sql.query(ddl);
  };
  const apply = (events: ProjectionEvent[]) =>
    sql.transaction(async (tx) => {
      for (const e of events) await usersProjection.apply(e, tx);
    });
  const dump = async () => (await sql.query('SELECT * FROM rm_users ORDER BY id')).rows;

  beforeAll(async () => {
    sql = await target.open();
  });
  afterAll(async () => {
    await sql.close();
    await target.close();
  });

  it('derives the list and detail fields from the history', async () => {
    await reset();
    await apply(recorded);
    const [row] = await dump();
    expect(row).toMatchObject({
      login: 'jo@example.com',
      full_name: 'Joanna Bloggs',
      type_label: 'Teacher',
      customer_id: customerId,
      active_network_id: networkId,
      notes: 'n',
      is_blocked: true,
      status: 'inactive',
      has_quality_issue: true,
      quality_issue_reason: 'late',
      permissions: ['USER_IS_TEACHER', 'CAN_EDIT_LESSONS'],
      contacts: [{ id: 'c1', name: 'Mother', email: null, phone: '1', relationship: null, notes: null }],
      awaiting_activation: false,
      birth_date: '2001-02-03',
      receive_weekly_summary_reports: true,
      requested_number_of_lessons_per_week: null,
      notification_email: 'jo@home.example.com',
      pending_notification_email: 'next@home.example.com',
      custom_fields: { f2: 2, f3: '2030-01-01' },
    });
    expect(String(row!.version)).toBe(String(recorded.length - 1));
    expect(new Date(row!.scheduled_for_deactivation as string).toISOString()).toBe(
      '2030-01-01T00:00:00.000Z',
    );
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

  it('accepts UserCreated events written before the identity fields existed', async () => {
    await reset();
    const old = { ...recorded[0]!, data: { ...(history[0]!.data as object) } } as ProjectionEvent;
    const data = old.data as Record<string, unknown>;
    delete data.customerId;
    delete data.timezone;
    await apply([old]);
    expect((await dump())[0]).toMatchObject({
      customer_id: null,
      timezone: null,
      status: 'active',
      contacts: [],
    });
  });
});
