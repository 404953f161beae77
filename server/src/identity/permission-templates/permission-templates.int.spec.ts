import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { portalModes, startTestPortal, type TestPortal } from '../../platform/testing/portal-harness.js';

const CUSTOMER = '11111111-1111-4111-8111-111111111111';
const MISSING = '99999999-9999-4999-8999-999999999999';
const SEE = 'PARTNER_CAN_SEE_ATTENDANCE';
const JOIN = 'PARTNER_CAN_JOIN_LESSONS';

describe.each(portalModes)('permission templates API, $name', (mode) => {
  let portal: TestPortal;
  const tokens: Record<string, string> = {};

  beforeAll(async () => {
    portal = await startTestPortal(mode, 'portal_templates');
    await portal.createUser({
      email: 'teacher@example.com',
      first_name: 'T',
      last_name: 'T',
      user_type: 'teacher',
    });
    await portal.createUser({
      email: 'templates@example.com',
      first_name: 'T',
      last_name: 'M',
      user_type: 'teacher',
      permissions: ['CAN_MANAGE_TEMPLATES'],
    });
    await portal.createUser({
      email: 'partner@example.com',
      first_name: 'P',
      last_name: 'P',
      user_type: 'partner',
      customer_id: CUSTOMER,
      customer_type: 'super-admin',
    });
    tokens.teacher = await portal.tokenFor('teacher@example.com');
    tokens.templates = await portal.tokenFor('templates@example.com');
    tokens.partner = await portal.tokenFor('partner@example.com');
  }, 120_000);

  afterAll(async () => {
    await portal?.close();
  });

  it('lists the assignable permissions with labels, split into view and action', async () => {
    const res = await portal.call('GET', '/permission-templates/permissions', portal.admin);
    expect(res.status).toBe(200);
    const view = res.body.view as { name: string; label: string; kind: string }[];
    const action = res.body.action as { name: string; kind: string }[];
    expect(view).toContainEqual({
      id: 'PARTNER_CAN_SEE_ALL_STUDENTS_DETAILS',
      name: 'PARTNER_CAN_SEE_ALL_STUDENTS_DETAILS',
      label: 'See All Students Details',
      kind: 'view',
    });
    expect(view.map((p) => p.name)).toContain('PARTNER_CAN_LIST_AND_WATCH_RECORDINGS');
    expect(action.map((p) => p.name)).toContain(JOIN);
    const all = (res.body.items as { name: string }[]).map((p) => p.name);
    expect(all).toHaveLength(view.length + action.length);
    for (const separate of ['PARTNER_CAN_SET_ABSENCE_REASON', 'PARTNER_CAN_REQUEST_BOOKINGS'])
      expect(all).not.toContain(separate);
  });

  it('creates, reads, lists with search and paging, updates and deletes templates as events', async () => {
    const { call, admin, settle } = portal;
    const created = await settle(
      await call('POST', '/permission-templates/', admin, { name: 'Parents', permissions: [SEE, SEE] }),
    );
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    const other = await settle(
      await call('POST', '/permission-templates/', admin, { name: 'Attendance leads', permissions: [JOIN] }),
    );
    expect(await call('GET', `/permission-templates/${id}`, admin)).toMatchObject({
      status: 200,
      body: { id, name: 'Parents', permissions: [SEE] },
    });
    expect((await call('GET', '/permission-templates/?query=par', admin)).body).toMatchObject({
      total: 1,
      page: 1,
      size: 50,
      items: [{ id, name: 'Parents' }],
    });
    const paged = await call('GET', '/permission-templates/?size=1&page=2', admin);
    expect(paged.body).toMatchObject({ total: 2, page: 2, size: 1, items: [{ name: 'Parents' }] });

    await settle(
      await call('PUT', `/permission-templates/${id}`, admin, { name: 'Carers', permissions: [JOIN] }),
    );
    expect((await call('GET', `/permission-templates/${id}`, admin)).body).toMatchObject({
      name: 'Carers',
      permissions: [JOIN],
    });
    const removed = await settle(await call('DELETE', `/permission-templates/${id}`, admin));
    expect(removed.status).toBe(200);
    expect(await call('GET', `/permission-templates/${id}`, admin)).toEqual({
      status: 404,
      body: { detail: 'Permission template not found' },
    });
    expect((await call('DELETE', `/permission-templates/${id}`, admin)).status).toBe(404);
    const events = await portal.running.infra.eventStore.readStream(`permission-template-${id}`);
    expect(events.map((e) => e.type)).toEqual([
      'PermissionTemplateCreated',
      'PermissionTemplateRenamed',
      'PermissionTemplatePermissionsChanged',
      'PermissionTemplateDeleted',
    ]);
    expect(events[2]!.data).toEqual({ templateId: id, permissions: [JOIN], added: [JOIN], removed: [SEE] });
    expect((await call('GET', '/permission-templates/', admin)).body).toMatchObject({
      total: 1,
      items: [{ id: other.body.id }],
    });
  });

  it('validates: unassignable permissions 422 naming the field, duplicate names 409, unknown ids 404', async () => {
    const { call, admin, settle } = portal;
    const bad = await call('POST', '/permission-templates/', admin, {
      name: 'Bad',
      permissions: ['USER_IS_ADMIN', 'PARTNER_CAN_SET_ABSENCE_REASON'],
    });
    expect(bad).toEqual({
      status: 422,
      body: { detail: 'permissions: not assignable: USER_IS_ADMIN, PARTNER_CAN_SET_ABSENCE_REASON' },
    });
    const missing = await call('POST', '/permission-templates/', admin, { permissions: [] });
    expect(missing.status).toBe(422);
    expect(missing.body.detail).toMatch(/name/);
    const notList = await call('POST', '/permission-templates/', admin, { name: 'X', permissions: 'nope' });
    expect(notList.status).toBe(422);
    expect(notList.body.detail).toMatch(/permissions/);
    const first = await settle(
      await call('POST', '/permission-templates/', admin, { name: 'Unique', permissions: [] }),
    );
    expect(await call('POST', '/permission-templates/', admin, { name: 'unique', permissions: [] })).toEqual({
      status: 409,
      body: { detail: 'A permission template with this name already exists' },
    });
    const id = first.body.id as string;
    expect((await call('PUT', `/permission-templates/${id}`, admin, { name: 'UNIQUE' })).status).toBe(200);
    expect((await call('PUT', `/permission-templates/${id}`, admin, { permissions: ['NOPE'] })).status).toBe(
      422,
    );
    // A malformed id is a validation error, as on every route (ADR 0038).
    expect((await call('GET', '/permission-templates/not-a-uuid', admin)).status).toBe(422);
    for (const path of [`/permission-templates/${MISSING}`]) {
      expect(await call('GET', path, admin)).toEqual({
        status: 404,
        body: { detail: 'Permission template not found' },
      });
      expect((await call('PUT', path, admin, { name: 'Z' })).status).toBe(404);
      expect((await call('DELETE', path, admin)).status).toBe(404);
    }
  });

  it('authorizes: no token 401, teacher and partner 403, a teacher with CAN_MANAGE_TEMPLATES and admin allowed', async () => {
    const { call, admin, settle } = portal;
    const target = (
      await settle(await call('POST', '/permission-templates/', admin, { name: 'Matrix', permissions: [] }))
    ).body.id as string;
    type Role = 'none' | 'teacher' | 'partner' | 'templates' | 'admin';
    const order: Role[] = ['none', 'teacher', 'partner', 'templates', 'admin'];
    const tokenOf: Record<Role, string | undefined> = { none: undefined, ...tokens, admin } as Record<
      Role,
      string | undefined
    >;
    let n = 0;
    const matrix: [string, string, (() => unknown) | undefined, Record<Role, number>][] = [
      [
        'GET',
        '/permission-templates/',
        undefined,
        { none: 401, teacher: 403, partner: 403, templates: 200, admin: 200 },
      ],
      [
        'GET',
        '/permission-templates/permissions',
        undefined,
        { none: 401, teacher: 403, partner: 403, templates: 200, admin: 200 },
      ],
      [
        'GET',
        `/permission-templates/${target}`,
        undefined,
        { none: 401, teacher: 403, partner: 403, templates: 200, admin: 200 },
      ],
      [
        'POST',
        '/permission-templates/',
        () => ({ name: `Matrix ${++n}`, permissions: [SEE] }),
        { none: 401, teacher: 403, partner: 403, templates: 201, admin: 201 },
      ],
      [
        'PUT',
        `/permission-templates/${target}`,
        () => ({ name: `Matrix renamed ${++n}` }),
        { none: 401, teacher: 403, partner: 403, templates: 200, admin: 200 },
      ],
      [
        'DELETE',
        `/permission-templates/${target}`,
        undefined,
        { none: 401, teacher: 403, partner: 403, templates: 200, admin: 404 },
      ],
    ];
    const seen: string[] = [];
    const wanted: string[] = [];
    for (const [method, path, body, expected] of matrix) {
      for (const role of order) {
        const res = await call(method, path, tokenOf[role], body?.());
        if (res.body.position) await settle(res);
        seen.push(`${method} ${path} ${role} ${res.status}`);
        wanted.push(`${method} ${path} ${role} ${expected[role]}`);
      }
    }
    expect(seen).toEqual(wanted);
  });
});
