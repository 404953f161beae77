import { mkdtemp, readdir, rm } from 'node:fs/promises';
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

describe.each(portalModes)('deleting users and erasing their data, $name', (mode) => {
  let portal: TestPortal;
  let storageDir: string;
  let oak: string;
  let elm: string;
  const tokens: Record<string, string> = {};

  const loginStatus = async (username: string) =>
    (
      await fetch(`${portal.base}/api/v1/login/access-token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ username, password: HARNESS_PASSWORD }),
      })
    ).status;

  const student = (email: string, customerId = oak) =>
    portal.createUser({
      email,
      first_name: 'Stu',
      last_name: 'Dent',
      user_type: 'student',
      customer_id: customerId,
    });

  beforeAll(async () => {
    storageDir = await mkdtemp(join(tmpdir(), 'deletion-storage-'));
    portal = await startTestPortal(mode, 'portal_deletion', { STORAGE_DIR: storageDir });
    const { call, admin, settle } = portal;
    oak = (await settle(await call('POST', '/customers/', admin, { name: 'Oakfield' }))).body.id as string;
    elm = (await settle(await call('POST', '/customers/', admin, { name: 'Elm' }))).body.id as string;
    await portal.createUser({
      email: 'head@oak.example.com',
      first_name: 'H',
      last_name: 'O',
      user_type: 'partner',
      customer_id: oak,
      customer_type: 'super-admin',
    });
    const linkId = await portal.createUser({
      email: 'link@oak.example.com',
      first_name: 'L',
      last_name: 'C',
      user_type: 'partner',
      customer_id: oak,
      customer_type: 'link-contact',
    });
    const link = await portal.call('GET', `/users/${linkId}`, admin);
    await settle(
      await call('PUT', `/users/${linkId}/permissions`, admin, {
        permissions: [...(link.body.permission_list as string[]), 'PARTNER_CAN_SEE_ALL_STUDENTS_DETAILS'],
      }),
    );
    await portal.createUser({
      email: 'plain@example.com',
      first_name: 'P',
      last_name: 'T',
      user_type: 'teacher',
    });
    tokens.head = await portal.tokenFor('head@oak.example.com');
    tokens.link = await portal.tokenFor('link@oak.example.com');
    tokens.teacher = await portal.tokenFor('plain@example.com');
  });

  afterAll(async () => {
    await portal?.close();
    await rm(storageDir, { recursive: true, force: true });
  });

  it('DELETE users/{id}: the user leaves lists and cannot sign in; the record and its history stay', async () => {
    const id = await student('gone.student@example.com');
    const token = await portal.tokenFor('gone.student@example.com');
    const deleted = await portal.settle(await portal.call('DELETE', `/users/${id}`, portal.admin));
    expect(deleted.status).toBe(200);

    expect((await portal.call('GET', '/users/me', token)).status).toBe(401);
    expect(await loginStatus('gone.student@example.com')).toBe(401);
    expect((await portal.call('GET', `/users/${id}`, portal.admin)).status).toBe(404);
    const list = await portal.call('GET', '/users/?query=gone.student', portal.admin);
    expect(list.body.total).toBe(0);
    expect((await portal.call('PUT', `/users/${id}/activate`, portal.admin)).status).toBe(404);
    expect((await portal.call('DELETE', `/users/${id}`, portal.admin)).status).toBe(404);

    // Kept for the record (safeguarding retention): the audit still reads it, with the personal data.
    const audit = await portal.call('GET', `/audit/users/${id}/history`, portal.admin);
    const items = audit.body.items as { type: string; data: Record<string, unknown> }[];
    expect(items.map((i) => i.type)).toEqual(['UserCreated', 'UserDeleted']);
    expect(items[0]!.data).toMatchObject({ email: 'gone.student@example.com' });
    // The login stays reserved while the record is kept.
    const again = await portal.call('POST', '/users/', portal.admin, {
      email: 'gone.student@example.com',
      first_name: 'X',
      last_name: 'Y',
      user_type: 'student',
      customer_id: oak,
    });
    expect(again.status).toBe(409);

    // When retention ends, the deleted user's personal data can still be erased.
    const erased = await portal.settle(
      await portal.call('DELETE', `/users/${id}/user_profile`, portal.admin),
    );
    expect(erased.status).toBe(200);
    const afterErase = await portal.call('GET', `/audit/users/${id}/history`, portal.admin);
    const first = (afterErase.body.items as { data: Record<string, unknown> }[])[0]!;
    expect(first.data).toMatchObject({ email: '[erased]', firstName: '[erased]' });
  });

  it("partners delete and erase only their own customer's users, with PARTNER_CAN_DELETE_*", async () => {
    const mine = await student('mine@example.com');
    const theirs = await student('theirs@example.com', elm);
    // The link contact sees students but may not delete them.
    expect((await portal.call('DELETE', `/users/${mine}`, tokens.link)).status).toBe(403);
    expect((await portal.call('DELETE', `/users/${mine}/user_profile`, tokens.link)).status).toBe(403);
    // Another customer's student does not exist for this partner.
    expect((await portal.call('DELETE', `/users/${theirs}`, tokens.head)).status).toBe(404);
    expect((await portal.call('DELETE', `/users/${theirs}/user_profile`, tokens.head)).status).toBe(404);
    // Teachers are not allowed at all.
    expect((await portal.call('DELETE', `/users/${mine}`, tokens.teacher)).status).toBe(403);
    // Nobody deletes themselves.
    const me = await portal.call('GET', '/users/me', tokens.head);
    expect((await portal.call('DELETE', `/users/${me.body.id as string}`, tokens.head)).status).toBe(422);

    await portal.settle(await portal.call('DELETE', `/users/${mine}/user_profile`, tokens.head));
    const view = await portal.call('GET', `/users/${mine}`, tokens.head);
    expect(view.body).toMatchObject({ email: '[erased]', personal_data_erased: true });
    await portal.settle(await portal.call('DELETE', `/users/${mine}`, tokens.head));
    expect((await portal.call('GET', `/users/${mine}`, tokens.head)).status).toBe(404);
  });

  it('erasing a student destroys their stored files and the file names', async () => {
    const id = await student('filed@example.com');
    const form = await portal.call(
      'GET',
      `/users/students/${id}/files-upload-url?file_name=a.pdf`,
      portal.admin,
    );
    const data = new FormData();
    for (const [k, v] of Object.entries(form.body.fields as Record<string, string>)) data.append(k, v);
    data.append('file', new Blob(['%PDF-1.4 private'], { type: 'application/pdf' }), 'a.pdf');
    expect((await fetch(form.body.url as string, { method: 'POST', body: data })).status).toBe(201);
    await portal.settle(
      await portal.call('PUT', `/users/students/files/${id}`, portal.admin, {
        file_path: form.body.file_path,
        file_name: 'Plan for Filed.pdf',
        file_type: 'EHCP',
      }),
    );
    expect(await readdir(join(storageDir, 'students', id))).not.toHaveLength(0);
    await portal.settle(await portal.call('DELETE', `/users/${id}/user_profile`, portal.admin));
    await expect(readdir(join(storageDir, 'students', id))).rejects.toThrow();
    const view = await portal.call('GET', `/users/${id}`, portal.admin);
    expect(view.body.student_profile).toEqual({ files: [], latest_ehcp_file: null });
    const audit = await portal.call('GET', `/audit/users/${id}/history?types=StudentFileAdded`, portal.admin);
    expect((audit.body.items as { data: { fileName: string } }[])[0]!.data.fileName).toBe('[erased]');
  });
  it("erasing a student also erases their one-page profile's free text, also after a rebuild", async () => {
    const id = await student('profiled@example.com');
    const created = await portal.settle(
      await portal.call('POST', '/one-page-profiles/', portal.admin, {
        user_id: id,
        preferred_name: 'Wrenfield',
        support_methods: 'Quietroom-5521',
        favourite_subjects: ['Art'],
      }),
    );
    const profileId = created.body.id as string;
    await portal.settle(
      await portal.call('PUT', `/one-page-profiles/${profileId}`, portal.admin, {
        notes: 'Notes-7741',
        progress: 40,
      }),
    );
    const secrets = ['wrenfield', 'quietroom-5521', 'notes-7741'];
    const raw = async () =>
      (
        await portal.running.infra.sql.query<{ data: string }>(
          `SELECT data::text AS data FROM es_events WHERE stream = $1`,
          [`one-page-profile-${id}`],
        )
      ).rows
        .map((r) => r.data.toLowerCase())
        .join('\n');
    const before = await raw();
    expect(secrets.filter((x) => before.includes(x))).toEqual([]);
    expect((await portal.call('GET', `/one-page-profiles/${profileId}`, portal.admin)).body).toMatchObject({
      preferred_name: 'Wrenfield',
      notes: 'Notes-7741',
    });

    await portal.settle(await portal.call('DELETE', `/users/${id}/user_profile`, portal.admin));
    const erased = {
      preferred_name: '[erased]',
      support_methods: '[erased]',
      notes: '[erased]',
      progress: 40,
    };
    expect((await portal.call('GET', `/one-page-profiles/${profileId}`, portal.admin)).body).toMatchObject(
      erased,
    );
    const row = async () =>
      (
        await portal.running.infra.sql.query<{ row: string }>(
          'SELECT rm_one_page_profiles::text AS row FROM rm_one_page_profiles WHERE id = $1',
          [profileId],
        )
      ).rows[0]!.row.toLowerCase();
    const stored = await row();
    expect(secrets.filter((x) => stored.includes(x))).toEqual([]);

    await portal.running.app.get(ProjectionRunner).rebuild();
    expect((await portal.call('GET', `/one-page-profiles/${profileId}`, portal.admin)).body).toMatchObject(
      erased,
    );
    const rebuilt = await row();
    expect(secrets.filter((x) => rebuilt.includes(x))).toEqual([]);
  });
});
