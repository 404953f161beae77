import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { io as connectClient, type Socket as ClientSocket } from 'socket.io-client';
import {
  LIVE_NAMESPACE,
  LIVE_PATH,
  type ClientToServerEvents,
  type IncidentPresence,
  type ServerToClientEvents,
} from '@portal/projections';
import {
  portalModes,
  startTestPortal,
  type PortalMode,
  type TestPortal,
} from '../platform/testing/portal-harness.js';
import { createTestDatabase, type TestDatabase } from '../platform/testing/postgres-test-database.js';
import { waitFor } from '../platform/testing/wait-for.js';
import { EscalationScheduler } from './escalation.scheduler.js';

type Client = ClientSocket<ServerToClientEvents, ClientToServerEvents>;
interface Received {
  socket: Client;
  presence: IncidentPresence[];
}

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const sockets: Client[] = [];

function connect(base: string, token: string): Promise<Received> {
  const socket: Client = connectClient(`${base}${LIVE_NAMESPACE}`, {
    path: LIVE_PATH,
    auth: { token },
    forceNew: true,
    reconnection: false,
    transports: ['websocket'],
  });
  sockets.push(socket);
  const received: Received = { socket, presence: [] };
  socket.on('presence', (p) => received.presence.push(p));
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(received));
    socket.once('connect_error', reject);
  });
}

const view = (r: Received, incidentId: string): Promise<IncidentPresence | { error: string }> =>
  r.socket.timeout(5000).emitWithAck('presence:view', incidentId);
const list = (r: Received) => r.socket.timeout(5000).emitWithAck('presence:list');
/** The latest presence this socket heard for an incident (undefined when none). */
const latest = (r: Received, incidentId: string) =>
  r.presence.filter((p) => p.incidentId === incidentId).at(-1);
const viewerIds = (p: IncidentPresence | undefined) => p?.viewers.map((v) => v.userId) ?? null;

async function people(portal: TestPortal) {
  const { call, admin, settle, createUser } = portal;
  const oak = (await settle(await call('POST', '/customers/', admin, { name: `Oak ${randomUUID()}` }))).body
    .id as string;
  const id: Record<string, string> = {};
  const token: Record<string, string> = {};
  const users: [string, Record<string, unknown>][] = [
    ['leadA', { user_type: 'teacher', permissions: ['CAN_LEAD_SAFEGUARDING'], first_name: 'Ada' }],
    ['leadB', { user_type: 'super_admin', permissions: ['CAN_LEAD_SAFEGUARDING'], first_name: 'Ben' }],
    ['teacher', { user_type: 'teacher', first_name: 'Tom' }],
    ['partner', { user_type: 'partner', customer_id: oak, customer_type: 'super-admin', first_name: 'Pat' }],
    ['student', { user_type: 'student', customer_id: oak, first_name: 'Sam' }],
  ];
  const suffix = randomUUID().slice(0, 8);
  for (const [name, extra] of users) {
    const email = `${name.toLowerCase()}-${suffix}@example.com`;
    id[name] = await createUser({ email, last_name: 'Test', ...extra });
    if (name !== 'student') token[name] = await portal.tokenFor(email);
  }
  const type = (
    await settle(
      await call('POST', '/safeguarding-incident-types/', token.leadB, { name: `Neglect ${suffix}` }),
    )
  ).body.id as string;
  const incident = (
    await settle(
      await call('POST', '/safeguarding-incidents/', token.teacher, {
        student_ids: [id.student],
        type_ids: [type],
        occurred_at: new Date(Date.now() - 60_000).toISOString(),
        description: 'Bruise on the arm',
        immediate_action: 'Spoke to the student',
        lead_told_verbally: true,
      }),
    )
  ).body.id as string;
  return { id, token, incident };
}

afterEach(() => {
  for (const s of sockets.splice(0)) s.close();
});

