import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { pino } from 'pino';
import { startApp, type RunningApp } from '../app.js';
import { loadConfig } from '../platform/config/config.js';
import { ProjectionRunner } from '../platform/projections/projection-runner.js';
import { createTestDatabase, type TestDatabase } from '../platform/testing/postgres-test-database.js';
import { DeactivationScheduler } from './deactivation.scheduler.js';

const silent = pino({ level: 'silent' });
const ADMIN = 'head.office@example.com';
const PASSWORD = 'correct horse battery staple';
const CUSTOMER_1 = '11111111-1111-4111-8111-111111111111';
const CUSTOMER_2 = '22222222-2222-4222-8222-222222222222';
const NETWORK = '33333333-3333-4333-8333-333333333333';
const MISSING = '99999999-9999-4999-8999-999999999999';

type Json = Record<string, unknown> & { detail?: string };
interface Answer {
  status: number;
  body: Json;
}

interface Mode {
  name: string;
  setup(): Promise<{ env: Record<string, string>; cleanup: () => Promise<void> }>;
}

const modes: Mode[] = [
  {
    name: 'embedded (PGlite)',
    async setup() {
      const dataDir = await mkdtemp(join(tmpdir(), 'portal-users-'));
      return { env: { DATA_DIR: dataDir }, cleanup: () => rm(dataDir, { recursive: true, force: true }) };
    },
  },
  {
    name: 'server (PostgreSQL)',
    async setup() {
      const db: TestDatabase = await createTestDatabase('portal_users');
      return { env: { DATABASE_URL: db.url }, cleanup: () => db.drop() };
    },
  },
];

