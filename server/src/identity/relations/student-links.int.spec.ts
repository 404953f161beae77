import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  listenLive,
  portalModes,
  startTestPortal,
  type TestPortal,
} from '../../platform/testing/portal-harness.js';
import { waitFor } from '../../platform/testing/wait-for.js';

interface Item {
  id: string;
  login: string;
}
const logins = (items: unknown) => (items as Item[]).map((i) => i.login).sort();

/** Partner ↔ student relations end to end (docs/decisions/0034). */
describe.each(portalModes)('student links, $name', (mode) => {
  let portal: TestPortal;
  let oak: string;
  let elm: string;
  const ids: Record<string, string> = {};
  const tokens: Record<string, string> = {};

  beforeAll(async () => {
    portal = await startTestPortal(mode, 'portal_student_links');
    const { call, admin, settle } = portal;
    oak = (await settle(await call('POST', '/customers/', admin, { name: 'Oakfield' }))).body.id as string;
    elm = (await settle(await call('POST', '/customers/', admin, { name: 'Elm Tree' }))).body.id as string;
    const users: [string, Record<string, unknown>][] = [
      ['head', { user_type: 'partner', customer_id: oak, customer_type: 'super-admin' }],
      ['sysadmin', { user_type: 'partner', customer_id: oak, customer_type: 'admin' }],
      ['contact', { user_type: 'partner', customer_id: oak, customer_type: 'link-contact' }],
      ['parent', { user_type: 'partner', customer_id: oak, customer_type: 'parent' }],
      ['elmhead', { user_type: 'partner', customer_id: elm, customer_type: 'super-admin' }],
      ['s1', { user_type: 'student', customer_id: oak }],
      ['s2', { user_type: 'student', customer_id: oak }],
      ['s3', { user_type: 'student', customer_id: oak }],
      ['e1', { user_type: 'student', customer_id: elm }],
      ['t1', { user_type: 'teacher' }],
    ];
    for (const [key, body] of users)
      ids[key] = await portal.createUser({
        email: `${key}@example.com`,
        first_name: key,
        last_name: 'L',
        ...body,
      });
    for (const key of ['head', 'sysadmin', 'contact', 'parent', 'elmhead', 's1', 't1'])
      tokens[key] = await portal.tokenFor(`${key}@example.com`);
  }, 120_000);
  afterAll(async () => {
    await portal?.close();
  });

  const link = (partner: string, students: string[], token = portal.admin) =>
    portal.call('PUT', `/users/${ids[partner]}/linked-students`, token, {
      student_ids: students.map((s) => ids[s] ?? s),
    });
  const get = (path: string, token = portal.admin) => portal.call('GET', path, token);

  it('an administrator links students to a link contact: one event on the partner stream, read back by name', async () => {
    const answer = await portal.settle(await link('contact', ['s2', 's1']));
    expect(answer.status).toBe(200);
    const events = await portal.running.infra.eventStore.readStream(`user-${ids.contact}`);
    expect(events.at(-1)).toMatchObject({
      type: 'UserStudentLinksChanged',
      data: { userId: ids.contact, studentIds: [ids.s2, ids.s1], linked: [ids.s2, ids.s1], unlinked: [] },
    });
    expect(logins((await get(`/users/${ids.contact}/linked-students`)).body.items)).toEqual([
      's1@example.com',
      's2@example.com',
    ]);
    // The same set again writes nothing.
    const again = await link('contact', ['s1', 's2']);
    expect(again.body.position).toBe(events.at(-1)!.position.toString());
    expect(logins((await get(`/users/${ids.s1}/linked-partners`)).body.items)).toEqual([
      'contact@example.com',
    ]);
  });

  it('refuses what cannot be linked with 422 naming the field, and unknown users with 404', async () => {
    expect(await link('contact', ['t1'])).toMatchObject({
      status: 422,
      body: { detail: `student_ids: ${ids.t1} is not a student` },
    });
    expect(await link('contact', ['e1'])).toMatchObject({
      status: 422,
      body: { detail: `student_ids: ${ids.e1} is not a student of this partner's customer` },
    });
    expect(await link('t1', ['s1'])).toMatchObject({
      status: 422,
      body: { detail: 'id: only partner users have linked students' },
    });
    const notUuid = await link('contact', ['nope']);
    expect(notUuid.status).toBe(422);
    expect(notUuid.body.detail).toMatch(/student_ids/);
    const missing = await portal.call('PUT', `/users/${ids.contact}/linked-students`, portal.admin, {});
    expect(missing.status).toBe(422);
    expect(missing.body.detail).toMatch(/student_ids/);
    expect((await link('contact', ['00000000-0000-4000-8000-000000000000'])).status).toBe(422);
    expect(
      (
        await portal.call(
          'PUT',
          '/users/00000000-0000-4000-8000-000000000000/linked-students',
          portal.admin,
          { student_ids: [] },
        )
      ).status,
    ).toBe(404);
    expect((await get(`/users/${ids.s1}/linked-students`)).status).toBe(422);
    expect((await get(`/users/${ids.contact}/linked-partners`)).status).toBe(422);
  });

  it('a link contact sees only their linked students in lists and details, and can edit them', async () => {
    const t = tokens.contact;
    expect(logins((await get('/users/students', t)).body.items)).toEqual([
      's1@example.com',
      's2@example.com',
    ]);
    expect(logins((await get('/users/students/simple', t)).body.items)).toEqual([
      's1@example.com',
      's2@example.com',
    ]);
    expect((await get('/users/students/count/active', t)).body).toEqual({ count: 2 });
    expect((await get(`/users/${ids.s1}`, t)).status).toBe(200);
    expect((await get(`/users/${ids.s3}`, t)).status).toBe(404);
    expect((await get(`/users/${ids.e1}`, t)).status).toBe(404);
    // Link contacts edit their selected students (PARTNER_CAN_EDIT_STUDENTS), not the others.
    const edit = await portal.call('PUT', `/users/${ids.s1}`, t, { notes: 'Prefers mornings' });
    expect(edit.status).toBe(200);
    expect((await portal.call('PUT', `/users/${ids.s3}`, t, { notes: 'x' })).status).toBe(404);
    // Their relations: their linked students; a student's: their linked partner users; internal: none.
    expect(logins((await get('/users/linked-users/simple', t)).body.items)).toEqual([
      's1@example.com',
      's2@example.com',
    ]);
    expect(logins((await get('/users/linked-users/simple', tokens.s1)).body.items)).toEqual([
      'contact@example.com',
    ]);
    expect((await get('/users/linked-users/simple', tokens.t1)).body).toEqual({ items: [] });
    // A partner with SEE_ALL_STUDENTS_DETAILS still sees every student of their customer.
    expect(logins((await get('/users/students', tokens.head)).body.items)).toEqual([
      's1@example.com',
      's2@example.com',
      's3@example.com',
    ]);
    // Administrators are unchanged: everyone.
    expect((await get('/users/students')).body.total).toBe(4);
  });

  it("a parent's student list holds only their linked students", async () => {
    expect((await get('/users/students', tokens.parent)).body).toMatchObject({ total: 0, items: [] });
    await portal.settle(await link('parent', ['s3']));
    expect(logins((await get('/users/students', tokens.parent)).body.items)).toEqual(['s3@example.com']);
    expect((await get(`/users/${ids.s3}`, tokens.parent)).status).toBe(200);
    expect((await get(`/users/${ids.s1}`, tokens.parent)).status).toBe(404);
  });

  it("a parent's one-page profiles list holds only their linked students' profiles", async () => {
    for (const key of ['s1', 's3'])
      await portal.settle(
        await portal.call('POST', '/one-page-profiles/', portal.admin, { user_id: ids[key], progress: 20 }),
      );
    const list = await get('/one-page-profiles/', tokens.parent);
    expect(list.body).toMatchObject({ total: 1, items: [{ user_id: ids.s3 }] });
    expect((await get('/one-page-profiles/', tokens.head)).body).toMatchObject({ total: 2 });
  });

  it('partner (super-)admins with user relations manage links of their own customer only', async () => {
    // The customer super-admin role holds PARTNER_CAN_ACCESS_USER_RELATIONS.
    await portal.settle(await link('contact', ['s1'], tokens.head));
    expect(logins((await get(`/users/${ids.contact}/linked-students`, tokens.head)).body.items)).toEqual([
      's1@example.com',
    ]);
    expect(logins((await get(`/users/${ids.s1}/linked-partners`, tokens.head)).body.items)).toEqual([
      'contact@example.com',
    ]);
    // Another customer's partner: not found; a link contact or parent: refused; the contact reads their own.
    expect((await link('contact', ['s1'], tokens.elmhead)).status).toBe(404);
    expect((await link('contact', ['s1'], tokens.contact)).status).toBe(403);
    expect((await link('parent', ['s1'], tokens.parent)).status).toBe(403);
    expect((await get(`/users/${ids.contact}/linked-students`, tokens.contact)).status).toBe(200);
    expect((await get(`/users/${ids.parent}/linked-students`, tokens.contact)).status).toBe(403);
    expect((await get(`/users/${ids.contact}/linked-students`, tokens.t1)).status).toBe(403);
    expect((await portal.call('GET', `/users/${ids.contact}/linked-students`)).status).toBe(401);
    // Without the permission a partner admin is refused.
    await portal.settle(
      await portal.call('PUT', `/users/${ids.sysadmin}/permissions`, portal.admin, {
        permissions: ['USER_IS_PARTNER', 'PARTNER_CAN_SEE_LINK_CONTACTS'],
      }),
    );
    expect((await link('contact', ['s2'], tokens.sysadmin)).status).toBe(403);
  });

  it('a link to a student who moves to another customer no longer counts', async () => {
    await portal.settle(await link('contact', ['s1', 's2']));
    await portal.settle(await portal.call('PUT', `/users/${ids.s2}`, portal.admin, { customer_id: elm }));
    expect(logins((await get('/users/students', tokens.contact)).body.items)).toEqual(['s1@example.com']);
    expect(logins((await get(`/users/${ids.contact}/linked-students`)).body.items)).toEqual([
      's1@example.com',
    ]);
    expect((await get(`/users/${ids.s2}`, tokens.contact)).status).toBe(404);
    // The stale link does not block a later change.
    expect((await link('contact', ['s1', 's2'])).status).toBe(200);
    await portal.settle(await portal.call('PUT', `/users/${ids.s2}`, portal.admin, { customer_id: oak }));
  });

  it("a change reaches the partner's own room live (and the student's), not other partners", async () => {
    const contactLive = await listenLive(portal.base, tokens.contact!);
    const studentLive = await listenLive(portal.base, tokens.s1!);
    const parentLive = await listenLive(portal.base, tokens.parent!);
    try {
      await portal.settle(await link('contact', ['s2']));
      await waitFor('the link change in the contact room', () =>
        contactLive.messages.some((m) => m.type === 'UserStudentLinksChanged'),
      );
      await waitFor('the unlinked student told', () =>
        studentLive.messages.some((m) => m.type === 'UserStudentLinksChanged'),
      );
      expect(contactLive.messages.find((m) => m.type === 'UserStudentLinksChanged')).toMatchObject({
        stream: `user-${ids.contact}`,
        data: { userId: ids.contact },
      });
      expect(parentLive.messages.filter((m) => m.type === 'UserStudentLinksChanged')).toEqual([]);
    } finally {
      contactLive.close();
      studentLive.close();
      parentLive.close();
    }
  });

  it('documents the relations endpoints in OpenAPI', async () => {
    const doc = (await (await fetch(`${portal.base}/api/docs-json`)).json()) as {
      paths: Record<string, Record<string, unknown>>;
    };
    expect(Object.keys(doc.paths['/api/v1/users/{id}/linked-students'] ?? {}).sort()).toEqual(['get', 'put']);
    expect(Object.keys(doc.paths['/api/v1/users/{id}/linked-partners'] ?? {})).toEqual(['get']);
  });
});
