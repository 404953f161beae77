/**
 * The shared input limits (docs/decisions/0038): a caller's mistake is a 4xx `{ detail }` naming the
 * field, never a 500, and every route answers the same mistake the same way.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { PATH_METADATA, ROUTE_ARGS_METADATA } from '@nestjs/common/constants.js';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum.js';
import { DiscoveryService, MetadataScanner } from '@nestjs/core';
import { getMetadataStorage } from 'class-validator';
import { portalModes, startTestPortal, type TestPortal } from '../testing/portal-harness.js';
import { MAX_JSON_DEPTH } from './body-limits.js';
import { MAX_PAGE, PageQuery } from './paging.js';
import { UuidPipe } from './validation.js';

/** Path parameters named like ids that are not UUIDs: permission names. */
const NOT_UUID_PARAMS = new Set(['PermissionsController.assigned:id', 'PermissionsController.unassigned:id']);
NOT_UUID_PARAMS.add('PermissionsController.assign:id').add('PermissionsController.unassign:id');

type Class = abstract new (...args: never[]) => unknown;

interface Route {
  name: string;
  /** [param name, pipes] per @Param('...'). */
  params: { data: string; pipes: unknown[] }[];
  /** The DTO classes of its @Query, @Body and @Param arguments. */
  dtos: Class[];
}

