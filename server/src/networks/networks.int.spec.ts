import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  listenLive,
  portalModes,
  startTestPortal,
  type TestPortal,
} from '../platform/testing/portal-harness.js';
import { waitFor } from '../platform/testing/wait-for.js';
import { utcOffsetMinutes } from './timezone-info.js';

const CUSTOMER = '11111111-1111-4111-8111-111111111111';
const MISSING = '99999999-9999-4999-8999-999999999999';

describe.each(portalModes)('networks API and /users/me networks, $name', (mode) => {
  let portal: TestPortal;
  const ids: Record<string, string> = {};
  const tokens: Record<string, string> = {};

  beforeAll(async () => {
    portal = await startTestPortal(mode, 'portal_networks');
    const { call, admin, settle } = portal;
    ids.admin = (await call('GET', '/users/me', admin)).body.id as string;
    // Spec §6: network modify needs admin plus the network permission; the first admin gets it.
    await settle(
      await call('PUT', `/users/${ids.admin}/permissions`, admin, {
        permissions: ['USER_IS_ADMIN', 'CAN_MODIFY_NETWORK'],
      }),
    );
    const make = async (key: string, body: Record<string, unknown>) => {
      ids[key] = await portal.createUser({
        email: `${key}@example.com`,
        first_name: key,
        last_name: 'X',
        ...body,
      });
      tokens[key] = await portal.tokenFor(`${key}@example.com`);
    };
    await make('teacher', { user_type: 'teacher' });
    await make('netteacher', { user_type: 'teacher', permissions: ['CAN_MODIFY_NETWORK'] });
    await make('plainadmin', { user_type: 'super_admin' });
    await make('partner', { user_type: 'partner', customer_id: CUSTOMER, customer_type: 'parent' });
  }, 120_000);

  afterAll(async () => {
    await portal?.close();
  });

  it('creates (default dark teal), reads, lists with search and paging, and updates networks as events', async () => {
    const { call, admin, settle } = portal;
    const north = await settle(
      await call('POST', '/networks/', admin, { name: 'North', timezone: 'Europe/London' }),
    );
    expect(north.status).toBe(201);
    const id = north.body.id as string;
    await settle(
      await call('POST', '/networks/', admin, {
        name: 'West',
        timezone: 'America/New_York',
        primary_colour: '#ABC',
      }),
    );
    expect(await call('GET', `/networks/${id}`, admin)).toMatchObject({
      status: 200,
      body: { id, name: 'North', timezone: 'Europe/London', primary_colour: '#0f716c' },
    });
    expect((await call('GET', '/networks/?query=wes', admin)).body).toMatchObject({
      total: 1,
      page: 1,
      size: 50,
      items: [{ name: 'West', primary_colour: '#aabbcc' }],
    });
    expect((await call('GET', '/networks/?size=1&page=2', admin)).body).toMatchObject({
      total: 2,
      items: [{ name: 'West' }],
    });
    await settle(
      await call('PUT', `/networks/${id}`, admin, { name: 'North East', primary_colour: '#112233' }),
    );
    expect((await call('GET', `/networks/${id}`, admin)).body).toMatchObject({
      name: 'North East',
      timezone: 'Europe/London',
      primary_colour: '#112233',
    });
    const events = await portal.running.infra.eventStore.readStream(`network-${id}`);
    expect(events.map((e) => e.type)).toEqual([
      'NetworkCreated',
      'NetworkRenamed',
      'NetworkPrimaryColourChanged',
    ]);
    expect(events[1]!.metadata.actorId).toBe(ids.admin);
  });

  it('validates: 422 naming the field, 404 for unknown networks', async () => {
    const { call, admin } = portal;
    // Users and customers may only point at networks that exist.
    const unknownNetwork = { status: 422, body: { detail: 'network_id: no network with this id' } };
    expect(
      await call('POST', '/users/', admin, {
        email: 'lost@example.com',
        first_name: 'L',
        last_name: 'Ost',
        user_type: 'teacher',
        network_id: MISSING,
      }),
    ).toEqual(unknownNetwork);
    expect(await call('PUT', `/users/${ids.teacher}`, admin, { network_id: MISSING })).toEqual(
      unknownNetwork,
    );
    expect(await call('POST', '/customers/', admin, { name: 'Lost School', network_id: MISSING })).toEqual(
      unknownNetwork,
    );
    expect((await call('PUT', `/users/${ids.teacher}`, admin, { network_id: null })).status).toBe(200);
    for (const [body, field] of [
      [{ timezone: 'Europe/London' }, 'name'],
      [{ name: 'X', timezone: 'Mars/Olympus' }, 'timezone'],
      [{ name: 'X', timezone: 'Europe/London', primary_colour: 'red' }, 'primary_colour'],
    ] as const) {
      const res = await call('POST', '/networks/', admin, body);
      expect(res.status).toBe(422);
      expect(res.body.detail).toMatch(field);
    }
    expect(await call('GET', `/networks/${MISSING}`, admin)).toEqual({
      status: 404,
      body: { detail: 'Network not found' },
    });
    expect((await call('PUT', `/networks/${MISSING}`, admin, { name: 'Y' })).status).toBe(404);
    // A malformed id is a validation error, as on every route (ADR 0038).
    expect((await call('GET', '/networks/nope', admin)).body.detail).toBe('id must be a UUID');
    expect((await call('PUT', '/networks/nope', admin, { name: 'Y' })).status).toBe(422);
  });

  it("shows the user's networks, the active one and the time zone comparison on /users/me", async () => {
    const { call, admin, settle } = portal;
    const london = (
      await settle(await call('POST', '/networks/', admin, { name: 'Central', timezone: 'Europe/London' }))
    ).body.id as string;
    const newYork = (
      await settle(
        await call('POST', '/networks/', admin, {
          name: 'Atlantic',
          timezone: 'America/New_York',
          primary_colour: '#7b2cbf',
        }),
      )
    ).body.id as string;
    const school = await call('POST', '/customers/', admin, { name: 'Central School', network_id: london });
    expect(school.status).toBe(201);
    const user = await portal.createUser({
      email: 'remote@example.com',
      first_name: 'Remy',
      last_name: 'Remote',
      user_type: 'teacher',
      timezone: 'America/New_York',
      network_id: london,
    });
    const token = await portal.tokenFor('remote@example.com');
    const me = await call('GET', '/users/me', token);
    expect(me.status).toBe(200);
    const now = new Date();
    const hours = (utcOffsetMinutes('America/New_York', now) - utcOffsetMinutes('Europe/London', now)) / 60;
    expect(me.body).toMatchObject({
      networks: [{ id: london, name: 'Central', timezone: 'Europe/London', primary_colour: '#0f716c' }],
      active_network: { id: london, name: 'Central', timezone: 'Europe/London', primary_colour: '#0f716c' },
      active_network_id: london,
      timezone_info: {
        user_timezone: 'America/New_York',
        network_timezone: 'Europe/London',
        network_name: 'Central',
        is_different: true,
        difference_in_hours: hours,
      },
    });
    // The user may switch only among their own networks; an administrator to any.
    expect(await call('PUT', `/users/${user}/active_network/${newYork}`, token)).toEqual({
      status: 403,
      body: { detail: 'You can only switch to one of your networks' },
    });
    expect(await call('PUT', `/users/${user}/active_network/${MISSING}`, admin)).toEqual({
      status: 404,
      body: { detail: 'Network not found' },
    });
    await settle(await call('PUT', `/users/${user}/active_network/${newYork}`, admin));
    const moved = await call('GET', '/users/me', token);
    expect(moved.body).toMatchObject({
      active_network: { id: newYork, name: 'Atlantic', primary_colour: '#7b2cbf' },
      timezone_info: { network_name: 'Atlantic', is_different: false, difference_in_hours: 0 },
    });
    expect((moved.body.networks as { id: string }[]).map((n) => n.id).sort()).toEqual(
      [london, newYork].sort(),
    );
    // Back home, by the user.
    await settle(await call('PUT', `/users/${user}/active_network/${london}`, token));
    expect((await call('GET', '/users/me', token)).body).toMatchObject({ active_network: { id: london } });
    // Administrators may switch to any network: they see them all. No network: nothing to compare.
    const adminMe = await call('GET', '/users/me', admin);
    expect((adminMe.body.networks as unknown[]).length).toBeGreaterThanOrEqual(4);
    expect(adminMe.body).toMatchObject({
      active_network: null,
      timezone_info: { network_name: null, is_different: false },
    });
  });

  it('pushes network and permission-template changes live to administrators only', async () => {
    const { call, admin, base, settle } = portal;
    const adminLive = await listenLive(base, admin);
    const teacherLive = await listenLive(base, tokens.netteacher!);
    try {
      const network = (
        await settle(await call('POST', '/networks/', admin, { name: 'Live', timezone: 'UTC' }))
      ).body.id as string;
      const template = (
        await settle(await call('POST', '/permission-templates/', admin, { name: 'Live', permissions: [] }))
      ).body.id as string;
      await waitFor(
        'both changes live for the admin',
        () =>
          adminLive.messages.some((m) => m.type === 'NetworkCreated') &&
          adminLive.messages.some((m) => m.type === 'PermissionTemplateCreated'),
        5_000,
      );
      expect(adminLive.messages.find((m) => m.type === 'NetworkCreated')!.data).toEqual({
        networkId: network,
      });
      expect(adminLive.messages.find((m) => m.type === 'PermissionTemplateCreated')!.data).toEqual({
        templateId: template,
      });
      expect(teacherLive.messages.filter((m) => m.type.startsWith('Network'))).toEqual([]);
    } finally {
      adminLive.close();
      teacherLive.close();
    }
  });

  it('documents every access endpoint in the OpenAPI document', async () => {
    const doc = (await (await fetch(`${portal.base}/api/docs-json`)).json()) as {
      paths: Record<string, Record<string, unknown>>;
      components: { schemas: Record<string, { properties: Record<string, Record<string, unknown>> }> };
    };
    const routes = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.keys(ops).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(routes).toEqual(
      expect.arrayContaining([
        'POST /api/v1/login/{id}/access-token',
        'POST /api/v1/users/{id}/student-impersonification-token',
        'GET /api/v1/permission-templates',
        'POST /api/v1/permission-templates',
        'GET /api/v1/permission-templates/permissions',
        'GET /api/v1/permission-templates/{id}',
        'PUT /api/v1/permission-templates/{id}',
        'DELETE /api/v1/permission-templates/{id}',
        'GET /api/v1/permissions',
        'GET /api/v1/permissions/{id}/assigned',
        'GET /api/v1/permissions/{id}/unassigned',
        'PUT /api/v1/permissions/{id}/assign',
        'PUT /api/v1/permissions/{id}/unassign',
        'GET /api/v1/networks',
        'POST /api/v1/networks',
        'GET /api/v1/networks/{id}',
        'PUT /api/v1/networks/{id}',
      ]),
    );
    const me = doc.components.schemas.CurrentUser!.properties;
    expect(Object.keys(me)).toEqual(
      expect.arrayContaining([
        'impersonator_id',
        'networks',
        'active_network',
        'active_network_id',
        'timezone_info',
      ]),
    );
  });

  it('authorizes: reads need admin or the network permission, changes need both', async () => {
    const { call, admin, settle } = portal;
    const target = (
      await settle(await call('POST', '/networks/', admin, { name: 'Matrix', timezone: 'UTC' }))
    ).body.id as string;
    type Role = 'none' | 'teacher' | 'partner' | 'netteacher' | 'plainadmin' | 'admin';
    const order: Role[] = ['none', 'teacher', 'partner', 'netteacher', 'plainadmin', 'admin'];
    const tokenOf: Record<Role, string | undefined> = {
      none: undefined,
      teacher: tokens.teacher,
      partner: tokens.partner,
      netteacher: tokens.netteacher,
      plainadmin: tokens.plainadmin,
      admin,
    };
    let n = 0;
    const matrix: [string, string, (() => unknown) | undefined, Record<Role, number>][] = [
      [
        'GET',
        '/networks/',
        undefined,
        { none: 401, teacher: 403, partner: 403, netteacher: 200, plainadmin: 200, admin: 200 },
      ],
      [
        'GET',
        `/networks/${target}`,
        undefined,
        { none: 401, teacher: 403, partner: 403, netteacher: 200, plainadmin: 200, admin: 200 },
      ],
      [
        'POST',
        '/networks/',
        () => ({ name: `Matrix ${++n}`, timezone: 'UTC' }),
        { none: 401, teacher: 403, partner: 403, netteacher: 403, plainadmin: 403, admin: 201 },
      ],
      [
        'PUT',
        `/networks/${target}`,
        () => ({ name: `Matrix renamed ${++n}` }),
        { none: 401, teacher: 403, partner: 403, netteacher: 403, plainadmin: 403, admin: 200 },
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
