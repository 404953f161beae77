import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { io as connectClient, type Socket as ClientSocket } from 'socket.io-client';
import type { WebsocketProvider } from 'y-websocket';
import {
  LIVE_NAMESPACE,
  LIVE_PATH,
  type ClientToServerEvents,
  type LiveMessage,
  type ServerToClientEvents,
} from '@portal/projections';
import {
  closes,
  editor,
  synced,
  text,
  upgradeStatus,
} from '../platform/collaboration/testing/collab-test-kit.js';
import { CloseCode } from '../platform/collaboration/collab.protocol.js';
import { MailOutbox } from '../platform/mail/mail-outbox.js';
import { portalModes, startTestPortal, type TestPortal } from '../platform/testing/portal-harness.js';
import { waitFor } from '../platform/testing/wait-for.js';
import { EscalationScheduler } from './escalation.scheduler.js';
import { pdfText } from './testing-pdf-text.js';

type Client = ClientSocket<ServerToClientEvents, ClientToServerEvents>;
interface Received {
  socket: Client;
  messages: LiveMessage[];
}

const ESCALATION_MINUTES = '0.01'; // 0.6 s, so the test sees escalation without waiting 15 minutes
const sockets: Client[] = [];
const providers: WebsocketProvider[] = [];

function connect(base: string, token: string): Promise<Received> {
  const socket: Client = connectClient(`${base}${LIVE_NAMESPACE}`, {
    path: LIVE_PATH,
    auth: { token },
    forceNew: true,
    reconnection: false,
    transports: ['websocket'],
  });
  sockets.push(socket);
  const received: Received = { socket, messages: [] };
  socket.on('live', (m) => received.messages.push(m));
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(received));
    socket.once('connect_error', reject);
  });
}

const safeguardingMessages = (r: Received) => r.messages.filter((m) => m.stream.startsWith('safeguarding-'));

