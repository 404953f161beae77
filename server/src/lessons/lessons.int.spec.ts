import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { programmeStream } from '@portal/projections';
import { writeProgramme } from '../platform/testing/teaching-fixtures.js';
import { portalModes, startTestPortal, type TestPortal } from '../platform/testing/portal-harness.js';
import { addDays, instantOf, todayIn, weekStartOf } from '../core/time/time.js';
import { lessonsDemo } from '../demo/lessons-demo.js';
import { LessonPlannerJob } from './lesson-planner.js';
import type { DemoCall } from '../demo/teaching-demo.js';

const TZ = 'Europe/London';

describe.each(portalModes)('schedules, lessons and timetables API, $name', (mode) => {
  let portal: TestPortal;
  const ids: Record<string, string> = {};
  const tokens: Record<string, string> = {};
  // Lessons start next Monday, so every date below is in the future whatever day the suite runs.
  const monday = addDays(weekStartOf(todayIn(TZ)), 7);

  /** A programme of a customer with groups (students from next Monday), written as the programmes area does. */
  const programme = (customerId: string, groups: { name: string; students: string[] }[]) =>
    writeProgramme(portal, { customerId, from: monday, timezone: TZ, groups });

  const weekly = (over: Record<string, unknown> = {}) => ({
    group_id: ids.groupA,
    teacher_id: ids.tess,
    timezone: TZ,
    weekdays: [1, 4],
    local_start: '09:30',
    duration_minutes: 60,
    valid_from: monday,
    valid_until: addDays(monday, 27),
    ...over,
  });

  beforeAll(async () => {
    portal = await startTestPortal(mode, 'portal_lessons');
    const { call, admin, settle, createUser } = portal;
    ids.oak = (await settle(await call('POST', '/customers/', admin, { name: 'Oakfield Academy' }))).body
      .id as string;
    ids.elm = (await settle(await call('POST', '/customers/', admin, { name: 'Elm Tree School' }))).body
      .id as string;
    const person = (email: string, user_type: string, extra: Record<string, unknown> = {}) =>
      createUser({ email, first_name: email.split('@')[0], last_name: 'Test', user_type, ...extra });
    ids.tess = await person('tess@example.com', 'teacher');
    ids.theo = await person('theo@example.com', 'teacher');
    ids.editor = await person('editor@example.com', 'teacher', { permissions: ['CAN_EDIT_LESSONS'] });
    ids.ann = await person('ann@oak.example.com', 'student', { customer_id: ids.oak });
    ids.ben = await person('ben@oak.example.com', 'student', { customer_id: ids.oak });
    ids.head = await person('head@oak.example.com', 'partner', {
      customer_id: ids.oak,
      customer_type: 'super-admin',
    });
    ids.elmHead = await person('head@elm.example.com', 'partner', {
      customer_id: ids.elm,
      customer_type: 'super-admin',
    });
    for (const [key, email] of Object.entries({
      tess: 'tess@example.com',
      theo: 'theo@example.com',
      editor: 'editor@example.com',
      ann: 'ann@oak.example.com',
      ben: 'ben@oak.example.com',
      head: 'head@oak.example.com',
      elmHead: 'head@elm.example.com',
    }))
      tokens[key] = await portal.tokenFor(email);
    const maths = await programme(ids.oak, [
      { name: 'Group A', students: [ids.ann] },
      { name: 'Group B', students: [ids.ann, ids.ben] },
    ]);
    ids.programme = maths.programmeId;
    ids.groupA = maths.groupIds[0]!;
    ids.groupB = maths.groupIds[1]!;
    const elm = await programme(ids.elm, [{ name: 'Elm group', students: [] }]);
    ids.elmProgramme = elm.programmeId;
    ids.elmGroup = elm.groupIds[0]!;
  }, 180_000);

  afterAll(async () => {
    await portal?.close();
  });

  it.each([
    ['weekdays', { weekdays: [] }],
    ['duration_minutes', { duration_minutes: 721 }],
    ['duration_minutes', { duration_minutes: 4 }],
    ['timezone', { timezone: 'Europe/Atlantis' }],
    ['valid_until', { valid_until: '2020-01-01' }],
    ['group_id', { group_id: randomUUID() }],
  ])('refuses a schedule with a bad %s (422 naming it)', async (field, over) => {
    const answer = await portal.call(
      'POST',
      `/programmes/${ids.programme}/schedules`,
      portal.admin,
      weekly(over),
    );
    expect(answer.status).toBe(422);
    expect(answer.body.detail).toContain(field);
  });

  it('plans a weekly schedule into lessons once, at the wall-clock time in the zone', async () => {
    const { call, admin, settle } = portal;
    const created = await settle(
      await call('POST', `/programmes/${ids.programme}/schedules`, admin, weekly()),
    );
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ planned: 8, conflicts: [] });
    ids.schedule = created.body.id as string;
    const lessons = await call('GET', `/lessons/?group_id=${ids.groupA}&size=100`, admin);
    expect(lessons.body.total).toBe(8);
    const items = lessons.body.items as {
      local_date: string;
      local_start: string;
      status: string;
      schedule_id: string;
    }[];
    expect(items.map((l) => l.local_date)).toEqual(
      [0, 3, 7, 10, 14, 17, 21, 24].map((d) => addDays(monday, d)),
    );
    expect(
      items.every(
        (l) => l.local_start === '09:30' && l.status === 'planned' && l.schedule_id === ids.schedule,
      ),
    ).toBe(true);
    // running the planner again (an unchanged rule) creates nothing
    const again = await settle(await call('PUT', `/schedules/${ids.schedule}`, admin, weekly()));
    expect(again.body).toMatchObject({ planned: 0, changed: 0, unscheduled: 0 });
    expect((await call('GET', `/lessons/?group_id=${ids.groupA}`, admin)).body.total).toBe(8);
    const view = await call('GET', `/schedules/${ids.schedule}`, admin);
    expect(view.body).toMatchObject({ weekdays: [1, 4], counts: { planned: 8 }, group_name: 'Group A' });
    expect((view.body.next_occurrences as unknown[]).length).toBe(5);
    const listed = await call('GET', `/schedules/?programme_id=${ids.programme}`, admin);
    expect(listed.body).toMatchObject({ total: 1, items: [{ id: ids.schedule }] });
    expect((await call('GET', '/schedules/', tokens.tess)).status).toBe(403);
  });

  it('answers 409 naming the other lesson when a teacher or a student would be double-booked', async () => {
    const { call, admin } = portal;
    const first = (await call('GET', `/lessons/?group_id=${ids.groupA}`, admin)).body.items as {
      id: string;
    }[];
    const teacherClash = await call('POST', '/lessons/', admin, {
      programme_id: ids.elmProgramme,
      group_id: ids.elmGroup,
      teacher_id: ids.tess,
      timezone: TZ,
      local_date: monday,
      local_start: '10:00',
      duration_minutes: 30,
    });
    expect(teacherClash.status).toBe(409);
    expect(teacherClash.body.detail).toContain(first[0]!.id);
    // Ann is in group A and group B: another teacher cannot take group B at the same time
    const studentClash = await call('POST', '/lessons/', admin, {
      programme_id: ids.programme,
      group_id: ids.groupB,
      teacher_id: ids.theo,
      timezone: TZ,
      local_date: monday,
      local_start: '09:00',
      duration_minutes: 45,
    });
    expect(studentClash.status).toBe(409);
    expect(studentClash.body.detail).toContain(first[0]!.id);
    // right after the lesson is fine
    const after = await call('POST', '/lessons/', admin, {
      programme_id: ids.programme,
      group_id: ids.groupB,
      teacher_id: ids.theo,
      timezone: TZ,
      local_date: monday,
      local_start: '10:30',
      duration_minutes: 45,
    });
    expect(after.status).toBe(201);
    expect(after.body).toMatchObject({ schedule_id: null, local_start: '10:30', status: 'planned' });
    ids.oneOff = after.body.id as string;
  });

  it('skips clashing occurrences when planning and reports them on the schedule', async () => {
    const { call, admin, settle } = portal;
    // Group B on Mondays 10:00–10:30 with Theo: Ann (in groups A and B) has group A's lesson then.
    const created = await settle(
      await call(
        'POST',
        `/programmes/${ids.programme}/schedules`,
        admin,
        weekly({
          group_id: ids.groupB,
          teacher_id: ids.theo,
          weekdays: [1],
          local_start: '10:00',
          duration_minutes: 30,
        }),
      ),
    );
    expect(created.body.planned).toBe(0);
    const conflicts = created.body.conflicts as { local_date: string; reason: string; lesson_id: string }[];
    expect(conflicts).toHaveLength(4);
    expect(conflicts[0]).toMatchObject({ local_date: monday, reason: 'student' });
    const view = await call('GET', `/schedules/${created.body.id as string}`, admin);
    expect(view.body.conflicts).toHaveLength(4);
  });

  it('cancels and reschedules lessons, refusing wrong states, and a rule change leaves those alone', async () => {
    const { call, admin, settle } = portal;
    const items = (await call('GET', `/lessons/?group_id=${ids.groupA}`, admin)).body.items as {
      id: string;
      local_date: string;
    }[];
    const cancelBody = {
      reason: 'Teacher ill',
      cancelled_by: 'provider',
      charge_customer: false,
      pay_teacher: false,
    };
    await settle(await call('PUT', `/lessons/${items[1]!.id}/cancel`, admin, cancelBody));
    const twice = await call('PUT', `/lessons/${items[1]!.id}/cancel`, admin, cancelBody);
    expect(twice.status).toBe(409);
    await settle(
      await call('PUT', `/lessons/${items[3]!.id}/reschedule`, admin, {
        local_date: items[3]!.local_date,
        local_start: '14:00',
        reason: 'School trip in the morning',
      }),
    );
    const moved = (await call('GET', `/lessons/${items[3]!.id}`, admin)).body;
    expect(moved).toMatchObject({ local_start: '14:00', detached: true, status: 'planned' });
    const late = await call('PUT', `/lessons/${items[1]!.id}/reschedule`, admin, {
      local_date: items[1]!.local_date,
      local_start: '15:00',
      reason: 'Another day',
    });
    expect([late.status, late.body.detail]).toEqual([409, 'Cannot reschedule a cancelled lesson']);
    // Mondays only now: planned Thursdays are unscheduled; the cancelled and the rescheduled Thursday stay
    const changed = await settle(
      await call('PUT', `/schedules/${ids.schedule}`, admin, weekly({ weekdays: [1] })),
    );
    expect(changed.body).toMatchObject({ planned: 0, unscheduled: 2 });
    const after = (await call('GET', `/lessons/?group_id=${ids.groupA}`, admin)).body.items as {
      id: string;
      status: string;
    }[];
    const status = Object.fromEntries(after.map((l) => [l.id, l.status]));
    expect(status[items[1]!.id]).toBe('cancelled');
    expect(status[items[3]!.id]).toBe('planned');
    expect(status[items[5]!.id]).toBe('unscheduled');
    expect(status[items[7]!.id]).toBe('unscheduled');
    expect(status[items[0]!.id]).toBe('planned');
    // and back to Mon + Thu: the unscheduled Thursdays are planned again
    const back = await settle(await call('PUT', `/schedules/${ids.schedule}`, admin, weekly()));
    expect(back.body).toMatchObject({ planned: 2 });
  });

  it('skips or moves one date of a schedule, keeping the moved lesson and its id', async () => {
    const { call, admin, settle } = portal;
    const before = (await call('GET', `/lessons/?group_id=${ids.groupA}&status=planned`, admin)).body
      .items as {
      id: string;
      local_date: string;
      local_start: string;
      detached: boolean;
    }[];
    const [skipped, moved] = before.filter((l) => !l.detached).slice(-2);
    const skip = await settle(
      await call('POST', `/schedules/${ids.schedule}/exceptions`, admin, {
        local_date: skipped!.local_date,
        action: 'skip',
      }),
    );
    expect(skip.body).toMatchObject({ unscheduled: 1 });
    const move = await settle(
      await call('POST', `/schedules/${ids.schedule}/exceptions`, admin, {
        local_date: moved!.local_date,
        action: 'move',
        new_local_start: '16:15',
      }),
    );
    expect(move.body).toMatchObject({ changed: 1, planned: 0 });
    expect((await call('GET', `/lessons/${skipped!.id}`, admin)).body).toMatchObject({
      status: 'unscheduled',
    });
    expect((await call('GET', `/lessons/${moved!.id}`, admin)).body).toMatchObject({
      status: 'planned',
      local_date: moved!.local_date,
      local_start: '16:15',
      detached: false,
    });
    const view = await call('GET', `/schedules/${ids.schedule}`, admin);
    expect(view.body.exceptions).toEqual(
      expect.arrayContaining([
        { local_date: skipped!.local_date, action: 'skip', new_local_start: null },
        { local_date: moved!.local_date, action: 'move', new_local_start: '16:15' },
      ]),
    );
    const bad = await call('POST', `/schedules/${ids.schedule}/exceptions`, admin, {
      local_date: moved!.local_date,
      action: 'move',
    });
    expect(bad.status).toBe(422);
    expect(bad.body.detail).toContain('new_local_start');
  });

  it('gives a lesson a cover teacher, who then sees it, unless they are busy then (409 naming the lesson)', async () => {
    const { call, admin, settle } = portal;
    const [first] = (await call('GET', `/lessons/?group_id=${ids.groupA}&status=planned`, admin)).body
      .items as {
      id: string;
    }[];
    await settle(await call('PUT', `/lessons/${first!.id}/cover-teacher`, admin, { teacher_id: ids.theo }));
    expect((await call('GET', `/lessons/${first!.id}`, tokens.theo)).body).toMatchObject({
      cover_teacher_id: ids.theo,
      teacher_id: ids.tess,
    });
    await settle(await call('PUT', `/lessons/${first!.id}/cover-teacher`, admin, { teacher_id: null }));
    expect((await call('GET', `/lessons/${first!.id}`, tokens.theo)).status).toBe(404);
    // Tess (09:30–10:30) may cover the one-off right after it (10:30); the editor covers group A's lesson
    expect(
      (await call('PUT', `/lessons/${ids.oneOff}/cover-teacher`, admin, { teacher_id: ids.tess })).status,
    ).toBe(200);
    await settle(await call('PUT', `/lessons/${first!.id}/cover-teacher`, admin, { teacher_id: ids.editor }));
    // …so the editor is busy then: a lesson of theirs at 09:45 clashes with the one they cover
    const editorBusy = await call('POST', '/lessons/', admin, {
      programme_id: ids.elmProgramme,
      group_id: ids.elmGroup,
      teacher_id: ids.editor,
      timezone: TZ,
      local_date: monday,
      local_start: '09:45',
      duration_minutes: 30,
    });
    expect(editorBusy.status).toBe(409);
    expect(editorBusy.body.detail).toContain(first!.id);
  });

  it('lets each role read only the lessons it may see (others 404)', async () => {
    const { call } = portal;
    const lesson = (await call('GET', `/lessons/?group_id=${ids.groupA}`, portal.admin)).body.items as {
      id: string;
    }[];
    const id = lesson[0]!.id;
    expect((await call('GET', `/lessons/${id}`, tokens.tess)).status).toBe(200);
    expect((await call('GET', `/lessons/${id}`, tokens.theo)).status).toBe(404);
    expect((await call('GET', `/lessons/${id}`, tokens.head)).status).toBe(200);
    expect((await call('GET', `/lessons/${id}`, tokens.elmHead)).status).toBe(404);
    expect((await call('GET', `/lessons/${id}`, tokens.ann)).status).toBe(200);
    expect((await call('GET', `/lessons/${id}`, tokens.ben)).status).toBe(404);
    const theoList = await call('GET', '/lessons/', tokens.theo);
    expect((theoList.body.items as { id: string }[]).map((l) => l.id)).toEqual([ids.oneOff]);
    expect((await call('GET', '/lessons/', tokens.elmHead)).body.total).toBe(0);
    // editing: teachers without CAN_EDIT_LESSONS may not; the editor may
    const cancel = { reason: 'r', cancelled_by: 'teacher', charge_customer: false, pay_teacher: true };
    expect((await call('PUT', `/lessons/${id}/notes`, tokens.tess, { notes: 'x' })).status).toBe(403);
    expect((await call('PUT', `/lessons/${ids.oneOff}/cancel`, tokens.head, cancel)).status).toBe(403);
    expect(
      (await call('PUT', `/lessons/${id}/notes`, tokens.editor, { notes: 'Bring calculators' })).status,
    ).toBe(200);
    expect(
      (await call('POST', `/programmes/${ids.programme}/schedules`, tokens.editor, weekly())).status,
    ).toBe(403);
  });

  it('shows a link contact only the lessons of their selected students', async () => {
    const { call, admin, settle, createUser } = portal;
    const contact = await createUser({
      email: 'link@oak.example.com',
      first_name: 'Link',
      last_name: 'Contact',
      user_type: 'partner',
      customer_id: ids.oak,
      customer_type: 'link-contact',
      permissions: ['PARTNER_CAN_SEE_ALL_LESSON_DETAILS'],
    });
    const token = await portal.tokenFor('link@oak.example.com');
    const groups = async () =>
      new Set(
        ((await call('GET', '/lessons/?size=200', token)).body.items as { group_id: string }[]).map(
          (l) => l.group_id,
        ),
      );
    expect(await groups()).toEqual(new Set());
    // Ben is only in group B: linked to Ben, the contact sees group B's lessons, not group A's
    await settle(await call('PUT', `/users/${contact}/linked-students`, admin, { student_ids: [ids.ben] }));
    expect(await groups()).toEqual(new Set([ids.groupB]));
    expect((await call('GET', `/timetable/${ids.ben}?week_start=${monday}`, token)).status).toBe(200);
    expect((await call('GET', `/timetable/${ids.ann}?week_start=${monday}`, token)).status).toBe(404);
  });

  it("shows a teacher's and a student's week, and a partner their own students' only", async () => {
    const { call, admin } = portal;
    const my = await call('GET', `/lessons/my?week_start=${monday}`, tokens.tess);
    expect(my.body).toMatchObject({ week_start: monday, timezone: TZ });
    // the week's lessons that take place: Monday's, and the one-off she covers; Thursday's was cancelled
    expect((my.body.items as { id: string }[]).map((l) => l.id)).toHaveLength(2);
    expect((my.body.items as { id: string }[])[1]!.id).toBe(ids.oneOff);
    const annWeek = await call('GET', `/timetable/${ids.ann}?week_start=${addDays(monday, 2)}`, tokens.head);
    expect(annWeek.status).toBe(200);
    expect(annWeek.body).toMatchObject({ role: 'student', week_start: monday });
    expect((annWeek.body.lessons as unknown[]).length).toBeGreaterThanOrEqual(2);
    expect((await call('GET', `/timetable/${ids.ann}`, tokens.elmHead)).status).toBe(404);
    expect((await call('GET', `/timetable/${ids.tess}`, tokens.theo)).status).toBe(404);
    const tessWeek = await call(
      'GET',
      `/timetable/${ids.tess}?week_start=${monday}&timezone=Asia/Tokyo`,
      admin,
    );
    expect(tessWeek.body).toMatchObject({ role: 'teacher', timezone: 'Asia/Tokyo' });
    expect((await call('GET', `/timetable/${ids.tess}?timezone=Mars/Base`, admin)).status).toBe(422);
  });

  it("shows the teachers' grid: lessons under who teaches them, free slots from availability, details only in scope", async () => {
    const { call, admin, settle, createUser } = portal;
    // Tess is available on Mondays 09:00–12:00 (her recurring week); she covers the one-off 10:30–11:15.
    await settle(
      await call('POST', '/users/me/availability', tokens.tess, {
        availabilities: [{ day_of_week: 0, start_minute: 540, end_minute: 720 }],
      }),
    );
    const at = (time: string) => new Date(instantOf(monday, time, TZ).instant).toISOString();
    const grid = await call('GET', `/timetables/teachers?week_start=${monday}&query=tess`, admin);
    expect(grid.status).toBe(200);
    expect(grid.body).toMatchObject({
      week_start: monday,
      total: 1,
      days: [monday, addDays(monday, 1)].concat([2, 3, 4, 5, 6].map((d) => addDays(monday, d))),
    });
    const [tess] = grid.body.items as Record<string, unknown>[];
    expect(tess).toMatchObject({ teacher_id: ids.tess, booked_lessons: 1, has_availability: true });
    expect(tess!.lessons).toEqual([
      expect.objectContaining({
        id: ids.oneOff,
        visible: true,
        cover: true,
        programme_title: 'Maths recovery',
        outside_availability: false,
        clash: false,
      }),
    ]);
    expect(tess!.free_slots).toEqual([
      { starts_at: at('09:00'), ends_at: at('10:30') },
      { starts_at: at('11:15'), ends_at: at('12:00') },
    ]);
    // Group A's Monday lesson is taught by the editor, who covers it; Theo's one-off is Tess's now.
    const editor = (
      (await call('GET', `/timetables/teachers?week_start=${monday}&query=editor`, admin)).body
        .items as unknown[]
    )[0] as { lessons: { cover: boolean; starts_at: string }[]; has_availability: boolean };
    expect(editor.lessons.map((l) => [l.cover, l.starts_at])).toContainEqual([true, at('09:30')]);
    expect(editor.has_availability).toBe(false);
    const theo = (
      (await call('GET', `/timetables/teachers?week_start=${monday}&query=theo`, admin)).body
        .items as unknown[]
    )[0] as { lessons: { id: string }[] };
    expect(theo.lessons.map((l) => l.id)).not.toContain(ids.oneOff);
    // Who may look: administrators and holders of CAN_VIEW_TEACHERS_TIMETABLES; a holder who does not
    // read every lesson sees others' lessons as busy time only.
    expect((await call('GET', '/timetables/teachers', tokens.tess)).status).toBe(403);
    expect((await call('GET', '/timetables/teachers', tokens.head)).status).toBe(403);
    await createUser({
      email: 'rota@example.com',
      first_name: 'Rota',
      last_name: 'Planner',
      user_type: 'teacher',
      permissions: ['CAN_VIEW_TEACHERS_TIMETABLES'],
    });
    const planner = await portal.tokenFor('rota@example.com');
    const seen = (
      (await call('GET', `/timetables/teachers?week_start=${monday}&query=tess`, planner)).body
        .items as unknown[]
    )[0] as { lessons: Record<string, unknown>[]; free_slots: unknown[] };
    expect(seen.lessons).toEqual([
      expect.objectContaining({ id: ids.oneOff, visible: false, programme_title: null, group_name: null }),
    ]);
    expect(seen.free_slots).toHaveLength(2);
    expect((await call('GET', '/timetables/teachers?timezone=Mars/Base', admin)).status).toBe(422);
    expect((await call('GET', '/timetables/teachers?subject_id=nope', admin)).status).toBe(422);
  });

  it('seeds the demo: a weekly schedule per group, four weeks back and ahead, past lessons delivered', async () => {
    const { call, admin, settle } = portal;
    const teacher = await portal.createUser({
      email: 'demo.teacher@example.com',
      first_name: 'Dee',
      last_name: 'Mo',
      user_type: 'teacher',
    });
    const demo = await programme(ids.elm!, [{ name: 'Demo group', students: [] }]);
    let position = '0';
    const demoCall: DemoCall = async (method, path, body) => {
      const answer = await call(method, path, admin, body, position);
      if (answer.status >= 300) throw new Error(`${method} ${path}: ${answer.status}`);
      if (typeof answer.body.position === 'string') position = answer.body.position;
      return answer;
    };
    const world = {
      networks: {},
      customers: {},
      partnerIds: {},
      studentsOf: {},
      teacherIds: [teacher],
      teaching: { 'programme:1': demo.programmeId, 'group:1': demo.groupIds[0]! } as Record<string, string>,
    };
    // the programme started long ago (the demo's programmes run the whole school year)
    const started = await portal.running.infra.eventStore.append(
      programmeStream(demo.programmeId),
      [
        {
          id: randomUUID(),
          type: 'ProgrammeDetailsChanged',
          data: { programmeId: demo.programmeId, customerId: ids.elm!, startDate: addDays(monday, -70) },
        },
      ],
      { expectedRevision: 'any' },
    );
    await settle({ status: 200, body: { position: started.position.toString() } });
    await lessonsDemo.seed(demoCall, world);
    expect(world.teaching['schedule:1']).toBeDefined();
    const all = await call(
      'GET',
      `/lessons/?group_id=${demo.groupIds[0]!}&size=100`,
      admin,
      undefined,
      position,
    );
    const items = all.body.items as { starts_at: string; status: string }[];
    const now = Date.now();
    expect(items.length).toBeGreaterThanOrEqual(14);
    expect(items.some((l) => Date.parse(l.starts_at) < now - 20 * 86_400_000)).toBe(true);
    expect(items.some((l) => Date.parse(l.starts_at) > now + 20 * 86_400_000)).toBe(true);
    for (const l of items)
      expect(l.status).toBe(Date.parse(l.starts_at) < now - 60_000 ? 'delivered' : 'planned');
  });

  it('extends an open-ended schedule day by day: the daily job plans what enters the 26-week horizon', async () => {
    const { call, admin, settle } = portal;
    const demo = await programme(ids.elm!, [{ name: 'Rolling group', students: [] }]);
    const teacher = await portal.createUser({
      email: 'rolling.teacher@example.com',
      first_name: 'Rol',
      last_name: 'Ling',
      user_type: 'teacher',
    });
    const created = await settle(
      await call('POST', `/programmes/${demo.programmeId}/schedules`, admin, {
        group_id: demo.groupIds[0]!,
        teacher_id: teacher,
        timezone: TZ,
        weekdays: [1, 2, 3, 4, 5, 6, 7],
        local_start: '07:00',
        duration_minutes: 30,
        valid_from: monday,
        valid_until: null,
      }),
    );
    const first = created.body.planned as number;
    expect(first).toBeGreaterThan(170);
    const job = portal.running.app.get(LessonPlannerJob);
    // a week later, seven more days have come into the horizon; running it again that day adds nothing
    const weekLater = new Date(Date.now() + 7 * 86_400_000);
    expect(await job.runOnce(weekLater)).toBeGreaterThanOrEqual(7);
    expect(await job.runOnce(weekLater)).toBe(0);
    const total = await call('GET', `/lessons/?group_id=${demo.groupIds[0]!}&size=1`, admin, undefined, '0');
    expect(total.body.total as number).toBeGreaterThanOrEqual(first + 7);
  });
});
