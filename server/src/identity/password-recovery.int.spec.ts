import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { pino } from 'pino';
import { startApp, type RunningApp } from '../app.js';
import { loadConfig } from '../platform/config/config.js';
import { waitFor } from '../platform/testing/wait-for.js';
import { ProjectionRunner } from '../platform/projections/projection-runner.js';
import { MAIL_MAX_PER_ADDRESS, MAIL_MAX_PER_CLIENT } from './mail-throttle.js';
import { RECOVERY_ANSWER } from './password-recovery.controller.js';
import { TokenLinks } from './token-links.js';

const ADMIN = 'recovery.admin@example.com';
const TEACHER = 'recovery.teacher@example.com';
const PASSWORD = 'correct horse battery staple';

interface Mail {
  to_address: string;
  body_text: string;
  delivery: string;
}

describe('password recovery by single-use, expiring token link (PGlite)', () => {
  let dataDir: string;
  let running: RunningApp;
  /** Warnings and errors the portal logged (JSON lines). */
  const logged: { msg: string; scope?: string; purpose?: string; address?: string }[] = [];

  const post = (path: string, body?: unknown) =>
    fetch(`${running.url}/api/v1${path}`, {
      method: 'POST',
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const login = (password: string) =>
    fetch(`${running.url}/api/v1/login/access-token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ username: ADMIN, password }),
    });
  async function outbox(token: string): Promise<Mail[]> {
    const res = await fetch(`${running.url}/api/v1/mail-outbox`, {
      headers: { RequestVerificationToken: token },
    });
    expect(res.status).toBe(200);
    return ((await res.json()) as { items: Mail[] }).items;
  }

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'portal-recovery-'));
    running = await startApp(
      loadConfig({
        PORT: '0',
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        FIRST_SUPERUSER: ADMIN,
        FIRST_SUPERUSER_PASSWORD: PASSWORD,
        PUBLIC_URL: 'https://portal.example.org',
      }),
      pino(
        { level: 'warn' },
        { write: (line: string) => void logged.push(JSON.parse(line) as (typeof logged)[number]) },
      ),
    );
    // A second account to recover, created while the administrator's first password still works.
    const admin = ((await (await login(PASSWORD)).json()) as { access_token: string }).access_token;
    const created = await fetch(`${running.url}/api/v1/users/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', RequestVerificationToken: admin },
      body: JSON.stringify({
        email: TEACHER,
        first_name: 'Rae',
        last_name: 'Teacher',
        user_type: 'teacher',
        password: PASSWORD,
      }),
    });
    expect(created.status).toBe(201);
    const { position } = (await created.json()) as { position: string };
    await running.app.get(ProjectionRunner).waitForPosition(BigInt(position), 10_000);
  });
  afterAll(async () => {
    await running?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('answers the same whether or not the address has an account, and mails a link only to real ones', async () => {
    const session = ((await (await login(PASSWORD)).json()) as { access_token: string }).access_token;
    const unknown = await post('/password-recovery/nobody@example.com');
    const known = await post(`/password-recovery/${encodeURIComponent(ADMIN)}`);
    expect(unknown.status).toBe(200);
    expect(known.status).toBe(200);
    expect(await unknown.json()).toEqual({ msg: RECOVERY_ANSWER });
    expect(await known.json()).toEqual({ msg: RECOVERY_ANSWER });

    const mails = await waitFor('the recovery mail to be delivered (logged)', async () => {
      const all = await outbox(session);
      return all.some((m) => m.to_address === ADMIN && m.delivery === 'logged') ? all : null;
    });
    expect(mails.filter((m) => m.to_address === 'nobody@example.com')).toEqual([]);
    const link = /https:\/\/portal\.example\.org\/passwordreset\?token=([A-Za-z0-9_-]{43})/.exec(
      mails.find((m) => m.to_address === ADMIN)!.body_text,
    );
    expect(link).not.toBeNull();
    const token = link![1]!;

    const tooShort = await post('/set-new-password', { token, password: 'short' });
    expect(tooShort.status).toBe(422);
    expect(((await tooShort.json()) as { detail: string }).detail).toMatch(/password/);

    const changed = await post('/set-new-password', { token, password: 'a brand new passphrase' });
    expect(changed.status).toBe(200);
    // The old session ended with the password change; the old password no longer works; the new one does.
    const old = await fetch(`${running.url}/api/v1/users/me`, {
      headers: { RequestVerificationToken: session },
    });
    expect(old.status).toBe(401);
    expect((await login(PASSWORD)).status).toBe(401);
    expect((await login('a brand new passphrase')).status).toBe(200);

    // Single use.
    const again = await post('/set-new-password', { token, password: 'yet another passphrase' });
    expect(again.status).toBe(400);
    expect(((await again.json()) as { detail: string }).detail).toMatch(/invalid or has expired/);
  });

  it('refuses an expired or made-up link', async () => {
    const expired = await running.app
      .get(TokenLinks)
      .issue('password-reset', running.firstSuperuser.userId, 0);
    expect(
      (await post('/set-new-password', { token: expired, password: 'whatever passphrase' })).status,
    ).toBe(400);
    const madeUp = 'A'.repeat(43);
    expect((await post('/set-new-password', { token: madeUp, password: 'whatever passphrase' })).status).toBe(
      400,
    );
    expect(
      (await post('/set-new-password', { token: 'short', password: 'whatever passphrase' })).status,
    ).toBe(422);
  });

  it('limits recovery mails per address and per client address, answering the same either way', async () => {
    const recover = async (email: string, client: string) => {
      const res = await fetch(`${running.url}/api/v1/password-recovery/${encodeURIComponent(email)}`, {
        method: 'POST',
        headers: { 'x-forwarded-for': client },
      });
      return { status: res.status, body: await res.json() };
    };
    const mailsTo = async (email: string) =>
      (
        await running.infra.sql.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM mail_outbox WHERE to_address = $1',
          [email],
        )
      ).rows[0]!.n;
    const limits = (scope: string) =>
      logged.filter((l) => l.msg === 'mail rate limit reached: no mail sent' && l.scope === scope);
    const answer = { status: 200, body: { msg: RECOVERY_ANSWER } };

    // Per address: whoever asks, at most MAIL_MAX_PER_ADDRESS mails an hour (one went out above).
    for (let i = 1; i <= MAIL_MAX_PER_ADDRESS + 1; i++)
      expect(await recover(ADMIN, `198.51.100.${i}`)).toEqual(answer);
    await waitFor('the address limit to be logged twice', () =>
      limits('address').length === 2 ? true : null,
    );
    await waitFor('the allowed mails', async () =>
      (await mailsTo(ADMIN)) === MAIL_MAX_PER_ADDRESS ? true : null,
    );
    expect(limits('address')[0]).toMatchObject({
      purpose: 'password-recovery',
      address: expect.stringMatching(/^[0-9a-f]{16}$/),
    });
    expect(JSON.stringify(logged)).not.toContain(ADMIN);

    // Per client: after MAIL_MAX_PER_CLIENT requests (unknown addresses count too), nothing more from it.
    for (let i = 1; i <= MAIL_MAX_PER_CLIENT; i++)
      expect(await recover(`nobody.${i}@example.com`, '203.0.113.7')).toEqual(answer);
    expect(await recover(TEACHER, '203.0.113.7')).toEqual(answer);
    await waitFor('the client limit to be logged', () => (limits('client').length === 1 ? true : null));
    expect(await mailsTo(TEACHER)).toBe(0);
    // The same address from another client still gets its mail.
    expect(await recover(TEACHER, '203.0.113.8')).toEqual(answer);
    await waitFor('the teacher’s mail', async () => ((await mailsTo(TEACHER)) === 1 ? true : null));
  });
});
