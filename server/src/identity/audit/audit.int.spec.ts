import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { pino } from 'pino';
import { startApp, type RunningApp } from '../../app.js';
import { loadConfig } from '../../platform/config/config.js';
import { ProjectionRunner } from '../../platform/projections/projection-runner.js';

const ADMIN = 'auditor.admin@example.com';
const PASSWORD = 'correct horse battery staple';

type Json = Record<string, unknown>;

describe('audit: replayable account and permission history (PGlite)', () => {
  let dataDir: string;
  let running: RunningApp;
  let admin: string;
  let teacher: string;
  let teacherId: string;
  const moments: Record<string, string> = {};

  async function call(method: string, path: string, token: string, body?: unknown) {
    const res = await fetch(`${running.url}/api/v1${path}`, {
      method,
      headers: {
        RequestVerificationToken: token,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : {}) as Json };
  }

  async function command(method: string, path: string, body?: unknown) {
    const answer = await call(method, path, admin, body);
    expect(answer.status).toBeLessThan(300);
    await running.app.get(ProjectionRunner).waitForPosition(BigInt(answer.body.position as string), 10_000);
    // A distinct instant after each change, so "as it was at T" has something to tell apart.
    await new Promise((r) => setTimeout(r, 20));
    return answer;
  }

  async function tokenFor(username: string) {
    const res = await fetch(`${running.url}/api/v1/login/access-token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ username, password: PASSWORD }),
    });
    return ((await res.json()) as { access_token: string }).access_token;
  }

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'portal-audit-'));
    running = await startApp(
      loadConfig({
        PORT: '0',
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        FIRST_SUPERUSER: ADMIN,
        FIRST_SUPERUSER_PASSWORD: PASSWORD,
      }),
      pino({ level: 'silent' }),
    );
    admin = await tokenFor(ADMIN);
    const created = await command('POST', '/users/', {
      email: 'audited.teacher@example.com',
      first_name: 'Ada',
      last_name: 'Audited',
      user_type: 'teacher',
      password: PASSWORD,
    });
    teacherId = created.body.id as string;
    moments.created = new Date().toISOString();
    await command('PUT', `/users/${teacherId}/permissions`, {
      permissions: ['USER_IS_TEACHER', 'CAN_BLOCK_USERS'],
    });
    moments.granted = new Date().toISOString();
    await command('PUT', `/users/${teacherId}/block`);
    moments.blocked = new Date().toISOString();
    await command('PUT', `/users/${teacherId}/unblock`);
    await command('PUT', `/users/${teacherId}/permissions`, { permissions: ['USER_IS_TEACHER'] });
    moments.revoked = new Date().toISOString();
    await command('PUT', `/users/${teacherId}`, { first_name: 'Adaline' });
    teacher = await tokenFor('audited.teacher@example.com');
  }, 120_000);

  afterAll(async () => {
    await running?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('lists every account and permission event with who did it and when, filterable by type', async () => {
    const all = await call('GET', `/audit/users/${teacherId}/history`, admin);
    expect(all.status).toBe(200);
    const items = all.body.items as Json[];
    expect(items.map((i) => i.type)).toEqual([
      'UserCreated',
      'UserPermissionsChanged',
      'UserBlocked',
      'UserUnblocked',
      'UserPermissionsChanged',
      'UserProfileUpdated',
    ]);
    expect(items.every((i) => i.actor_id === running.firstSuperuser.userId)).toBe(true);
    const onlyPermissions = await call(
      'GET',
      `/audit/users/${teacherId}/history?types=UserPermissionsChanged&types=UserBlocked`,
      admin,
    );
    expect((onlyPermissions.body.items as Json[]).map((i) => i.type)).toEqual([
      'UserPermissionsChanged',
      'UserBlocked',
      'UserPermissionsChanged',
    ]);
  });

  it('replays the account and its permissions as they were at a chosen moment', async () => {
    const atGrant = await call('GET', `/audit/users/${teacherId}/state?at=${moments.granted}`, admin);
    expect(atGrant.status).toBe(200);
    expect(atGrant.body.permission_list).toEqual(['USER_IS_TEACHER', 'CAN_BLOCK_USERS']);
    expect(atGrant.body.account).toMatchObject({ isBlocked: false, firstName: 'Ada' });

    const atBlock = await call('GET', `/audit/users/${teacherId}/state?at=${moments.blocked}`, admin);
    expect(atBlock.body.account).toMatchObject({ isBlocked: true });

    const now = await call('GET', `/audit/users/${teacherId}/state?at=${new Date().toISOString()}`, admin);
    expect(now.body.permission_list).toEqual(['USER_IS_TEACHER']);
    expect(now.body.account).toMatchObject({ isBlocked: false, firstName: 'Adaline' });

    const before = await call('GET', `/audit/users/${teacherId}/state?at=2000-01-01T00:00:00Z`, admin);
    expect(before.status).toBe(404);
    const bad = await call('GET', `/audit/users/${teacherId}/state?at=yesterday`, admin);
    expect(bad.status).toBe(422);
    expect(String(bad.body.detail)).toMatch(/at/);
  });

  it('keeps a global permission-change log and answers who held a permission at a time', async () => {
    const log = await call('GET', `/audit/permission-changes?permission=CAN_BLOCK_USERS`, admin);
    expect(log.status).toBe(200);
    const changes = log.body.items as Json[];
    expect(changes.map((c) => [c.added, c.removed])).toEqual([
      [[], ['CAN_BLOCK_USERS']],
      [['CAN_BLOCK_USERS'], []],
    ]);
    const whenGranted = await call(
      'GET',
      `/audit/permission-holders?permission=CAN_BLOCK_USERS&at=${moments.granted}`,
      admin,
    );
    expect((whenGranted.body.items as Json[]).map((i) => i.user_id)).toEqual([teacherId]);
    const afterRevoke = await call(
      'GET',
      `/audit/permission-holders?permission=CAN_BLOCK_USERS&at=${moments.revoked}`,
      admin,
    );
    expect(afterRevoke.body.items).toEqual([]);
  });

  it('is closed to users without the audit permission', async () => {
    expect((await call('GET', `/audit/users/${teacherId}/history`, teacher)).status).toBe(403);
    expect((await call('GET', `/audit/permission-changes`, teacher)).status).toBe(403);
    const anonymous = await fetch(`${running.url}/api/v1/audit/permission-changes`);
    expect(anonymous.status).toBe(401);
  });
});
