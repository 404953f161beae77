import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  availabilityProjection,
  customFieldsProjection,
  customerInvitationsProjection,
  type Projection,
  type ProjectionEvent,
} from '@portal/projections';
import type { SqlClient } from '../platform/sql/sql-client.js';
import { sqlTargets } from '../platform/testing/sql-targets.js';

const userId = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
const invitationId = 'dddddddd-dddd-4ddd-8ddd-dddddddddddd';
const customerId = 'cccccccc-cccc-4ccc-8ccc-cccccccccccc';

function recorded(stream: string, events: { type: string; data: unknown }[]): ProjectionEvent[] {
  return events.map((e, i) => ({
    id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    stream,
    revision: BigInt(i),
    position: BigInt(i + 1),
    type: e.type,
    data: e.data,
    metadata: { actorId: null, occurredAt: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString() },
    createdAt: new Date(),
  }));
}

const slot = (dayOfWeek: number, startMinute: number, endMinute: number) => ({
  dayOfWeek,
  startMinute,
  endMinute,
});
const cases: {
  projection: Projection;
  table: string;
  events: ProjectionEvent[];
  expected: Record<string, unknown>[];
}[] = [
  {
    projection: availabilityProjection,
    table: 'rm_user_availability',
    events: recorded(`user-availability-${userId}`, [
      {
        type: 'AvailabilitySet',
        data: { userId, type: 'default', week: null, availabilities: [slot(0, 420, 600)] },
      },
      { type: 'AvailabilitySet', data: { userId, type: 'default', week: '2030-01-07', availabilities: [] } },
      {
        type: 'AvailabilitySet',
        data: { userId, type: 'default', week: null, availabilities: [slot(1, 480, 540)] },
      },
    ]),
    expected: [
      { user_id: userId, type: 'default', week: '', availabilities: [slot(1, 480, 540)] },
      { user_id: userId, type: 'default', week: '2030-01-07', availabilities: [] },
    ],
  },
  {
    projection: customerInvitationsProjection,
    table: 'rm_customer_invitations',
    events: recorded(`customer-invitation-${invitationId}`, [
      {
        type: 'CustomerInvitationSent',
        data: { invitationId, customerId, email: 'x@example.com', customerType: 'parent', invitedBy: null },
      },
      { type: 'CustomerInvitationAccepted', data: { invitationId, userId } },
    ]),
    expected: [{ id: invitationId, customer_id: customerId, status: 'accepted', user_id: userId }],
  },
  {
    projection: customFieldsProjection,
    table: 'rm_user_custom_fields',
    events: recorded('user-custom-fields', [
      {
        type: 'UserCustomFieldsDefined',
        data: { fields: [{ id: userId, name: 'A', type: 'text', options: [], required: false }] },
      },
      { type: 'UserCustomFieldsDefined', data: { fields: [] } },
    ]),
    expected: [{ id: 'fields', fields: [] }],
  },
];

describe.each(sqlTargets('portal_account_projections'))('account read models on $name', (target) => {
  let sql: SqlClient;
  beforeAll(async () => {
    sql = await target.open();
  });
  afterAll(async () => {
    await sql.close();
    await target.close();
  });

  it.each(cases.map((c) => [c.projection.name, c] as const))(
    '%s: derives rows, is idempotent, and a rebuild equals the incremental result',
    async (_name, c) => {
      const reset = async () => {
        await sql.query(`DROP TABLE IF EXISTS ${c.table}`);
        for (const ddl of c.projection.schema) await sql.query(ddl);
      };
      const apply = (events: ProjectionEvent[]) =>
        sql.transaction(async (tx) => {
          for (const e of events) await c.projection.apply(e, tx);
        });
      const dump = async () => (await sql.query(`SELECT * FROM ${c.table} ORDER BY 1, 2, 3`)).rows;
      await reset();
      for (const e of c.events) await apply([e]);
      const incremental = await dump();
      expect(incremental).toEqual(c.expected.map((row) => expect.objectContaining(row)));
      await apply(c.events);
      expect(await dump()).toEqual(incremental);
      await reset();
      await apply(c.events);
      expect(await dump()).toEqual(incremental);
    },
  );
});
