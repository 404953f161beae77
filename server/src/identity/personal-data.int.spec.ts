import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ProjectionRunner } from '../platform/projections/projection-runner.js';
import {
  HARNESS_PASSWORD,
  portalModes,
  startTestPortal,
  type TestPortal,
} from '../platform/testing/portal-harness.js';

/** Strings that must never be stored in plaintext, nor readable anywhere after the erasure. */
const SECRETS = [
  'quixotelina',
  'vandermolenbeek',
  'zyx.unique.person',
  'zyx.changed.person',
  'secretnote-8812',
  'secretnote-9931',
  'contactina',
  'marplewood',
  '07700 900123',
  'lateness-pattern-4471',
];

describe.each(portalModes)('personal data erasure (crypto-shredding), $name', (mode) => {
  let portal: TestPortal;
  let storageDir: string;
  let userId: string;
  let userToken: string;
  const positions: string[] = [];

  const rawEvents = async () =>
    (
      await portal.running.infra.sql.query<{ row: string }>(
        `SELECT (type || ' ' || data::text || ' ' || metadata::text) AS row FROM es_events ORDER BY position`,
      )
    ).rows.map((r) => r.row.toLowerCase());
  const readModelRow = async (id: string) =>
    (
      await portal.running.infra.sql.query<{ row: string }>(
        `SELECT rm_users::text AS row FROM rm_users WHERE id = $1`,
        [id],
      )
    ).rows[0]?.row.toLowerCase() ?? '';
  const leaks = (texts: string[]) => SECRETS.filter((s) => texts.some((t) => t.includes(s)));

  beforeAll(async () => {
    storageDir = await mkdtemp(join(tmpdir(), 'pii-storage-'));
    portal = await startTestPortal(mode, 'portal_pii', { STORAGE_DIR: storageDir });
    const { call, admin, settle } = portal;
    userId = await portal.createUser({
      email: 'Zyx.Unique.Person@example.com',
      first_name: 'Quixotelina',
      last_name: 'Vandermolenbeek',
      user_type: 'teacher',
      notes: 'Secretnote-8812',
    });
    const steps = [
      await call('PUT', `/users/${userId}`, admin, {
        email: 'zyx.changed.person@example.com',
        notes: 'Secretnote-9931',
      }),
      await call('POST', `/users/${userId}/contacts`, admin, {
        name: 'Contactina Marplewood',
        phone: '07700 900123',
        relationship: 'Partner',
      }),
      await call('PUT', `/users/${userId}/set-quality-issue`, admin, { reason: 'lateness-pattern-4471' }),
    ];
    for (const step of steps) positions.push((await settle(step)).body.position as string);
    userToken = await portal.tokenFor('zyx.unique.person@example.com');
  });

  afterAll(async () => {
    await portal?.close();
    await rm(storageDir, { recursive: true, force: true });
  });

  it('stores personal fields encrypted at rest, and every read path still sees them', async () => {
    expect(leaks(await rawEvents())).toEqual([]);
    expect((await rawEvents()).join('\n')).toContain('pii:v1:');
    const view = await portal.call('GET', `/users/${userId}`, portal.admin);
    expect(view.body).toMatchObject({
      first_name: 'Quixotelina',
      last_name: 'Vandermolenbeek',
      email: 'zyx.changed.person@example.com',
      login: 'zyx.unique.person@example.com',
      notes: 'Secretnote-9931',
    });
    const audit = await portal.call('GET', `/audit/users/${userId}/history`, portal.admin);
    const created = (audit.body.items as { type: string; data: Record<string, unknown> }[])[0]!;
    expect(created).toMatchObject({ type: 'UserCreated', data: { firstName: 'Quixotelina' } });
  });

  it('only an administrator or a partner with the delete permission may erase', async () => {
    const teacherId = await portal.createUser({
      email: 'plain.teacher@example.com',
      first_name: 'P',
      last_name: 'T',
      user_type: 'teacher',
    });
    const teacher = await portal.tokenFor('plain.teacher@example.com');
    expect((await portal.call('DELETE', `/users/${userId}/user_profile`, teacher)).status).toBe(403);
    expect((await portal.call('DELETE', `/users/${teacherId}/user_profile`, teacher)).status).toBe(403);
    expect((await portal.call('DELETE', '/users/not-a-uuid/user_profile', portal.admin)).status).toBe(422);
  });

  it('erasing destroys the key: "[erased]" everywhere, the audit trail intact, sessions ended', async () => {
    expect((await portal.call('GET', '/users/me', userToken)).status).toBe(200);
    const erased = await portal.settle(
      await portal.call('DELETE', `/users/${userId}/user_profile`, portal.admin),
    );
    expect(erased.status).toBe(200);

    // The user's session ended at once; the login no longer finds anyone.
    expect((await portal.call('GET', '/users/me', userToken)).status).toBe(401);
    const login = await fetch(`${portal.base}/api/v1/login/access-token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ username: 'zyx.unique.person@example.com', password: HARNESS_PASSWORD }),
    });
    expect(login.status).toBe(401);
    const byPlaceholder = await fetch(`${portal.base}/api/v1/login/access-token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ username: `[erased]-${userId}`, password: HARNESS_PASSWORD }),
    });
    expect(byPlaceholder.status).toBe(401);

    // Read model.
    const view = await portal.call('GET', `/users/${userId}`, portal.admin);
    expect(view.status).toBe(200);
    expect(view.body).toMatchObject({
      first_name: '[erased]',
      last_name: '[erased]',
      email: '[erased]',
      login: '[erased]',
      notes: '[erased]',
      personal_data_erased: true,
      has_access: false,
      teacher_profile: { quality_issue_reason: '[erased]' },
    });
    expect((view.body.contacts as { name: string; phone: string }[])[0]).toMatchObject({
      name: '[erased]',
      phone: '[erased]',
    });
    expect(leaks([await readModelRow(userId)])).toEqual([]);
    const search = await portal.call('GET', '/users/?query=Quixotelina', portal.admin);
    expect(search.body.total).toBe(0);

    // Audit: every event is still there, with its actor and time; personal data reads "[erased]".
    const audit = await portal.call('GET', `/audit/users/${userId}/history`, portal.admin);
    const items = audit.body.items as {
      type: string;
      actor_id: string | null;
      data: Record<string, unknown>;
    }[];
    expect(items.map((i) => i.type)).toEqual([
      'UserCreated',
      'UserProfileUpdated',
      'UserContactAdded',
      'QualityIssueSet',
      'UserPersonalDataErased',
    ]);
    expect(items.every((i) => i.actor_id !== null)).toBe(true);
    expect(items[0]!.data).toMatchObject({
      firstName: '[erased]',
      email: '[erased]',
      login: '[erased]',
      userType: 'teacher',
    });
    expect(leaks([JSON.stringify(audit.body)])).toEqual([]);
    const state = await portal.call(
      'GET',
      `/audit/users/${userId}/state?at=${new Date().toISOString()}`,
      portal.admin,
    );
    expect(state.body.account).toMatchObject({ firstName: '[erased]', permissions: ['USER_IS_TEACHER'] });

    // The raw event store never had them.
    expect(leaks(await rawEvents())).toEqual([]);

    // Erasure is final.
    expect((await portal.call('DELETE', `/users/${userId}/user_profile`, portal.admin)).status).toBe(409);
    expect((await portal.call('PUT', `/users/${userId}`, portal.admin, { first_name: 'Again' })).status).toBe(
      409,
    );
  });

  it('a full projection rebuild after the erasure still works and shows "[erased]"', async () => {
    const result = await portal.running.app.get(ProjectionRunner).rebuild();
    expect(result).toBeDefined();
    const view = await portal.call('GET', `/users/${userId}`, portal.admin);
    expect(view.body).toMatchObject({ first_name: '[erased]', login: '[erased]', email: '[erased]' });
    expect(leaks([await readModelRow(userId)])).toEqual([]);
    // The login is free again: a new person may use it (with a new id).
    const again = await portal.createUser({
      email: 'zyx.unique.person@example.com',
      first_name: 'New',
      last_name: 'Person',
      user_type: 'teacher',
    });
    expect(again).not.toBe(userId);
  });
});