describe.each(modes)('users API, $name', (mode) => {
  let running: RunningApp;
  let cleanup: () => Promise<void>;
  let base: string;
  let admin: string;
  const ids: Record<string, string> = {};
  const tokens: Record<string, string> = {};

  async function call(method: string, path: string, token?: string, body?: unknown, minPosition?: string) {
    const headers: Record<string, string> = {};
    if (token) headers.RequestVerificationToken = token;
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (minPosition) headers['X-Min-Position'] = minPosition;
    const res = await fetch(`${base}/api/v1${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    // Downloads (CSV) are not JSON: their answer is the status alone.
    const json = text && res.headers.get('content-type')?.includes('json');
    return { status: res.status, body: (json ? JSON.parse(text) : {}) as Json } satisfies Answer;
  }

  async function login(username: string, password = PASSWORD) {
    return fetch(`${base}/api/v1/login/access-token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ username, password }),
    });
  }

  async function tokenFor(username: string, password = PASSWORD) {
    const res = await login(username, password);
    expect(res.status).toBe(200);
    return ((await res.json()) as { access_token: string }).access_token;
  }

  /** Waits until the read models have applied a command's position (the guard reads them too). */
  async function settle(answer: Answer) {
    expect(answer.status).toBeLessThan(300);
    const reached = await running.app
      .get(ProjectionRunner)
      .waitForPosition(BigInt(answer.body.position as string), 10_000);
    expect(reached).toBe(true);
    return answer;
  }

  async function createUser(key: string, body: Record<string, unknown>) {
    const res = await settle(await call('POST', '/users/', admin, { password: PASSWORD, ...body }));
    expect(res.status).toBe(201);
    ids[key] = res.body.id as string;
    return res;
  }

  beforeAll(async () => {
    const setup = await mode.setup();
    cleanup = setup.cleanup;
    running = await startApp(
      loadConfig({
        PORT: '0',
        HOST: '127.0.0.1',
        FIRST_SUPERUSER: ADMIN,
        FIRST_SUPERUSER_PASSWORD: PASSWORD,
        READ_YOUR_WRITES_TIMEOUT_MS: '10000',
        ...setup.env,
      }),
      silent,
    );
    base = running.url;
    admin = await tokenFor(ADMIN);
    // The network the active-network tests switch to (networks have their own API and tests).
    const network = await running.infra.eventStore.append(
      `network-${NETWORK}`,
      [
        {
          id: randomUUID(),
          type: 'NetworkCreated',
          data: { networkId: NETWORK, name: 'Test', timezone: 'Europe/London', primaryColour: '#0f716c' },
          metadata: {},
        },
      ],
      { expectedRevision: 'no_stream' },
    );
    expect(await running.app.get(ProjectionRunner).waitForPosition(network.position, 10_000)).toBe(true);
    await createUser('teacher', {
      email: 'plain.teacher@example.com',
      first_name: 'Pat',
      last_name: 'Plain',
      user_type: 'teacher',
    });
    await createUser('trusted', {
      email: 'trusted.teacher@example.com',
      first_name: 'Tru',
      last_name: 'Sted',
      user_type: 'teacher',
      permissions: ['CAN_BLOCK_USERS', 'CAN_SET_QUALITY_ISSUE', 'CAN_MODIFY_USER'],
    });
    await createUser('partner', {
      email: 'head@school-one.example.com',
      first_name: 'Sam',
      last_name: 'Super',
      user_type: 'partner',
      customer_id: CUSTOMER_1,
      customer_type: 'super-admin',
    });
    await createUser('student1', {
      email: 's1@school-one.example.com',
      first_name: 'Stu',
      last_name: 'One',
      user_type: 'student',
      customer_id: CUSTOMER_1,
    });
    await createUser('student2', {
      email: 's2@school-two.example.com',
      first_name: 'Stu',
      last_name: 'Two',
      user_type: 'student',
      customer_id: CUSTOMER_2,
    });
    await createUser('target', {
      email: 'target.teacher@example.com',
      first_name: 'Tar',
      last_name: 'Get',
      user_type: 'teacher',
    });
    tokens.teacher = await tokenFor('plain.teacher@example.com');
    tokens.trusted = await tokenFor('trusted.teacher@example.com');
    tokens.partner = await tokenFor('head@school-one.example.com');
  }, 120_000);

  afterAll(async () => {
    await running?.close();
    await cleanup?.();
  });

  it('creates a user and reads it back at the returned position (read-your-writes)', async () => {
    const created = await call('POST', '/users/', admin, {
      email: 'New.Teacher@Example.com',
      first_name: 'Nia',
      last_name: 'New',
      user_type: 'teacher',
      notes: 'Maths and physics',
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ id: expect.any(String), position: expect.stringMatching(/^\d+$/) });
    const read = await call(
      'GET',
      `/users/${created.body.id as string}`,
      admin,
      undefined,
      created.body.position as string,
    );
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({
      login: 'new.teacher@example.com',
      full_name: 'Nia New',
      user_type: 'teacher',
      type_label: 'Teacher',
      is_teacher: true,
      status: 'active',
      has_access: true,
      is_blocked: false,
      scheduled_for_deactivation: null,
      timezone: 'Europe/London',
      notes: 'Maths and physics',
      teacher_profile: { has_quality_issue: false, quality_issue_reason: null },
      permission_list: ['USER_IS_TEACHER'],
      contacts: [],
      last_action: 'N/A',
    });
    const events = await running.infra.eventStore.readStream(`user-${created.body.id as string}`);
    expect(events.map((e) => e.type)).toEqual(['UserCreated']);
    expect(events[0]!.metadata.actorId).toBe(running.firstSuperuser.userId);
  });

  it('gives a partner the permissions of their customer role', async () => {
    const read = await call('GET', `/users/${ids.partner!}`, admin);
    expect(read.body).toMatchObject({
      type_label: 'Customer',
      customer_id: CUSTOMER_1,
      customer_profile: { type: 'super-admin', type_label: 'Super System Administrator' },
    });
    expect(read.body.permission_list).toEqual(
      expect.arrayContaining(['USER_IS_PARTNER', 'PARTNER_CAN_ADD_NEW_STUDENTS']),
    );
    expect(read.body.permission_list).not.toContain('PARTNER_CAN_SET_ABSENCE_REASON');
  });

  it('refuses a duplicate login (409) and invalid fields (422 naming the field)', async () => {
    const dup = await call('POST', '/users/', admin, {
      email: 'PLAIN.teacher@example.com',
      first_name: 'A',
      last_name: 'B',
      user_type: 'teacher',
    });
    expect(dup).toEqual({ status: 409, body: { detail: 'A user with this login already exists' } });
    const cases: [Record<string, unknown>, string][] = [
      [{ email: 'x@example.com', last_name: 'B', user_type: 'teacher' }, 'first_name'],
      [{ email: 'not-an-email', first_name: 'A', last_name: 'B', user_type: 'teacher' }, 'email'],
      [{ email: 'x@example.com', first_name: 'A', last_name: 'B', user_type: 'wizard' }, 'user_type'],
      [
        { email: 'x@example.com', first_name: 'A', last_name: 'B', user_type: 'teacher', colour: 'red' },
        'colour',
      ],
      [
        {
          email: 'x@example.com',
          first_name: 'A',
          last_name: 'B',
          user_type: 'teacher',
          timezone: 'Mars/Base',
        },
        'timezone',
      ],
      [
        {
          email: 'x@example.com',
          first_name: 'A',
          last_name: 'B',
          user_type: 'partner',
          customer_type: 'parent',
        },
        'customer_id',
      ],
      [
        { email: 'x@example.com', first_name: 'A', last_name: 'B', user_type: 'teacher', password: 'short' },
        'password',
      ],
    ];
    for (const [body, field] of cases) {
      const res = await call('POST', '/users/', admin, body);
      expect([res.status, field]).toEqual([422, field]);
      expect(res.body.detail).toContain(field);
    }
  });

  it('answers 404 "User not found" for unknown ids on every route (422 for malformed ones)', async () => {
    expect(await call('GET', '/users/not-a-uuid', admin)).toEqual({
      status: 422,
      body: { detail: 'id must be a UUID', errors: [{ field: 'id', message: 'id must be a UUID' }] },
    });
    for (const [method, path, body] of [
      ['GET', `/users/${MISSING}`, undefined],
      ['PUT', `/users/${MISSING}`, { notes: 'x' }],
      ['PUT', `/users/${MISSING}/activate`, undefined],
      ['PUT', `/users/${MISSING}/deactivate`, undefined],
      ['PUT', `/users/${MISSING}/deactivate/schedule`, { date: '2099-01-01' }],
      ['PUT', `/users/${MISSING}/block`, undefined],
      ['PUT', `/users/${MISSING}/unblock`, undefined],
      ['PUT', `/users/${MISSING}/set-quality-issue`, { reason: 'x' }],
      ['PUT', `/users/${MISSING}/unset-quality-issue`, undefined],
      ['PUT', `/users/${MISSING}/permissions`, { permissions: [] }],
      ['PUT', `/users/${MISSING}/active_network/${NETWORK}`, undefined],
      ['POST', `/users/${MISSING}/contacts`, { name: 'x' }],
      ['PUT', `/users/${MISSING}/contacts/${MISSING}`, { name: 'x' }],
      ['DELETE', `/users/${MISSING}/contacts/${MISSING}`, undefined],
    ] as const) {
      const res = await call(method, path, admin, body);
      expect([method, path, res.status, res.body.detail]).toEqual([method, path, 404, 'User not found']);
    }
  });

  it('lists users with paging, text, status and type filters (repeated keys) and sorting', async () => {
    const all = await call('GET', '/users/', admin);
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({ page: 1, size: 50 });
    expect(all.body.total).toBeGreaterThanOrEqual(7);
    const students = await call('GET', '/users/?type=students&sort_by=-email', admin);
    expect((students.body.items as Json[]).map((u) => u.email)).toEqual([
      's2@school-two.example.com',
      's1@school-one.example.com',
    ]);
    const mixed = await call('GET', '/users/?type=students&type=partners&size=2&page=2&sort_by=email', admin);
    expect(mixed.body).toMatchObject({ total: 3, page: 2, size: 2 });
    expect((mixed.body.items as Json[]).map((u) => u.email)).toEqual(['s2@school-two.example.com']);
    const byText = await call('GET', '/users/?query=stu%20one', admin);
    expect((byText.body.items as Json[]).map((u) => u.id)).toEqual([ids.student1]);
    const byName = await call(
      'GET',
      `/users/?name=Sam&status=active&status=inactive&customer_id=${CUSTOMER_1}`,
      admin,
    );
    expect((byName.body.items as Json[]).map((u) => u.id)).toEqual([ids.partner]);
    const none = await call('GET', '/users/?status=deactivated&type=admins', admin);
    expect(none.body).toMatchObject({ items: [], total: 0 });
    const bad = await call('GET', '/users/?status=sleeping', admin);
    expect(bad.status).toBe(422);
    expect(bad.body.detail).toContain('status');
    expect((await call('GET', '/users/?size=0', admin)).status).toBe(422);
  });

  it('shows partners only users of their own customer', async () => {
    const list = await call('GET', '/users/', tokens.partner);
    expect(list.status).toBe(200);
    const listed = (list.body.items as Json[]).map((u) => u.customer_id);
    expect(listed.length).toBeGreaterThan(0);
    expect(new Set(listed)).toEqual(new Set([CUSTOMER_1]));
    expect(await call('GET', `/users/${ids.student2!}`, tokens.partner)).toEqual({
      status: 404,
      body: { detail: 'User not found' },
    });
    const other = await call('POST', '/users/', tokens.partner, {
      email: 'intruder@example.com',
      first_name: 'I',
      last_name: 'N',
      user_type: 'student',
      customer_id: CUSTOMER_2,
    });
    expect(other.status).toBe(403);

    // Within the customer, a partner sees only the kinds their SEE_* permissions name (and themselves).
    await createUser('parent', {
      email: 'parent@school-one.example.com',
      first_name: 'Pa',
      last_name: 'Rent',
      user_type: 'partner',
      customer_id: CUSTOMER_1,
      customer_type: 'parent',
      notes: 'private note',
    });
    await createUser('sysadmin', {
      email: 'sysadmin@school-one.example.com',
      first_name: 'Sys',
      last_name: 'Admin',
      user_type: 'partner',
      customer_id: CUSTOMER_1,
      customer_type: 'admin',
    });
    const parent = await tokenFor('parent@school-one.example.com');
    const own = await call('GET', '/users/', parent);
    expect((own.body.items as Json[]).map((u) => u.id)).toEqual([ids.parent]);
    expect((await call('GET', `/users/${ids.student1!}`, parent)).status).toBe(404);
    // Parents see no additional notes, not even about themselves (spec §6, decision 0037).
    expect((await call('GET', '/users/me', parent)).body.notes).toBeNull();
    expect((await call('GET', `/users/${ids.parent!}`, admin)).body.notes).toBe('private note');
    const sysadmin = await tokenFor('sysadmin@school-one.example.com');
    expect((await call('GET', `/users/${ids.partner!}`, sysadmin)).status).toBe(404);
    expect((await call('GET', `/users/${ids.parent!}`, sysadmin)).status).toBe(200);
    expect((await call('GET', `/users/${ids.student1!}`, sysadmin)).status).toBe(200);
  });

  it('updates the profile, validates it, and a password change ends the sessions', async () => {
    const id = ids.teacher!;
    const updated = await call('PUT', `/users/${id}`, admin, {
      first_name: 'Patricia',
      timezone: 'Europe/Paris',
      notes: null,
    });
    expect(updated.status).toBe(200);
    const read = await call('GET', `/users/${id}`, admin, undefined, updated.body.position as string);
    expect(read.body).toMatchObject({
      first_name: 'Patricia',
      full_name: 'Patricia Plain',
      timezone: 'Europe/Paris',
      notes: null,
    });
    expect((await call('PUT', `/users/${id}`, admin, { first_name: '' })).body.detail).toContain(
      'first_name',
    );
    expect((await call('PUT', `/users/${id}`, admin, { first_name: null })).status).toBe(422);
    expect((await call('PUT', `/users/${id}`, admin, { login: 'x' })).status).toBe(422);

    const user = await tokenFor('target.teacher@example.com');
    const changed = await settle(
      await call('PUT', `/users/${ids.target!}`, admin, { password: 'a brand new passphrase' }),
    );
    expect(changed.status).toBe(200);
    expect((await call('GET', '/users/me', user)).status).toBe(401);
    expect((await login('target.teacher@example.com')).status).toBe(401);
    await tokenFor('target.teacher@example.com', 'a brand new passphrase');
    const events = await running.infra.eventStore.readStream(`user-${ids.target!}`);
    expect(events.map((e) => e.type)).toContain('PasswordChanged');
    expect(JSON.stringify(events.map((e) => e.data))).not.toContain('a brand new passphrase');
  });

  it('deactivates and activates with 409 on repeats; a deactivated user is signed out', async () => {
    await createUser('leaver', {
      email: 'leaver@example.com',
      first_name: 'Lee',
      last_name: 'Ver',
      user_type: 'teacher',
    });
    const session = await tokenFor('leaver@example.com');
    const id = ids.leaver!;
    const off = await call('PUT', `/users/${id}/deactivate`, admin);
    expect(off.status).toBe(200);
    expect(
      (await call('GET', `/users/${id}`, admin, undefined, off.body.position as string)).body,
    ).toMatchObject({
      has_access: false,
      status: 'deactivated',
    });
    expect((await call('GET', '/users/me', session)).status).toBe(401);
    expect(await call('PUT', `/users/${id}/deactivate`, admin)).toMatchObject({
      status: 409,
      body: { detail: 'User is already deactivated' },
    });
    expect(
      (await call('PUT', `/users/${id}/deactivate/schedule`, admin, { date: '2099-01-01' })).status,
    ).toBe(409);
    const on = await call('PUT', `/users/${id}/activate`, admin);
    expect(on.status).toBe(200);
    expect(
      (await call('GET', `/users/${id}`, admin, undefined, on.body.position as string)).body,
    ).toMatchObject({ status: 'active' });
    expect(await call('PUT', `/users/${id}/activate`, admin)).toMatchObject({
      status: 409,
      body: { detail: 'User is already active' },
    });
  });

  it('schedules a deactivation, cancels it by activating, and the scheduler applies due ones once', async () => {
    const id = ids.leaver!;
    expect(
      (await call('PUT', `/users/${id}/deactivate/schedule`, admin, { date: '2001-01-01' })).body.detail,
    ).toContain('date');
    expect((await call('PUT', `/users/${id}/deactivate/schedule`, admin, {})).status).toBe(422);
    expect((await call('PUT', `/users/${id}/deactivate/schedule`, admin, { date: 'tomorrow' })).status).toBe(
      422,
    );
    const at = new Date(Date.now() + 60 * 60_000);
    const scheduled = await call('PUT', `/users/${id}/deactivate/schedule`, admin, {
      date: at.toISOString(),
    });
    expect(scheduled.status).toBe(200);
    const read = await call('GET', `/users/${id}`, admin, undefined, scheduled.body.position as string);
    expect(read.body).toMatchObject({ scheduled_for_deactivation: at.toISOString(), has_access: true });
    const cancelled = await call('PUT', `/users/${id}/activate`, admin);
    expect(
      (await call('GET', `/users/${id}`, admin, undefined, cancelled.body.position as string)).body,
    ).toMatchObject({
      scheduled_for_deactivation: null,
    });

    await settle(await call('PUT', `/users/${id}/deactivate/schedule`, admin, { date: at.toISOString() }));
    const scheduler = running.app.get(DeactivationScheduler);
    expect(await scheduler.runOnce(new Date(at.getTime() - 1000))).toBe(0);
    const later = new Date(at.getTime() + 1000);
    const [first, second] = await Promise.all([scheduler.runOnce(later), scheduler.runOnce(later)]);
    expect(first + second).toBeGreaterThanOrEqual(1);
    const head = await running.infra.eventStore.headPosition();
    const after = await call('GET', `/users/${id}`, admin, undefined, head.toString());
    expect(after.body).toMatchObject({
      has_access: false,
      status: 'deactivated',
      scheduled_for_deactivation: null,
    });
    expect(await scheduler.runOnce(later)).toBe(0);
    const events = await running.infra.eventStore.readStream(`user-${id}`);
    expect(
      events.filter((e) => e.type === 'UserDeactivated' && (e.data as { scheduled: boolean }).scheduled),
    ).toHaveLength(1);
  });

  it('blocks and unblocks with 409 on repeats; a blocked user is signed out at once and cannot sign in', async () => {
    await createUser('blockee', {
      email: 'blockee@example.com',
      first_name: 'Bo',
      last_name: 'Lock',
      user_type: 'teacher',
    });
    const session = await tokenFor('blockee@example.com');
    expect((await call('GET', '/users/me', session)).status).toBe(200);
    const blocked = await call('PUT', `/users/${ids.blockee!}/block`, admin);
    expect(blocked.status).toBe(200);
    expect((await call('GET', '/users/me', session)).status).toBe(401);
    expect(await call('PUT', `/users/${ids.blockee!}/block`, admin)).toMatchObject({
      status: 409,
      body: { detail: 'User is already blocked' },
    });
    const read = await call(
      'GET',
      `/users/${ids.blockee!}`,
      admin,
      undefined,
      blocked.body.position as string,
    );
    expect(read.body).toMatchObject({ is_blocked: true, status: 'inactive' });
    expect((await login('blockee@example.com')).status).toBe(403);
    const unblocked = await settle(await call('PUT', `/users/${ids.blockee!}/unblock`, admin));
    expect((await call('GET', `/users/${ids.blockee!}`, admin)).body).toMatchObject({
      is_blocked: false,
      status: 'active',
    });
    expect(unblocked.status).toBe(200);
    expect(await call('PUT', `/users/${ids.blockee!}/unblock`, admin)).toMatchObject({
      status: 409,
      body: { detail: 'User is not blocked' },
    });
    await tokenFor('blockee@example.com');
  });

  it('answers concurrent commands on one user with one success and one 409 (expected revision)', async () => {
    await createUser('racer', {
      email: 'racer@example.com',
      first_name: 'Ra',
      last_name: 'Cer',
      user_type: 'teacher',
    });
    const answers = await Promise.all([
      call('PUT', `/users/${ids.racer!}/block`, admin),
      call('PUT', `/users/${ids.racer!}/block`, admin),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    const events = await running.infra.eventStore.readStream(`user-${ids.racer!}`);
    expect(events.filter((e) => e.type === 'UserBlocked')).toHaveLength(1);
  });

  it('sets and unsets a teacher quality issue with 409 on repeats and for non-teachers', async () => {
    const id = ids.blockee!;
    expect((await call('PUT', `/users/${id}/set-quality-issue`, admin, {})).body.detail).toContain('reason');
    const set = await call('PUT', `/users/${id}/set-quality-issue`, admin, { reason: 'Missed two lessons' });
    expect(set.status).toBe(200);
    expect(
      (await call('GET', `/users/${id}`, admin, undefined, set.body.position as string)).body,
    ).toMatchObject({
      teacher_profile: { has_quality_issue: true, quality_issue_reason: 'Missed two lessons' },
    });
    expect(await call('PUT', `/users/${id}/set-quality-issue`, admin, { reason: 'Again' })).toMatchObject({
      status: 409,
      body: { detail: 'User already has a quality issue' },
    });
    expect(
      (await call('PUT', `/users/${ids.student1!}/set-quality-issue`, admin, { reason: 'x' })).status,
    ).toBe(409);
    const unset = await call('PUT', `/users/${id}/unset-quality-issue`, admin);
    expect(
      (await call('GET', `/users/${id}`, admin, undefined, unset.body.position as string)).body,
    ).toMatchObject({
      teacher_profile: { has_quality_issue: false },
    });
    expect((await call('PUT', `/users/${id}/unset-quality-issue`, admin)).status).toBe(409);
  });

  it('replaces the permission list, records what changed, and keeps the type marker', async () => {
    const id = ids.blockee!;
    const res = await call('PUT', `/users/${id}/permissions`, admin, {
      permissions: ['USER_IS_TEACHER', 'CAN_EDIT_LESSONS'],
    });
    expect(res.status).toBe(200);
    expect(
      (await call('GET', `/users/${id}`, admin, undefined, res.body.position as string)).body,
    ).toMatchObject({
      permission_list: ['USER_IS_TEACHER', 'CAN_EDIT_LESSONS'],
    });
    const events = await running.infra.eventStore.readStream(`user-${id}`);
    expect(events.at(-1)).toMatchObject({
      type: 'UserPermissionsChanged',
      data: { added: ['CAN_EDIT_LESSONS'], removed: [] },
    });
    expect(
      (await call('PUT', `/users/${id}/permissions`, admin, { permissions: ['CAN_EDIT_LESSONS'] })).status,
    ).toBe(422);
    expect(
      (await call('PUT', `/users/${id}/permissions`, admin, { permissions: ['lower case'] })).body.detail,
    ).toContain('permissions');
    expect((await call('PUT', `/users/${id}/permissions`, admin, {})).status).toBe(422);
  });

  it('changes the active network (admin, or the user themselves)', async () => {
    const res = await call('PUT', `/users/${ids.teacher!}/active_network/${NETWORK}`, admin);
    expect(res.status).toBe(200);
    expect(
      (await call('GET', `/users/${ids.teacher!}`, admin, undefined, res.body.position as string)).body,
    ).toMatchObject({
      active_network: NETWORK,
    });
    // The user themselves: one of their networks only; an unknown network is 404.
    expect(
      (await call('PUT', `/users/${ids.teacher!}/active_network/${NETWORK}`, tokens.teacher)).status,
    ).toBe(200);
    expect(await call('PUT', `/users/${ids.teacher!}/active_network/${CUSTOMER_2}`, tokens.teacher)).toEqual({
      status: 404,
      body: { detail: 'Network not found' },
    });
    expect(
      (await call('PUT', `/users/${ids.trusted!}/active_network/${NETWORK}`, tokens.teacher)).status,
    ).toBe(403);
    expect((await call('PUT', `/users/${ids.teacher!}/active_network/nowhere`, admin)).body.detail).toContain(
      'networkId',
    );
  });

  it('adds, updates and removes contacts, with 404 for a missing contact and 422 naming the field', async () => {
    const id = ids.student1!;
    const added = await call('POST', `/users/${id}/contacts`, admin, {
      name: 'Mum',
      email: 'mum@example.com',
      relationship: 'Parent',
    });
    expect(added.status).toBe(201);
    const contactId = added.body.id as string;
    expect(
      (await call('GET', `/users/${id}`, admin, undefined, added.body.position as string)).body.contacts,
    ).toEqual([
      {
        id: contactId,
        name: 'Mum',
        email: 'mum@example.com',
        phone: null,
        relationship: 'Parent',
        notes: null,
      },
    ]);
    const updated = await call('PUT', `/users/${id}/contacts/${contactId}`, admin, {
      name: 'Mum',
      phone: '01234 567890',
    });
    expect(updated.status).toBe(200);
    expect(
      (await call('GET', `/users/${id}`, admin, undefined, updated.body.position as string)).body.contacts,
    ).toEqual([
      { id: contactId, name: 'Mum', email: null, phone: '01234 567890', relationship: null, notes: null },
    ]);
    expect(
      (await call('POST', `/users/${id}/contacts`, admin, { email: 'x@example.com' })).body.detail,
    ).toContain('name');
    expect(
      (await call('POST', `/users/${id}/contacts`, admin, { name: 'X', email: 'nope' })).body.detail,
    ).toContain('email');
    const removed = await call('DELETE', `/users/${id}/contacts/${contactId}`, admin);
    expect(removed.status).toBe(200);
    expect(
      (await call('GET', `/users/${id}`, admin, undefined, removed.body.position as string)).body.contacts,
    ).toEqual([]);
    expect(await call('DELETE', `/users/${id}/contacts/${contactId}`, admin)).toMatchObject({
      status: 404,
      body: { detail: 'Contact not found' },
    });
    expect((await call('PUT', `/users/${id}/contacts/${contactId}`, admin, { name: 'Dad' })).status).toBe(
      404,
    );
  });

  it('extends /users/me compatibly: permission_list, default timezone, type label', async () => {
    const me = await call('GET', '/users/me', tokens.partner);
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({
      id: ids.partner,
      login: 'head@school-one.example.com',
      user_type: 'partner',
      type_label: 'Customer',
      timezone: 'Europe/London',
      customer_id: CUSTOMER_1,
      impersonator_id: null,
    });
    expect(me.body.permission_list).toContain('USER_IS_PARTNER');
  });

  it('documents every users endpoint in the OpenAPI document', async () => {
    const doc = (await (await fetch(`${base}/api/docs-json`)).json()) as {
      paths: Record<string, Record<string, unknown>>;
    };
    const routes = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.keys(ops).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(routes).toEqual(
      expect.arrayContaining([
        'GET /api/v1/users',
        'POST /api/v1/users',
        'GET /api/v1/users/{id}',
        'PUT /api/v1/users/{id}',
        'PUT /api/v1/users/{id}/activate',
        'PUT /api/v1/users/{id}/deactivate',
        'PUT /api/v1/users/{id}/deactivate/schedule',
        'PUT /api/v1/users/{id}/block',
        'PUT /api/v1/users/{id}/unblock',
        'PUT /api/v1/users/{id}/set-quality-issue',
        'PUT /api/v1/users/{id}/unset-quality-issue',
        'PUT /api/v1/users/{id}/permissions',
        'PUT /api/v1/users/{id}/active_network/{networkId}',
        'POST /api/v1/users/{id}/contacts',
        'PUT /api/v1/users/{id}/contacts/{contactId}',
        'DELETE /api/v1/users/{id}/contacts/{contactId}',
      ]),
    );
  });

  it('authorizes every endpoint: no token 401, teacher 403, named-permission teacher, partner, admin', async () => {
    // Fresh targets, so that each row's outcomes do not depend on the other tests.
    await createUser('m_student', {
      email: 'm.student@example.com',
      first_name: 'M',
      last_name: 'Student',
      user_type: 'student',
      customer_id: CUSTOMER_1,
    });
    await createUser('m_teacher', {
      email: 'm.teacher@example.com',
      first_name: 'M',
      last_name: 'Teacher',
      user_type: 'teacher',
    });
    // Another administrator: only administrators act on administrators (decision 0037).
    await createUser('m_admin', {
      email: 'm.admin@example.com',
      first_name: 'M',
      last_name: 'Admin',
      user_type: 'super_admin',
    });
    const s = ids.m_student!;
    const t = ids.m_teacher!;
    const a = ids.m_admin!;
    const contact = await settle(await call('POST', `/users/${s}/contacts`, admin, { name: 'Aunt' }));
    const c = contact.body.id as string;
    const future = new Date(Date.now() + 86_400_000).toISOString();
    let n = 0;
    const newStudent = () => ({
      email: `matrix${++n}@example.com`,
      first_name: 'M',
      last_name: `${n}`,
      user_type: 'student',
      customer_id: CUSTOMER_1,
    });

    type Role = 'none' | 'teacher' | 'partner' | 'trusted' | 'admin';
    const order: Role[] = ['none', 'teacher', 'partner', 'trusted', 'admin'];
    const matrix: [string, string, (() => unknown) | undefined, Record<Role, number>][] = [
      ['GET', '/users/', undefined, { none: 401, teacher: 403, partner: 200, trusted: 403, admin: 200 }],
      ['GET', `/users/${s}`, undefined, { none: 401, teacher: 403, partner: 200, trusted: 403, admin: 200 }],
      ['POST', '/users/', newStudent, { none: 401, teacher: 403, partner: 201, trusted: 403, admin: 201 }],
      [
        'PUT',
        `/users/${s}`,
        () => ({ notes: 'n' }),
        { none: 401, teacher: 403, partner: 200, trusted: 403, admin: 200 },
      ],
      [
        'PUT',
        `/users/${s}/deactivate`,
        undefined,
        { none: 401, teacher: 403, partner: 200, trusted: 403, admin: 409 },
      ],
      [
        'PUT',
        `/users/${s}/activate`,
        undefined,
        { none: 401, teacher: 403, partner: 200, trusted: 403, admin: 409 },
      ],
      [
        'PUT',
        `/users/${s}/deactivate/schedule`,
        () => ({ date: future }),
        { none: 401, teacher: 403, partner: 200, trusted: 403, admin: 200 },
      ],
      [
        'PUT',
        `/users/${t}/block`,
        undefined,
        { none: 401, teacher: 403, partner: 403, trusted: 200, admin: 409 },
      ],
      [
        'PUT',
        `/users/${t}/unblock`,
        undefined,
        { none: 401, teacher: 403, partner: 403, trusted: 200, admin: 409 },
      ],
      [
        'PUT',
        `/users/${t}/set-quality-issue`,
        () => ({ reason: 'r' }),
        { none: 401, teacher: 403, partner: 403, trusted: 200, admin: 409 },
      ],
      [
        'PUT',
        `/users/${t}/unset-quality-issue`,
        undefined,
        { none: 401, teacher: 403, partner: 403, trusted: 200, admin: 409 },
      ],
      [
        'PUT',
        `/users/${t}/permissions`,
        () => ({ permissions: ['USER_IS_TEACHER'] }),
        { none: 401, teacher: 403, partner: 403, trusted: 403, admin: 200 },
      ],
      // A teacher holding the block, quality-issue and modify-user permissions acts on teachers, never
      // on administrators (decision 0037): they could otherwise lock every administrator out.
      [
        'PUT',
        `/users/${a}/block`,
        undefined,
        { none: 401, teacher: 403, partner: 403, trusted: 403, admin: 200 },
      ],
      [
        'PUT',
        `/users/${a}/unblock`,
        undefined,
        { none: 401, teacher: 403, partner: 403, trusted: 403, admin: 200 },
      ],
      [
        'PUT',
        `/users/${a}/set-quality-issue`,
        () => ({ reason: 'r' }),
        { none: 401, teacher: 403, partner: 403, trusted: 403, admin: 409 },
      ],
      [
        'PUT',
        `/users/${a}/unset-quality-issue`,
        undefined,
        { none: 401, teacher: 403, partner: 403, trusted: 403, admin: 409 },
      ],
      [
        'PUT',
        `/users/${a}/deactivate/schedule`,
        () => ({ date: future }),
        { none: 401, teacher: 403, partner: 404, trusted: 403, admin: 200 },
      ],
      [
        'PUT',
        `/users/${a}/deactivate`,
        undefined,
        { none: 401, teacher: 403, partner: 404, trusted: 403, admin: 200 },
      ],
      [
        'PUT',
        `/users/${a}/activate`,
        undefined,
        { none: 401, teacher: 403, partner: 404, trusted: 403, admin: 200 },
      ],
      [
        'PUT',
        `/users/${s}/active_network/${NETWORK}`,
        undefined,
        { none: 401, teacher: 403, partner: 403, trusted: 403, admin: 200 },
      ],
      [
        'POST',
        `/users/${s}/contacts`,
        () => ({ name: 'Uncle' }),
        { none: 401, teacher: 403, partner: 201, trusted: 403, admin: 201 },
      ],
      [
        'PUT',
        `/users/${s}/contacts/${c}`,
        () => ({ name: 'Aunt B' }),
        { none: 401, teacher: 403, partner: 200, trusted: 403, admin: 200 },
      ],
      [
        'DELETE',
        `/users/${s}/contacts/${c}`,
        undefined,
        { none: 401, teacher: 403, partner: 200, trusted: 403, admin: 404 },
      ],
      // EHCP (decision 0035): administrators and EHCP holders; requests only from a school's
      // (super) admin with EHCP and user-relations access, so nobody here may send one.
      [
        'GET',
        '/users/students/ehcp-reminder',
        undefined,
        { none: 401, teacher: 403, partner: 403, trusted: 403, admin: 200 },
      ],
      [
        'PUT',
        '/users/students/ehcp-reminder',
        () => [s],
        { none: 401, teacher: 403, partner: 403, trusted: 403, admin: 200 },
      ],
      [
        'PUT',
        `/users/students/${s}/ehcp-request`,
        () => [t],
        { none: 401, teacher: 403, partner: 403, trusted: 403, admin: 403 },
      ],
      [
        'GET',
        '/users/teachers_without_availability_set/report',
        undefined,
        { none: 401, teacher: 403, partner: 403, trusted: 403, admin: 200 },
      ],
    ];
    const tokenOf: Record<Role, string | undefined> = {
      none: undefined,
      teacher: tokens.teacher,
      partner: tokens.partner,
      trusted: tokens.trusted,
      admin,
    };
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
