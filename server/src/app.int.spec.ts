import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { PATH_METADATA } from '@nestjs/common/constants.js';
import { DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';
import { pino } from 'pino';
import { startApp, type RunningApp } from './app.js';
import { loadConfig } from './platform/config/config.js';
import { IS_PUBLIC, REQUIRED_PERMISSIONS } from './platform/auth/public.decorator.js';
import { ALLOW, type Rule } from './platform/auth/allow.decorator.js';
import { SessionService } from './platform/auth/session.service.js';
import { createTestDatabase, type TestDatabase } from './platform/testing/postgres-test-database.js';
import { StartupError } from './platform/infrastructure.js';

const silent = pino({ level: 'silent' });
const ADMIN = 'head.office@example.com';
const PASSWORD = 'correct horse battery staple';

async function login(base: string, username = ADMIN, password = PASSWORD): Promise<Response> {
  return fetch(`${base}/api/v1/login/access-token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ username, password }),
  });
}

async function token(base: string): Promise<string> {
  const res = await login(base);
  expect(res.status).toBe(200);
  return ((await res.json()) as { access_token: string }).access_token;
}

describe('portal app, embedded mode (PGlite in DATA_DIR)', () => {
  let dataDir: string;
  let running: RunningApp;
  let base: string;
  const config = () =>
    loadConfig({
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      FIRST_SUPERUSER: ADMIN,
      FIRST_SUPERUSER_PASSWORD: PASSWORD,
      READ_YOUR_WRITES_TIMEOUT_MS: '300',
    });

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'portal-app-'));
    running = await startApp(config(), silent);
    base = running.url;
  });
  afterAll(async () => {
    await running?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('reports store mode, projection positions and lag at /api/v1/health', async () => {
    const res = await fetch(`${base}/api/v1/health`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown> & { projections: Record<string, unknown>[] };
    expect(body).toMatchObject({
      status: 'ok',
      mode: 'embedded',
      event_store: 'pglite',
      projection_leader: true,
    });
    expect(body.projections).toContainEqual(expect.objectContaining({ name: 'users', lag: '0' }));
    expect(BigInt(body.head_position as string)).toBeGreaterThanOrEqual(1n);
  });

  it('created the first administrator from FIRST_SUPERUSER as an event, and lets them sign in', async () => {
    expect(running.firstSuperuser).toMatchObject({ created: true, email: ADMIN });
    const events = await running.infra.eventStore.readStream(`user-${running.firstSuperuser.userId}`);
    expect(events.map((e) => e.type)).toEqual(['UserCreated']);
    expect(JSON.stringify(events[0]!.data)).not.toContain(PASSWORD);
    const t = await token(base);
    const variants: Record<string, string>[] = [
      { RequestVerificationToken: t },
      { Authorization: `Bearer ${t}` },
    ];
    for (const headers of variants) {
      const me = await fetch(`${base}/api/v1/users/me`, { headers });
      expect(me.status).toBe(200);
      expect(await me.json()).toMatchObject({
        login: ADMIN,
        user_type: 'super_admin',
        permission_list: ['USER_IS_ADMIN'],
      });
    }
  });

  it('answers auth failures as the spec says: 401 without token, 403 for an unverifiable one, 401 once ended', async () => {
    const wrong = await login(base, ADMIN, 'not the password');
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toEqual({ detail: 'Incorrect email or password' });
    const unknown = await login(base, 'nobody@example.com', 'whatever');
    expect(unknown.status).toBe(401);

    expect((await fetch(`${base}/api/v1/users/me`)).status).toBe(401);
    const forged = await fetch(`${base}/api/v1/users/me`, {
      headers: { RequestVerificationToken: 'x'.repeat(43) },
    });
    expect(forged.status).toBe(403);
    expect(await forged.json()).toEqual({ detail: 'Could not validate credentials' });

    const t = await token(base);
    await running.app.get(SessionService).revokeAllForUser(running.firstSuperuser.userId);
    const ended = await fetch(`${base}/api/v1/users/me`, { headers: { RequestVerificationToken: t } });
    expect(ended.status).toBe(401);
  });

  it('throttles sign-in per account: after 5 failures the account answers 429 with Retry-After', async () => {
    const target = 'locked.out@example.com';
    for (let i = 0; i < 5; i++) expect((await login(base, target, `wrong-${i}`)).status).toBe(401);
    const locked = await login(base, target, 'wrong-again');
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(((await locked.json()) as { detail: string }).detail).toMatch(/Too many failed sign-in attempts/);
    // Other accounts are not affected.
    expect((await login(base)).status).toBe(200);
  });

  it('answers bad input with a clear 4xx detail: malformed JSON 400, a missing field 422 naming it', async () => {
    const malformed = await fetch(`${base}/api/v1/login/access-token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"username": ',
    });
    expect(malformed.status).toBe(400);
    expect(typeof ((await malformed.json()) as { detail: unknown }).detail).toBe('string');

    const missing = await fetch(`${base}/api/v1/login/access-token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ username: ADMIN }),
    });
    expect(missing.status).toBe(422);
    const body = (await missing.json()) as { detail: string; errors: { field: string }[] };
    expect(body.detail).toMatch(/password/);
    expect(body.errors.map((e) => e.field)).toEqual(['password']);
  });

  it('waits for X-Min-Position (read-your-writes) and answers 503 when the projections cannot get there in time', async () => {
    const t = await token(base);
    const head = await running.infra.eventStore.headPosition();
    const ok = await fetch(`${base}/api/v1/users/me`, {
      headers: { RequestVerificationToken: t, 'X-Min-Position': head.toString() },
    });
    expect(ok.status).toBe(200);
    const future = await fetch(`${base}/api/v1/users/me`, {
      headers: { RequestVerificationToken: t, 'X-Min-Position': (head + 1000n).toString() },
    });
    expect(future.status).toBe(503);
    expect(((await future.json()) as { detail: string }).detail).toMatch(/not yet caught up/);
    const invalid = await fetch(`${base}/api/v1/users/me`, {
      headers: { RequestVerificationToken: t, 'X-Min-Position': 'soon' },
    });
    expect(invalid.status).toBe(400);
  });

  it('documents itself: OpenAPI at /api/docs-json and the UI at /api/docs', async () => {
    const doc = (await (await fetch(`${base}/api/docs-json`)).json()) as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/api/v1/health', '/api/v1/login/access-token', '/api/v1/users/me']),
    );
    const ui = await fetch(`${base}/api/docs`);
    expect(ui.status).toBe(200);
    expect(await ui.text()).toContain('swagger');
  });

  it('guards every route: each handler is @Public() or names what it requires (permissions or @Allow rules)', () => {
    const discovery = running.app.get(DiscoveryService);
    const scanner = running.app.get(MetadataScanner);
    const reflector = running.app.get(Reflector);
    const unguarded: string[] = [];
    let routes = 0;
    for (const wrapper of discovery.getControllers()) {
      const instance = wrapper.instance as object;
      const proto = Object.getPrototypeOf(instance) as Record<string, unknown>;
      for (const name of scanner.getAllMethodNames(proto)) {
        const handler = proto[name] as () => unknown;
        if (Reflect.getMetadata(PATH_METADATA, handler) === undefined) continue; // a helper, not a route
        routes++;
        const targets = [handler, instance.constructor];
        const isPublic = reflector.getAllAndOverride<boolean>(IS_PUBLIC, targets);
        const required = reflector.getAllAndOverride<string[] | undefined>(REQUIRED_PERMISSIONS, targets);
        const rules = reflector.getAllAndOverride<Rule[] | undefined>(ALLOW, targets);
        const allowed = rules !== undefined && rules.length > 0;
        if (!isPublic && required === undefined && !allowed)
          unguarded.push(`${instance.constructor.name}.${name}`);
      }
    }
    expect(routes).toBeGreaterThanOrEqual(20);
    expect(unguarded).toEqual([]);
  });

  it('refuses a second portal on the same DATA_DIR with a message naming it', async () => {
    await expect(startApp(config(), silent)).rejects.toThrow(StartupError);
    await expect(startApp(config(), silent)).rejects.toThrow(/DATA_DIR/);
  });

  it('keeps everything across a restart and does not create the administrator twice', async () => {
    await running.close();
    running = await startApp(config(), silent);
    base = running.url;
    expect(running.firstSuperuser.created).toBe(false);
    await token(base);
    const events = await running.infra.eventStore.readStream(`user-${running.firstSuperuser.userId}`);
    expect(events).toHaveLength(1);
  });
});

describe('portal app, server mode (PostgreSQL via DATABASE_URL)', () => {
  let db: TestDatabase;
  let running: RunningApp;
  beforeAll(async () => {
    db = await createTestDatabase('portal_app');
    running = await startApp(
      loadConfig({ PORT: '0', HOST: '127.0.0.1', DATABASE_URL: db.url, FIRST_SUPERUSER_PASSWORD: PASSWORD }),
      silent,
    );
  });
  afterAll(async () => {
    await running?.close();
    await db.drop();
  });

  it('runs on PostgreSQL and signs the first administrator in', async () => {
    const health = (await (await fetch(`${running.url}/api/v1/health`)).json()) as Record<string, unknown>;
    expect(health).toMatchObject({ mode: 'server', event_store: 'postgres' });
    const res = await login(running.url, 'admin@example.com', PASSWORD);
    expect(res.status).toBe(200);
  });

  it('exits with a message naming DATABASE_URL when PostgreSQL cannot be reached', async () => {
    const config = loadConfig({
      PORT: '0',
      DATABASE_URL: 'postgres://postgres@127.0.0.1:1/nothing',
      FIRST_SUPERUSER_PASSWORD: PASSWORD,
    });
    await expect(startApp(config, silent)).rejects.toThrow(/DATABASE_URL/);
  });
});