describe.each(portalModes)('safeguarding live triage, escalation and write-up, $name', (mode) => {
  let portal: TestPortal;
  const token: Record<string, string> = {};
  const id: Record<string, string> = {};

  beforeAll(async () => {
    portal = await startTestPortal(mode, 'portal_sg_live', {
      SAFEGUARDING_ESCALATION_MINUTES: ESCALATION_MINUTES,
    });
    const { call, admin, settle, createUser } = portal;
    token.admin = admin;
    const oak = (await settle(await call('POST', '/customers/', admin, { name: 'Oakfield Academy' }))).body
      .id as string;
    const elm = (await settle(await call('POST', '/customers/', admin, { name: 'Elm Tree School' }))).body
      .id as string;
    const users: [string, Record<string, unknown>][] = [
      ['adminSg', { user_type: 'super_admin', permissions: ['CAN_ACCESS_SAFEGUARDING'] }],
      ['teacher', { user_type: 'teacher' }],
      ['otherTeacher', { user_type: 'teacher' }],
      ['lead', { user_type: 'teacher', permissions: ['CAN_LEAD_SAFEGUARDING'] }],
      ['lead2', { user_type: 'super_admin', permissions: ['CAN_LEAD_SAFEGUARDING'] }],
      ['partnerSee', { user_type: 'partner', customer_id: oak, customer_type: 'super-admin' }],
      ['partnerElm', { user_type: 'partner', customer_id: elm, customer_type: 'super-admin' }],
      ['student', { user_type: 'student', customer_id: oak }],
    ];
    for (const [name, extra] of users) {
      id[name] = await createUser({
        email: `${name.toLowerCase()}@example.com`,
        first_name: name,
        last_name: 'Test',
        ...extra,
      });
      if (name !== 'student') token[name] = await portal.tokenFor(`${name.toLowerCase()}@example.com`);
    }
    id.type = (
      await settle(await call('POST', '/safeguarding-incident-types/', token.adminSg, { name: 'Neglect' }))
    ).body.id as string;
  }, 180_000);

  afterEach(() => {
    for (const s of sockets.splice(0)) s.close();
    for (const p of providers.splice(0)) p.destroy();
  });

  afterAll(async () => {
    await portal?.close();
  });

  const report = (as: string) =>
    portal.call('POST', '/safeguarding-incidents/', token[as], {
      student_ids: [id.student],
      type_ids: [id.type],
      occurred_at: new Date(Date.now() - 60_000).toISOString(),
      description: 'SECRET-DESCRIPTION',
      immediate_action: 'SECRET-ACTION',
      lead_told_verbally: true,
    });

  it('pushes a new report to leads at once, escalates it unacknowledged (alert + mail to every lead), and no socket without access hears any of it', async () => {
    const { base } = portal;
    const lead = await connect(base, token.lead!);
    const adminSg = await connect(base, token.adminSg!);
    const outsiders = {
      admin: await connect(base, token.admin!),
      teacher: await connect(base, token.teacher!),
      partnerSee: await connect(base, token.partnerSee!),
    };
    const started = Date.now();
    const reported = await report('teacher');
    expect(reported.status).toBe(201);
    const incident = reported.body.id as string;
    const first = await waitFor('lead sees the report', () =>
      lead.messages.find(
        (m) =>
          m.type === 'SafeguardingIncidentReported' &&
          (m.data as { incidentId: string }).incidentId === incident,
      ),
    );
    const latencyMs = Date.now() - started;
    expect(latencyMs).toBeLessThan(1000);
    expect(first.data).toMatchObject({
      incidentId: incident,
      status: 'reported',
      riskLevel: 'medium',
      studentCount: 1,
    });
    await waitFor('adminSg sees the report', () =>
      adminSg.messages.some((m) => m.type === 'SafeguardingIncidentReported'),
    );

    // Not acknowledged within the configured time: escalated once, alert live, mail to every lead.
    const alert = await waitFor(
      'escalation alert',
      () => lead.messages.find((m) => m.type === 'SafeguardingIncidentEscalated'),
      15_000,
    );
    expect(alert.data).toMatchObject({ incidentId: incident, escalated: true });
    const stream = await portal.running.infra.eventStore.readStream(`safeguarding-incident-${incident}`);
    expect(stream.map((e) => e.type)).toEqual([
      'SafeguardingIncidentReported',
      'SafeguardingIncidentEscalated',
    ]);
    expect((stream[1]!.data as { leadsNotified: string[] }).leadsNotified.sort()).toEqual(
      [id.lead, id.lead2].sort(),
    );
    // The escalating process queues one mail per lead after its event is appended (so a refused
    // append sends none), and the alert can reach a socket before the last mail is queued: wait for them.
    const escalationMails = await waitFor('a mail to each lead', async () => {
      const mails = (await portal.running.app.get(MailOutbox).list()).filter(
        (m) => m.subject === 'Safeguarding incident not acknowledged',
      );
      return mails.length >= 2 ? mails : undefined;
    });
    expect(escalationMails.map((m) => m.to_address).sort()).toEqual([
      'lead2@example.com',
      'lead@example.com',
    ]);
    expect(
      escalationMails.every((m) => m.body_text.includes(incident) && !m.body_text.includes('SECRET')),
    ).toBe(true);
    expect(await portal.running.app.get(EscalationScheduler).runOnce()).toBe(0);

    // The views log goes to leads only; a read by adminSg makes one.
    await portal.call('GET', `/safeguarding-incidents/${incident}`, token.adminSg);
    await waitFor('lead sees the view', () =>
      lead.messages.some((m) => m.type === 'SafeguardingIncidentViewed'),
    );

    // Sync each outsider with a later event on their own stream (live messages go out in position
    // order), then check they heard nothing of safeguarding.
    const me = await portal.call('GET', '/users/?query=head.office', token.admin);
    id.admin = (me.body.items as { id: string }[])[0]!.id;
    for (const [name, received] of Object.entries(outsiders)) {
      const uid = id[name]!;
      const answer = await portal.call('PUT', `/users/${uid}`, token.admin, { notes: `sync ${Date.now()}` });
      expect(answer.status).toBeLessThan(300);
      await waitFor(`${name} gets its own update`, () =>
        received.messages.some((m) => m.stream === `user-${uid}`),
      );
      expect([name, safeguardingMessages(received)]).toEqual([name, []]);
    }
    expect(adminSg.messages.some((m) => m.type === 'SafeguardingIncidentViewed')).toBe(false);
    expect(JSON.stringify([...lead.messages, ...adminSg.messages])).not.toContain('SECRET');
    console.log(`safeguarding live: report to lead's socket in ${latencyMs} ms (${mode.name})`);
  });

  it('serves the write-up safeguarding-incident:{id}: reporter and leads write, partners who may see read, others refused', async () => {
    const incident = (await portal.settle(await report('teacher'))).body.id as string;
    const room = `safeguarding-incident:${incident}`;
    const base = `${portal.base.replace(/^http/, 'ws')}/collab`;
    const open = (who: string) => {
      const p = editor(portal.running, room, token[who]!);
      providers.push(p);
      return p;
    };
    const reporter = open('teacher');
    const lead = open('lead');
    await synced(reporter);
    await synced(lead);
    reporter.doc.getText('body').insert(0, 'Reporter notes. ');
    lead.doc.getText('body').insert(0, 'Lead review. ');
    await waitFor('both see both', () => text(reporter).length > 20 && text(reporter) === text(lead));
    expect(text(lead)).toContain('Reporter notes.');
    expect(text(reporter)).toContain('Lead review.');

    const partner = open('partnerSee');
    await waitFor('partner reads the write-up', () => text(partner) === text(lead));
    partner.doc.getText('body').insert(0, 'PARTNER EDIT ');
    partner.awareness.setLocalStateField('marker', 'after-edit');
    await waitFor('marker reaches the lead', () => {
      const s = lead.awareness.getStates().get(partner.doc.clientID) as { marker?: string } | undefined;
      return s?.marker === 'after-edit';
    });
    expect(text(lead)).not.toContain('PARTNER EDIT');

    // The PDF: incident, chronology, actions, write-up, and the event position it was built from.
    const ack = await portal.settle(
      await portal.call('POST', `/safeguarding-incidents/${incident}/acknowledge`, token.lead),
    );
    await portal.settle(await portal.call('POST', `/safeguarding-incidents/${incident}/review`, token.lead));
    await portal.settle(
      await portal.call('POST', `/safeguarding-incidents/${incident}/actions`, token.lead, {
        description: 'Early help assessment',
        assignee_id: id.lead,
        due_date: '2026-12-01',
        referral_agency: 'Early Help Hub',
      }),
    );
    expect(ack.status).toBe(200);
    await waitFor('write-up persisted', async () => {
      const events = await portal.running.infra.eventStore.readStream(
        `collab-safeguarding-incident-${incident}`,
      );
      return events.length > 0 && text(lead).length > 0;
    });
    await waitFor('write-up fully persisted', async () => {
      const res = await fetch(`${portal.base}/api/v1/safeguarding-incidents/${incident}/pdf`, {
        headers: { RequestVerificationToken: token.lead! },
      });
      const body = pdfText(Buffer.from(await res.arrayBuffer()));
      return body.includes('Reporter notes.') && body.includes('Lead review.');
    });
    const res = await fetch(`${portal.base}/api/v1/safeguarding-incidents/${incident}/pdf`, {
      headers: { RequestVerificationToken: token.lead! },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    const pdf = Buffer.from(await res.arrayBuffer());
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    const position = res.headers.get('x-event-position')!;
    const drawn = pdfText(pdf);
    expect(drawn).toContain(`Built from event position ${position}`);
    expect(drawn).toContain('SECRET-DESCRIPTION');
    expect(drawn).toContain('Early help assessment');
    expect(drawn).toContain('referral to Early Help Hub');
    expect(drawn).toMatch(/acknowledged: Acknowledged by a safeguarding lead/);
    const streams = await Promise.all(
      [`safeguarding-incident-${incident}`, `collab-safeguarding-incident-${incident}`].map((s) =>
        portal.running.infra.eventStore.readStream(s),
      ),
    );
    expect(position).toBe(
      streams
        .flat()
        .reduce((max, e) => (e.position > max ? e.position : max), 0n)
        .toString(),
    );
    const pdfAs = (who: string | null) =>
      fetch(`${portal.base}/api/v1/safeguarding-incidents/${incident}/pdf`, {
        headers: who ? { RequestVerificationToken: token[who]! } : {},
      }).then((r) => r.status);
    expect(await pdfAs(null)).toBe(401);
    expect(await pdfAs('admin')).toBe(404);
    expect(await pdfAs('partnerElm')).toBe(404);
    expect(await pdfAs('partnerSee')).toBe(200);
    expect(await pdfAs('teacher')).toBe(200);
    const views = await portal.running.infra.eventStore.readStream(`safeguarding-incident-views-${incident}`);
    expect(views.some((v) => (v.data as { via: string }).via === 'pdf')).toBe(true);

    for (const who of ['admin', 'otherTeacher', 'partnerElm'])
      expect([who, await upgradeStatus(`${base}/${room}?token=${token[who]}`)]).toEqual([who, 403]);
    expect(await upgradeStatus(`${base}/${room}`)).toBe(401);
    expect(
      await upgradeStatus(
        `${base}/safeguarding-incident:99999999-9999-4999-8999-999999999999?token=${token.lead}`,
      ),
    ).toBe(403);
  });

  it('makes a closed incident’s write-up read-only for everyone, open editors included, until it is reopened', async () => {
    const incident = (await portal.settle(await report('teacher'))).body.id as string;
    const room = `safeguarding-incident:${incident}`;
    const step = async (path: string, body?: unknown) =>
      expect(
        (
          await portal.settle(
            await portal.call('POST', `/safeguarding-incidents/${incident}/${path}`, token.lead, body),
          )
        ).status,
      ).toBe(200);
    await step('acknowledge');
    await step('review');
    const reporter = editor(portal.running, room, token.teacher!);
    const lead = editor(portal.running, room, token.lead!);
    providers.push(reporter, lead);
    const reporterCloses = closes(reporter);
    await synced(reporter);
    await synced(lead);
    reporter.doc.getText('body').insert(0, 'Before closing. ');
    await waitFor('the lead sees the reporter', () => text(lead).includes('Before closing.'));

    await step('close', { outcome: 'Early help in place; no further action.' });
    // The open editor is told its rights changed (4501) and comes back read-only.
    await waitFor('reporter reconnected', () =>
      reporterCloses.some((c) => c.code === CloseCode.accessChanged),
    );
    await synced(reporter);
    reporter.doc.getText('body').insert(0, 'AFTER CLOSE ');
    lead.doc.getText('body').insert(0, 'LEAD AFTER CLOSE ');
    await new Promise((r) => setTimeout(r, 500));
    const fresh = editor(portal.running, room, token.lead!);
    providers.push(fresh);
    await synced(fresh);
    expect(text(fresh)).toContain('Before closing.');
    expect(text(fresh)).not.toContain('AFTER CLOSE');

    await step('reopen', { reason: 'The student raised it again.' });
    const writer = editor(portal.running, room, token.teacher!);
    providers.push(writer);
    await synced(writer);
    writer.doc.getText('body').insert(0, 'After reopening. ');
    await waitFor('the reopened write-up takes the reporter’s words', () =>
      text(fresh).includes('After reopening.'),
    );
  });

  it('lets a reporter follow their concerns: their list, and each stage change live in their own room', async () => {
    const incident = (await portal.settle(await report('teacher'))).body.id as string;
    const reporter = await connect(portal.base, token.teacher!);
    const other = await connect(portal.base, token.otherTeacher!);
    const mine = await portal.call('GET', '/safeguarding-incidents/reported-by-me?size=50', token.teacher);
    expect(mine.status).toBe(200);
    const item = (mine.body.items as { id: string; audience: string; status: string }[]).find(
      (i) => i.id === incident,
    );
    expect(item).toMatchObject({ audience: 'reporter', status: 'reported' });
    expect(JSON.stringify(mine.body)).not.toContain('assigned_lead');
    const others = await portal.call('GET', '/safeguarding-incidents/reported-by-me', token.otherTeacher);
    expect((others.body.items as { id: string }[]).map((i) => i.id)).not.toContain(incident);

    await portal.settle(
      await portal.call('POST', `/safeguarding-incidents/${incident}/acknowledge`, token.lead),
    );
    await waitFor('the reporter hears the new stage', () =>
      safeguardingMessages(reporter).some((m) => m.stream === `safeguarding-incident-${incident}`),
    );
    const heard = safeguardingMessages(reporter).filter(
      (m) => m.stream === `safeguarding-incident-${incident}`,
    );
    expect(heard.map((m) => [m.type, m.data])).toEqual([
      ['SafeguardingIncidentAcknowledged', { incidentId: incident, status: 'acknowledged' }],
    ]);
    expect(safeguardingMessages(other)).toEqual([]);
  });
});
