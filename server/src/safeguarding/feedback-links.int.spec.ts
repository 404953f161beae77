import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { EVENT_STORE, type EventStore } from '../platform/event-store/event-store.js';
import { SQL_CLIENT } from '../platform/tokens.js';
import { waitFor } from '../platform/testing/wait-for.js';
import type { SqlClient } from '../platform/sql/sql-client.js';
import {
  portalModes,
  startTestPortal,
  type Answer,
  type TestPortal,
} from '../platform/testing/portal-harness.js';

/** Partner feedback by token link (docs/decisions/0030-partner-feedback-links.md). */
const ROLES = ['anonymous', 'admin', 'adminSg', 'teacher', 'lead', 'partner'] as const;
type Role = (typeof ROLES)[number];

describe.each(portalModes)('safeguarding feedback links, $name', (mode) => {
  let portal: TestPortal;
  const token: Partial<Record<Role, string>> = {};
  let oak: string;
  let elm: string;
  let student: string;
  let neglect: string;
  let sql: SqlClient;

  const as = (role: Role, method: string, path: string, body?: unknown): Promise<Answer> =>
    portal.call(method, path, role === 'anonymous' ? undefined : token[role], body);

  /** An incident by the teacher, walked to partner_informed by the lead. */
  async function informedIncident(): Promise<string> {
    const { settle } = portal;
    const id = (
      await settle(
        await as('teacher', 'POST', '/safeguarding-incidents/', {
          student_ids: [student],
          type_ids: [neglect],
          occurred_at: new Date(Date.now() - 3_600_000).toISOString(),
          description: 'Secret description the partner link must not show',
          immediate_action: 'Spoke to the student',
          lead_told_verbally: true,
        }),
      )
    ).body.id as string;
    for (const [path, body] of [
      ['acknowledge', {}],
      ['review', {}],
      ['partner-informed', { method: 'phone', note: 'Told the DSL' }],
    ] as const)
      await settle(await as('lead', 'POST', `/safeguarding-incidents/${id}/${path}`, body));
    return id;
  }

  /** Issues a link as the lead and returns its id and the token from the mailed link. */
  async function issue(incident: string, body: Record<string, unknown> = {}) {
    const answer = await as('lead', 'POST', `/safeguarding-incidents/${incident}/feedback-links`, {
      email: 'head@oak.example.com',
      ...body,
    });
    expect(answer.status).toBe(201);
    const outbox = await as('admin', 'GET', '/mail-outbox');
    const mail = (outbox.body.items as { to_address: string; body_text: string }[]).find((m) =>
      m.body_text.includes('/safeguarding-incident/feedback/'),
    )!;
    expect(mail.to_address).toBe('head@oak.example.com');
    const tokens = [...mail.body_text.matchAll(/\/safeguarding-incident\/feedback\/([A-Za-z0-9_-]+)/g)];
    return { linkId: answer.body.id as string, token: tokens[0]![1]!, mail };
  }

  beforeAll(async () => {
    portal = await startTestPortal(mode, 'portal_sg_feedback', { PUBLIC_URL: 'https://portal.example.com' });
    sql = portal.running.app.get(SQL_CLIENT);
    const { call, admin, settle, createUser } = portal;
    token.admin = admin;
    oak = (await settle(await call('POST', '/customers/', admin, { name: 'Oakfield Academy' }))).body
      .id as string;
    elm = (await settle(await call('POST', '/customers/', admin, { name: 'Elm Tree School' }))).body
      .id as string;
    const user = (email: string, extra: Record<string, unknown>) =>
      createUser({ email, first_name: email.split('@')[0]!, last_name: 'Test', ...extra });
    await user('dsl.admin@example.com', {
      user_type: 'super_admin',
      permissions: ['CAN_ACCESS_SAFEGUARDING'],
    });
    await user('teacher@example.com', { user_type: 'teacher' });
    await user('lead@example.com', { user_type: 'teacher', permissions: ['CAN_LEAD_SAFEGUARDING'] });
    await user('head@oak.example.com', {
      user_type: 'partner',
      customer_id: oak,
      customer_type: 'super-admin',
    });
    await user('head@elm.example.com', {
      user_type: 'partner',
      customer_id: elm,
      customer_type: 'super-admin',
    });
    student = await createUser({
      email: 'ada@oak.example.com',
      first_name: 'Ada',
      last_name: 'Lovelace',
      user_type: 'student',
      customer_id: oak,
    });
    for (const [role, login] of [
      ['adminSg', 'dsl.admin@example.com'],
      ['teacher', 'teacher@example.com'],
      ['lead', 'lead@example.com'],
      ['partner', 'head@oak.example.com'],
    ] as const)
      token[role] = await portal.tokenFor(login);
    neglect = (
      await settle(await as('adminSg', 'POST', '/safeguarding-incident-types/', { name: 'Neglect' }))
    ).body.id as string;
  }, 180_000);

  afterAll(async () => {
    await portal?.close();
  });

  it('a lead mails a link; every anonymous open is recorded; one submission records feedback on that incident only', async () => {
    const incident = await informedIncident();
    const other = await informedIncident();
    const { linkId, token: t, mail } = await issue(incident);
    expect(mail.body_text).toContain(`https://portal.example.com/safeguarding-incident/feedback/${t}`);
    expect(t).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // Only the hash is stored.
    const { rows } = await sql.query<{ token_hash: string }>('SELECT token_hash FROM sg_feedback_tokens');
    expect(rows.map((r) => r.token_hash)).not.toContain(t);

    const first = await as('anonymous', 'GET', `/safeguarding-feedback/${t}`);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ types: ['Neglect'], students: ['Ada L.'] });
    expect(JSON.stringify(first.body)).not.toContain('Secret description');
    expect((await as('anonymous', 'GET', `/safeguarding-feedback/${t}`)).status).toBe(200);
    let list = await as('lead', 'GET', `/safeguarding-incidents/${incident}/feedback-links`);
    expect(list.body.items).toMatchObject([{ id: linkId, status: 'opened', email: 'head@oak.example.com' }]);
    expect((list.body.items as { opens: string[] }[])[0]!.opens).toHaveLength(2);

    const empty = await as('anonymous', 'POST', `/safeguarding-feedback/${t}`, { feedback: '' });
    expect(empty.status).toBe(422);
    expect(empty.body.detail).toMatch(/feedback/);
    const long = await as('anonymous', 'POST', `/safeguarding-feedback/${t}`, {
      feedback: 'x'.repeat(20_001),
    });
    expect(long.status).toBe(422);
    expect(long.body.detail).toMatch(/feedback/);

    const sent = await as('anonymous', 'POST', `/safeguarding-feedback/${t}`, {
      feedback: 'Known to us; early help in place',
    });
    expect(sent.status).toBe(201);
    const feedbackId = sent.body.feedback_id as string;
    const receipt = await as(
      'anonymous',
      'GET',
      `/safeguarding-feedback/${feedbackId}/confirm/${sent.body.confirm_token as string}`,
    );
    expect(receipt).toMatchObject({
      status: 200,
      body: { feedback_id: feedbackId, feedback: 'Known to us; early help in place', types: ['Neglect'] },
    });
    expect((await as('anonymous', 'GET', `/safeguarding-feedback/${feedbackId}/confirm/${t}`)).status).toBe(
      404,
    );

    // The feedback landed on that incident, which advanced; the other incident is untouched.
    const details = await waitFor('the feedback in the read model', async () => {
      const d = await as('lead', 'GET', `/safeguarding-incidents/${incident}`);
      return d.body.status === 'partner_feedback' ? d : null;
    });
    expect(details.body.status).toBe('partner_feedback');
    expect(JSON.stringify(details.body.timeline)).toContain('Via feedback link: Known to us');
    expect((await as('lead', 'GET', `/safeguarding-incidents/${other}`)).body.status).toBe(
      'partner_informed',
    );
    expect((await as('lead', 'GET', `/safeguarding-incidents/${incident}/verify`)).body).toMatchObject({
      valid: true,
    });

    // Single use: again → refused, and the lead sees it used.
    const again = await as('anonymous', 'POST', `/safeguarding-feedback/${t}`, { feedback: 'second' });
    expect(again.status).toBe(410);
    expect(again.body.detail).toMatch(/already been used/);
    expect((await as('anonymous', 'GET', `/safeguarding-feedback/${t}`)).status).toBe(410);
    list = await as('lead', 'GET', `/safeguarding-incidents/${incident}/feedback-links`);
    expect(list.body.items).toMatchObject([{ id: linkId, status: 'used', feedback_id: feedbackId }]);
  });

  it('expired and revoked links are refused; unknown tokens are 404', async () => {
    const incident = await informedIncident();
    const expired = await issue(incident, { expires_in_hours: 1 });
    await sql.query(
      `UPDATE sg_feedback_tokens SET expires_at = clock_timestamp() - interval '1 minute' WHERE link_id = $1`,
      [expired.linkId],
    );
    // The stored expiry passed (the event's expiry is checked by the decider's unit table).
    const late = await as('anonymous', 'POST', `/safeguarding-feedback/${expired.token}`, {
      feedback: 'late',
    });
    expect(late.status).toBe(410);

    const revoked = await issue(incident);
    const del = await as(
      'lead',
      'DELETE',
      `/safeguarding-incidents/${incident}/feedback-links/${revoked.linkId}`,
    );
    expect(del.status).toBe(200);
    const opened = await as('anonymous', 'GET', `/safeguarding-feedback/${revoked.token}`);
    expect(opened.status).toBe(410);
    expect(opened.body.detail).toMatch(/revoked/);
    expect(
      (await as('anonymous', 'POST', `/safeguarding-feedback/${revoked.token}`, { feedback: 'x' })).status,
    ).toBe(410);
    expect(
      (await as('lead', 'DELETE', `/safeguarding-incidents/${incident}/feedback-links/${revoked.linkId}`))
        .status,
    ).toBe(409);
    const list = await as('lead', 'GET', `/safeguarding-incidents/${incident}/feedback-links`);
    expect(
      (list.body.items as { id: string; status: string }[]).find((l) => l.id === revoked.linkId)!.status,
    ).toBe('revoked');

    const unknown = await as('anonymous', 'GET', `/safeguarding-feedback/${'A'.repeat(43)}`);
    expect(unknown.status).toBe(404);
    expect((await as('anonymous', 'GET', '/safeguarding-feedback/not-a-token')).status).toBe(404);
  });

  it('links only go to a partner of the incident’s customer, only after the partner was informed', async () => {
    const incident = await informedIncident();
    // The lead picks from the school's partner users (issue 18): Oakfield's head, not Elm's.
    const recipients = await as(
      'lead',
      'GET',
      `/safeguarding-incidents/${incident}/feedback-links/recipients`,
    );
    expect((recipients.body.items as { email: string }[]).map((r) => r.email)).toEqual([
      'head@oak.example.com',
    ]);
    expect(
      (await as('teacher', 'GET', `/safeguarding-incidents/${incident}/feedback-links/recipients`)).status,
    ).toBe(403);
    const elmPartner = await as('lead', 'POST', `/safeguarding-incidents/${incident}/feedback-links`, {
      email: 'head@elm.example.com',
    });
    expect(elmPartner.status).toBe(422);
    expect(elmPartner.body.detail).toMatch(/^email/);
    const bad = await as('lead', 'POST', `/safeguarding-incidents/${incident}/feedback-links`, {
      email: 'head@oak.example.com',
      expires_in_hours: 0,
    });
    expect(bad.status).toBe(422);
    expect(bad.body.detail).toMatch(/expires_in_hours/);

    const fresh = (
      await portal.settle(
        await as('teacher', 'POST', '/safeguarding-incidents/', {
          student_ids: [student],
          type_ids: [neglect],
          occurred_at: new Date().toISOString(),
          description: 'd',
          immediate_action: 'a',
          lead_told_verbally: false,
        }),
      )
    ).body.id as string;
    const early = await as('lead', 'POST', `/safeguarding-incidents/${fresh}/feedback-links`, {
      email: 'head@oak.example.com',
    });
    expect(early.status).toBe(409);
    expect(early.body.detail).toContain('reported');
  });

  it('permission matrix: only safeguarding leads issue, list and revoke', async () => {
    const incident = await informedIncident();
    const { linkId } = await issue(incident);
    const base = `/safeguarding-incidents/${incident}/feedback-links`;
    const cases: [string, string, unknown][] = [
      ['POST', base, { email: 'head@oak.example.com' }],
      ['GET', base, undefined],
      ['DELETE', `${base}/${linkId}`, undefined],
    ];
    for (const [method, path, body] of cases)
      for (const role of ROLES) {
        if (role === 'lead') continue;
        const answer = await as(role, method, path, body);
        expect({ role, method, status: answer.status }).toEqual({
          role,
          method,
          status: role === 'anonymous' ? 401 : 403,
        });
      }
    expect((await as('lead', 'GET', base)).status).toBe(200);
    expect((await as('lead', 'DELETE', `${base}/${linkId}`)).status).toBe(200);
  });

  it('two concurrent submissions through one link: exactly one is recorded', async () => {
    const incident = await informedIncident();
    const { token: t } = await issue(incident);
    const answers = await Promise.all(
      ['first', 'second', 'third'].map((feedback) =>
        as('anonymous', 'POST', `/safeguarding-feedback/${t}`, { feedback }),
      ),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([201, 410, 410]);
    const events = await portal.running.app
      .get<EventStore>(EVENT_STORE)
      .readStream(`safeguarding-incident-${incident}`);
    expect(events.filter((e) => e.type === 'SafeguardingIncidentPartnerFeedbackRecorded')).toHaveLength(1);
  });

  it('answers 429 to an address after 30 unknown or dead links (runs last: it blocks this address)', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 32; i++)
      statuses.push(
        (await as('anonymous', 'GET', `/safeguarding-feedback/${'B'.repeat(42)}${i % 10}`)).status,
      );
    expect(statuses.filter((s) => s === 404).length).toBeGreaterThan(0);
    expect(statuses.at(-1)).toBe(429);
  });
});