describe.each(portalModes)('safeguarding presence on the live channel, $name', (mode) => {
  let portal: TestPortal;
  let who: Awaited<ReturnType<typeof people>>;

  beforeAll(async () => {
    portal = await startTestPortal(mode, 'portal_sg_presence');
    who = await people(portal);
  }, 180_000);

  afterAll(async () => {
    await portal?.close();
  });

  it('tells every socket with safeguarding access who views an incident, nobody else, and clears it on leave and disconnect', async () => {
    const { token, id, incident } = who;
    const leadA = await connect(portal.base, token.leadA!);
    const leadB = await connect(portal.base, token.leadB!);
    const teacher = await connect(portal.base, token.teacher!);
    const partner = await connect(portal.base, token.partner!);
    const admin = await connect(portal.base, portal.admin);

    // Lead A opens the incident: the answer and lead B's board both name A, within a second.
    const started = Date.now();
    const answer = await view(leadA, incident);
    expect(answer).toEqual({ incidentId: incident, viewers: [{ userId: id.leadA, name: 'Ada Test' }] });
    await waitFor('lead B hears that A views it', () => viewerIds(latest(leadB, incident))?.[0] === id.leadA);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(await list(leadB)).toEqual({
      incidents: [{ incidentId: incident, viewers: [{ userId: id.leadA, name: 'Ada Test' }] }],
    });

    // A second tab of A counts once; B viewing too makes two viewers.
    const leadA2 = await connect(portal.base, token.leadA!);
    expect(viewerIds((await view(leadA2, incident)) as IncidentPresence)).toEqual([id.leadA]);
    expect(viewerIds((await view(leadB, incident)) as IncidentPresence)?.sort()).toEqual(
      [id.leadA, id.leadB].sort(),
    );

    // Without safeguarding access (the reporting teacher, a partner who sees the school's reports, an
    // administrator without the permission): refused, and nothing is heard. Each answer comes after
    // every presence message sent so far on that connection (one ordered connection per socket).
    for (const [name, outsider] of Object.entries({ teacher, partner, admin })) {
      expect([name, await view(outsider, incident)]).toEqual([
        name,
        { error: 'You do not have permission to do this' },
      ]);
      expect([name, await list(outsider)]).toEqual([
        name,
        { error: 'You do not have permission to do this' },
      ]);
      expect([name, outsider.presence]).toEqual([name, []]);
    }

    // Bad input is refused by name; an unknown incident is not found.
    expect(await view(leadA, 'not-an-id')).toEqual({ error: 'incidentId must be a UUID' });
    expect(await view(leadA, randomUUID())).toEqual({ error: 'Incident not found' });

    // B leaves: A's sockets hear only A remains.
    leadB.socket.emit('presence:leave', incident);
    await waitFor('A hears B left', () => {
      const ids = viewerIds(latest(leadA, incident));
      return ids?.length === 1 && ids[0] === id.leadA;
    });

    // A closes one tab: still viewing from the other; closes the second: nobody.
    const heard = leadB.presence.length;
    leadA2.socket.close();
    await waitFor('B hears presence after A closed a tab', () => leadB.presence.length > heard);
    expect(viewerIds(latest(leadB, incident))).toEqual([id.leadA]);
    const closed = Date.now();
    leadA.socket.close();
    await waitFor('B hears nobody views it', () => latest(leadB, incident)?.viewers.length === 0);
    expect(Date.now() - closed).toBeLessThan(1000);
    expect(await list(leadB)).toEqual({ incidents: [] });
    for (const outsider of [teacher, partner, admin]) expect(outsider.presence).toEqual([]);
  });

  it('a viewer who loses safeguarding access drops out at once, and hears nothing more', async () => {
    const { token, id, incident } = who;
    const leadB = await connect(portal.base, token.leadB!);
    const viewer = await connect(portal.base, token.leadA!);
    await view(viewer, incident);
    await waitFor('B hears A views it', () => viewerIds(latest(leadB, incident))?.[0] === id.leadA);
    const changed = await portal.call('PUT', `/users/${id.leadA}/permissions`, portal.admin, {
      permissions: ['USER_IS_TEACHER'],
    });
    expect(changed.status).toBe(200);
    await waitFor('B hears nobody views it', () => latest(leadB, incident)?.viewers.length === 0);
    const heard = viewer.presence.length;
    await view(leadB, incident);
    expect(await view(viewer, incident)).toEqual({ error: 'You do not have permission to do this' });
    expect(viewer.presence).toHaveLength(heard);
    expect(await list(leadB)).toEqual({
      incidents: [{ incidentId: incident, viewers: [{ userId: id.leadB, name: 'Ben Test' }] }],
    });
    // Access back (for the tests after this one).
    await portal.settle(
      await portal.call('PUT', `/users/${id.leadA}/permissions`, portal.admin, {
        permissions: ['USER_IS_TEACHER', 'CAN_LEAD_SAFEGUARDING'],
      }),
    );
  });

  it('claim and release: leads only, 409 naming the state, shown as the assigned lead', async () => {
    const { token, id, incident } = who;
    const { call, settle } = portal;
    expect((await call('POST', `/safeguarding-incidents/${incident}/claim`, token.teacher)).status).toBe(403);
    expect((await call('POST', `/safeguarding-incidents/not-a-uuid/claim`, token.leadA)).status).toBe(422);
    await settle(await call('POST', `/safeguarding-incidents/${incident}/claim`, token.leadA));
    const taken = await call('POST', `/safeguarding-incidents/${incident}/claim`, token.leadB);
    expect(taken).toEqual({
      status: 409,
      body: {
        detail: 'Cannot claim an incident that is claimed by another lead (it must be released first)',
      },
    });
    const listed = await call('GET', '/safeguarding-incidents/?status=reported', token.leadB);
    const row = (listed.body.items as { id: string; assigned_lead: unknown }[]).find(
      (i) => i.id === incident,
    );
    expect(row?.assigned_lead).toEqual({ id: id.leadA, name: 'Ada Test' });
    await settle(await call('POST', `/safeguarding-incidents/${incident}/release`, token.leadB));
    const again = await call('POST', `/safeguarding-incidents/${incident}/release`, token.leadA);
    expect(again).toEqual({
      status: 409,
      body: { detail: 'Cannot release an incident that is not claimed' },
    });
    const details = await call('GET', `/safeguarding-incidents/${incident}`, token.leadA);
    expect(details.body.assigned_lead).toBeNull();
    expect((details.body.timeline as { kind: string }[]).map((t) => t.kind)).toEqual(
      expect.arrayContaining(['claimed', 'released']),
    );
  });
});

