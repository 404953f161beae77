import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { portalModes, startTestPortal, type TestPortal } from '../platform/testing/portal-harness.js';
import { waitFor } from '../platform/testing/wait-for.js';
import { ProjectionRunner } from '../platform/projections/projection-runner.js';

interface Inbox {
  items: { id: string; kind: string; title: string; link: string; position: string; unread: boolean }[];
  total: number;
}

describe.each(portalModes)('notifications, $name', (mode) => {
  let portal: TestPortal;
  const token: Record<string, string> = {};
  const id: Record<string, string> = {};

  beforeAll(async () => {
    portal = await startTestPortal(mode, 'portal_notifications');
    const { call, admin, settle, createUser } = portal;
    const oak = (await settle(await call('POST', '/customers/', admin, { name: 'Oakfield Academy' }))).body
      .id as string;
    const users: [string, Record<string, unknown>][] = [
      ['adminSg', { user_type: 'super_admin', permissions: ['CAN_ACCESS_SAFEGUARDING'] }],
      ['lead', { user_type: 'teacher', permissions: ['CAN_LEAD_SAFEGUARDING'] }],
      ['lead2', { user_type: 'super_admin', permissions: ['CAN_LEAD_SAFEGUARDING'] }],
      ['reporter', { user_type: 'teacher' }],
      ['bystander', { user_type: 'teacher' }],
      ['student', { user_type: 'student', customer_id: oak }],
    ];
    for (const [name, extra] of users) {
      id[name] = await createUser({
        email: `${name}@example.com`,
        first_name: name,
        last_name: 'Test',
        ...extra,
      });
      if (name !== 'student') token[name] = await portal.tokenFor(`${name}@example.com`);
    }
    id.type = (
      await settle(await call('POST', '/safeguarding-incident-types/', token.adminSg, { name: 'Neglect' }))
    ).body.id as string;
  }, 180_000);

  afterAll(async () => {
    await portal?.close();
  });

  const inbox = async (who: string) =>
    (await portal.call('GET', '/notifications/', token[who])).body as unknown as Inbox;
  const unread = async (who: string) =>
    (await portal.call('GET', '/notifications/unread-count', token[who])).body as { count: number };

  it('tells the leads of a new concern and its reporter of each later stage, with no free text', async () => {
    const reported = await portal.settle(
      await portal.call('POST', '/safeguarding-incidents/', token.reporter, {
        student_ids: [id.student],
        type_ids: [id.type],
        occurred_at: new Date(Date.now() - 60_000).toISOString(),
        description: 'SECRET-DESCRIPTION',
        immediate_action: 'SECRET-ACTION',
        lead_told_verbally: false,
      }),
    );
    const incident = reported.body.id as string;
    for (const lead of ['lead', 'lead2']) {
      const got = await inbox(lead);
      expect(got.items[0]).toMatchObject({
        kind: 'incident-reported',
        link: `/safeguarding-incidents/${incident}`,
        unread: true,
      });
    }
    expect((await inbox('reporter')).total).toBe(0);
    expect((await inbox('bystander')).total).toBe(0);
    expect((await inbox('adminSg')).total).toBe(0);

    await portal.settle(
      await portal.call('POST', `/safeguarding-incidents/${incident}/acknowledge`, token.lead),
    );
    const reporter = await inbox('reporter');
    expect(reporter.items.map((n) => [n.kind, n.title])).toEqual([
      ['concern-stage', 'A safeguarding lead acknowledged the concern you reported'],
    ]);
    // The lead who took the step is not told about it.
    expect((await inbox('lead')).items.map((n) => n.kind)).toEqual(['incident-reported']);
    expect(JSON.stringify([await inbox('lead'), reporter])).not.toContain('SECRET');
    expect(await unread('reporter')).toMatchObject({ count: 1 });
  });

  it('marks read up to a position, only forward, only one’s own; a bad position is a 422', async () => {
    const before = await inbox('lead2');
    expect(before.items.every((n) => n.unread)).toBe(true);
    expect(before.total).toBeGreaterThan(0);
    const marked = await portal.settle(await portal.call('PUT', '/notifications/read', token.lead2, {}));
    expect(marked.status).toBe(200);
    expect(marked.body).toMatchObject({ count: 0 });
    expect((await inbox('lead2')).items.every((n) => !n.unread)).toBe(true);
    // The other lead's inbox is untouched.
    expect((await unread('lead')).count).toBeGreaterThan(0);
    // Going back is ignored; a position that is not one is refused, naming the field.
    const back = await portal.settle(
      await portal.call('PUT', '/notifications/read', token.lead2, { up_to_position: '1' }),
    );
    expect(back.status).toBe(200);
    expect((await unread('lead2')).count).toBe(0);
    const bad = await portal.call('PUT', '/notifications/read', token.lead2, { up_to_position: 'all' });
    expect(bad.status).toBe(422);
    expect(JSON.stringify(bad.body)).toContain('up_to_position');
    expect((await portal.call('GET', '/notifications/', undefined)).status).toBe(401);
  });

  it('keeps the same inbox after a rebuild of the projection', async () => {
    const before = await Promise.all(['lead', 'lead2', 'reporter'].map(inbox));
    await portal.running.app.get(ProjectionRunner).rebuild(['notifications']);
    await waitFor('rebuilt', async () => (await inbox('lead')).total === before[0]!.total);
    expect(await Promise.all(['lead', 'lead2', 'reporter'].map(inbox))).toEqual(before);
  });
});
