import { createHmac } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  portalModes,
  startTestPortal,
  type Answer,
  type TestPortal,
} from '../platform/testing/portal-harness.js';

interface UploadForm {
  url: string;
  fields: Record<string, string>;
  file_path: string;
  file_id: string;
}

const PDF = Buffer.from('%PDF-1.4\n% a tiny test document\n%%EOF\n');

describe.each(portalModes)('student files, $name', (mode) => {
  let portal: TestPortal;
  let storageDir: string;
  let studentId: string;
  let otherStudentId: string;
  let oak: string;
  const tokens: Record<string, string> = {};

  const secret = async () =>
    Buffer.from(
      (
        await portal.running.infra.sql.query<{ secret: string }>(
          `SELECT secret FROM storage_secrets WHERE name = 'signing'`,
        )
      ).rows[0]!.secret,
      'base64',
    );
  const sign = async (payload: string) =>
    createHmac('sha256', await secret())
      .update(payload)
      .digest('hex');

  async function uploadForm(id = studentId, token = portal.admin): Promise<UploadForm> {
    const res = await portal.call('GET', `/users/students/${id}/files-upload-url?file_name=plan.pdf`, token);
    expect(res.status).toBe(200);
    return res.body as unknown as UploadForm;
  }

  async function post(url: string, fields: Record<string, string>, content = PDF, type = 'application/pdf') {
    const form = new FormData();
    for (const [k, v] of Object.entries(fields)) form.append(k, v);
    form.append('file', new Blob([content], { type }), 'plan.pdf');
    const res = await fetch(url, { method: 'POST', body: form });
    return { status: res.status, body: (await res.json()) as { detail?: string; key?: string } };
  }

  async function signedPolicy(policy: object) {
    const encoded = Buffer.from(JSON.stringify(policy)).toString('base64');
    return { policy: encoded, signature: await sign(encoded) };
  }

  beforeAll(async () => {
    storageDir = await mkdtemp(join(tmpdir(), 'files-storage-'));
    // A small global limit so the streaming size check is exercised without sending 100 MB.
    portal = await startTestPortal(mode, 'portal_files', {
      STORAGE_DIR: storageDir,
      STORAGE_MAX_UPLOAD_BYTES: '4096',
    });
    const { call, admin, settle } = portal;
    oak = (await settle(await call('POST', '/customers/', admin, { name: 'Oakfield' }))).body.id as string;
    const elm = (await settle(await call('POST', '/customers/', admin, { name: 'Elm' }))).body.id as string;
    studentId = await portal.createUser({
      email: 'sam.student@example.com',
      first_name: 'Sam',
      last_name: 'Student',
      user_type: 'student',
      customer_id: oak,
    });
    otherStudentId = await portal.createUser({
      email: 'eli.elm@example.com',
      first_name: 'Eli',
      last_name: 'Elm',
      user_type: 'student',
      customer_id: elm,
    });
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
    await portal.createUser({
      email: 'senco@example.com',
      first_name: 'S',
      last_name: 'C',
      user_type: 'teacher',
      permissions: ['CAN_ACCESS_AND_UPLOAD_EHCP'],
    });
    await portal.createUser({
      email: 'senco@oak.example.com',
      first_name: 'E',
      last_name: 'O',
      user_type: 'partner',
      customer_id: oak,
      customer_type: 'super-admin',
      permissions: ['CAN_ACCESS_AND_UPLOAD_EHCP'],
    });
    tokens.partner = await portal.tokenFor('head@oak.example.com');
    tokens.ehcpPartner = await portal.tokenFor('senco@oak.example.com');
    tokens.teacher = await portal.tokenFor('plain@example.com');
    tokens.senco = await portal.tokenFor('senco@example.com');
    tokens.student = await portal.tokenFor('sam.student@example.com');
  });

  afterAll(async () => {
    await portal?.close();
    await rm(storageDir, { recursive: true, force: true });
  });

  it('uploads through the signed form post, registers the file and downloads it with a signed URL', async () => {
    const form = await uploadForm();
    expect(form.fields).toEqual({
      key: form.file_path,
      AWSAccessKeyId: 'portal-embedded',
      policy: expect.any(String),
      signature: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(form.file_path).toBe(`students/${studentId}/${form.file_id}`);
    const uploaded = await post(form.url, form.fields);
    expect(uploaded).toEqual({
      status: 201,
      body: { key: form.file_path, size: PDF.length, content_type: 'application/pdf' },
    });

    const registered = await portal.settle(
      await portal.call('PUT', `/users/students/files/${studentId}`, portal.admin, {
        file_path: form.file_path,
        file_name: 'EHCP plan Zebulon.pdf',
        file_type: 'EHCP',
      }),
    );
    expect(registered.body.id).toBe(form.file_id);

    const view = await portal.call('GET', `/users/${studentId}`, portal.admin);
    const profile = view.body.student_profile as {
      files: { id: string; file_name: string }[];
      latest_ehcp_file: { id: string };
    };
    expect(profile.files).toEqual([
      expect.objectContaining({
        id: form.file_id,
        file_name: 'EHCP plan Zebulon.pdf',
        file_type: 'EHCP',
        size: PDF.length,
      }),
    ]);
    expect(profile.latest_ehcp_file.id).toBe(form.file_id);

    const link = await portal.call(
      'GET',
      `/users/students/${studentId}/files-download-url?file_path=${encodeURIComponent(form.file_path)}`,
      tokens.ehcpPartner,
    );
    expect(link.status).toBe(200);
    const download = await fetch(link.body.url as string);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('application/pdf');
    expect(download.headers.get('content-disposition')).toContain('EHCP%20plan%20Zebulon.pdf');
    expect(Buffer.from(await download.arrayBuffer()).equals(PDF)).toBe(true);

    // The file name is personal data: encrypted at rest like names and notes.
    const { rows } = await portal.running.infra.sql.query<{ data: string }>(
      `SELECT data::text AS data FROM es_events WHERE type = 'StudentFileAdded'`,
    );
    expect(rows.length).toBe(1);
    expect(rows[0]!.data.toLowerCase()).not.toContain('zebulon');
  });

  it('downloads only with a valid, unexpired signature', async () => {
    const view = await portal.call('GET', `/users/${studentId}`, portal.admin);
    const file = (view.body.student_profile as { files: { file_path: string }[] }).files[0]!;
    const link = await portal.call(
      'GET',
      `/users/students/${studentId}/files-download-url?file_path=${encodeURIComponent(file.file_path)}`,
      portal.admin,
    );
    const url = new URL(link.body.url as string);
    const tampered = new URL(url);
    tampered.searchParams.set('signature', '0'.repeat(64));
    expect((await fetch(tampered)).status).toBe(403);
    const otherName = new URL(url);
    otherName.searchParams.set('name', 'other.pdf');
    expect((await fetch(otherName)).status).toBe(403);
    const expires = Math.floor(Date.now() / 1000 - 60).toString();
    const expired = new URL(url);
    expired.searchParams.set('expires', expires);
    expired.searchParams.set(
      'signature',
      await sign(`download\n${file.file_path}\n${expires}\nEHCP plan Zebulon.pdf`),
    );
    const answer = await fetch(expired);
    expect(answer.status).toBe(403);
    expect(((await answer.json()) as { detail: string }).detail).toMatch(/expired/);
    expect((await fetch(`${portal.base}/api/v1/storage/download?key=x`)).status).toBe(403);
    // Only files of this student.
    const foreign = await portal.call(
      'GET',
      `/users/students/${studentId}/files-download-url?file_path=${encodeURIComponent(`students/${otherStudentId}/x`)}`,
      portal.admin,
    );
    expect(foreign.status).toBe(404);
  });

  it('refuses tampered, expired, oversized, wrongly typed and traversing uploads', async () => {
    const form = await uploadForm();
    const tamperedSignature = await post(form.url, { ...form.fields, signature: 'f'.repeat(64) });
    expect(tamperedSignature.status).toBe(403);
    expect(tamperedSignature.body.detail).toMatch(/signature/);

    const policy = JSON.parse(Buffer.from(form.fields.policy!, 'base64').toString()) as {
      expiration: string;
      conditions: { keyPrefix: string; maxBytes: number; contentTypes: string[] };
    };
    const widened = Buffer.from(
      JSON.stringify({ ...policy, conditions: { ...policy.conditions, keyPrefix: 'students/' } }),
    ).toString('base64');
    expect((await post(form.url, { ...form.fields, policy: widened })).status).toBe(403);

    const expired = await signedPolicy({ ...policy, expiration: new Date(Date.now() - 1000).toISOString() });
    const expiredAnswer = await post(form.url, { ...form.fields, ...expired });
    expect(expiredAnswer.status).toBe(403);
    expect(expiredAnswer.body.detail).toMatch(/expired/);

    const otherStudentKey = await post(form.url, {
      ...form.fields,
      key: `students/${otherStudentId}/${form.file_id}`,
    });
    expect(otherStudentKey.status).toBe(403);

    for (const key of [
      `students/${studentId}/../../../etc/passwd`,
      '/etc/passwd',
      `students/${studentId}/..`,
    ]) {
      const traversal = await post(form.url, { ...form.fields, key });
      expect(traversal.status).toBe(400);
      expect(traversal.body.detail).toMatch(/^key:/);
    }

    const small = await signedPolicy({ ...policy, conditions: { ...policy.conditions, maxBytes: 10 } });
    const oversized = await post(form.url, { ...form.fields, ...small });
    expect(oversized.status).toBe(413);
    expect(oversized.body.detail).toMatch(/^file: larger than/);

    // Beyond the service's own limit: refused while streaming, nothing kept.
    const huge = await post(form.url, form.fields, Buffer.alloc(64 * 1024, 1));
    expect(huge.status).toBe(413);
    expect(huge.body.detail).toBe('file: larger than the 4096 bytes allowed');
    expect(policy.conditions.maxBytes).toBe(4096);

    const wrongType = await post(form.url, form.fields, Buffer.from('#!/bin/sh\n'), 'application/x-sh');
    expect(wrongType.status).toBe(415);

    const fileFirst = new FormData();
    fileFirst.append('file', new Blob([PDF], { type: 'application/pdf' }), 'plan.pdf');
    for (const [k, v] of Object.entries(form.fields)) fileFirst.append(k, v);
    expect((await fetch(form.url, { method: 'POST', body: fileFirst })).status).toBe(403);

    // Nothing escaped the storage directory, and nothing was stored for the refused uploads.
    const stored = await readdir(join(storageDir, 'students', studentId));
    expect(stored.filter((f) => !f.endsWith('.meta.json'))).toHaveLength(1);
    expect(existsSync(join(storageDir, '..', 'etc'))).toBe(false);
    expect(await readdir(join(storageDir, '.uploads'))).toEqual([]);
  });

  it('registers only keys issued for the student and actually uploaded', async () => {
    const form = await uploadForm();
    const notUploaded = await portal.call('PUT', `/users/students/files/${studentId}`, portal.admin, {
      file_path: form.file_path,
      file_name: 'x.pdf',
    });
    expect(notUploaded.status).toBe(422);
    const foreign = await portal.call('PUT', `/users/students/files/${otherStudentId}`, portal.admin, {
      file_path: form.file_path,
      file_name: 'x.pdf',
    });
    expect(foreign.status).toBe(422);
    const badType = await portal.call('PUT', `/users/students/files/${studentId}`, portal.admin, {
      file_path: form.file_path,
      file_name: 'x.pdf',
      file_type: 'SECRET',
    });
    expect(badType.status).toBe(422);
    expect(badType.body.detail).toMatch(/file_type/);
  });

  it('gives upload URLs to admins and EHCP holders (partners: students they see); no one else', async () => {
    expect(
      (
        await portal.call(
          'GET',
          `/users/students/${studentId}/files-upload-url?file_name=a.pdf`,
          tokens.senco,
        )
      ).status,
    ).toBe(200);
    expect(
      (
        await portal.call(
          'GET',
          `/users/students/${studentId}/files-upload-url?file_name=a.pdf`,
          tokens.ehcpPartner,
        )
      ).status,
    ).toBe(200);
    expect(
      (
        await portal.call(
          'GET',
          `/users/students/${otherStudentId}/files-upload-url?file_name=a.pdf`,
          tokens.ehcpPartner,
        )
      ).status,
    ).toBe(404);
    // A partner who sees the student but has no EHCP access and upload gets no upload URL (decision 0037).
    expect(
      (
        await portal.call(
          'GET',
          `/users/students/${studentId}/files-upload-url?file_name=a.pdf`,
          tokens.partner,
        )
      ).status,
    ).toBe(403);
    expect(
      (
        await portal.call(
          'GET',
          `/users/students/${studentId}/files-upload-url?file_name=a.pdf`,
          tokens.teacher,
        )
      ).status,
    ).toBe(403);
    expect(
      (
        await portal.call(
          'GET',
          `/users/students/${studentId}/files-upload-url?file_name=a.pdf`,
          tokens.student,
        )
      ).status,
    ).toBe(403);
    expect(
      (await portal.call('GET', `/users/students/${studentId}/files-upload-url`, portal.admin)).status,
    ).toBe(422);
    const notStudent = await portal.call(
      'GET',
      `/users/students/${portal.running.firstSuperuser.userId}/files-upload-url?file_name=a.pdf`,
      portal.admin,
    );
    expect(notStudent.status).toBe(404);
  });

  it('deletes files: gone from the view and from storage', async () => {
    const view = await portal.call('GET', `/users/${studentId}`, portal.admin);
    const file = (view.body.student_profile as { files: { id: string; file_path: string }[] }).files[0]!;
    const link = await portal.call(
      'GET',
      `/users/students/${studentId}/files-download-url?file_path=${encodeURIComponent(file.file_path)}`,
      portal.admin,
    );
    const unknown = await portal.call('POST', `/users/students/${studentId}/files/delete`, portal.admin, {
      files_uuids: ['00000000-0000-4000-8000-000000000000'],
    });
    expect(unknown.status).toBe(404);
    expect(
      (
        await portal.call('POST', `/users/students/${studentId}/files/delete`, portal.admin, {
          files_uuids: [],
        })
      ).status,
    ).toBe(422);
    expect(
      (
        await portal.call('POST', `/users/students/${studentId}/files/delete`, tokens.teacher, {
          files_uuids: [file.id],
        })
      ).status,
    ).toBe(403);
    await portal.settle(
      await portal.call('POST', `/users/students/${studentId}/files/delete`, tokens.senco, {
        files_uuids: [file.id],
      }),
    );
    const after = await portal.call('GET', `/users/${studentId}`, portal.admin);
    expect(after.body.student_profile).toEqual({ files: [], latest_ehcp_file: null });
    expect((await fetch(link.body.url as string)).status).toBe(404);
    const audit = await portal.call(
      'GET',
      `/audit/users/${studentId}/history?types=StudentFilesDeleted`,
      portal.admin,
    );
    expect(audit.body.total).toBe(1);
  });

  it('takes one upload per signed form: a replay neither overwrites a registered file nor uploads twice', async () => {
    const form = await uploadForm();
    const other = await uploadForm();
    // A form is for its own key only, even within the same student's folder.
    const elsewhere = await post(other.url, { ...other.fields, key: form.file_path });
    expect(elsewhere.status).toBe(403);
    expect(elsewhere.body.detail).toBe('key: not allowed by the policy');

    expect((await post(form.url, form.fields)).status).toBe(201);
    await portal.settle(
      await portal.call('PUT', `/users/students/files/${studentId}`, portal.admin, {
        file_path: form.file_path,
        file_name: 'Kept.pdf',
      }),
    );
    const replay = await post(form.url, form.fields, Buffer.from('%PDF-1.4 replaced\n'));
    expect(replay.status).toBe(409);
    expect(replay.body.detail).toMatch(/^key: something was already uploaded with this form/);
    const link = await portal.call(
      'GET',
      `/users/students/${studentId}/files-download-url?file_path=${encodeURIComponent(form.file_path)}`,
      portal.admin,
    );
    expect(Buffer.from(await (await fetch(link.body.url as string)).arrayBuffer()).equals(PDF)).toBe(true);

    // Two posts of one form at once: one is stored, the other refused.
    const statuses = (await Promise.all([post(other.url, other.fields), post(other.url, other.fields)]))
      .map((r) => r.status)
      .sort();
    expect(statuses).toEqual([201, 409]);

    // Nor does the form work again once the file is deleted.
    await portal.settle(
      await portal.call('POST', `/users/students/${studentId}/files/delete`, portal.admin, {
        files_uuids: [form.file_id],
      }),
    );
    expect((await post(form.url, form.fields)).status).toBe(409);
    expect(await readdir(join(storageDir, '.uploads'))).toEqual([]);
  });

  it('EHCP files and all uploads need EHCP access and upload; other files are read by whoever sees the student', async () => {
    const { call, admin, settle } = portal;
    const pupil = await portal.createUser({
      email: 'pia.pupil@example.com',
      first_name: 'Pia',
      last_name: 'Pupil',
      user_type: 'student',
      customer_id: oak,
    });
    for (const [key, customerType] of [
      ['link', 'link-contact'],
      ['parent', 'parent'],
    ] as const) {
      const id = await portal.createUser({
        email: `${key}@oak.example.com`,
        first_name: key,
        last_name: 'O',
        user_type: 'partner',
        customer_id: oak,
        customer_type: customerType,
      });
      // Their "selected" student (decision 0034): they see Pia.
      await settle(await call('PUT', `/users/${id}/linked-students`, admin, { student_ids: [pupil] }));
      tokens[key] = await portal.tokenFor(`${key}@oak.example.com`);
    }
    tokens.pupil = await portal.tokenFor('pia.pupil@example.com');
    /** Uploads as the administrator and registers the file with this type; answers the file. */
    const addFile = async (fileType: 'EHCP' | 'OTHER', name: string) => {
      const form = await uploadForm(pupil);
      expect((await post(form.url, form.fields)).status).toBe(201);
      await settle(
        await call('PUT', `/users/students/files/${pupil}`, admin, {
          file_path: form.file_path,
          file_name: name,
          file_type: fileType,
        }),
      );
      return form;
    };
    const ehcp = await addFile('EHCP', 'Pia EHCP.pdf');
    const other = await addFile('OTHER', 'Pia timetable.pdf');

    type Role =
      'none' | 'admin' | 'senco' | 'ehcpPartner' | 'partner' | 'link' | 'parent' | 'teacher' | 'pupil';
    const roles: Role[] = [
      'none',
      'admin',
      'senco',
      'ehcpPartner',
      'partner',
      'link',
      'parent',
      'teacher',
      'pupil',
    ];
    const token = (role: Role) => (role === 'none' ? undefined : role === 'admin' ? admin : tokens[role]);
    const download = (path: string) =>
      `/users/students/${pupil}/files-download-url?file_path=${encodeURIComponent(path)}`;
    /** Registering a freshly uploaded key as an EHCP file (each role gets its own key). */
    const registerEhcp = async (role: Role) => {
      const form = await uploadForm(pupil);
      expect((await post(form.url, form.fields)).status).toBe(201);
      return call('PUT', `/users/students/files/${pupil}`, token(role), {
        file_path: form.file_path,
        file_name: `by ${role}.pdf`,
        file_type: 'EHCP',
      });
    };
    const rows: [string, (role: Role) => Promise<Answer>, Record<Role, number>][] = [
      [
        'upload URL',
        (role) => call('GET', `/users/students/${pupil}/files-upload-url?file_name=a.pdf`, token(role)),
        {
          none: 401,
          admin: 200,
          senco: 200,
          ehcpPartner: 200,
          partner: 403,
          link: 403,
          parent: 403,
          teacher: 403,
          pupil: 403,
        },
      ],
      [
        'register as EHCP',
        registerEhcp,
        {
          none: 401,
          admin: 200,
          senco: 200,
          ehcpPartner: 200,
          partner: 403,
          link: 403,
          parent: 403,
          teacher: 403,
          pupil: 403,
        },
      ],
      [
        'download an EHCP file',
        (role) => call('GET', download(ehcp.file_path), token(role)),
        {
          none: 401,
          admin: 200,
          senco: 200,
          ehcpPartner: 200,
          partner: 404,
          link: 404,
          parent: 404,
          teacher: 403,
          pupil: 403,
        },
      ],
      [
        'download another file',
        (role) => call('GET', download(other.file_path), token(role)),
        {
          none: 401,
          admin: 200,
          senco: 200,
          ehcpPartner: 200,
          partner: 200,
          link: 200,
          parent: 200,
          teacher: 403,
          pupil: 403,
        },
      ],
    ];
    const seen: string[] = [];
    const wanted: string[] = [];
    for (const [what, attempt, expected] of rows)
      for (const role of roles) {
        const answer = await attempt(role);
        if (typeof answer.body.position === 'string') await settle(answer);
        seen.push(`${what} ${role} ${answer.status}`);
        wanted.push(`${what} ${role} ${expected[role]}`);
      }
    // What each reader's user view lists: EHCP entries (and the latest EHCP file) only with EHCP access.
    const registeredBy = ['admin', 'senco', 'ehcpPartner'];
    for (const role of ['admin', 'ehcpPartner', 'partner', 'link', 'parent', 'pupil'] as Role[]) {
      const answer = await call('GET', role === 'pupil' ? '/users/me' : `/users/${pupil}`, token(role));
      const profile = answer.body.student_profile as {
        files: { file_name: string; file_type: string }[];
        latest_ehcp_file: { file_name: string } | null;
      };
      seen.push(
        `view ${role} ${answer.status} ${profile.files
          .map((f) => f.file_name)
          .sort()
          .join(', ')} latest=${profile.latest_ehcp_file?.file_name ?? 'none'}`,
      );
      const ehcpReader = role === 'admin' || role === 'ehcpPartner';
      const names = ehcpReader
        ? ['Pia EHCP.pdf', 'Pia timetable.pdf', ...registeredBy.map((r) => `by ${r}.pdf`)].sort()
        : ['Pia timetable.pdf'];
      wanted.push(
        `view ${role} 200 ${names.join(', ')} latest=${ehcpReader ? 'by ehcpPartner.pdf' : 'none'}`,
      );
    }
    // Deleting: EHCP access and upload too (a partner also needs their edit permission for students).
    const otherId = other.file_id;
    for (const role of ['partner', 'link', 'teacher'] as Role[]) {
      const answer = await call('POST', `/users/students/${pupil}/files/delete`, token(role), {
        files_uuids: [otherId],
      });
      seen.push(`delete ${role} ${answer.status}`);
      wanted.push(`delete ${role} 403`);
    }
    expect(seen).toEqual(wanted);
    await settle(
      await call('POST', `/users/students/${pupil}/files/delete`, tokens.ehcpPartner, {
        files_uuids: [otherId],
      }),
    );
  });
});
