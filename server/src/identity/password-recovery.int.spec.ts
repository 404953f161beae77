import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { pino } from 'pino';
import { startApp, type RunningApp } from '../app.js';
import { loadConfig } from '../platform/config/config.js';
import { waitFor } from '../platform/testing/wait-for.js';
import { RECOVERY_ANSWER } from './password-recovery.controller.js';
import { TokenLinks } from './token-links.js';

const ADMIN = 'recovery.admin@example.com';
const PASSWORD = 'correct horse battery staple';

interface Mail {
  to_address: string;
  body_text: string;
  delivery: string;
}

describe('password recovery by single-use, expiring token link (PGlite)', () => {
  let dataDir: string;
  let running: RunningApp;

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
      pino({ level: 'silent' }),
    );
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
});
