import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  HARNESS_ADMIN,
  portalModes,
  startTestPortal,
  type TestPortal,
} from '../../platform/testing/portal-harness.js';

const CUSTOMER = '11111111-1111-4111-8111-111111111111';
const MISSING = '99999999-9999-4999-8999-999999999999';

describe.each(portalModes)('impersonation, $name', (mode) => {
  let portal: TestPortal;
  const ids: Record<string, string> = {};
  const tokens: Record<string, string> = {};

  const impersonate = (id: string, token?: string) => portal.call('POST', `/login/${id}/access-token`, token);
  const studentToken = (id: string, token?: string) =>
    portal.call('POST', `/users/${id}/student-impersonification-token`, token);

  beforeAll(async () => {
    portal = await startTestPortal(mode, 'portal_impersonation');
    const make = async (key: string, body: Record<string, unknown>) => {
      ids[key] = await portal.createUser({ first_name: key, last_name: 'Test', ...body });
    };
    await make('student', { email: 'student@example.com', user_type: 'student', customer_id: CUSTOMER });
    await make('student2', { email: 'student2@example.com', user_type: 'student', customer_id: CUSTOMER });
    await make('teacher', { email: 'teacher@example.com', user_type: 'teacher' });
    await make('impersonator', {
      email: 'impersonator@example.com',
      user_type: 'teacher',
      permissions: ['CAN_IMPERSONATE'],
    });
    await make('partner', {
      email: 'partner@example.com',
      user_type: 'partner',
      customer_id: CUSTOMER,
      customer_type: 'super-admin',
    });
    await make('admin2', { email: 'second.admin@example.com', user_type: 'super_admin' });
    await make('blocked', { email: 'blocked@example.com', user_type: 'student', customer_id: CUSTOMER });
    await make('gone', { email: 'gone@example.com', user_type: 'student', customer_id: CUSTOMER });
    await portal.settle(await portal.call('PUT', `/users/${ids.blocked}/block`, portal.admin));
    await portal.settle(await portal.call('PUT', `/users/${ids.gone}/deactivate`, portal.admin));
    tokens.teacher = await portal.tokenFor('teacher@example.com');
    tokens.impersonator = await portal.tokenFor('impersonator@example.com');
    tokens.partner = await portal.tokenFor('partner@example.com');
    const me = await portal.call('GET', '/users/me', portal.admin);
    ids.admin = me.body.id as string;
  }, 120_000);

  afterAll(async () => {
    await portal?.close();
  });

  it('gives an administrator a session of the user; /users/me shows the impersonator', async () => {
    const res = await impersonate(ids.student!, portal.admin);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['access_token', 'expires_in', 'token_type']);
    expect(res.body.token_type).toBe('bearer');
    expect(res.body.expires_in).toBe(12 * 3600); // SESSION_MAX_HOURS' default (decision 0039)
    const me = await portal.call('GET', '/users/me', res.body.access_token as string);
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ id: ids.student, user_type: 'student', impersonator_id: ids.admin });
    const own = await portal.call('GET', '/users/me', portal.admin);
    expect(own.body).toMatchObject({ login: HARNESS_ADMIN, impersonator_id: null });
  });

  it('records UserImpersonated and the impersonator on every event written in the session', async () => {
    const session = (await impersonate(ids.partner!, portal.admin)).body.access_token as string;
    // The impersonated partner edits one of their customer's students.
    const write = await portal.call('PUT', `/users/${ids.student2}`, session, {
      notes: 'Seen by the office',
    });
    expect(write.status).toBe(200);
    const partnerHistory = await portal.call('GET', `/audit/users/${ids.partner}/history`, portal.admin);
    expect(partnerHistory.status).toBe(200);
    expect(partnerHistory.body.items).toEqual([
      expect.objectContaining({ type: 'UserCreated' }),
      expect.objectContaining({
        type: 'UserImpersonated',
        actor_id: ids.admin,
        impersonator_id: null,
        data: { userId: ids.partner, impersonatorId: ids.admin, via: 'access-token' },
      }),
    ]);
    const studentHistory = await portal.call('GET', `/audit/users/${ids.student2}/history`, portal.admin);
    expect((studentHistory.body.items as Record<string, unknown>[]).at(-1)).toMatchObject({
      type: 'UserProfileUpdated',
      actor_id: ids.partner,
      impersonator_id: ids.admin,
    });
    // The same in the raw store.
    const raw = await portal.running.infra.eventStore.readStream(`user-${ids.student2}`);
    expect(raw.at(-1)!.metadata).toMatchObject({ actorId: ids.partner, impersonatorId: ids.admin });
  });

  it('refuses to impersonate from an impersonation session', async () => {
    const asTeacher = (await impersonate(ids.impersonator!, portal.admin)).body.access_token as string;
    const me = await portal.call('GET', '/users/me', asTeacher);
    expect(me.body).toMatchObject({ id: ids.impersonator, impersonator_id: ids.admin });
    const again = await impersonate(ids.student!, asTeacher);
    expect(again.status).toBe(409);
    expect(again.body.detail).toBe('You are already impersonating a user; return to your own account first');
    const student = await studentToken(ids.student!, asTeacher);
    expect(student.status).toBe(409);
  });

  it('refuses unknown, blocked, deactivated and administrator targets, and oneself', async () => {
    expect(await impersonate(MISSING, portal.admin)).toEqual({
      status: 404,
      body: { detail: 'User not found' },
    });
    // A malformed id is a validation error, as on every route (ADR 0038 amends 0012).
    expect(await impersonate('not-a-uuid', portal.admin)).toEqual({
      status: 422,
      body: { detail: 'id must be a UUID', errors: [{ field: 'id', message: 'id must be a UUID' }] },
    });
    expect(await impersonate(ids.blocked!, portal.admin)).toEqual({
      status: 409,
      body: { detail: 'User is blocked' },
    });
    expect(await impersonate(ids.gone!, portal.admin)).toEqual({
      status: 409,
      body: { detail: 'User is deactivated' },
    });
    expect(await impersonate(ids.admin2!, portal.admin)).toEqual({
      status: 403,
      body: { detail: 'Administrators cannot be impersonated' },
    });
    expect(await impersonate(ids.admin!, portal.admin)).toEqual({
      status: 409,
      body: { detail: 'You cannot impersonate yourself' },
    });
    const events = await portal.running.infra.eventStore.readStream(`user-${ids.blocked}`);
    expect(events.map((e) => e.type)).not.toContain('UserImpersonated');
  });

  it('gives a student token only for students', async () => {
    const ok = await studentToken(ids.student!, portal.admin);
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ token_type: 'bearer', expires_in: 12 * 3600 });
    const me = await portal.call('GET', '/users/me', ok.body.access_token as string);
    expect(me.body).toMatchObject({ id: ids.student, impersonator_id: ids.admin });
    const raw = await portal.running.infra.eventStore.readStream(`user-${ids.student}`);
    expect(raw.at(-1)).toMatchObject({ type: 'UserImpersonated', data: { via: 'student-token' } });
    expect(await studentToken(ids.teacher!, portal.admin)).toEqual({
      status: 409,
      body: { detail: 'Only students can be impersonated with a student token' },
    });
    expect((await studentToken(MISSING, portal.admin)).status).toBe(404);
  });

  it('ends the impersonation session when the impersonator loses access', async () => {
    const quitter = await portal.createUser({
      email: 'quitter@example.com',
      first_name: 'Q',
      last_name: 'Uitter',
      user_type: 'teacher',
      permissions: ['CAN_IMPERSONATE'],
    });
    const own = await portal.tokenFor('quitter@example.com');
    const session = (await impersonate(ids.student!, own)).body.access_token as string;
    expect((await portal.call('GET', '/users/me', session)).status).toBe(200);
    await portal.settle(await portal.call('PUT', `/users/${quitter}/block`, portal.admin));
    // Revoked at once (so the live channel drops it too), not only refused by the guard.
    const { rows } = await portal.running.infra.sql.query<{ open: string }>(
      'SELECT count(*)::text AS open FROM auth_sessions WHERE impersonator_id = $1 AND revoked_at IS NULL',
      [quitter],
    );
    expect(rows[0]!.open).toBe('0');
    expect((await portal.call('GET', '/users/me', session)).status).toBe(401);
  });

  it('authorizes: no token 401, teacher and partner 403, a teacher with CAN_IMPERSONATE only below teachers', async () => {
    type Role = 'none' | 'teacher' | 'partner' | 'impersonator' | 'admin';
    const order: Role[] = ['none', 'teacher', 'partner', 'impersonator', 'admin'];
    const tokenOf: Record<Role, string | undefined> = {
      none: undefined,
      teacher: tokens.teacher,
      partner: tokens.partner,
      impersonator: tokens.impersonator,
      admin: portal.admin,
    };
    const matrix: [string, string, Record<Role, number>][] = [
      [
        'POST',
        `/login/${ids.student}/access-token`,
        { none: 401, teacher: 403, partner: 403, impersonator: 200, admin: 200 },
      ],
      [
        'POST',
        `/login/${ids.partner}/access-token`,
        { none: 401, teacher: 403, partner: 403, impersonator: 200, admin: 200 },
      ],
      [
        'POST',
        `/login/${ids.teacher}/access-token`,
        { none: 401, teacher: 403, partner: 403, impersonator: 403, admin: 200 },
      ],
      [
        'POST',
        `/users/${ids.student}/student-impersonification-token`,
        { none: 401, teacher: 403, partner: 403, impersonator: 200, admin: 200 },
      ],
    ];
    const seen: string[] = [];
    const wanted: string[] = [];
    for (const [method, path, expected] of matrix) {
      for (const role of order) {
        const res = await portal.call(method, path, tokenOf[role]);
        seen.push(`${method} ${path} ${role} ${res.status}`);
        wanted.push(`${method} ${path} ${role} ${expected[role]}`);
      }
    }
    expect(seen).toEqual(wanted);
  });
});
