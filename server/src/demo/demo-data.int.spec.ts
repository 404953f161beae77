import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { portalModes, startTestPortal, type TestPortal } from '../platform/testing/portal-harness.js';
import { loadConfig } from '../platform/config/config.js';
import { waitFor } from '../platform/testing/wait-for.js';
import { DEMO_PASSWORD } from './demo-data.js';

describe.each(portalModes)('demo data, $name', (mode) => {
  let portal: TestPortal;

  beforeAll(async () => {
    portal = await startTestPortal(mode, 'portal_demo', { DEMO_DATA: 'true' });
  }, 180_000);

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
    // The unacknowledged ones have escalated, so a newcomer sees the alert state on the board.
    await waitFor('the escalations in the read model', async () => {
      const reported = await call('GET', '/safeguarding-incidents/?status=reported', admin);
      const items = reported.body.items as { escalated_at: string | null }[];
      return items.length === 2 && items.every((i) => i.escalated_at !== null);
    });
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
