import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { io as connectClient, type Socket as ClientSocket } from 'socket.io-client';
import {
  LIVE_NAMESPACE,
  LIVE_PATH,
  type ClientToServerEvents,
  type ImportProgress,
  type ServerToClientEvents,
} from '@portal/projections';
import {
  HARNESS_PASSWORD,
  portalModes,
  startTestPortal,
  type TestPortal,
} from '../../platform/testing/portal-harness.js';
import { ProjectionRunner } from '../../platform/projections/projection-runner.js';
import { waitFor } from '../../platform/testing/wait-for.js';
import { UsersReadModel } from '../users.read.js';

const CUSTOMER_1 = '11111111-1111-4111-8111-111111111111';
const CUSTOMER_2 = '22222222-2222-4222-8222-222222222222';

type Client = ClientSocket<ServerToClientEvents, ClientToServerEvents>;
const sockets: Client[] = [];
afterEach(() => {
  for (const s of sockets.splice(0)) s.close();
});

describe.each(portalModes)('CSV exports and imports, $name', (mode) => {
  let portal: TestPortal;
  const ids: Record<string, string> = {};
  let partner: string;

  /** A download: status, headers and the body's bytes. */
  async function download(path: string, token = portal.admin) {
    const res = await fetch(`${portal.base}/api/v1${path}`, { headers: { RequestVerificationToken: token } });
    return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
  }

  const csvRecords = (bytes: Buffer) =>
    parse<Record<string, string>>(bytes, { columns: true, bom: true, skip_empty_lines: true });

  async function upload(path: string, field: string, csv: string, token = portal.admin) {
    const form = new FormData();
    form.append(field, new Blob([csv], { type: 'text/csv' }), 'users.csv');
    const res = await fetch(`${portal.base}/api/v1${path}`, {
      method: 'POST',
      headers: { RequestVerificationToken: token },
      body: form,
    });
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : {}) as Record<string, unknown> };
  }

  async function settlePosition(position: unknown) {
    expect(
      await portal.running.app.get(ProjectionRunner).waitForPosition(BigInt(position as string), 10_000),
    ).toBe(true);
  }

  const findByLogin = async (login: string) => {
    const r = await portal.call('GET', `/users/?query=${encodeURIComponent(login)}`, portal.admin);
    expect(r.status).toBe(200);
    return (r.body.items as { login: string; id: string; first_name: string }[]).find(
      (u) => u.login === login,
    );
  };

  beforeAll(async () => {
    portal = await startTestPortal(mode, 'portal_csv');
    ids.ann = await portal.createUser({
      email: 'ann.student@example.com',
      first_name: 'Ann',
      last_name: 'Apple',
      user_type: 'student',
      customer_id: CUSTOMER_1,
    });
    ids.evil = await portal.createUser({
      email: 'evil.student@example.com',
      first_name: '=HYPERLINK("http://evil.example","click")',
      last_name: '+Bobby',
      user_type: 'student',
      customer_id: CUSTOMER_1,
    });
    ids.other = await portal.createUser({
      email: 'cara.student@example.com',
      first_name: 'Cara',
      last_name: 'Other',
      user_type: 'student',
      customer_id: CUSTOMER_2,
    });
    ids.teacher = await portal.createUser({
      email: 'tom.teacher@example.com',
      first_name: 'Tom',
      last_name: 'Teacher',
      user_type: 'teacher',
    });
    ids.partner = await portal.createUser({
      email: 'pat.partner@example.com',
      first_name: 'Pat',
      last_name: 'Partner',
      user_type: 'partner',
      customer_id: CUSTOMER_1,
      customer_type: 'super-admin',
    });
    await portal.settle(
      await portal.call('POST', `/users/${ids.ann}/contacts`, portal.admin, {
        name: 'Mary Apple',
        email: 'mary@example.com',
        phone: '+44 7700 900000',
        relationship: 'Mother',
      }),
    );
    partner = await portal.tokenFor('pat.partner@example.com');
  });

  afterAll(async () => {
    await portal?.close();
  });

  it('exports students as CSV (UTF-8 BOM, attachment) with the right columns and rows, formulas escaped', async () => {
    const r = await download('/users/students/csv');
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(r.headers.get('content-disposition')).toBe('attachment; filename="students.csv"');
    expect([...r.bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const records = csvRecords(r.bytes);
    expect(Object.keys(records[0]!)).toEqual([
      'id',
      'first_name',
      'last_name',
      'login',
      'email',
      'customer',
      'status',
      'has_access',
      'is_blocked',
      'timezone',
      'created_at',
      'last_action',
    ]);
    expect(records.map((x) => x.login).sort()).toEqual([
      'ann.student@example.com',
      'cara.student@example.com',
      'evil.student@example.com',
    ]);
    const evil = records.find((x) => x.id === ids.evil)!;
    expect(evil.first_name).toBe(`'=HYPERLINK("http://evil.example","click")`);
    expect(evil.last_name).toBe("'+Bobby");
    expect(records.find((x) => x.id === ids.ann)).toMatchObject({ first_name: 'Ann', status: 'active' });

    // The list's filters apply: customer_id and query.
    const filtered = csvRecords((await download(`/users/students/csv?customer_id=${CUSTOMER_2}`)).bytes);
    expect(filtered.map((x) => x.id)).toEqual([ids.other]);
    const byText = csvRecords((await download('/users/students/csv?query=apple')).bytes);
    expect(byText.map((x) => x.id)).toEqual([ids.ann]);
  });

  it('exports students as .xlsx with as_excel=true; text stays text', async () => {
    const r = await download('/users/students/csv?as_excel=true');
    expect(r.status).toBe(200);
    expect(r.headers.get('content-disposition')).toBe('attachment; filename="students.xlsx"');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(r.bytes as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0]!;
    expect(sheet.getRow(1).values).toEqual([undefined, ...STUDENT_HEADERS]);
    expect(sheet.rowCount).toBe(4);
    const evilRow = [2, 3, 4].map((n) => sheet.getRow(n)).find((row) => row.getCell(1).value === ids.evil)!;
    expect(evilRow.getCell(2).type).toBe(ExcelJS.ValueType.String);
    expect(evilRow.getCell(2).value).toBe('=HYPERLINK("http://evil.example","click")');
  });

  it('exports teachers, and students in detail with their contacts', async () => {
    const teachers = csvRecords((await download('/users/teachers/csv')).bytes);
    expect(teachers.map((x) => x.id)).toEqual([ids.teacher]);
    expect(Object.keys(teachers[0]!)).toContain('has_quality_issue');

    const detailed = await download('/users/students/csv/detailed');
    expect(detailed.headers.get('content-disposition')).toBe('attachment; filename="students-detailed.csv"');
    const ann = csvRecords(detailed.bytes).find((x) => x.id === ids.ann)!;
    expect(ann).toMatchObject({ customer_id: CUSTOMER_1, contact_count: '1' });
    expect(ann.contacts).toBe('Mary Apple (Mother) mary@example.com +44 7700 900000');
  });

  it('streams every matching user in the list order, batch after batch (keyset paging)', async () => {
    const users = portal.running.app.get(UsersReadModel);
    for (const sort of [
      { sortBy: 'full_name', descending: false },
      { sortBy: 'created_at', descending: true },
      { sortBy: 'status', descending: false },
    ] as const) {
      const listed = await users.list({ page: 1, size: 500, ...sort });
      const streamed: string[] = [];
      for await (const row of users.stream(sort, 2)) streamed.push(row.id);
      expect(streamed).toHaveLength(listed.total);
      expect(new Set(streamed).size).toBe(listed.total);
      // Same order as the list, except that ties are broken by id in the sort's direction.
      const key = (id: string) => {
        const row = listed.rows.find((r) => r.id === id)!;
        return String(
          row[sort.sortBy] instanceof Date ? (row[sort.sortBy] as Date).getTime() : row[sort.sortBy],
        );
      };
      expect(streamed.map(key)).toEqual(listed.rows.map((r) => r.id).map(key));
    }
  });

  it('student and teacher exports are for administrators only', async () => {
    expect((await download('/users/students/csv', partner)).status).toBe(403);
    expect((await download('/users/teachers/csv', partner)).status).toBe(403);
    expect((await download('/users/students/csv/detailed', partner)).status).toBe(403);
  });

  it('student contacts: overview page and reports, partners only for their own customer', async () => {
    const page = await portal.call(
      'GET',
      '/student-contacts/students/overview?sort_by=full_name',
      portal.admin,
    );
    expect(page.status).toBe(200);
    expect(page.body.total).toBe(3);
    const items = page.body.items as { id: string; contacts: { name: string }[] }[];
    expect(items.find((i) => i.id === ids.ann)!.contacts.map((c) => c.name)).toEqual(['Mary Apple']);

    const mine = await portal.call('GET', '/student-contacts/students/overview', partner);
    expect(mine.status).toBe(200);
    expect((mine.body.items as { id: string }[]).map((i) => i.id).sort()).toEqual([ids.ann, ids.evil].sort());

    const report = await download('/student-contacts/students/overview/report', partner);
    expect(report.status).toBe(200);
    const lines = csvRecords(report.bytes);
    expect(lines.map((l) => l.student_id).sort()).toEqual([ids.ann, ids.evil].sort());
    expect(lines.find((l) => l.student_id === ids.ann)).toMatchObject({
      contact_name: 'Mary Apple',
      contact_phone: "'+44 7700 900000",
    });

    const excel = await download('/student-contacts/students/overview/report?as_excel=true');
    expect(excel.headers.get('content-disposition')).toBe('attachment; filename="student-contacts.xlsx"');

    expect((await download(`/student-contacts/customer/${CUSTOMER_2}/report`, partner)).status).toBe(403);
    const own = await download(`/student-contacts/customer/${CUSTOMER_1}/report`, partner);
    expect(own.status).toBe(200);
    expect(new Set(csvRecords(own.bytes).map((l) => l.student_id))).toEqual(new Set([ids.ann, ids.evil]));
    const admins = csvRecords((await download(`/student-contacts/customer/${CUSTOMER_2}/report`)).bytes);
    expect(admins.map((l) => l.student_id)).toEqual([ids.other]);
  });

  it('counts active students, per day in a report; partners see their own customer only', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const count = await portal.call('GET', '/users/students/count/active', portal.admin);
    expect(count.body).toEqual({ count: 3 });
    const report = await download(
      `/users/students/count/active/report?date_from=${yesterday}&date_to=${today}`,
    );
    expect(report.status).toBe(200);
    expect(csvRecords(report.bytes)).toEqual([
      { day: yesterday, active_students: '0' },
      { day: today, active_students: '3' },
    ]);
    // Deactivated today: still active at some moment today; no longer counted now.
    await portal.settle(await portal.call('PUT', `/users/${ids.other}/deactivate`, portal.admin));
    expect((await portal.call('GET', '/users/students/count/active', portal.admin)).body).toEqual({
      count: 2,
    });
    const mine = await download(
      `/users/students/count/active/report?date_from=${today}&date_to=${today}&customer_id=${CUSTOMER_1}&as_excel=true`,
      partner,
    );
    expect(mine.status).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(mine.bytes as unknown as ArrayBuffer);
    expect(workbook.worksheets[0]!.getRow(2).values).toEqual([undefined, today, 2]);
    expect(
      (await download(`/users/students/count/active/report?customer_id=${CUSTOMER_2}`, partner)).status,
    ).toBe(403);
    const months = csvRecords(
      (await download(`/users/students/count/active/report?date_from=2026-01-15&date_to=2026-12-31`)).bytes,
    );
    expect(months).toHaveLength(12);
    expect(months[0]).toEqual({ month: '2026-01', active_students: '0' });
    const bad = await download(`/users/students/count/active/report?date_from=${today}&date_to=2020-01-01`);
    expect(bad.status).toBe(422);
  });

  it('refuses a file with bad rows as a whole: 422 listing row, column and reason; nobody created', async () => {
    const csv = [
      'first_name,last_name,email,type,customer_id',
      `Good,Row,good.row@example.com,student,${CUSTOMER_1}`,
      `,Missing,missing.first@example.com,student,${CUSTOMER_1}`,
      'Bad,Email,not-an-email,teacher,',
      'Bad,Type,bad.type@example.com,wizard,',
      'No,Customer,no.customer@example.com,student,',
      `Dup,Row,GOOD.ROW@example.com,student,${CUSTOMER_1}`,
      'Taken,Login,ann.student@example.com,teacher,',
    ].join('\n');
    const r = await upload('/users/import', 'file', csv);
    expect(r.status).toBe(422);
    expect(r.body.detail).toMatch(/nothing was imported/);
    expect(r.body.errors).toEqual([
      { row: 3, column: 'first_name', reason: 'is required' },
      { row: 4, column: 'email', reason: 'is not a valid e-mail address' },
      { row: 5, column: 'type', reason: 'must be one of super_admin, teacher, partner, student' },
      { row: 6, column: 'customer_id', reason: 'is required for student users' },
      { row: 7, column: 'email', reason: 'login good.row@example.com repeats row 2' },
      { row: 8, column: 'email', reason: 'a user with login ann.student@example.com already exists' },
    ]);
    expect(await findByLogin('good.row@example.com')).toBeUndefined();

    const unknownColumn = await upload(
      '/users/import',
      'file',
      'first_name,last_name,email,type,shoe_size\n',
    );
    expect(unknownColumn.status).toBe(422);
    expect(unknownColumn.body.detail).toMatch(/unknown column\(s\) shoe_size/);
    expect((await upload('/users/create_users_csv', 'wrongfield', csv)).status).toBeGreaterThanOrEqual(400);
  });

  it('imports a good file through the command path, reporting progress on the live channel', async () => {
    const socket: Client = connectClient(`${portal.base}${LIVE_NAMESPACE}`, {
      path: LIVE_PATH,
      auth: { token: portal.admin },
      forceNew: true,
      reconnection: false,
      transports: ['websocket'],
    });
    sockets.push(socket);
    const progress: ImportProgress[] = [];
    socket.on('import-progress', (p) => progress.push(p));
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });
    const rows = Array.from(
      { length: 60 },
      (_, i) => `Imported,Student${i},imported.${i}@example.com,student,${CUSTOMER_1},Europe/Paris`,
    );
    const csv = ['First_Name, last_name ,email,type,customer_id,timezone', ...rows].join('\r\n');
    const importId = randomUUID();
    const r = await upload(`/users/create_users_csv?import_id=${importId}`, 'csvfile', csv);
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ imported: 60, skipped: 0, import_id: importId });
    await settlePosition(r.body.position);
    const user = await findByLogin('imported.59@example.com');
    expect(user).toMatchObject({ first_name: 'Imported' });
    // The answer names the created users in file order (what generate_passwords takes).
    const userIds = r.body.user_ids as string[];
    expect(userIds).toHaveLength(60);
    expect(userIds[59]).toBe(user!.id);
    const detail = await portal.call('GET', `/users/${user!.id}`, portal.admin);
    expect(detail.body).toMatchObject({
      user_type: 'student',
      customer_id: CUSTOMER_1,
      timezone: 'Europe/Paris',
    });

    const last = await waitForProgress(progress, (p) => p.done === 60);
    expect(last).toEqual({ importId, done: 60, total: 60 });
    expect(progress[0]).toEqual({ importId, done: 0, total: 60 });
    expect(progress.map((p) => p.done)).toEqual([0, 25, 50, 60]);

    // The events carry the caller as actor (the audit trail shows who imported).
    const events = await portal.running.infra.eventStore.readStream(`user-${user!.id}`);
    expect(events[0]!.metadata.actorId).toBe((await findByLogin('head.office@example.com'))!.id);
  });

  it('skip_duplicates skips logins that exist or repeat; without it the same file is refused', async () => {
    const csv = [
      'first_name,last_name,email,type,customer_id',
      `Again,Zero,imported.0@example.com,student,${CUSTOMER_1}`,
      `Fresh,One,fresh.one@example.com,student,${CUSTOMER_1}`,
      `Fresh,Again,FRESH.ONE@example.com,student,${CUSTOMER_1}`,
    ].join('\n');
    expect((await upload('/users/import', 'file', csv)).status).toBe(422);
    const r = await upload('/users/import?skip_duplicates=true', 'file', csv);
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ imported: 1, skipped: 2 });
    await settlePosition(r.body.position);
    expect(await findByLogin('fresh.one@example.com')).toMatchObject({ first_name: 'Fresh' });
  });

  it('partners import only the kinds they may add, into their own customer', async () => {
    const ok = await upload(
      '/users/import',
      'file',
      'first_name,last_name,email,type\nPart,Ner,partner.import@example.com,student\n',
      partner,
    );
    expect(ok.status).toBe(201);
    await settlePosition(ok.body.position);
    const created = await findByLogin('partner.import@example.com');
    expect((await portal.call('GET', `/users/${created!.id}`, portal.admin)).body.customer_id).toBe(
      CUSTOMER_1,
    );
    const refused = await upload(
      '/users/import',
      'file',
      'first_name,last_name,email,type\nNew,Teacher,partner.teacher@example.com,teacher\n',
      partner,
    );
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toEqual([
      { row: 2, column: 'type', reason: 'You do not have permission to do this' },
    ]);
  });

  it('generates passwords once as a CSV download and ends the users’ sessions', async () => {
    const annToken = await portal.tokenFor('ann.student@example.com');
    const res = await fetch(`${portal.base}/api/v1/users/generate_passwords`, {
      method: 'POST',
      headers: { RequestVerificationToken: portal.admin, 'content-type': 'application/json' },
      body: JSON.stringify({ user_ids: [ids.ann] }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="passwords.csv"');
    const [line] = csvRecords(Buffer.from(await res.arrayBuffer()));
    expect(line).toMatchObject({ id: ids.ann, login: 'ann.student@example.com' });
    expect(line!.password).toMatch(/^[A-Za-z0-9_-]{16}$/);
    expect((await portal.call('GET', '/users/me', annToken)).status).toBe(401);
    await portal.tokenFor('ann.student@example.com', line!.password);
    const loginWithOld = await fetch(`${portal.base}/api/v1/login/access-token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ username: 'ann.student@example.com', password: HARNESS_PASSWORD }),
    });
    expect(loginWithOld.status).toBe(401);
    // No password in any event.
    const events = await portal.running.infra.eventStore.readStream(`user-${ids.ann}`);
    expect(JSON.stringify(events.map((e) => e.data))).not.toContain(line!.password);
    // Partners: only users they may change the password of.
    const refused = await portal.call('POST', '/users/generate_passwords', partner, {
      user_ids: [ids.other],
    });
    expect(refused.status).toBe(404);
  });

  // Last: the server answers 413 while the client is still sending, which can leave the client's pooled
  // connection to this server unusable for a following request.
  it('refuses files over 5 MB with 413', async () => {
    const big = 'first_name,last_name,email,type\n' + 'x'.repeat(5 * 1024 * 1024 + 10);
    const r = await upload('/users/import', 'file', big);
    expect(r.status).toBe(413);
    expect(typeof r.body.detail).toBe('string');
  });
});

const STUDENT_HEADERS = [
  'id',
  'first_name',
  'last_name',
  'login',
  'email',
  'customer',
  'status',
  'has_access',
  'is_blocked',
  'timezone',
  'created_at',
  'last_action',
];

function waitForProgress(progress: ImportProgress[], done: (p: ImportProgress) => boolean) {
  return waitFor(`an import-progress message; got ${JSON.stringify(progress)}`, () => progress.find(done));
}
