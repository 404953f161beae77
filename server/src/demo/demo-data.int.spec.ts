import { waitFor } from '../platform/testing/wait-for.js';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { portalModes, startTestPortal, type TestPortal } from '../platform/testing/portal-harness.js';
import { loadConfig } from '../platform/config/config.js';
import { DEMO_PASSWORD } from './demo-data.js';

interface Probe {
  status: number;
  type: string | null;
  retryAfter: string | null;
  text: string;
}

async function probe(url: string): Promise<Probe> {
  const res = await fetch(url);
  return {
    status: res.status,
    type: res.headers.get('content-type'),
    retryAfter: res.headers.get('retry-after'),
    text: await res.text(),
  };
}

describe.each(portalModes)('demo data, $name', (mode) => {
  let portal: TestPortal;
  const stages: string[] = [];
  /** What a visitor got while the students were being loaded. */
  let whileSeeding: Promise<{ health: Probe; api: Probe; page: Probe; login: Probe }> | undefined;

  beforeAll(async () => {
    let url = '';
    portal = await startTestPortal(
      mode,
      'portal_demo',
      { DEMO_DATA: 'true' },
      {
        onListening: (u) => (url = u),
        onStarting: (message) => {
          stages.push(message);
          if (message.includes('step 4 of 7') && !whileSeeding)
            whileSeeding = (async () => ({
              health: await probe(`${url}/api/v1/health`),
              api: await probe(`${url}/api/v1/users/`),
              page: await probe(`${url}/users/students`),
              login: await fetch(`${url}/api/v1/login/access-token`, {
                method: 'POST',
                headers: { 'content-type': 'application/x-www-form-urlencoded' },
                body: new URLSearchParams({ username: 'head@oakfield.example.org', password: DEMO_PASSWORD }),
              }).then(async (r) => ({
                status: r.status,
                type: null,
                retryAfter: null,
                text: await r.text(),
              })),
            }))();
        },
      },
    );
  }, 180_000);

  it('says it is starting, with progress, until the demo data is in the read models', async () => {
    expect(stages[0]).toMatch(/^loading demo data, step 1 of 7/);
    expect(stages.at(-1)).toBe('ready');
    const seen = await whileSeeding!;
    expect(seen.health.status).toBe(503);
    expect(JSON.parse(seen.health.text)).toMatchObject({
      status: 'starting',
      starting: { stage_number: 4, stages: 7, total: 40 },
    });
    expect(seen.api.status).toBe(503);
    expect(seen.api.retryAfter).toBe('2');
    expect((JSON.parse(seen.api.text) as { detail: string }).detail).toMatch(
      /The portal is starting: loading demo data, step 4 of 7/,
    );
    expect(seen.login.status).toBe(503);
    // A browser gets a page that says so and reloads itself, not a half-filled client.
    expect(seen.page.status).toBe(503);
    expect(seen.page.type).toMatch(/text\/html/);
    expect(seen.page.text).toContain('Tutoring Portal is starting');
    expect(seen.page.text).toContain('http-equiv="refresh"');
    // Ready: health says ok, and the last seeded events are already in every read model.
    const health = await portal.call('GET', '/health');
    expect(health.status).toBe(200);
    expect(health.body).toMatchObject({ status: 'ok' });
    expect(health.body.starting).toBeUndefined();
    expect((health.body.projections as { lag: string }[]).every((p) => p.lag === '0')).toBe(true);
  });

  afterAll(async () => {
    await portal?.close();
  });

  it('seeds partner schools with every customer role, teachers and students through the API, as events', async () => {
    const { call, admin, running } = portal;
    expect(running.demo).toMatchObject({ networks: 2, customers: 3, teachers: 10, students: 40 });
    const networks = await call('GET', '/networks/', admin);
    const colours = (networks.body.items as { primary_colour: string; timezone: string }[]).map((n) => [
      n.timezone,
      n.primary_colour,
    ]);
    expect(new Set(colours.map(([tz]) => tz)).size).toBe(2);
    expect(new Set(colours.map(([, c]) => c)).size).toBe(2);
    const templates = await call('GET', '/permission-templates/', admin);
    expect(templates.body.total).toBeGreaterThanOrEqual(3);
    const incidents = await call('GET', '/safeguarding-incidents/', admin);
    expect(incidents.body.total).toBe(3);
    expect((incidents.body.items as { status: string }[]).map((i) => i.status).sort()).toEqual([
      'reported',
      'reported',
      'under_review',
    ]);
    // The unacknowledged ones have escalated, so a newcomer sees the alert state on the board: at once,
    // since the portal says ready only when the read models hold the whole seeding.
    const reported = await call('GET', '/safeguarding-incidents/?status=reported', admin);
    const escalated = reported.body.items as { escalated_at: string | null }[];
    expect(escalated).toHaveLength(2);
    expect(escalated.every((i) => i.escalated_at !== null)).toBe(true);
    const me = await call('GET', '/users/me', admin);
    expect(me.body.permission_list).toEqual(
      expect.arrayContaining(['CAN_LEAD_SAFEGUARDING', 'CAN_MODIFY_NETWORK']),
    );
    const customers = await call('GET', '/customers/', admin);
    expect(customers.body.total).toBe(3);
    for (const customer of customers.body.items as { id: string }[]) {
      const partners = await call('GET', `/users/?type=partners&customer_id=${customer.id}`, admin);
      const roles = (partners.body.items as { customer_profile: { type: string } }[]).map(
        (u) => u.customer_profile.type,
      );
      expect(roles.sort()).toEqual(['admin', 'link-contact', 'parent', 'super-admin']);
    }
    const teachers = await call('GET', '/users/?type=teachers&size=50', admin);
    expect(teachers.body.total).toBe(10);
    const withIssue = (teachers.body.items as { teacher_profile: { has_quality_issue: boolean } }[]).filter(
      (t) => t.teacher_profile.has_quality_issue,
    );
    expect(withIssue).toHaveLength(1);
    const students = await call('GET', '/users/?type=students&size=100', admin);
    expect(students.body.total).toBe(40);
    const items = students.body.items as {
      contacts: unknown[];
      one_page_profile: unknown;
      customer_name: string;
    }[];
    expect(items.every((s) => s.contacts.length === 1 && s.customer_name)).toBe(true);
    expect(items.filter((s) => s.one_page_profile !== null).length).toBeGreaterThan(20);
    const events = await running.infra.eventStore.readStream(
      `user-${(students.body.items as { id: string }[])[0]!.id}`,
    );
    expect(events[0]!.metadata.actorId).toBe(running.firstSuperuser.userId);
  });

  it('gives past lessons registers with amendments, a school’s reason and an absence still waiting for one', async () => {
    const { call, admin } = portal;
    const marks = await call('GET', '/attendance/partner?size=500', admin);
    const items = marks.body.items as {
      amendments: number;
      reason_missing: boolean;
      absence_reason: string | null;
    }[];
    expect(marks.body.total).toBeGreaterThan(20);
    expect(items.filter((e) => e.amendments > 0).length).toBeGreaterThanOrEqual(3);
    expect(items.some((e) => e.absence_reason === 'illness')).toBe(true);
    expect(items.some((e) => e.reason_missing)).toBe(true);
    expect((await call('GET', '/planned-absences/', admin)).body.total).toBe(1);
    // Each school has attendance contacts; its head heard of the absences with no reason.
    const school = (await call('GET', '/customers/', admin)).body.items as { id: string }[];
    const contacts = await call('GET', `/customers/${school[0]!.id}/attendance-contacts`, admin);
    expect(
      (contacts.body.contacts as { notification_frequency: string }[])
        .map((c) => c.notification_frequency)
        .sort(),
    ).toEqual(['daily', 'each-change']);
    // Registers are taken by their lesson's teacher (or cover teacher), not by the administrator.
    const lessonIds = [...new Set((marks.body.items as { lesson_id: string }[]).map((e) => e.lesson_id))];
    for (const lessonId of lessonIds.slice(0, 5)) {
      const lesson = (await call('GET', `/lessons/${lessonId}`, admin)).body;
      const register = await call('GET', `/lessons/${lessonId}/register`, admin);
      // Amendments (past the teachers' deadline) are the head of attendance's: original entries only.
      const recorders = (register.body.entries as { source: string; recorded_by: { id: string } | null }[])
        .filter((e) => e.recorded_by && e.source !== 'admin' && e.source !== 'partner')
        .map((e) => e.recorded_by!.id);
      expect(recorders.length).toBeGreaterThan(0);
      expect(new Set(recorders)).toEqual(new Set([lesson.cover_teacher_id ?? lesson.teacher_id]));
    }
  });

  it('seeds an open half-term report timeframe with reports in several workflow states', async () => {
    const { call, admin } = portal;
    const timeframes = await call('GET', '/report-submission-timeframes/', admin);
    const [open] = timeframes.body.items as { id: string; status: string; counts: Record<string, number> }[];
    expect(open?.status).toBe('open');
    expect(Object.keys(open!.counts).sort()).toEqual(
      ['discarded', 'draft', 'in_qa', 'published', 'qa_approved', 'returned', 'submitted'].sort(),
    );
    // Facts in a draft (decision 0068), and frozen in the published revision by the lead's sign-off.
    const published = await call(
      'GET',
      `/half-term-reports/?timeframe_id=${open!.id}&state=published`,
      admin,
    );
    const [signed] = published.body.items as { id: string }[];
    const revisions = await call('GET', `/half-term-reports/${signed!.id}/revisions`, admin);
    const frozen = JSON.stringify((revisions.body.items as { content: unknown }[])[0]!.content);
    expect(frozen).toContain('"kind":"attendance"');
    expect(frozen).toContain('"kind":"lessons"');
    expect((await call('GET', `/half-term-reports/${signed!.id}/verify`, admin)).body.valid).toBe(true);
    const approved = await call(
      'GET',
      `/half-term-reports/?timeframe_id=${open!.id}&state=qa_approved`,
      admin,
    );
    const [report] = approved.body.items as { id: string }[];
    const verify = await call('GET', `/half-term-reports/${report!.id}/verify`, admin);
    expect(verify.body.valid).toBe(true);
    // The report in QA carries the reviewer's open suggestion (decision 0060) in its text, and the
    // list finds it by `has_suggestions` once the suggestion event derived from the persisted update
    // is in the read model.
    const inQa = await call('GET', `/half-term-reports/?timeframe_id=${open!.id}&state=in_qa`, admin);
    const [reviewed] = inQa.body.items as { id: string }[];
    const detail = await call('GET', `/half-term-reports/${reviewed!.id}`, admin);
    expect(detail.body.unresolved_suggestions).toBe(1);
    const suggested = await waitFor('the demo suggestion in the report list', async () => {
      const res = await call(
        'GET',
        `/half-term-reports/?timeframe_id=${open!.id}&has_suggestions=true`,
        admin,
      );
      return (res.body.items as unknown[]).length > 0 ? res : null;
    });
    expect(suggested.body.items).toEqual([
      expect.objectContaining({ id: reviewed!.id, state: 'in_qa', unresolved_suggestions: 1 }),
    ]);
  });

  it("links each school's link contact to three of its students and its parent to one", async () => {
    const linkContacts = portal.running.demo!.logins.filter((l) => l.role.startsWith('link-contact'));
    const parents = portal.running.demo!.logins.filter((l) => l.role.startsWith('parent'));
    expect(linkContacts).toHaveLength(3);
    for (const [accounts, count] of [
      [linkContacts, 3],
      [parents, 1],
    ] as const)
      for (const login of accounts) {
        const token = await portal.tokenFor(login.email, DEMO_PASSWORD);
        const students = await portal.call('GET', '/users/students', token);
        expect([login.email, students.body.total]).toEqual([login.email, count]);
        const linked = await portal.call('GET', '/users/linked-users/simple', token);
        expect((linked.body.items as unknown[]).length).toBe(count);
      }
  });

  it('lets the listed demo accounts sign in with the demo password', async () => {
    for (const login of portal.running.demo!.logins) {
      await expect(portal.tokenFor(login.email, DEMO_PASSWORD)).resolves.toMatch(/^[A-Za-z0-9_-]{43}$/);
    }
  });
});

describe('demo data setting', () => {
  it('is on by default only for npm start in embedded mode, and DEMO_DATA=false turns it off', () => {
    expect(loadConfig({}, { demoDataByDefault: true }).demoData).toBe(true);
    expect(loadConfig({ DEMO_DATA: 'false' }, { demoDataByDefault: true }).demoData).toBe(false);
    expect(loadConfig({}).demoData).toBe(false);
    expect(
      loadConfig(
        { DATABASE_URL: 'postgres://x@127.0.0.1/db', FIRST_SUPERUSER_PASSWORD: 'long-enough' },
        { demoDataByDefault: true },
      ).demoData,
    ).toBe(false);
    expect(() => loadConfig({ DEMO_DATA: 'yes' })).toThrow(/DEMO_DATA/);
  });
});