describe.each(portalModes)('escalated incidents on the triage board, $name', (mode) => {
  let portal: TestPortal;
  let who: Awaited<ReturnType<typeof people>>;

  beforeAll(async () => {
    portal = await startTestPortal(mode, 'portal_sg_pinned');
    who = await people(portal);
  }, 180_000);

  afterAll(async () => {
    await portal?.close();
  });

  it('an escalated incident nobody acknowledged stays above newer reports', async () => {
    const { call, settle, running } = portal;
    const scheduler = running.app.get(EscalationScheduler);
    expect(await scheduler.runOnce(new Date(Date.now() + scheduler.minutes * 60_000 + 1000))).toBe(1);
    const newer = (
      await settle(
        await call('POST', '/safeguarding-incidents/', who.token.teacher, {
          student_ids: [who.id.student],
          type_ids: (
            (await call('GET', `/safeguarding-incidents/${who.incident}`, who.token.leadA)).body.types as {
              id: string;
            }[]
          ).map((t) => t.id),
          occurred_at: new Date().toISOString(),
          description: 'A newer concern',
          immediate_action: 'None yet',
          lead_told_verbally: false,
        }),
      )
    ).body.id as string;
    const order = await waitFor('the escalation in the read model', async () => {
      const list = await call('GET', '/safeguarding-incidents/?status=reported', who.token.leadA);
      const items = list.body.items as { id: string; escalated_at: string | null }[];
      return items.find((i) => i.id === who.incident)?.escalated_at ? items.map((i) => i.id) : null;
    });
    expect(order).toEqual([who.incident, newer]);
    // Once acknowledged it is no longer pinned: newest first again.
    await settle(await call('POST', `/safeguarding-incidents/${who.incident}/acknowledge`, who.token.leadA));
    const all = await call('GET', '/safeguarding-incidents/', who.token.leadA);
    expect((all.body.items as { id: string }[]).map((i) => i.id)).toEqual([newer, who.incident]);
  });
});

describe('safeguarding presence across two server processes with REDIS_URL', () => {
  let db: TestDatabase;
  let a: TestPortal;
  let b: TestPortal;

  beforeAll(async () => {
    db = await createTestDatabase('portal_sg_presence_redis');
    const shared: PortalMode = {
      name: 'shared PostgreSQL',
      setup: () => Promise.resolve({ env: { DATABASE_URL: db.url }, cleanup: () => Promise.resolve() }),
    };
    const env = { REDIS_URL, REDIS_PREFIX: `test-presence-${randomUUID()}` };
    b = await startTestPortal(shared, 'unused', env);
    a = await startTestPortal(shared, 'unused', env);
  }, 180_000);

  afterAll(async () => {
    await a?.close();
    await b?.close();
    await db?.drop();
  });

  it('a lead viewing through process A shows on a board connected to process B, and leaves with the socket', async () => {
    const { token, id, incident } = await people(b);
    const onB = await connect(b.base, token.leadB!);
    const teacherOnB = await connect(b.base, token.teacher!);
    const onA = await connect(a.base, token.leadA!);
    await view(onA, incident);
    await waitFor('B hears A views it', () => viewerIds(latest(onB, incident))?.[0] === id.leadA);
    expect(await list(onB)).toEqual({
      incidents: [{ incidentId: incident, viewers: [{ userId: id.leadA, name: 'Ada Test' }] }],
    });
    onA.socket.close();
    await waitFor('B hears nobody views it', () => latest(onB, incident)?.viewers.length === 0);
    expect(await list(teacherOnB)).toEqual({ error: 'You do not have permission to do this' });
    expect(teacherOnB.presence).toEqual([]);
  });
});
