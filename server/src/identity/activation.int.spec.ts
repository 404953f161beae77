import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { portalModes, startTestPortal, type TestPortal } from '../platform/testing/portal-harness.js';
import { TokenLinks } from './token-links.js';
import { TEST_PUBLIC_URL, mailedToken, mailsTo } from './testing/mailed-links.js';

const login = (portal: TestPortal, username: string, password: string) =>
  fetch(`${portal.base}/api/v1/login/access-token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ username, password }),
  });

describe.each(portalModes)('account activation by mailed link, $name', (mode) => {
  let portal: TestPortal;

  beforeAll(async () => {
    portal = await startTestPortal(mode, 'portal_activation', { PUBLIC_URL: TEST_PUBLIC_URL });
  }, 60_000);
  afterAll(async () => {
    await portal?.close();
  });

  async function createWithoutPassword(email: string) {
    const { call, admin, settle } = portal;
    const created = await settle(
      await call('POST', '/users/', admin, {
        email,
        first_name: 'Ada',
        last_name: 'Newcomer',
        user_type: 'teacher',
      }),
    );
    return created.body.id as string;
  }

  it('mails a link to a user created without a password; the link sets the password once', async () => {
    const { call, admin } = portal;
    const email = 'ada.newcomer@example.com';
    const id = await createWithoutPassword(email);
    const token = await mailedToken(portal, email, '/activate');
    const [mail] = await mailsTo(portal, email);
    expect(mail!.subject).toBe('Activate your Tutoring Portal account');
    expect(mail!.body_text).toContain('Hello Ada,');
    expect(mail!.body_text).toContain('7 days');

    expect((await call('GET', `/users/${id}`, admin)).body).toMatchObject({ is_activated: false });
    expect((await login(portal, email, 'a chosen passphrase')).status).toBe(401);

    // Checking the link does not use it up.
    for (let i = 0; i < 2; i++)
      expect(await call('GET', `/activate/${token}`)).toEqual({
        status: 200,
        body: { valid: true, login: email, first_name: 'Ada', last_name: 'Newcomer' },
      });

    const short = await call('POST', '/activate', undefined, { token, password: 'short' });
    expect(short.status).toBe(422);
    expect(short.body.detail).toMatch(/password/);

    const done = await portal.settle(
      await call('POST', '/activate', undefined, { token, password: 'a chosen passphrase' }),
    );
    expect(done.status).toBe(200);
    expect((await login(portal, email, 'a chosen passphrase')).status).toBe(200);
    expect((await call('GET', `/users/${id}`, admin)).body).toMatchObject({ is_activated: true });
    const events = await portal.running.infra.eventStore.readStream(`user-${id}`);
    expect(events.map((e) => e.type)).toEqual(['UserCreated', 'AccountActivated']);
    expect(events[1]!.metadata.actorId).toBe(id);

    // Single use: both the check and a second use answer the invalid-token shape.
    for (const again of [
      await call('GET', `/activate/${token}`),
      await call('POST', '/activate', undefined, { token, password: 'another passphrase' }),
    ]) {
      expect(again.status).toBe(400);
      expect(again.body).toMatchObject({ code: 'INVALID_TOKEN', detail: expect.stringMatching(/invalid/) });
    }
    expect((await login(portal, email, 'another passphrase')).status).toBe(401);
  });

  it('refuses expired, made-up and other-purpose links', async () => {
    const { call } = portal;
    const id = await createWithoutPassword('late.comer@example.com');
    const links = portal.running.app.get(TokenLinks);
    const expired = await links.issue('activation', id, 0);
    const otherPurpose = await links.issue('password-reset', id, 60);
    for (const token of [expired, otherPurpose, 'A'.repeat(43), 'not-even-a-token']) {
      const checked = await call('GET', `/activate/${token}`);
      expect(checked).toMatchObject({ status: 400, body: { code: 'INVALID_TOKEN' } });
    }
    for (const token of [expired, otherPurpose, 'A'.repeat(43)]) {
      const used = await call('POST', '/activate', undefined, { token, password: 'whatever passphrase' });
      expect(used).toMatchObject({ status: 400, body: { code: 'INVALID_TOKEN' } });
    }
  });

  it('sends no link to users created with a password, who are active at once', async () => {
    const { call, admin } = portal;
    const id = await portal.createUser({
      email: 'has.password@example.com',
      first_name: 'Has',
      last_name: 'Password',
      user_type: 'teacher',
    });
    expect((await call('GET', `/users/${id}`, admin)).body).toMatchObject({ is_activated: true });
    expect(await mailsTo(portal, 'has.password@example.com')).toEqual([]);
  });

  it('a newer link replaces an older one; an administrator setting a password also activates', async () => {
    const { call, admin } = portal;
    const email = 'twice.mailed@example.com';
    const id = await createWithoutPassword(email);
    const first = await mailedToken(portal, email, '/activate');
    const resent = await call('POST', `/users/${id}/activation-link`, admin);
    expect(resent).toEqual({
      status: 200,
      body: { msg: `A new activation link has been sent to ${email}.` },
    });
    const second = await mailedToken(portal, email, '/activate', 1);
    expect(second).not.toBe(first);
    expect((await call('GET', `/activate/${first}`)).status).toBe(400);
    await portal.settle(await call('PUT', `/users/${id}`, admin, { password: 'set by the office' }));
    expect((await call('GET', `/users/${id}`, admin)).body).toMatchObject({ is_activated: true });
    // The pending link no longer activates an account that is already active.
    expect((await call('GET', `/activate/${second}`)).status).toBe(400);
    const late = await call('POST', '/activate', undefined, { token: second, password: 'too late now' });
    expect(late).toMatchObject({ status: 400, body: { code: 'INVALID_TOKEN' } });
    expect((await login(portal, email, 'set by the office')).status).toBe(200);
    expect(await call('POST', `/users/${id}/activation-link`, admin)).toMatchObject({
      status: 409,
      body: { detail: 'Account is already activated' },
    });
  });

  it('lets administrators, and partners who may add that kind of user, send a new link', async () => {
    const { call, admin, settle } = portal;
    const oak = (await settle(await call('POST', '/customers/', admin, { name: 'Oakfield' }))).body
      .id as string;
    await portal.createUser({
      email: 'head@oak.example.com',
      first_name: 'H',
      last_name: 'O',
      user_type: 'partner',
      customer_id: oak,
      customer_type: 'super-admin',
    });
    await portal.createUser({
      email: 'plain@example.com',
      first_name: 'P',
      last_name: 'T',
      user_type: 'teacher',
    });
    const pupil = (
      await settle(
        await call('POST', '/users/', admin, {
          email: 'pupil@oak.example.com',
          first_name: 'Pip',
          last_name: 'Pupil',
          user_type: 'student',
          customer_id: oak,
        }),
      )
    ).body.id as string;
    const path = `/users/${pupil}/activation-link`;
    expect((await call('POST', path)).status).toBe(401);
    expect((await call('POST', path, await portal.tokenFor('plain@example.com'))).status).toBe(403);
    expect((await call('POST', path, await portal.tokenFor('head@oak.example.com'))).status).toBe(200);
    expect((await call('POST', path, admin)).status).toBe(200);
    expect(await mailsTo(portal, 'pupil@oak.example.com')).toHaveLength(3);
    expect(
      (await call('POST', '/users/99999999-9999-4999-8999-999999999999/activation-link', admin)).status,
    ).toBe(404);
  });
});
