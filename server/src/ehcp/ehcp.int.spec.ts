import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { portalModes, startTestPortal, type TestPortal } from '../platform/testing/portal-harness.js';

const EHCP = 'CAN_ACCESS_AND_UPLOAD_EHCP';
const NOT_KNOWN = "not on the provider's staff or at the student's school";

interface ReminderItem {
  id: string;
  display_name: string;
  customer_name: string | null;
  has_ehcp_file: boolean;
  latest_ehcp_file: { file_name: string } | null;
  reminder_since: string;
  reminder_set_by: string | null;
}

describe.each(portalModes)('EHCP reminders and requests, $name', (mode) => {
  let portal: TestPortal;
  let storageDir: string;
  const ids: Record<string, string> = {};
  const tokens: Record<string, string> = {};

  const reminders = async (token: string) => {
    const res = await portal.call('GET', '/users/students/ehcp-reminder', token);
    expect(res.status).toBe(200);
    return res.body.items as ReminderItem[];
  };
  const names = (items: ReminderItem[]) => items.map((i) => i.display_name).sort();
  const setReminders = (token: string, body: unknown) =>
    portal.call('PUT', '/users/students/ehcp-reminder', token, body);
  const request = (token: string, student: string, body: unknown) =>
    portal.call('PUT', `/users/students/${student}/ehcp-request`, token, body);

  beforeAll(async () => {
    storageDir = await mkdtemp(join(tmpdir(), 'ehcp-storage-'));
    portal = await startTestPortal(mode, 'portal_ehcp', { STORAGE_DIR: storageDir });
    const { call, admin, settle } = portal;
    const oak = (await settle(await call('POST', '/customers/', admin, { name: 'Oakfield' }))).body
      .id as string;
    const elm = (await settle(await call('POST', '/customers/', admin, { name: 'Elm' }))).body.id as string;
    const users: [string, Record<string, unknown>][] = [
      ['amy', { user_type: 'student', customer_id: oak }],
      ['ben', { user_type: 'student', customer_id: oak }],
      ['cal', { user_type: 'student', customer_id: elm }],
      // A school's super admin with EHCP access (the role brings user relations access).
      ['head', { user_type: 'partner', customer_id: oak, customer_type: 'super-admin', permissions: [EHCP] }],
      ['plainhead', { user_type: 'partner', customer_id: oak, customer_type: 'super-admin' }],
      ['sysadmin', { user_type: 'partner', customer_id: oak, customer_type: 'admin' }],
      [
        'link',
        { user_type: 'partner', customer_id: oak, customer_type: 'link-contact', permissions: [EHCP] },
      ],
      ['parent', { user_type: 'partner', customer_id: oak, customer_type: 'parent' }],
      ['elmhead', { user_type: 'partner', customer_id: elm, customer_type: 'super-admin' }],
      ['senco', { user_type: 'teacher', permissions: [EHCP] }],
      ['teacher', { user_type: 'teacher' }],
      ['gone', { user_type: 'teacher' }],
    ];
    for (const [key, body] of users)
      ids[key] = await portal.createUser({
        email: `${key}@example.com`,
        first_name: key,
        last_name: 'X',
        ...body,
      });
    await settle(await call('PUT', `/users/${ids.gone}/deactivate`, admin));
    for (const key of ['head', 'plainhead', 'link', 'senco', 'teacher'])
      tokens[key] = await portal.tokenFor(`${key}@example.com`);
  }, 180_000);

  afterAll(async () => {
    await portal?.close();
    await rm(storageDir, { recursive: true, force: true });
  });

  it('keeps the reminder list as events: replace, scoped GET for partners, EHCP files shown', async () => {
    const { admin, settle } = portal;
    await settle(await setReminders(admin, [ids.amy, ids.cal, ids.amy]));
    let items = await reminders(admin);
    expect(names(items)).toEqual(['amy X', 'cal X']);
    expect(items.find((i) => i.display_name === 'cal X')).toMatchObject({
      customer_name: 'Elm',
      has_ehcp_file: false,
      latest_ehcp_file: null,
      reminder_set_by: expect.any(String),
    });

    // An EHCP file arrives for amy: the list says so (the reminder stays until someone clears it).
    const form = await portal.call(
      'GET',
      `/users/students/${ids.amy}/files-upload-url?file_name=plan.pdf`,
      admin,
    );
    const data = new FormData();
    for (const [k, v] of Object.entries(form.body.fields as Record<string, string>)) data.append(k, v);
    data.append('file', new Blob(['%PDF-1.4\n%%EOF\n'], { type: 'application/pdf' }), 'plan.pdf');
    expect((await fetch(form.body.url as string, { method: 'POST', body: data })).status).toBe(201);
    await settle(
      await portal.call('PUT', `/users/students/files/${ids.amy}`, admin, {
        file_path: form.body.file_path,
        file_name: 'Amy EHCP 2030.pdf',
        file_type: 'EHCP',
      }),
    );
    items = await reminders(admin);
    expect(items.find((i) => i.id === ids.amy)).toMatchObject({
      has_ehcp_file: true,
      latest_ehcp_file: { file_name: 'Amy EHCP 2030.pdf' },
    });

    // A partner with EHCP access sees and replaces only their own school's part of the list.
    expect(names(await reminders(tokens.head!))).toEqual(['amy X']);
    await settle(await setReminders(tokens.head!, [ids.ben]));
    expect(names(await reminders(tokens.head!))).toEqual(['ben X']);
    expect(names(await reminders(admin))).toEqual(['ben X', 'cal X']);
    expect(await setReminders(tokens.head!, [ids.cal])).toEqual({
      status: 422,
      body: { detail: `body[0]: not a student you can see (${ids.cal})` },
    });

    // Internal EHCP holders work on the whole list; the same list again writes nothing new.
    expect(names(await reminders(tokens.senco!))).toEqual(['ben X', 'cal X']);
    const again = await setReminders(tokens.senco!, [ids.cal, ids.ben]);
    expect(again.status).toBe(200);
    const { rows } = await portal.running.infra.sql.query<{ n: string }>(
      `SELECT count(*)::text AS n FROM es_events WHERE type = 'EhcpRemindersChanged'`,
    );
    expect(rows[0]!.n).toBe('2');
    await settle(await setReminders(tokens.senco!, []));
    expect(await reminders(admin)).toEqual([]);
  });

  it("gives a partner's EHCP access to their own school's students only (student files)", async () => {
    const uploadUrl = (student: string) =>
      portal.call('GET', `/users/students/${student}/files-upload-url?file_name=plan.pdf`, tokens.head);
    expect((await uploadUrl(ids.amy!)).status).toBe(200);
    expect(await uploadUrl(ids.cal!)).toEqual({ status: 404, body: { detail: 'Student not found' } });
    expect(
      (await portal.call('GET', `/users/students/${ids.cal}/files-upload-url?file_name=p.pdf`, tokens.senco))
        .status,
    ).toBe(200);
  });

  it('answers bad reminder input with 422 naming the field, and refuses those without EHCP access', async () => {
    const { admin } = portal;
    expect((await setReminders(admin, { ids: [ids.amy] })).body).toEqual({
      detail: 'body: must be a JSON list of ids',
    });
    expect(await setReminders(admin, [ids.amy, 'amy'])).toEqual({
      status: 422,
      body: { detail: 'body[1]: must be a UUID' },
    });
    expect((await setReminders(admin, [ids.teacher])).body.detail).toBe(
      `body[0]: not a student you can see (${ids.teacher})`,
    );
    expect((await setReminders(tokens.teacher!, [])).status).toBe(403);
    expect((await portal.call('GET', '/users/students/ehcp-reminder', tokens.plainhead)).status).toBe(403);
    expect((await portal.call('GET', '/users/students/ehcp-reminder')).status).toBe(401);
  });

  it("records an EHCP request on the student's stream and mails each person asked a link, not the name", async () => {
    const res = await request(tokens.head!, ids.amy!, [ids.sysadmin, ids.senco, ids.sysadmin]);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: expect.any(String), recipients: 2, position: expect.any(String) });
    await portal.settle(res);

    const events = await portal.running.infra.eventStore.readStream(`user-${ids.amy}`);
    const requested = events.filter((e) => e.type === 'EhcpRequested');
    expect(requested.map((e) => e.data)).toEqual([
      {
        userId: ids.amy,
        requestId: res.body.id,
        customerId: expect.any(String),
        recipientIds: [ids.sysadmin, ids.senco],
      },
    ]);
    expect(requested[0]!.metadata.actorId).toBe(ids.head);

    const { rows } = await portal.running.infra.sql.query<{
      to_address: string;
      subject: string;
      body_text: string;
    }>(
      `SELECT to_address, subject, body_text FROM mail_outbox WHERE subject = 'EHCP requested for a student'
        ORDER BY to_address`,
    );
    expect(rows.map((r) => r.to_address)).toEqual(['senco@example.com', 'sysadmin@example.com']);
    expect(rows[0]!.body_text).toContain(`/users/${ids.amy}/details`);
    expect(rows[0]!.body_text).toContain('head X (Oakfield)');
    expect(rows[0]!.body_text).not.toContain('amy');
  });

  it('refuses EHCP requests without the spec’s profile and permissions, for other schools and bad recipients', async () => {
    const ask = [ids.sysadmin];
    expect((await request(portal.admin, ids.amy!, ask)).status).toBe(403);
    expect((await request(tokens.link!, ids.amy!, ask)).status).toBe(403);
    expect((await request(tokens.plainhead!, ids.amy!, ask)).status).toBe(403);
    expect((await request(tokens.senco!, ids.amy!, ask)).status).toBe(403);
    expect(await request(tokens.head!, ids.cal!, ask)).toEqual({
      status: 404,
      body: { detail: 'Student not found' },
    });
    expect((await request(tokens.head!, ids.sysadmin!, ask)).status).toBe(404);

    const refusals: [unknown, string][] = [
      [[], 'body: name at least one person to ask'],
      [{ ids: [] }, 'body: must be a JSON list of ids'],
      [[ids.senco, 7], 'body[1]: must be a UUID'],
      [[ids.elmhead], `body[0]: ${NOT_KNOWN}`],
      [['99999999-9999-4999-8999-999999999999'], `body[0]: ${NOT_KNOWN}`],
      [[ids.head], 'body[0]: you cannot ask yourself'],
      [[ids.senco, ids.ben], 'body[1]: students cannot be asked'],
      [[ids.gone], 'body[0]: cannot sign in (deactivated or blocked)'],
      [[ids.parent], "body[0]: cannot see the student's details"],
    ];
    for (const [body, detail] of refusals)
      expect(await request(tokens.head!, ids.amy!, body)).toEqual({ status: 422, body: { detail } });
  });
});
