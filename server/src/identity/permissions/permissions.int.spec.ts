import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { portalModes, startTestPortal, type TestPortal } from '../../platform/testing/portal-harness.js';

const CUSTOMER = '11111111-1111-4111-8111-111111111111';
const MISSING = '99999999-9999-4999-8999-999999999999';
const BLOCK = 'CAN_BLOCK_USERS';
const JOIN = 'PARTNER_CAN_JOIN_LESSONS';

describe.each(portalModes)('permissions API, $name', (mode) => {
  let portal: TestPortal;
  const ids: Record<string, string> = {};
  const tokens: Record<string, string> = {};

  const names = (body: Record<string, unknown>) =>
    (body.items as { login: string }[]).map((u) => u.login).sort();

  beforeAll(async () => {
    portal = await startTestPortal(mode, 'portal_permissions');
    const make = async (key: string, body: Record<string, unknown>) => {
      ids[key] = await portal.createUser({
        email: `${key}@example.com`,
        first_name: key,
        last_name: 'X',
        ...body,
      });
    };
    await make('anna', { user_type: 'teacher' });
    await make('bert', { user_type: 'teacher' });
    await make('cleo', { user_type: 'teacher' });
    await make('modify', { user_type: 'teacher', permissions: ['CAN_MODIFY_USER'] });
    await make('partner', { user_type: 'partner', customer_id: CUSTOMER, customer_type: 'parent' });
    tokens.teacher = await portal.tokenFor('anna@example.com');
    tokens.modify = await portal.tokenFor('modify@example.com');
    tokens.partner = await portal.tokenFor('partner@example.com');
  }, 120_000);

  afterAll(async () => {
    await portal?.close();
  });

  it('lists assignable permissions with labels and kinds, filtered by query', async () => {
    const all = await portal.call('GET', '/permissions', portal.admin);
    expect(all.status).toBe(200);
    const items = all.body.items as { name: string; label: string; kind: string }[];
    expect(all.body.total).toBe(items.length);
    expect(items).toContainEqual({ id: JOIN, name: JOIN, label: 'Join Lessons', kind: 'action' });
    expect(items).toContainEqual({ id: BLOCK, name: BLOCK, label: 'Can Block Users', kind: 'internal' });
    expect(items.map((p) => p.name)).not.toContain('USER_IS_ADMIN');
    const found = await portal.call('GET', '/permissions?query=impersonate', portal.admin);
    expect(found.body).toEqual({
      items: [{ id: 'CAN_IMPERSONATE', name: 'CAN_IMPERSONATE', label: 'Can Impersonate', kind: 'internal' }],
      total: 1,
    });
    const byLabel = await portal.call('GET', '/permissions?query=see%20all%20students', portal.admin);
    expect((byLabel.body.items as { name: string }[]).map((p) => p.name)).toEqual([
      'PARTNER_CAN_SEE_ALL_STUDENTS_DETAILS',
    ]);
  });

  it('assigns and unassigns through user events, and lists holders and eligible non-holders', async () => {
    const { call, admin, settle } = portal;
    const given = await settle(
      await call('PUT', `/permissions/${BLOCK}/assign`, admin, { user_ids: [ids.anna, ids.bert] }),
    );
    expect(given.status).toBe(200);
    const assigned = await call('GET', `/permissions/${BLOCK}/assigned`, admin);
    expect(assigned.status).toBe(200);
    expect(assigned.body).toMatchObject({ total: 2, page: 1, size: 50, permission: { name: BLOCK } });
    expect(names(assigned.body)).toEqual(['anna@example.com', 'bert@example.com']);
    const unassigned = await call('GET', `/permissions/${BLOCK}/unassigned`, admin);
    expect(names(unassigned.body)).toEqual(['cleo@example.com', 'modify@example.com']);
    const paged = await call('GET', `/permissions/${BLOCK}/assigned?size=1&page=2`, admin);
    expect(paged.body).toMatchObject({ total: 2, page: 2, size: 1 });
    expect((paged.body.items as unknown[]).length).toBe(1);
    expect(names((await call('GET', `/permissions/${BLOCK}/assigned?query=bert`, admin)).body)).toEqual([
      'bert@example.com',
    ]);

    // The holder can now use it; the change is an event in the user's stream with its actor.
    const annaToken = await portal.tokenFor('anna@example.com');
    expect((await call('GET', '/users/me', annaToken)).body.permission_list as string[]).toContain(BLOCK);
    const events = await portal.running.infra.eventStore.readStream(`user-${ids.anna}`);
    expect(events.at(-1)).toMatchObject({
      type: 'UserPermissionsChanged',
      data: { added: [BLOCK], removed: [] },
    });

    // Assigning again changes nothing.
    const again = await call('PUT', `/permissions/${BLOCK}/assign`, admin, { user_ids: [ids.anna] });
    expect(again.status).toBe(200);
    expect(await portal.running.infra.eventStore.readStream(`user-${ids.anna}`)).toHaveLength(events.length);

    await settle(await call('PUT', `/permissions/${BLOCK}/unassign`, admin, { user_ids: [ids.anna] }));
    expect(names((await call('GET', `/permissions/${BLOCK}/assigned`, admin)).body)).toEqual([
      'bert@example.com',
    ]);
    const last = (await portal.running.infra.eventStore.readStream(`user-${ids.anna}`)).at(-1)!;
    expect(last.data).toMatchObject({ added: [], removed: [BLOCK] });

    // Partner permissions go to partner users.
    await settle(await call('PUT', `/permissions/${JOIN}/assign`, admin, { user_ids: [ids.partner] }));
    expect(names((await call('GET', `/permissions/${JOIN}/assigned`, admin)).body)).toEqual([
      'partner@example.com',
    ]);
    expect((await call('GET', `/permissions/${JOIN}/unassigned`, admin)).body).toMatchObject({ total: 0 });
  });

  it('refuses unknown permissions (404), unknown users (404), ineligible users and bad bodies (422)', async () => {
    const { call, admin } = portal;
    expect(await call('GET', '/permissions/NOPE/assigned', admin)).toEqual({
      status: 404,
      body: { detail: 'Permission not found' },
    });
    expect(
      (await call('PUT', '/permissions/USER_IS_ADMIN/assign', admin, { user_ids: [ids.anna] })).status,
    ).toBe(404);
    expect(await call('PUT', `/permissions/${BLOCK}/assign`, admin, { user_ids: [MISSING] })).toEqual({
      status: 404,
      body: { detail: 'User not found' },
    });
    const wrong = await call('PUT', `/permissions/${JOIN}/assign`, admin, {
      user_ids: [ids.cleo, ids.partner],
    });
    expect(wrong.status).toBe(422);
    expect(wrong.body.detail).toBe(
      'user_ids: cleo@example.com cannot hold PARTNER_CAN_JOIN_LESSONS (only partner users)',
    );
    for (const body of [{}, { user_ids: [] }, { user_ids: ['x'] }]) {
      const res = await call('PUT', `/permissions/${BLOCK}/assign`, admin, body);
      expect(res.status).toBe(422);
      expect(res.body.detail).toMatch(/user_ids/);
    }
  });

  it('authorizes: admin only; the modify-user teacher is not an administrator', async () => {
    const { call, admin, settle } = portal;
    type Role = 'none' | 'teacher' | 'partner' | 'modify' | 'admin';
    const order: Role[] = ['none', 'teacher', 'partner', 'modify', 'admin'];
    const tokenOf: Record<Role, string | undefined> = {
      none: undefined,
      teacher: tokens.teacher,
      partner: tokens.partner,
      modify: tokens.modify,
      admin,
    };
    const body = () => ({ user_ids: [ids.cleo] });
    const only = (ok: number): Record<Role, number> => ({
      none: 401,
      teacher: 403,
      partner: 403,
      modify: 403,
      admin: ok,
    });
    const matrix: [string, string, (() => unknown) | undefined, Record<Role, number>][] = [
      ['GET', '/permissions', undefined, only(200)],
      ['GET', `/permissions/${BLOCK}/assigned`, undefined, only(200)],
      ['GET', `/permissions/${BLOCK}/unassigned`, undefined, only(200)],
      ['PUT', `/permissions/${BLOCK}/assign`, body, only(200)],
      ['PUT', `/permissions/${BLOCK}/unassign`, body, only(200)],
    ];
    const seen: string[] = [];
    const wanted: string[] = [];
    for (const [method, path, makeBody, expected] of matrix) {
      for (const role of order) {
        const res = await call(method, path, tokenOf[role], makeBody?.());
        if (res.body.position) await settle(res);
        seen.push(`${method} ${path} ${role} ${res.status}`);
        wanted.push(`${method} ${path} ${role} ${expected[role]}`);
      }
    }
    expect(seen).toEqual(wanted);
  });
});
