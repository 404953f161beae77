import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  HARNESS_PASSWORD,
  portalModes,
  startTestPortal,
  type TestPortal,
} from '../platform/testing/portal-harness.js';
import { TEST_PUBLIC_URL, mailedToken } from './testing/mailed-links.js';

describe.each(portalModes)('current user profile and settings, $name', (mode) => {
  let portal: TestPortal;
  let id: string;
  let me: string;
  let other: string;

  beforeAll(async () => {
    portal = await startTestPortal(mode, 'portal_current_user', { PUBLIC_URL: TEST_PUBLIC_URL });
    id = await portal.createUser({
      email: 'tess@example.com',
      first_name: 'Tess',
      last_name: 'Teacher',
      user_type: 'teacher',
    });
    await portal.createUser({
      email: 'other@example.com',
      first_name: 'O',
      last_name: 'T',
      user_type: 'teacher',
    });
    me = await portal.tokenFor('tess@example.com');
    other = await portal.tokenFor('other@example.com');
  }, 60_000);
  afterAll(async () => {
    await portal?.close();
  });

  const put = (path: string, body: unknown, token = me) =>
    portal.call('PUT', `/users/me${path}`, token, body);
  const current = async () => (await portal.call('GET', '/users/me', me)).body;

  it('changes the own names, and nothing else, through PUT /users/me', async () => {
    await portal.settle(await put('', { first_name: ' Tessa ', last_name: 'Teach' }));
    expect(await current()).toMatchObject({
      id,
      first_name: 'Tessa',
      last_name: 'Teach',
      full_name: 'Tessa Teach',
    });
    expect((await put('', { first_name: '' })).body.detail).toMatch(/^first_name/);
    const email = await put('', { email: 'new@example.com' });
    expect(email.status).toBe(422);
    expect(email.body.detail).toMatch(/email/);
  });

  it('sets timezone, birth date, weekly summaries and lessons per week, shown by GET /users/me', async () => {
    const before = await current();
    expect(before).toMatchObject({
      timezone: 'Europe/London',
      birth_date: null,
      receive_weekly_summary_reports: false,
      requested_number_of_lessons_per_week: null,
      notification_email: null,
    });
    await portal.settle(await put('/timezone', { timezone: 'America/New_York' }));
    await portal.settle(await put('/birth_date', { birth_date: '1990-02-28' }));
    await portal.settle(await put('/receive_weekly_summary_reports', { value: true }));
    await portal.settle(
      await put('/requested_number_of_lessons', { requested_number_of_lessons_per_week: 4 }),
    );
    expect(await current()).toMatchObject({
      timezone: 'America/New_York',
      birth_date: '1990-02-28',
      receive_weekly_summary_reports: true,
      requested_number_of_lessons_per_week: 4,
    });
    // The same value again writes nothing; null clears.
    const store = portal.running.infra.eventStore;
    const count = (await store.readStream(`user-${id}`)).length;
    await portal.settle(await put('/receive_weekly_summary_reports', { value: true }));
    expect((await store.readStream(`user-${id}`)).length).toBe(count);
    await portal.settle(await put('/birth_date', { birth_date: null }));
    expect(await current()).toMatchObject({ birth_date: null });
    const types = (await store.readStream(`user-${id}`)).map((e) => e.type);
    expect(types.filter((t) => t === 'UserSettingsChanged')).toHaveLength(4);
  });

  it('refuses bad values with 422 naming the field', async () => {
    const cases: [string, unknown, RegExp][] = [
      ['/timezone', { timezone: 'Mars/Olympus_Mons' }, /^timezone/],
      ['/timezone', {}, /^timezone/],
      ['/birth_date', { birth_date: '28.02.1990' }, /^birth_date/],
      ['/birth_date', { birth_date: '1990-02-30' }, /^birth_date: is not a calendar date/],
      ['/birth_date', { birth_date: '2999-01-01' }, /^birth_date: cannot be in the future/],
      ['/receive_weekly_summary_reports', { value: 'yes' }, /^value/],
      [
        '/requested_number_of_lessons',
        { requested_number_of_lessons_per_week: 51 },
        /^requested_number_of_lessons_per_week/,
      ],
      [
        '/requested_number_of_lessons',
        { requested_number_of_lessons_per_week: -1 },
        /^requested_number_of_lessons_per_week/,
      ],
      [
        '/requested_number_of_lessons',
        { requested_number_of_lessons_per_week: 2.5 },
        /^requested_number_of_lessons_per_week/,
      ],
      ['/notification_email', { email: 'not-an-address' }, /^email/],
    ];
    for (const [path, body, detail] of cases) {
      const answer = await put(path, body);
      expect({ path, body, status: answer.status }).toEqual({ path, body, status: 422 });
      expect(answer.body.detail).toMatch(detail);
    }
  });

  it('a new notification e-mail takes effect only once verified through the mailed link', async () => {
    await portal.settle(await put('/notification_email', { email: 'tess@home.example.com' }));
    expect(await current()).toMatchObject({
      notification_email: null,
      pending_notification_email: 'tess@home.example.com',
    });
    const token = await mailedToken(portal, 'tess@home.example.com', '/profile');
    // Another user's session cannot use (nor use up) the link.
    const stranger = await portal.call('GET', `/users/me/notification_email/verify?token=${token}`, other);
    expect(stranger).toMatchObject({ status: 400, body: { code: 'INVALID_TOKEN' } });
    expect((await portal.call('GET', `/users/me/notification_email/verify?token=${token}`)).status).toBe(401);

    const verified = await portal.settle(
      await portal.call('GET', `/users/me/notification_email/verify?token=${token}`, me),
    );
    expect(verified.body).toMatchObject({ notification_email: 'tess@home.example.com' });
    expect(await current()).toMatchObject({
      notification_email: 'tess@home.example.com',
      pending_notification_email: null,
    });
    const again = await portal.call('GET', `/users/me/notification_email/verify?token=${token}`, me);
    expect(again).toMatchObject({ status: 400, body: { code: 'INVALID_TOKEN' } });

    // A second change: only the newest link works, and the verified address stays until then.
    await portal.settle(await put('/notification_email', { email: 'first@home.example.com' }));
    const first = await mailedToken(portal, 'first@home.example.com', '/profile');
    await portal.settle(await put('/notification_email', { email: 'second@home.example.com' }));
    const second = await mailedToken(portal, 'second@home.example.com', '/profile');
    expect((await portal.call('GET', `/users/me/notification_email/verify?token=${first}`, me)).status).toBe(
      400,
    );
    expect(await current()).toMatchObject({ notification_email: 'tess@home.example.com' });
    await portal.settle(await portal.call('GET', `/users/me/notification_email/verify?token=${second}`, me));
    expect(await current()).toMatchObject({ notification_email: 'second@home.example.com' });
  });

  it('changes the own password with the current one; every session ends, the new password signs in', async () => {
    const user = await portal.createUser({
      email: 'pat.password@example.com',
      first_name: 'Pat',
      last_name: 'Password',
      user_type: 'teacher',
    });
    const session = await portal.tokenFor('pat.password@example.com');
    const second = await portal.tokenFor('pat.password@example.com');
    const change = (body: unknown) => put('/password', body, session);

    const wrong = await change({ current_password: 'not it at all', password: 'A-new-password-1' });
    expect(wrong).toMatchObject({
      status: 422,
      body: { detail: 'current_password: is not your current password' },
    });
    expect((await change({ current_password: HARNESS_PASSWORD, password: 'short' })).body.detail).toMatch(
      /^password must be at least 8 characters/,
    );
    const same = await change({ current_password: HARNESS_PASSWORD, password: HARNESS_PASSWORD });
    expect(same.body.detail).toBe('password: must differ from the current password');
    // Nothing was changed by the refused attempts: the old password still signs in.
    expect((await portal.call('GET', '/users/me', session)).status).toBe(200);

    const done = await change({ current_password: HARNESS_PASSWORD, password: 'A-new-password-1' });
    expect(done.status).toBe(200);
    await portal.settle(done);
    // Every session of the user ended, this one included.
    expect((await portal.call('GET', '/users/me', session)).status).toBe(401);
    expect((await portal.call('GET', '/users/me', second)).status).toBe(401);
    const fresh = await portal.tokenFor('pat.password@example.com', 'A-new-password-1');
    expect((await portal.call('GET', '/users/me', fresh)).body).toMatchObject({ id: user });
    // The change is in the user's history as an event, without the password.
    const history = await portal.call('GET', `/audit/users/${user}/history`, portal.admin);
    const changed = (history.body.items as { type: string; data: unknown }[]).find(
      (e) => e.type === 'PasswordChanged',
    );
    expect(changed).toBeDefined();
    expect(JSON.stringify(changed)).not.toContain('A-new-password-1');
  });

  it('needs a session for every /users/me route', async () => {
    const routes: [string, string][] = [
      ['PUT', '/users/me'],
      ['PUT', '/users/me/timezone'],
      ['PUT', '/users/me/birth_date'],
      ['PUT', '/users/me/receive_weekly_summary_reports'],
      ['PUT', '/users/me/requested_number_of_lessons'],
      ['PUT', '/users/me/notification_email'],
      ['PUT', '/users/me/password'],
      ['GET', '/users/me/notification_email/verify?token=x'],
    ];
    for (const [method, path] of routes)
      expect((await portal.call(method, path, undefined, method === 'GET' ? undefined : {})).status).toBe(
        401,
      );
  });
});