describe('input limits (embedded)', () => {
  let portal: TestPortal;

  const raw = async (method: string, path: string, body?: string, type?: string, token = portal.admin) => {
    const headers: Record<string, string> = {};
    if (token) headers.RequestVerificationToken = token;
    if (type) headers['content-type'] = type;
    const res = await fetch(`${portal.base}/api/v1${path}`, { method, headers, body });
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : {}) as { detail?: string } };
  };

  function routes(): Route[] {
    const app = portal.running.app;
    const discovery = app.get(DiscoveryService);
    const scanner = app.get(MetadataScanner);
    const found: Route[] = [];
    for (const wrapper of discovery.getControllers()) {
      const instance = wrapper.instance as object;
      const proto = Object.getPrototypeOf(instance) as Record<string, unknown>;
      for (const name of scanner.getAllMethodNames(proto)) {
        if (Reflect.getMetadata(PATH_METADATA, proto[name] as object) === undefined) continue;
        const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, instance.constructor, name) ?? {}) as Record<
          string,
          { index: number; data?: string; pipes?: unknown[] }
        >;
        const types = (Reflect.getMetadata('design:paramtypes', proto, name) ?? []) as Class[];
        const route: Route = { name: `${instance.constructor.name}.${name}`, params: [], dtos: [] };
        for (const [key, arg] of Object.entries(args)) {
          const kind = Number(key.split(':')[0]) as RouteParamtypes;
          if (kind === RouteParamtypes.PARAM && arg.data)
            route.params.push({ data: arg.data, pipes: arg.pipes ?? [] });
          const type = types[arg.index];
          if (
            [RouteParamtypes.QUERY, RouteParamtypes.BODY, RouteParamtypes.PARAM].includes(kind) &&
            type &&
            ![Object, String, Number, Boolean, Array].includes(type as never)
          )
            route.dtos.push(type);
        }
        found.push(route);
      }
    }
    return found;
  }

  beforeAll(async () => {
    portal = await startTestPortal(portalModes[0]!, 'portal_input_limits');
  });
  afterAll(async () => {
    await portal?.close();
  });

  it('bounds page and size the same way on every paged list', async () => {
    const lists = [
      '/users/',
      '/customers/',
      '/networks/',
      '/permission-templates/',
      '/permissions/AUDIT/assigned',
      '/customer-invitations/',
      '/audit/permission-changes',
      '/one-page-profiles/',
    ];
    for (const list of lists) {
      const huge = await portal.call('GET', `${list}?page=99999999999999`, portal.admin);
      expect({ list, status: huge.status }).toEqual({ list, status: 422 });
      expect(huge.body.detail).toBe(`page must not be greater than ${MAX_PAGE}`);
      const beyondNumber = await portal.call('GET', `${list}?page=999999999999999999999`, portal.admin);
      expect({ list, status: beyondNumber.status }).toEqual({ list, status: 422 });
      const size = await portal.call('GET', `${list}?size=501`, portal.admin);
      expect({ list, status: size.status, detail: size.body.detail }).toEqual({
        list,
        status: 422,
        detail: 'size must not be greater than 500',
      });
      const last = await portal.call('GET', `${list}?page=${MAX_PAGE}&size=500`, portal.admin);
      expect({ list, status: last.status }).toEqual({ list, status: 200 });
    }
    // Every query DTO with a page is the shared PageQuery or extends it (same bounds everywhere).
    const storage = getMetadataStorage();
    const paged = routes()
      .flatMap((r) => r.dtos)
      .filter((dto) =>
        storage.getTargetValidationMetadatas(dto, '', true, false).some((m) => m.propertyName === 'page'),
      );
    expect(paged.length).toBeGreaterThanOrEqual(10);
    expect(
      paged
        .filter((dto) => dto !== PageQuery && !(dto.prototype instanceof PageQuery))
        .map((dto) => dto.name),
    ).toEqual([]);
  });

  it('refuses control characters in search text, bodies, keys and paths with 422 naming the field', async () => {
    for (const path of ['/users/?query=a%00b', '/customers/?name=a%00b', '/networks/?query=%1B%5B31m']) {
      const answer = await portal.call('GET', path, portal.admin);
      expect({ path, ...answer }).toEqual({
        path,
        status: 422,
        body: expect.objectContaining({
          detail: expect.stringMatching(/^(query|name) must not contain control characters$/),
        }),
      });
    }
    // Tabs and line breaks in a search are refused too (path and query values take none).
    expect((await portal.call('GET', '/customers/?query=a%0Ab', portal.admin)).status).toBe(422);

    const nul = await portal.call('POST', '/customers/', portal.admin, { name: 'Oak\u0000field' });
    expect(nul).toEqual({
      status: 422,
      body: {
        detail: 'name must not contain control characters',
        errors: [{ field: 'name', message: 'name must not contain control characters' }],
      },
    });
    const bell = await portal.call('POST', '/users/', portal.admin, {
      email: 'bell@example.com',
      first_name: 'B',
      last_name: 'L',
      user_type: 'teacher',
      notes: 'ring\u0007',
    });
    expect(bell.status).toBe(422);
    expect(bell.body.detail).toBe('notes must not contain control characters');
    const key = await portal.call('POST', '/customers/', portal.admin, { name: 'Keyed', 'x\u0000': 1 });
    expect(key.status).toBe(422);
    expect(key.body.detail).toMatch(/x\\u0000: property x\\u0000 should not exist/);
    // Free text in a body keeps its tabs and line breaks.
    const text = await portal.call('POST', '/users/', portal.admin, {
      email: 'tabs@example.com',
      first_name: 'T',
      last_name: 'A',
      user_type: 'teacher',
      notes: 'line one\r\n\tline two',
    });
    expect(text.status).toBe(201);
    const path = await portal.call('GET', '/users/%00', portal.admin);
    expect(path.status).toBe(422);
    expect(path.body.detail).toMatch(/^id /);
  });

  it(`refuses JSON nested deeper than ${MAX_JSON_DEPTH} levels with a 400 before parsing it, anonymous routes too`, async () => {
    const deepArray = '['.repeat(20_000) + ']'.repeat(20_000);
    const deepObject = (n: number) => '{"a":'.repeat(n) + '1' + '}'.repeat(n);
    for (const [path, body, token] of [
      ['/login/access-token', deepArray, ''],
      ['/password-recovery/x@example.com', deepObject(5_000), ''],
      ['/set-new-password', `{"token":"x","password":${deepObject(100)}}`, ''],
      ['/customers/', `{"name":"Deep","network_id":${deepObject(MAX_JSON_DEPTH)}}`, portal.admin],
    ] as const) {
      const answer = await raw('POST', path, body, 'application/json', token);
      expect({ path, ...answer }).toEqual({
        path,
        status: 400,
        body: { detail: `body: JSON nested deeper than ${MAX_JSON_DEPTH} levels` },
      });
    }
    // Up to the limit the body is parsed and validated as usual; brackets inside strings do not count.
    const atLimit = await raw(
      'POST',
      '/customers/',
      `{"name":"Deep","network_id":${deepObject(MAX_JSON_DEPTH - 1)}}`,
      'application/json',
    );
    expect(atLimit).toEqual({
      status: 422,
      body: expect.objectContaining({ detail: 'network_id must be a UUID' }),
    });
    const brackets = await portal.call('POST', '/customers/', portal.admin, { name: '['.repeat(150) });
    expect(brackets.status).toBe(201);
  });

  it('refuses null where the DTO does not document it, and a list where an object is expected', async () => {
    const template = await portal.settle(
      await portal.call('POST', '/permission-templates/', portal.admin, { name: 'Nulls', permissions: [] }),
    );
    const nullList = await portal.call(
      'PUT',
      `/permission-templates/${template.body.id as string}`,
      portal.admin,
      {
        permissions: null,
      },
    );
    expect(nullList).toEqual({
      status: 422,
      body: {
        detail: 'permissions must not be null',
        errors: [{ field: 'permissions', message: 'permissions must not be null' }],
      },
    });
    const userPermissions = await portal.call('POST', '/users/', portal.admin, {
      email: 'null.permissions@example.com',
      first_name: 'N',
      last_name: 'P',
      user_type: 'teacher',
      permissions: null,
    });
    expect(userPermissions.status).toBe(422);
    expect(userPermissions.body.detail).toBe('permissions must not be null');
    const requiredList = await portal.call('PUT', '/users/custom_fields', portal.admin, { items: null });
    expect(requiredList.status).toBe(422);
    expect(requiredList.body.detail).toBe('items is required');
    const nestedNull = await portal.call('PUT', '/users/custom_fields', portal.admin, {
      items: [{ name: 'Diet', type: 'select', options: null }],
    });
    expect(nestedNull.status).toBe(422);
    expect(nestedNull.body.detail).toMatch(/^items\.0\.options: options must not be null/);
    // Where null is documented (nullable) it is still a value.
    const customer = await portal.settle(
      await portal.call('POST', '/customers/', portal.admin, { name: 'Nullable', network_id: null }),
    );
    expect(customer.status).toBe(201);
    const list = await raw('POST', '/customers/', '[{"name":"Listed"}]', 'application/json');
    expect(list).toEqual({
      status: 422,
      body: {
        detail: 'body must be a JSON object',
        errors: [{ field: 'body', message: 'body must be a JSON object' }],
      },
    });
  });

  it('names the problem: a missing field is required, a wrong type says the type expected', async () => {
    const cases: [unknown, string][] = [
      [{}, 'name is required'],
      [{ name: null }, 'name is required'],
      [{ name: 5 }, 'name must be a string'],
      [{ name: '' }, 'name should not be empty'],
      [{ name: 'x'.repeat(201) }, 'name must be shorter than or equal to 200 characters'],
    ];
    for (const [body, detail] of cases) {
      const answer = await portal.call('POST', '/customers/', portal.admin, body);
      expect({ body, status: answer.status, detail: answer.body.detail }).toEqual({
        body,
        status: 422,
        detail,
      });
    }
    const login = await raw(
      'POST',
      '/login/access-token',
      'username=a%40b.c',
      'application/x-www-form-urlencoded',
      '',
    );
    expect(login.body.detail).toBe('password is required');
    const type = await portal.call('PUT', '/users/custom_fields', portal.admin, { items: 'all of them' });
    expect(type.body.detail).toBe('items must be an array');
  });

  it('answers a malformed UUID in a path the same way on every route: 422 "id must be a UUID"', async () => {
    const admin = portal.running.firstSuperuser.userId;
    for (const path of [
      '/users/not-a-uuid',
      '/customers/not-a-uuid',
      '/networks/nope',
      '/permission-templates/not-a-uuid',
      '/audit/users/not-a-uuid/history',
      '/one-page-profiles/not-a-uuid',
      '/student-contacts/customer/not-a-uuid/report',
    ]) {
      const answer = await portal.call('GET', path, portal.admin);
      expect({ path, ...answer }).toEqual({
        path,
        status: 422,
        body: { detail: 'id must be a UUID', errors: [{ field: 'id', message: 'id must be a UUID' }] },
      });
    }
    const contact = await portal.call('PUT', `/users/${admin}/contacts/nope`, portal.admin, { name: 'C' });
    expect(contact).toEqual({
      status: 422,
      body: {
        detail: 'contactId must be a UUID',
        errors: [{ field: 'contactId', message: 'contactId must be a UUID' }],
      },
    });
    // Every path parameter named like an id goes through the one UuidPipe (permission names excepted).
    const unchecked = routes().flatMap((r) =>
      r.params
        .filter((p) => /(^id$|Id$|_id$)/.test(p.data) && !NOT_UUID_PARAMS.has(`${r.name}:${p.data}`))
        .filter((p) => !p.pipes.some((pipe) => pipe === UuidPipe || pipe instanceof UuidPipe))
        .map((p) => `${r.name}:${p.data}`),
    );
    expect(unchecked).toEqual([]);
  });

  it('answers 415 for a body in a media type the route does not take', async () => {
    const plain = await raw('POST', '/customers/', '{"name":"Plain"}', 'text/plain');
    expect(plain).toEqual({
      status: 415,
      body: { detail: 'Content-Type text/plain is not accepted here; send application/json' },
    });
    expect((await raw('POST', '/customers/', 'name=Form', 'application/x-www-form-urlencoded')).status).toBe(
      415,
    );
    expect((await raw('PUT', '/users/custom_fields', '{"items":[]}', 'text/plain')).status).toBe(415);
    // The sign-in form is urlencoded (as the OpenAPI document says); JSON is not taken there.
    const jsonLogin = await raw(
      'POST',
      '/login/access-token',
      '{"username":"a","password":"b"}',
      'application/json',
      '',
    );
    expect(jsonLogin.status).toBe(415);
    expect(jsonLogin.body.detail).toMatch(/application\/x-www-form-urlencoded/);
    // JSON where JSON is expected, and bodiless POSTs, are unaffected.
    expect(
      (await raw('POST', '/customers/', '{"name":"Json"}', 'application/json; charset=utf-8')).status,
    ).toBe(201);
    const bodiless = await raw('POST', `/users/${portal.running.firstSuperuser.userId}/activation-link`);
    expect(bodiless.status).toBe(409);
  });

  it('refuses __proto__ and constructor keys like any unknown key, at any depth', async () => {
    const proto = await raw(
      'POST',
      '/customers/',
      '{"name":"P","__proto__":{"isAdmin":true}}',
      'application/json',
    );
    expect(proto).toEqual({
      status: 422,
      body: {
        detail: '__proto__: property __proto__ should not exist',
        errors: [{ field: '__proto__', message: 'property __proto__ should not exist' }],
      },
    });
    const ctor = await raw(
      'POST',
      '/customers/',
      '{"name":"C","constructor":{"prototype":{}}}',
      'application/json',
    );
    expect(ctor.status).toBe(422);
    expect(ctor.body.detail).toBe('constructor: property constructor should not exist');
    const nested = await raw(
      'PUT',
      '/users/custom_fields',
      '{"items":[{"name":"N","type":"text","__proto__":{"x":1}}]}',
      'application/json',
    );
    expect(nested.status).toBe(422);
    expect(nested.body.detail).toBe('items.0.__proto__: property __proto__ should not exist');
    const query = await portal.call('GET', '/customers/?__proto__=1', portal.admin);
    expect(query.status).toBe(422);
    expect(query.body.detail).toBe('__proto__: property __proto__ should not exist');
    const names = (await portal.call('GET', '/customers/?query=P', portal.admin)).body.items as {
      name: string;
    }[];
    expect(names.map((c) => c.name)).not.toContain('P');
  });

  it('answers an impossible date with 422 naming the parameter', async () => {
    const admin = portal.running.firstSuperuser.userId;
    for (const [path, field] of [
      ['/users/?week_start=2026-13-45', 'week_start'],
      ['/users/teachers_without_availability_set/report?week=2026-13-45', 'week'],
      [`/users/${admin}/availability?week=2026-13-45`, 'week'],
      ['/users/students/count/active/report?date_from=2026-02-30', 'date_from'],
      ['/users/students/count/active/report?date_to=2026-W01', 'date_to'],
      [`/audit/users/${admin}/history?from=2026-02-30`, 'from'],
      [`/audit/users/${admin}/state?at=2026-01-01T25:00:00Z`, 'at'],
      ['/audit/permission-changes?to=2026', 'to'],
    ]) {
      const answer = await portal.call('GET', path!, portal.admin);
      expect({ path, status: answer.status }).toEqual({ path, status: 422 });
      expect(answer.body.detail).toMatch(new RegExp(`^${field}: is not a`));
    }
    expect((await portal.call('GET', '/users/?week_start=2026-01-05', portal.admin)).status).toBe(200);
  });
});
