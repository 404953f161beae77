import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { groupById, groupStudentsOn, groupTeachers, programmeById } from '@portal/projections';
import {
  listenLive,
  portalModes,
  startTestPortal,
  type Json,
  type TestPortal,
} from '../platform/testing/portal-harness.js';
import type { SqlClient } from '../platform/sql/sql-client.js';
import { SQL_CLIENT } from '../platform/tokens.js';
import { waitFor } from '../platform/testing/wait-for.js';

/** A day relative to today (UTC), yyyy-MM-dd: memberships are judged against the real "today". */
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

/** Programmes, groups and enrolments end to end (issue 15 items 3 and 4; docs/decisions/0051). */
describe.each(portalModes)('programmes, groups and enrolments, $name', (mode) => {
  let portal: TestPortal;
  let oak: string;
  let elm: string;
  const ids: Record<string, string> = {};
  const tokens: Record<string, string> = {};
  const sql = () => portal.running.app.get<SqlClient>(SQL_CLIENT);

  beforeAll(async () => {
    portal = await startTestPortal(mode, 'portal_programmes');
    const { call, admin, settle } = portal;
    // Networks need the network permission besides being an administrator (spec §6).
    const me = (await call('GET', '/users/me', admin)).body.id as string;
    await settle(
      await call('PUT', `/users/${me}/permissions`, admin, {
        permissions: ['USER_IS_ADMIN', 'CAN_MODIFY_NETWORK'],
      }),
    );
    const net = (
      await settle(await call('POST', '/networks/', admin, { name: 'Iberia', timezone: 'Europe/Madrid' }))
    ).body.id as string;
    oak = (await settle(await call('POST', '/customers/', admin, { name: 'Oakfield', network_id: net }))).body
      .id as string;
    elm = (await settle(await call('POST', '/customers/', admin, { name: 'Elm Tree' }))).body.id as string;
    const users: [string, Record<string, unknown>][] = [
      ['head', { user_type: 'partner', customer_id: oak, customer_type: 'super-admin' }],
      ['contact', { user_type: 'partner', customer_id: oak, customer_type: 'link-contact' }],
      ['elmhead', { user_type: 'partner', customer_id: elm, customer_type: 'super-admin' }],
      ['s1', { user_type: 'student', customer_id: oak }],
      ['s2', { user_type: 'student', customer_id: oak }],
      ['s3', { user_type: 'student', customer_id: oak }],
      ['e1', { user_type: 'student', customer_id: elm }],
      ['t1', { user_type: 'teacher' }],
      ['t2', { user_type: 'teacher' }],
      ['manager', { user_type: 'teacher', permissions: ['CAN_MANAGE_PROGRAMMES'] }],
    ];
    for (const [key, body] of users)
      ids[key] = await portal.createUser({
        email: `${key}@example.com`,
        first_name: key,
        last_name: 'L',
        ...body,
      });
    for (const key of ['head', 'contact', 'elmhead', 't1', 't2', 'manager'])
      tokens[key] = await portal.tokenFor(`${key}@example.com`);
    await settle(
      await call('PUT', `/users/${ids.contact}/linked-students`, admin, { student_ids: [ids.s2] }),
    );
  }, 180_000);

  afterAll(async () => {
    await portal?.close();
  });

  const as = (who: string) => (who === 'admin' ? portal.admin : tokens[who]!);
  const get = (path: string, who = 'admin') => portal.call('GET', path, as(who));
  const write = async (method: string, path: string, body: unknown, who = 'admin') =>
    portal.settle(await portal.call(method, path, as(who), body));
  const titles = (body: Json) => (body.items as { title: string }[]).map((i) => i.title).sort();

  const programme = (over: Record<string, unknown> = {}) => ({
    title: 'Maths GCSE recovery',
    customer_id: oak,
    kind: 'lesson',
    start_date: '2026-09-07',
    end_date: '2027-07-16',
    ...over,
  });

  let maths: string;
  let english: string;
  let group: string;

  it("creates a programme as a draft in the customer's network's time zone, and reads it back", async () => {
    maths = (await write('POST', '/programmes/', programme())).body.id as string;
    const read = await get(`/programmes/${maths}`);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({
      id: maths,
      title: 'Maths GCSE recovery',
      customer_id: oak,
      customer_name: 'Oakfield',
      kind: 'lesson',
      start_date: '2026-09-07',
      end_date: '2027-07-16',
      timezone: 'Europe/Madrid',
      status: 'draft',
      actions: ['activate'],
      source_programme_id: null,
    });
    english = (
      await write(
        'POST',
        '/programmes/',
        programme({ title: 'English KS3', kind: 'mentoring-session', timezone: 'Europe/London' }),
      )
    ).body.id as string;
    expect((await programmeById(sql(), english))?.timezone).toBe('Europe/London');
    const renamed = await write('PUT', `/programmes/${english}`, {
      title: 'English KS3 — Oakfield',
      end_date: null,
    });
    expect(renamed.body.id).toBe(english);
    expect((await get(`/programmes/${english}`)).body).toMatchObject({
      title: 'English KS3 — Oakfield',
      end_date: null,
    });
  });

  it('answers bad input with 422 naming the field', async () => {
    const bad: [Record<string, unknown>, RegExp][] = [
      [programme({ end_date: '2026-09-06' }), /end_date/],
      [programme({ timezone: 'Mars/Olympus_Mons' }), /timezone/],
      [programme({ customer_id: '99999999-9999-4999-8999-999999999999' }), /customer_id/],
      [programme({ product_id: '99999999-9999-4999-8999-999999999999' }), /product_id/],
      [programme({ subject_id: '99999999-9999-4999-8999-999999999999' }), /subject_id/],
      [programme({ year_group_id: '99999999-9999-4999-8999-999999999999' }), /year_group_id/],
      [programme({ title: undefined }), /title/],
      [programme({ start_date: '2026-02-30' }), /start_date/],
      [programme({ kind: 'lecture' }), /kind/],
    ];
    for (const [body, field] of bad) {
      const answer = await portal.call('POST', '/programmes/', portal.admin, body);
      expect([answer.status, answer.body.detail]).toEqual([422, expect.stringMatching(field)]);
    }
    const later = await portal.call('PUT', `/programmes/${maths}`, portal.admin, {
      start_date: '2027-08-01',
    });
    expect([later.status, later.body.detail]).toEqual([422, expect.stringMatching(/end_date/)]);
    expect((await get('/programmes/?status=finished')).status).toBe(422);
    expect((await get('/programmes/?sort_by=secret')).status).toBe(422);
    expect((await get('/programmes/not-a-uuid')).status).toBe(422);
    expect((await get('/programmes/99999999-9999-4999-8999-999999999999')).status).toBe(404);
  });

  it('moves a programme through its states and answers 409 naming the state otherwise', async () => {
    const scratch = (await write('POST', '/programmes/', programme({ title: 'Scratch' }))).body.id as string;
    const put = (action: string) => portal.call('PUT', `/programmes/${scratch}/${action}`, portal.admin, {});
    expect((await put('pause')).body.detail).toMatch(/draft/);
    expect((await put('pause')).status).toBe(409);
    expect((await put('activate')).status).toBe(200);
    expect((await put('activate')).status).toBe(409);
    expect((await put('pause')).status).toBe(200);
    expect((await put('complete')).status).toBe(409);
    expect((await put('resume')).status).toBe(200);
    await portal.settle(await put('complete'));
    const cancel = await put('cancel');
    expect([cancel.status, cancel.body.detail]).toEqual([409, expect.stringMatching(/completed/)]);
    expect((await get(`/programmes/${scratch}`)).body).toMatchObject({ status: 'completed', actions: [] });
    const events = await portal.running.infra.eventStore.readStream(`programme-${scratch}`);
    expect(events.map((e) => e.type)).toEqual([
      'ProgrammeCreated',
      'ProgrammeActivated',
      'ProgrammePaused',
      'ProgrammeResumed',
      'ProgrammeCompleted',
    ]);
    await write('PUT', `/programmes/${maths}/activate`, {});
    await write('PUT', `/programmes/${english}/activate`, {});
  });

  it('keeps group membership over time: removing sets the last day, re-adding opens a new period', async () => {
    group = (
      await write('POST', '/groups/', {
        programme_id: maths,
        name: 'Maths A',
        teachers: [{ teacher_id: ids.t1, role: 'lead' }],
      })
    ).body.id as string;
    await write('POST', `/groups/${group}/students`, { student_id: ids.s1, from: day(-60) });
    await write('POST', `/groups/${group}/students`, { student_id: ids.s3, from: day(-60) });
    const twice = await portal.call('POST', `/groups/${group}/students`, portal.admin, {
      student_id: ids.s1,
    });
    expect(twice.status).toBe(409);
    const otherSchool = await portal.call('POST', `/groups/${group}/students`, portal.admin, {
      student_id: ids.e1,
    });
    expect([otherSchool.status, otherSchool.body.detail]).toEqual([422, expect.stringMatching(/student_id/)]);
    await write('DELETE', `/groups/${group}/students/${ids.s1}?to=${day(-30)}`, undefined);
    expect(await groupStudentsOn(sql(), group, day(-30))).toEqual([ids.s1, ids.s3].sort());
    expect(await groupStudentsOn(sql(), group, day(-29))).toEqual([ids.s3]);
    const inside = await portal.call('POST', `/groups/${group}/students`, portal.admin, {
      student_id: ids.s1,
      from: day(-30),
    });
    expect(inside.status).toBe(409);
    await write('POST', `/groups/${group}/students`, { student_id: ids.s1, from: day(-10) });
    const read = await get(`/groups/${group}`);
    expect(read.body).toMatchObject({ id: group, programme_id: maths, name: 'Maths A' });
    expect(read.body.students).toEqual(
      expect.arrayContaining([
        { student_id: ids.s1, name: 's1 L', from: day(-60), to: day(-30) },
        { student_id: ids.s1, name: 's1 L', from: day(-10), to: null },
        { student_id: ids.s3, name: 's3 L', from: day(-60), to: null },
      ]),
    );
    expect(read.body.teachers).toEqual([{ teacher_id: ids.t1, role: 'lead', name: 't1 L' }]);
    // The past is never rewritten: the day the student was away still has the old roster.
    expect(await groupStudentsOn(sql(), group, day(-20))).toEqual([ids.s3]);
    expect((await groupById(sql(), group))?.programme_id).toBe(maths);
    const gone = await portal.call('DELETE', `/groups/${group}/students/${ids.s2}`, portal.admin);
    expect(gone.status).toBe(404);
    const before = await portal.call(
      'DELETE',
      `/groups/${group}/students/${ids.s1}?to=${day(-11)}`,
      portal.admin,
    );
    expect([before.status, before.body.detail]).toEqual([422, expect.stringMatching(/^to/)]);
  });

  it('sets teachers: at most one lead, teachers only (422 naming teachers)', async () => {
    const put = (teachers: unknown) =>
      portal.call('PUT', `/groups/${group}/teachers`, portal.admin, { teachers });
    const twoLeads = await put([
      { teacher_id: ids.t1, role: 'lead' },
      { teacher_id: ids.t2, role: 'lead' },
    ]);
    expect([twoLeads.status, twoLeads.body.detail]).toEqual([422, expect.stringMatching(/teachers/)]);
    const student = await put([{ teacher_id: ids.s1, role: 'assistant' }]);
    expect([student.status, student.body.detail]).toEqual([422, expect.stringMatching(/teachers/)]);
    expect((await put([{ teacher_id: ids.t1, role: 'boss' }])).status).toBe(422);
    await portal.settle(
      await put([
        { teacher_id: ids.t1, role: 'lead' },
        { teacher_id: ids.manager, role: 'assistant' },
      ]),
    );
    expect(await groupTeachers(sql(), group)).toEqual([
      { teacher_id: ids.t1, role: 'lead' },
      { teacher_id: ids.manager, role: 'assistant' },
    ]);
    const list = await get(`/groups/?programme_id=${maths}`);
    expect(list.body).toMatchObject({
      total: 1,
      items: [
        { id: group, name: 'Maths A', student_count: 2, lead_teacher_id: ids.t1, lead_teacher_name: 't1 L' },
      ],
    });
    expect((await get(`/groups/?student_id=${ids.s1}`)).body.total).toBe(1);
    expect((await get(`/groups/?teacher_id=${ids.t2}`)).body.total).toBe(0);
  });

  it("copies a programme: fields, groups' names and teachers, never students; the body overrides", async () => {
    const copy = await write('POST', '/programmes/', {
      source_program_id: maths,
      title: 'Maths GCSE recovery 2027',
    });
    const read = await get(`/programmes/${copy.body.id as string}`);
    expect(read.body).toMatchObject({
      title: 'Maths GCSE recovery 2027',
      customer_id: oak,
      start_date: '2026-09-07',
      end_date: '2027-07-16',
      timezone: 'Europe/Madrid',
      status: 'draft',
      source_programme_id: maths,
    });
    const groups = await get(`/groups/?programme_id=${copy.body.id as string}`);
    expect(groups.body).toMatchObject({
      total: 1,
      items: [{ name: 'Maths A', student_count: 0, lead_teacher_id: ids.t1 }],
    });
    const copied = await get(`/groups/${(groups.body.items as { id: string }[])[0]!.id}`);
    expect(copied.body.students).toEqual([]);
    expect(copied.body.teachers).toHaveLength(2);
    const missing = await portal.call('POST', '/programmes/', portal.admin, {
      source_program_id: '99999999-9999-4999-8999-999999999999',
    });
    expect([missing.status, missing.body.detail]).toEqual([422, expect.stringMatching(/source_program_id/)]);
  });

  let enrolment: string;

  it('enrols students with the placement enums, one open enrolment per student and programme', async () => {
    enrolment = (
      await write('POST', '/enrolments/', {
        student_id: ids.s1,
        programme_id: maths,
        placement_type: 'MAIN',
        setting: 'HOME',
        reason_for_placement: 'SEMH',
      })
    ).body.id as string;
    expect((await get(`/enrolments/${enrolment}`)).body).toMatchObject({
      id: enrolment,
      student_id: ids.s1,
      programme_id: maths,
      customer_id: oak,
      start_date: '2026-09-07',
      end_date: '2027-07-16',
      status: 'active',
      placement_type: 'MAIN',
      setting: 'HOME',
      reason_for_placement: 'SEMH',
      student_name: 's1 L',
      programme_title: 'Maths GCSE recovery',
    });
    const again = await portal.call('POST', '/enrolments/', portal.admin, {
      student_id: ids.s1,
      programme_id: maths,
    });
    expect(again.status).toBe(409);
    const otherSchool = await portal.call('POST', '/enrolments/', portal.admin, {
      student_id: ids.e1,
      programme_id: maths,
    });
    expect([otherSchool.status, otherSchool.body.detail]).toEqual([422, expect.stringMatching(/student_id/)]);
    const badEnum = await portal.call('POST', '/enrolments/', portal.admin, {
      student_id: ids.s2,
      programme_id: english,
      setting: 'SCHOOL',
    });
    expect([badEnum.status, badEnum.body.detail]).toEqual([422, expect.stringMatching(/setting/)]);
    await write('POST', '/enrolments/', { student_id: ids.s2, programme_id: english, status: 'requested' });
    await write('PUT', `/enrolments/${enrolment}`, { status: 'paused', setting: 'MIXED' });
    expect((await get(`/enrolments/${enrolment}`)).body).toMatchObject({
      status: 'paused',
      setting: 'MIXED',
    });
    expect((await get(`/enrolments/?programme_id=${maths}`)).body.total).toBe(1);
    expect((await get(`/enrolments/?student_id=${ids.s2}&status=requested`)).body.total).toBe(1);
    expect((await get(`/enrolments/?customer_id=${elm}`)).body.total).toBe(0);
    const stats = await get('/programmes/statistics');
    expect(stats.body).toMatchObject({ students_enrolled: 2 });
    expect(stats.body.by_status).toEqual(expect.arrayContaining([{ status: 'active', count: 2 }]));
  });

  it('lets managers, teachers and partners see what is theirs; another school gets 404', async () => {
    // A teacher reads only the programmes they teach (via their groups).
    expect(titles((await get('/programmes/', 't1')).body)).toEqual([
      'Maths GCSE recovery',
      'Maths GCSE recovery 2027',
    ]);
    expect((await get(`/programmes/${english}`, 't1')).status).toBe(404);
    expect((await get('/programmes/', 't2')).body.total).toBe(0);
    expect((await get(`/groups/${group}`, 't2')).status).toBe(404);
    expect(titles((await get('/programmes/my', 't1')).body)).toEqual([
      'Maths GCSE recovery',
      'Maths GCSE recovery 2027',
    ]);
    expect((await portal.call('POST', '/programmes/', as('t1'), programme())).status).toBe(403);
    expect((await portal.call('PUT', `/programmes/${maths}/pause`, as('t1'), {})).status).toBe(403);
    // An internal user with CAN_MANAGE_PROGRAMMES sees and creates everything.
    expect((await get('/programmes/', 'manager')).body.total).toBe(4);
    await write('POST', '/programmes/', programme({ title: 'By manager' }), 'manager');
    // A partner with SEE_ALL_PROGRAMME_DETAILS sees the school's programmes; another school's is 404.
    expect((await get('/programmes/', 'head')).body.total).toBe(5);
    expect((await get(`/programmes/${maths}`, 'elmhead')).status).toBe(404);
    expect((await get(`/groups/${group}`, 'elmhead')).status).toBe(404);
    expect((await get(`/enrolments/${enrolment}`, 'elmhead')).status).toBe(404);
    expect((await get('/programmes/', 'elmhead')).body.total).toBe(0);
    expect(
      (await portal.call('POST', '/groups/', as('head'), { programme_id: maths, name: 'X' })).status,
    ).toBe(403);
    // A link contact sees only programmes of their selected student (s2, enrolled in English).
    expect(titles((await get('/programmes/', 'contact')).body)).toEqual(['English KS3 — Oakfield']);
    expect((await get(`/programmes/${maths}`, 'contact')).status).toBe(404);
    const contactEnrolments = await get('/enrolments/', 'contact');
    expect((contactEnrolments.body.items as { student_id: string }[]).map((e) => e.student_id)).toEqual([
      ids.s2,
    ]);
  });

  it("lists a teacher's current students across their groups, with school", async () => {
    const mine = await get('/groups/my-students', 't1');
    expect(mine.status).toBe(200);
    const rows = mine.body.items as { student_id: string; customer_name: string; group_name: string }[];
    expect(rows.map((r) => r.student_id).sort()).toEqual([ids.s1, ids.s3].sort());
    expect(rows[0]).toMatchObject({
      customer_name: 'Oakfield',
      group_name: 'Maths A',
      programme_title: 'Maths GCSE recovery',
    });
    expect((await get('/groups/my-students', 't2')).body.items).toEqual([]);
  });

  it('lets a teacher read, not edit, the one-page profiles of the students they teach now', async () => {
    const created = await write('POST', '/one-page-profiles/', {
      user_id: ids.s1,
      support_methods: 'Short tasks with clear steps',
    });
    const profileId = created.body.id as string;
    const row = ((await get('/groups/my-students', 't1')).body.items as Record<string, unknown>[]).find(
      (r) => r.student_id === ids.s1,
    );
    expect(row?.one_page_profile_id).toBe(profileId);
    const read = await get(`/one-page-profiles/${profileId}`, 't1');
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ support_methods: 'Short tasks with clear steps', can_edit: false });
    expect((await get(`/one-page-profiles/${profileId}`, 'admin')).body.can_edit).toBe(true);
    // a teacher who does not teach the student: 404; no teacher may change it
    expect((await get(`/one-page-profiles/${profileId}`, 't2')).status).toBe(404);
    expect(
      (await portal.call('PUT', `/one-page-profiles/${profileId}`, as('t1'), { hobbies: 'Chess' })).status,
    ).toBe(403);
  });

  it('withdraws: a partner with the permission, for their own students only', async () => {
    const body = { reason: 'Moved to a new school' };
    expect((await portal.call('PUT', `/enrolments/${enrolment}/withdraw`, as('contact'), body)).status).toBe(
      403,
    );
    expect((await portal.call('PUT', `/enrolments/${enrolment}/withdraw`, as('elmhead'), body)).status).toBe(
      404,
    );
    expect((await portal.call('PUT', `/enrolments/${enrolment}/withdraw`, as('head'), {})).status).toBe(422);
    await write('PUT', `/enrolments/${enrolment}/withdraw`, { ...body, on: '2026-12-18' }, 'head');
    expect((await get(`/enrolments/${enrolment}`)).body).toMatchObject({
      status: 'withdrawn',
      end_date: '2026-12-18',
      withdrawal_reason: 'Moved to a new school',
    });
    expect((await portal.call('PUT', `/enrolments/${enrolment}/withdraw`, as('head'), body)).status).toBe(
      409,
    );
    // Withdrawn, the student may be enrolled again.
    await write('POST', '/enrolments/', { student_id: ids.s1, programme_id: maths });
  });

  it("pushes changes live to administrators, the school's partners and the group's teachers only", async () => {
    const { base } = portal;
    const listeners = {
      admin: await listenLive(base, portal.admin),
      head: await listenLive(base, as('head')),
      elmhead: await listenLive(base, as('elmhead')),
      t1: await listenLive(base, as('t1')),
      t2: await listenLive(base, as('t2')),
    };
    try {
      await write('PUT', `/groups/${group}`, { name: 'Maths A (Tue)' });
      await write('PUT', `/programmes/${maths}`, { title: 'Maths GCSE recovery — Oakfield' });
      const e = (await write('POST', '/enrolments/', { student_id: ids.s3, programme_id: maths })).body
        .id as string;
      const seen = (who: keyof typeof listeners, type: string) =>
        listeners[who].messages.filter((m) => m.type === type).map((m) => m.data);
      await waitFor(
        'the three events for admin, head and t1',
        () =>
          (['admin', 'head', 't1'] as const).every(
            (who) =>
              seen(who, 'GroupRenamed').length &&
              seen(who, 'ProgrammeDetailsChanged').length &&
              seen(who, 'StudentEnrolled').length,
          ),
        5_000,
      );
      expect(seen('head', 'GroupRenamed')).toEqual([{ groupId: group, programmeId: maths }]);
      expect(seen('admin', 'StudentEnrolled')).toEqual([
        { enrolmentId: e, programmeId: maths, studentId: ids.s3 },
      ]);
      expect(seen('head', 'StudentEnrolled')).toEqual([{ enrolmentId: e, programmeId: maths }]);
      expect(seen('t1', 'ProgrammeDetailsChanged')).toEqual([{ programmeId: maths }]);
      expect(
        listeners.elmhead.messages.filter((m) => /^(Group|Programme|Student|Enrolment)/.test(m.type)),
      ).toEqual([]);
      expect(
        listeners.t2.messages.filter((m) => /^(Group|Programme|Student|Enrolment)/.test(m.type)),
      ).toEqual([]);
    } finally {
      for (const l of Object.values(listeners)) l.close();
    }
  });

  it('checks product, subject and year group against the reference read models, and a product limits group size', async () => {
    const db = sql();
    const ref = { product: '', subject: '', yearGroup: '' };
    const present = await db.query<{ p: boolean }>("SELECT to_regclass('rm_products') IS NOT NULL AS p");
    if (present.rows[0]?.p) {
      // The reference area is merged: its API makes the rows.
      ref.product = (
        await write('POST', '/products/', {
          name: '1:1 online tuition',
          delivery_mode: 'online-1to1',
          default_duration_minutes: 60,
          max_group_size: 1,
        })
      ).body.id as string;
      ref.subject = (await write('POST', '/subjects/', { name: 'Maths' })).body.id as string;
      ref.yearGroup = (await write('POST', '/year-groups/', { name: 'Year 10', key_stage: 'KS4' })).body
        .id as string;
    } else {
      // Before it is: stand-ins with the columns contract.md fixes for the reference area's tables.
      ref.product = '7e000000-0000-4000-8000-000000000001';
      ref.subject = '7e000000-0000-4000-8000-000000000002';
      ref.yearGroup = '7e000000-0000-4000-8000-000000000003';
      await db.query(
        `CREATE TABLE rm_products (id uuid PRIMARY KEY, name text, delivery_mode text,
           default_duration_minutes int, max_group_size int)`,
      );
      await db.query('CREATE TABLE rm_subjects (id uuid PRIMARY KEY, name text)');
      await db.query('CREATE TABLE rm_year_groups (id uuid PRIMARY KEY, name text, key_stage text)');
      await db.query(`INSERT INTO rm_products VALUES ($1, '1:1 online tuition', 'online-1to1', 60, 1)`, [
        ref.product,
      ]);
      await db.query(`INSERT INTO rm_subjects VALUES ($1, 'Maths')`, [ref.subject]);
      await db.query(`INSERT INTO rm_year_groups VALUES ($1, 'Year 10', 'KS4')`, [ref.yearGroup]);
    }
    const oneToOne = (
      await write(
        'POST',
        '/programmes/',
        programme({
          title: 'One to one',
          product_id: ref.product,
          subject_id: ref.subject,
          year_group_id: ref.yearGroup,
        }),
      )
    ).body.id as string;
    expect((await get(`/programmes/${oneToOne}`)).body).toMatchObject({
      product_id: ref.product,
      subject_id: ref.subject,
      year_group_id: ref.yearGroup,
    });
    expect((await get(`/programmes/?product_id=${ref.product}`)).body.total).toBe(1);
    expect((await get(`/programmes/?subject_id=${ref.subject}`)).body.total).toBe(1);
    const g = (await write('POST', '/groups/', { programme_id: oneToOne, name: 'Solo' })).body.id as string;
    await write('POST', `/groups/${g}/students`, { student_id: ids.s1, from: day(-5) });
    const full = await portal.call('POST', `/groups/${g}/students`, portal.admin, {
      student_id: ids.s2,
      from: day(-5),
    });
    expect([full.status, full.body.detail]).toEqual([409, expect.stringMatching(/full/)]);
    // Once the first student has left, the place is free from the next day on.
    await write('DELETE', `/groups/${g}/students/${ids.s1}?to=${day(-3)}`, undefined);
    await write('POST', `/groups/${g}/students`, { student_id: ids.s2, from: day(-2) });
    expect(await groupStudentsOn(sql(), g, day(-2))).toEqual([ids.s2]);
  });
});
