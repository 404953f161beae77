import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  networksProjection,
  permissionTemplatesProjection,
  type NetworkEvent,
  type PermissionTemplateEvent,
  type Projection,
  type ProjectionEvent,
} from '@portal/projections';
import type { SqlClient } from '../platform/sql/sql-client.js';
import { sqlTargets } from '../platform/testing/sql-targets.js';

const T1 = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
const T2 = 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb';
const N1 = 'cccccccc-cccc-4ccc-8ccc-cccccccccccc';

const templateHistory: [string, PermissionTemplateEvent][] = [
  [T1, { type: 'PermissionTemplateCreated', data: { templateId: T1, name: 'Parents', permissions: ['A'] } }],
  [T2, { type: 'PermissionTemplateCreated', data: { templateId: T2, name: 'Leads', permissions: [] } }],
  [T1, { type: 'PermissionTemplateRenamed', data: { templateId: T1, name: 'Carers' } }],
  [
    T1,
    {
      type: 'PermissionTemplatePermissionsChanged',
      data: { templateId: T1, permissions: ['B'], added: ['B'], removed: ['A'] },
    },
  ],
  [T2, { type: 'PermissionTemplateDeleted', data: { templateId: T2 } }],
];

const networkHistory: [string, NetworkEvent][] = [
  [
    N1,
    {
      type: 'NetworkCreated',
      data: { networkId: N1, name: 'North', timezone: 'Europe/London', primaryColour: '#0f716c' },
    },
  ],
  [N1, { type: 'NetworkRenamed', data: { networkId: N1, name: 'North East' } }],
  [N1, { type: 'NetworkTimezoneChanged', data: { networkId: N1, timezone: 'UTC' } }],
  [N1, { type: 'NetworkPrimaryColourChanged', data: { networkId: N1, primaryColour: '#112233' } }],
];

/** Recorded events with per-stream revisions and global positions, as the runner hands them over. */
function record(prefix: string, history: [string, { type: string; data: unknown }][]): ProjectionEvent[] {
  const revisions = new Map<string, bigint>();
  return history.map(([id, e], i) => {
    const revision = revisions.get(id) ?? 0n;
    revisions.set(id, revision + 1n);
    return {
      id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
      stream: `${prefix}-${id}`,
      revision,
      position: BigInt(i + 1),
      type: e.type,
      data: e.data,
      metadata: { actorId: null, occurredAt: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString() },
      createdAt: new Date(),
    };
  });
}

const cases: { projection: Projection; table: string; events: ProjectionEvent[]; expected: unknown[] }[] = [
  {
    projection: permissionTemplatesProjection,
    table: 'rm_permission_templates',
    events: record('permission-template', templateHistory),
    expected: [{ id: T1, name: 'Carers', permissions: ['B'] }],
  },
  {
    projection: networksProjection,
    table: 'rm_networks',
    events: record('network', networkHistory),
    expected: [{ id: N1, name: 'North East', timezone: 'UTC', primary_colour: '#112233' }],
  },
];

describe.each(sqlTargets('portal_access_projections'))('access read models on $name', (target) => {
  let sql: SqlClient;
  beforeAll(async () => {
    sql = await target.open();
  });
  afterAll(async () => {
    await sql.close();
    await target.close();
  });

  it.each(cases)(
    '$table: folds the history, is idempotent, and a rebuild equals the incremental result',
    async ({ projection, table, events, expected }) => {
      const reset = async () => {
        await sql.query(`DROP TABLE IF EXISTS ${table}`);
        for (const ddl of projection.schema) await sql.query(ddl);
      };
      const apply = (batch: ProjectionEvent[]) =>
        sql.transaction(async (tx) => {
          for (const e of batch) await projection.apply(e, tx);
        });
      const dump = async () => (await sql.query(`SELECT * FROM ${table} ORDER BY id`)).rows;
      await reset();
      for (const e of events) await apply([e]);
      const incremental = await dump();
      expect(incremental).toMatchObject(expected);
      await apply(events);
      expect(await dump()).toEqual(incremental);
      await reset();
      await apply(events);
      expect(await dump()).toEqual(incremental);
    },
  );
});
