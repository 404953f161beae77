import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { io as connectClient, type Socket } from 'socket.io-client';
import { LIVE_NAMESPACE, LIVE_PATH } from '@portal/projections';
import { portalModes, startTestPortal, type TestPortal } from '../../platform/testing/portal-harness.js';

interface Item {
  id: string;
  login: string;
  user_type?: string;
  contacts?: unknown;
}
const logins = (items: unknown) => (items as Item[]).map((i) => i.login).sort();

describe.each(portalModes)('user lists, $name', (mode) => {
  let portal: TestPortal;
  let oak: string;
  let elm: string;
  const ids: Record<string, string> = {};
  const tokens: Record<string, string> = {};
  const sockets: Socket[] = [];

  beforeAll(async () => {
    portal = await startTestPortal(mode, 'portal_user_lists');
    const { call, admin, settle } = portal;
    oak = (await settle(await call('POST', '/customers/', admin, { name: 'Oakfield' }))).body.id as string;
    elm = (await settle(await call('POST', '/customers/', admin, { name: 'Elm Tree' }))).body.id as string;
    const users: [string, Record<string, unknown>][] = [
      ['head', { user_type: 'partner', customer_id: oak, customer_type: 'super-admin' }],
      ['parent', { user_type: 'partner', customer_id: oak, customer_type: 'parent' }],
      ['elmcontact', { user_type: 'partner', customer_id: elm, customer_type: 'link-contact' }],
      ['s1', { user_type: 'student', customer_id: oak }],
      ['s2', { user_type: 'student', customer_id: oak }],
      ['s3', { user_type: 'student', customer_id: elm }],
      ['t1', { user_type: 'teacher' }],
      ['t2', { user_type: 'teacher' }],
    ];
    for (const [key, body] of users)
      ids[key] = await portal.createUser({
        email: `${key}@example.com`,
        first_name: key,
        last_name: 'L',
        ...body,
      });
    await settle(await call('POST', `/users/${ids.s1}/contacts`, admin, { name: 'Mum', phone: '0123' }));
    await settle(await call('PUT', `/users/${ids.s2}/deactivate`, admin));
    await settle(await call('PUT', `/users/${ids.t2}/deactivate`, admin));
    for (const key of ['head', 'parent', 't1']) tokens[key] = await portal.tokenFor(`${key}@example.com`);
  }, 120_000);
  afterEach(() => {
    for (const s of sockets.splice(0)) s.close();
  });
  afterAll(async () => {
    await portal?.close();
  });

  const get = (path: string, token = portal.admin) => portal.call('GET', `/users${path}`, token);

  it('lists students paged like /users/, with filters, and partners see only their own', async () => {
    const all = await get('/students');
    expect(all.body).toMatchObject({ total: 3, page: 1, size: 50 });
    expect(logins(all.body.items)).toEqual(['s1@example.com', 's2@example.com', 's3@example.com']);
    expect((all.body.items as Item[]).every((i) => i.user_type === 'student')).toBe(true);
    expect((await get('/students?size=1&page=2&sort_by=login')).body).toMatchObject({
      total: 3,
      items: [{ login: 's2@example.com' }],
    });
    expect(logins((await get('/students?has_access=false')).body.items)).toEqual(['s2@example.com']);
    expect(logins((await get(`/students?customer_id=${elm}`)).body.items)).toEqual(['s3@example.com']);
    expect(logins((await get('/students', tokens.head)).body.items)).toEqual([
      's1@example.com',
      's2@example.com',
    ]);
    expect((await get('/students', tokens.parent)).body).toMatchObject({ total: 0, items: [] });
  });

  it('says whether the total is exact, counts exactly on request and refuses a bad exact_total', async () => {
    // Under USER_LIST_COUNT_UP_TO users the count is exact; the bound itself is covered by list-page.int.
    expect((await get('/')).body).toMatchObject({ total_exact: true });
    expect((await get('/students?size=1')).body).toMatchObject({ total: 3, total_exact: true });
    expect((await get('/?exact_total=true&type=students')).body).toMatchObject({
      total: 3,
      total_exact: true,
    });
    const bad = await get('/?exact_total=maybe');
    expect(bad.status).toBe(422);
    expect(JSON.stringify(bad.body.detail)).toContain('exact_total');
  });

  it('filters GET /users/ by customer role, within what a partner may see', async () => {
    expect(logins((await get('/?customer_type=parent')).body.items)).toEqual(['parent@example.com']);
    expect(logins((await get('/?customer_type=super-admin&customer_type=link-contact')).body.items)).toEqual([
      'elmcontact@example.com',
      'head@example.com',
    ]);
    // The head of Oakfield (super-admin) sees their own school's parents, not Elm Tree's link contact.
    expect(logins((await get('/?customer_type=parent', tokens.head)).body.items)).toEqual([
      'parent@example.com',
    ]);
    expect((await get('/?customer_type=link-contact', tokens.head)).body).toMatchObject({ total: 0 });
    const bad = await get('/?customer_type=headteacher');
    expect(bad.status).toBe(422);
    expect(JSON.stringify(bad.body)).toContain('customer_type');
  });

  it('gives simple students with the spec fields, contacts on request, and filters', async () => {
    const oaks = await get(`/students/simple?customer_id=${oak}&has_access=true`);
    expect(oaks.body).toEqual({
      items: [
        {
          id: ids.s1,
          login: 's1@example.com',
          first_name: 's1',
          last_name: 'L',
          display_name: 's1 L',
          email: 's1@example.com',
          birth_date: null,
          has_access: true,
          scheduled_for_deactivation: null,
          is_blocked: false,
          customer_name: 'Oakfield',
          year_group: null,
          contacts: null,
        },
      ],
    });
    const withContacts = await get(`/students/simple?customer_id=${oak}&has_access=true&with_contacts=true`);
    expect((withContacts.body.items as Item[])[0]!.contacts).toEqual([
      expect.objectContaining({ name: 'Mum', phone: '0123' }),
    ]);
    expect(logins((await get('/students/simple')).body.items)).toHaveLength(3);
    // year_group_id: students whose one-page profile has that year group (a free id, decision 0035).
    const year9 = '99999999-0000-4000-8000-000000000009';
    for (const [student, yearGroupId] of [
      [ids.s1, year9],
      [ids.s2, '99999999-0000-4000-8000-000000000010'],
      [ids.s3, year9.toUpperCase()],
    ])
      await portal.settle(
        await portal.call('POST', '/one-page-profiles/', portal.admin, {
          user_id: student,
          year_group_id: yearGroupId,
          year_group: 'Year 9',
          progress: 10,
        }),
      );
    expect(logins((await get(`/students/simple?year_group_id=${year9}`)).body.items)).toEqual([
      's1@example.com',
      's3@example.com',
    ]);
    // Students are told apart by school and year group in every picker (issue 18): both lists carry it.
    const yearOf = (items: unknown, id: string) =>
      (items as { id: string; year_group: string | null }[]).find((i) => i.id === id)?.year_group;
    expect(yearOf((await get(`/students/simple?customer_id=${elm}`)).body.items, ids.s3!)).toBe('Year 9');
    expect(yearOf((await get('/?type=students')).body.items, ids.s1!)).toBe('Year 9');
    expect(yearOf((await get('/?type=teachers')).body.items, ids.t1!)).toBeNull();
    expect(logins((await get(`/students/simple?year_group_id=${year9}`, tokens.head)).body.items)).toEqual([
      's1@example.com',
    ]);
    expect((await get(`/students/simple?year_group_id=${oak}`)).body).toEqual({ items: [] });
    expect((await get('/students/simple?year_group_id=nine')).status).toBe(422);
    expect(logins((await get('/students/simple', tokens.head)).body.items)).toEqual([
      's1@example.com',
      's2@example.com',
    ]);
    expect((await get('/students/simple?has_access=maybe')).status).toBe(422);
    expect((await get('/students/simple?customer_id=oak')).status).toBe(422);
  });

  it('counts active students, scoped for partners', async () => {
    expect((await get('/students/count/active')).body).toEqual({ count: 2 });
    expect((await get(`/students/count/active?customer_id=${oak}`)).body).toEqual({ count: 1 });
    expect((await get('/students/count/active', tokens.head)).body).toEqual({ count: 1 });
    expect((await get('/students/count/active', tokens.parent)).body).toEqual({ count: 0 });
  });

  it('lists tutors for internal users, paged and simple, with has_access', async () => {
    expect(logins((await get('/tutors')).body.items)).toEqual(['t1@example.com', 't2@example.com']);
    expect(logins((await get('/tutors?has_access=true', tokens.t1)).body.items)).toEqual(['t1@example.com']);
    expect(logins((await get('/tutors/simple?has_access=false')).body.items)).toEqual(['t2@example.com']);
    expect(logins((await get('/tutors/simple', tokens.t1)).body.items)).toHaveLength(2);
  });

  it('gives teachers the tutors as simple users: no permission lists, quality-issue reasons or notes', async () => {
    const { call, admin, settle } = portal;
    await settle(await call('PUT', `/users/${ids.t2}`, admin, { notes: 'Admin: probation until June' }));
    await settle(
      await call('PUT', `/users/${ids.t2}/set-quality-issue`, admin, { reason: 'Late to lessons' }),
    );
    await settle(
      await call('PUT', `/users/${ids.t2}/permissions`, admin, {
        permissions: ['USER_IS_TEACHER', 'CAN_BLOCK_USERS'],
      }),
    );
    const simpleKeys = Object.keys(
      ((await get('/tutors/simple', tokens.t1)).body.items as object[])[0]!,
    ).sort();
    const asTeacher = await get('/tutors', tokens.t1);
    expect(asTeacher.body).toMatchObject({ total: 2, page: 1, size: 50 });
    for (const item of asTeacher.body.items as Record<string, unknown>[])
      expect(Object.keys(item).sort()).toEqual(simpleKeys);
    expect(JSON.stringify(asTeacher.body)).not.toMatch(
      /probation|Late to lessons|CAN_BLOCK_USERS|USER_IS_TEACHER/,
    );
    // Administrators still get the whole record.
    const t2 = ((await get('/tutors')).body.items as Record<string, unknown>[]).find((i) => i.id === ids.t2);
    expect(t2).toMatchObject({
      notes: 'Admin: probation until June',
      permission_list: ['USER_IS_TEACHER', 'CAN_BLOCK_USERS'],
      teacher_profile: { has_quality_issue: true, quality_issue_reason: 'Late to lessons' },
    });
  });

  it('lists customer (partner) users, partners only their own visible ones', async () => {
    expect(logins((await get('/customers')).body.items)).toEqual([
      'elmcontact@example.com',
      'head@example.com',
      'parent@example.com',
    ]);
    expect(logins((await get(`/customers?customer_id=${elm}&has_access=true`)).body.items)).toEqual([
      'elmcontact@example.com',
    ]);
    expect(logins((await get('/customers', tokens.head)).body.items)).toEqual([
      'head@example.com',
      'parent@example.com',
    ]);
    expect(logins((await get('/customers', tokens.parent)).body.items)).toEqual(['parent@example.com']);
  });

  it("gives each caller their relations as linked users: a partner's linked students, a student's partners", async () => {
    expect((await get('/linked-users/simple', tokens.head)).body).toEqual({ items: [] });
    await portal.settle(
      await portal.call('PUT', `/users/${ids.parent}/linked-students`, portal.admin, {
        student_ids: [ids.s1, ids.s2],
      }),
    );
    expect(logins((await get('/linked-users/simple', tokens.parent)).body.items)).toEqual([
      's1@example.com',
      's2@example.com',
    ]);
    expect(logins((await get('/linked-users/simple?has_access=true', tokens.parent)).body.items)).toEqual([
      's1@example.com',
    ]);
    expect((await get('/linked-users/simple', tokens.t1)).body).toEqual({ items: [] });
    await portal.settle(
      await portal.call('PUT', `/users/${ids.parent}/linked-students`, portal.admin, { student_ids: [] }),
    );
  });

  it('tells who is online from their open live connections', async () => {
    expect((await get('/online/status')).body).toEqual({ items: [] });
    for (let i = 0; i < 2; i++) {
      const socket = connectClient(`${portal.base}${LIVE_NAMESPACE}`, {
        path: LIVE_PATH,
        auth: { token: tokens.t1 },
        forceNew: true,
        reconnection: false,
        transports: ['websocket'],
      });
      sockets.push(socket);
      await new Promise<void>((resolve, reject) => {
        socket.once('connect', () => resolve());
        socket.once('connect_error', reject);
      });
    }
    expect((await get('/online/status')).body).toEqual({
      items: [{ user_id: ids.t1, online: true, connections: 2 }],
    });
    expect((await get(`/online/status?user_ids=${ids.t2}&user_ids=${ids.t1}`, tokens.t1)).body).toEqual({
      items: [
        { user_id: ids.t2, online: false, connections: 0 },
        { user_id: ids.t1, online: true, connections: 2 },
      ],
    });
    expect((await get('/online/status?user_ids=nope')).status).toBe(422);
    // Teachers read other tutors' online status only (decision 0037): a partner online is left out.
    const partnerSocket = connectClient(`${portal.base}${LIVE_NAMESPACE}`, {
      path: LIVE_PATH,
      auth: { token: tokens.head },
      forceNew: true,
      reconnection: false,
      transports: ['websocket'],
    });
    sockets.push(partnerSocket);
    await new Promise<void>((resolve, reject) => {
      partnerSocket.once('connect', () => resolve());
      partnerSocket.once('connect_error', reject);
    });
    expect((await get('/online/status')).body.items).toEqual(
      expect.arrayContaining([{ user_id: ids.head, online: true, connections: 1 }]),
    );
    expect((await get('/online/status', tokens.t1)).body).toEqual({
      items: [{ user_id: ids.t1, online: true, connections: 2 }],
    });
    expect((await get(`/online/status?user_ids=${ids.head}&user_ids=${ids.t2}`, tokens.t1)).body).toEqual({
      items: [{ user_id: ids.t2, online: false, connections: 0 }],
    });
  });

  it('withholds staff notes from parents and students, and gives link contacts basic parent details', async () => {
    const { call, admin, settle } = portal;
    const note = {
      student: 'Staff: needs a quiet room',
      contact: 'Staff: call after 5pm',
      profile: 'Staff: anxious on Mondays',
      parent: 'Staff: prefers e-mail',
    };
    // Staff notes on a student, their contact and their one-page profile; the parent is linked to them.
    await settle(await call('PUT', `/users/${ids.s1}`, admin, { notes: note.student }));
    const student = (await get(`/${ids.s1}`)).body as {
      contacts: { id: string }[];
      one_page_profile: { id: string };
    };
    await settle(
      await call('PUT', `/users/${ids.s1}/contacts/${student.contacts[0]!.id}`, admin, {
        name: 'Mum',
        phone: '0123',
        notes: note.contact,
      }),
    );
    const profile = student.one_page_profile.id;
    await settle(await call('PUT', `/one-page-profiles/${profile}`, admin, { notes: note.profile }));
    await settle(await call('PUT', `/users/${ids.parent}`, admin, { notes: note.parent }));
    await settle(await call('PUT', `/users/${ids.parent}/linked-students`, admin, { student_ids: [ids.s1] }));
    await portal.createUser({
      email: 'oaklink@example.com',
      first_name: 'oaklink',
      last_name: 'L',
      user_type: 'partner',
      customer_id: oak,
      customer_type: 'link-contact',
    });
    tokens.oaklink = await portal.tokenFor('oaklink@example.com');
    tokens.s1 = await portal.tokenFor('s1@example.com');

    type Reader = 'admin' | 'head' | 'parent' | 'oaklink' | 's1';
    type Body = Record<string, unknown>;
    const contactNotes = (b: Body) => (b.contacts as { notes: string | null }[])[0]!.notes;
    const s1Of = (b: Body) => (b.items as Body[]).find((i) => i.id === ids.s1)!;
    const basic = (b: Body) => ({
      notes: b.notes,
      permission_list: b.permission_list,
      full_name: b.full_name,
    });
    /** [what, path, what is read of the answer, reader → expected]. */
    const matrix: [string, string, (b: Body) => unknown, Partial<Record<Reader, unknown>>][] = [
      [
        'student notes',
        `/users/${ids.s1}`,
        (b) => b.notes,
        { admin: note.student, head: note.student, parent: null },
      ],
      [
        'contact notes',
        `/users/${ids.s1}`,
        contactNotes,
        { admin: note.contact, head: note.contact, parent: null },
      ],
      [
        'contact notes, simple students',
        '/users/students/simple?with_contacts=true',
        (b) => contactNotes(s1Of(b)),
        { admin: note.contact, head: note.contact, parent: null },
      ],
      [
        'contact notes, contacts overview',
        '/student-contacts/students/overview',
        (b) => contactNotes(s1Of(b)),
        { admin: note.contact, head: note.contact, parent: null },
      ],
      [
        'one-page profile notes',
        `/one-page-profiles/${profile}`,
        (b) => b.notes,
        { admin: note.profile, head: note.profile, parent: null },
      ],
      [
        'one-page profile notes, list',
        '/one-page-profiles/',
        (b) => (b.items as Body[]).find((i) => i.id === profile)!.notes,
        { admin: note.profile, head: note.profile, parent: null },
      ],
      ['own notes', '/users/me', (b) => b.notes, { s1: null, parent: null }],
      [
        'a parent',
        `/users/${ids.parent}`,
        basic,
        {
          admin: {
            notes: note.parent,
            permission_list: expect.arrayContaining(['USER_IS_PARTNER']),
            full_name: 'parent L',
          },
          head: {
            notes: note.parent,
            permission_list: expect.arrayContaining(['USER_IS_PARTNER']),
            full_name: 'parent L',
          },
          oaklink: { notes: null, permission_list: [], full_name: 'parent L' },
        },
      ],
      [
        'a parent in the customers list',
        '/users/customers?customer_type=parent',
        (b) => basic((b.items as Body[])[0]!),
        { oaklink: { notes: null, permission_list: [], full_name: 'parent L' } },
      ],
    ];
    const token = (r: Reader) => (r === 'admin' ? admin : tokens[r]);
    const seen: unknown[] = [];
    const wanted: unknown[] = [];
    for (const [what, path, read, expected] of matrix)
      for (const [reader, value] of Object.entries(expected) as [Reader, unknown][]) {
        const answer = await portal.call('GET', path, token(reader));
        seen.push([what, reader, answer.status, answer.status === 200 ? read(answer.body) : null]);
        wanted.push([what, reader, 200, value]);
      }
    expect(seen).toEqual(wanted);
    // The CSV of the contacts has no contact notes for a parent either.
    const csv = await fetch(`${portal.base}/api/v1/student-contacts/students/overview/report`, {
      headers: { RequestVerificationToken: tokens.parent! },
    });
    expect(csv.status).toBe(200);
    expect(await csv.text()).not.toContain(note.contact);
    await settle(await call('PUT', `/users/${ids.parent}/linked-students`, admin, { student_ids: [] }));
  });

  it('authorizes every list: no token 401, and only the roles each list is for', async () => {
    type Role = 'none' | 'teacher' | 'partner' | 'admin';
    const token: Record<Role, string | undefined> = {
      none: undefined,
      teacher: tokens.t1,
      partner: tokens.head,
      admin: portal.admin,
    };
    const matrix: [string, Record<Role, number>][] = [
      ['/students', { none: 401, teacher: 403, partner: 200, admin: 200 }],
      ['/students/simple', { none: 401, teacher: 403, partner: 200, admin: 200 }],
      ['/students/count/active', { none: 401, teacher: 403, partner: 200, admin: 200 }],
      ['/tutors', { none: 401, teacher: 200, partner: 403, admin: 200 }],
      ['/tutors/simple', { none: 401, teacher: 200, partner: 403, admin: 200 }],
      ['/customers', { none: 401, teacher: 403, partner: 200, admin: 200 }],
      ['/linked-users/simple', { none: 401, teacher: 200, partner: 200, admin: 200 }],
      ['/online/status', { none: 401, teacher: 200, partner: 403, admin: 200 }],
    ];
    const seen: string[] = [];
    const expected: string[] = [];
    for (const [path, outcomes] of matrix)
      for (const role of Object.keys(outcomes) as Role[]) {
        seen.push(`${path} ${role} ${(await portal.call('GET', `/users${path}`, token[role])).status}`);
        expected.push(`${path} ${role} ${outcomes[role]}`);
      }
    expect(seen).toEqual(expected);
  });

  it('documents every account, settings, availability, custom field and list endpoint in OpenAPI', async () => {
    const doc = (await (await fetch(`${portal.base}/api/docs-json`)).json()) as {
      paths: Record<string, Record<string, unknown>>;
    };
    const routes = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.keys(ops).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(routes).toEqual(
      expect.arrayContaining([
        'GET /api/v1/activate/{token}',
        'POST /api/v1/activate',
        'POST /api/v1/users/{id}/activation-link',
        'POST /api/v1/customer-invitations',
        'GET /api/v1/customer-invitations',
        'GET /api/v1/register/partner/invite/{token}',
        'POST /api/v1/register/partner',
        'PUT /api/v1/users/me',
        'PUT /api/v1/users/me/timezone',
        'PUT /api/v1/users/me/birth_date',
        'PUT /api/v1/users/me/receive_weekly_summary_reports',
        'PUT /api/v1/users/me/requested_number_of_lessons',
        'PUT /api/v1/users/me/notification_email',
        'GET /api/v1/users/me/notification_email/verify',
        'GET /api/v1/users/me/availability',
        'POST /api/v1/users/me/availability',
        'GET /api/v1/users/{id}/availability',
        'POST /api/v1/users/{id}/availability',
        'GET /api/v1/users/custom_fields',
        'PUT /api/v1/users/custom_fields',
        'GET /api/v1/users/students',
        'GET /api/v1/users/students/simple',
        'GET /api/v1/users/students/count/active',
        'GET /api/v1/users/students/ehcp-reminder',
        'PUT /api/v1/users/students/ehcp-reminder',
        'PUT /api/v1/users/students/{id}/ehcp-request',
        'GET /api/v1/users/teachers_without_availability_set/report',
        'GET /api/v1/users/tutors',
        'GET /api/v1/users/tutors/simple',
        'GET /api/v1/users/customers',
        'GET /api/v1/users/linked-users/simple',
        'GET /api/v1/users/online/status',
      ]),
    );
  });
});
