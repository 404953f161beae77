import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  groupStream,
  meetingStream,
  programmeStream,
  type GroupEvent,
  type MeetingEvent,
  type ProgrammeEvent,
} from '@portal/projections';
import { AutoMarkJob } from './auto-mark.job.js';
import { AttendanceAlertMailJob } from './attendance-alerts.job.js';
import { MailOutbox } from '../platform/mail/mail-outbox.js';
import { ProjectionRunner } from '../platform/projections/projection-runner.js';
import {
  listenLive,
  portalModes,
  startTestPortal,
  type Answer,
  type TestPortal,
} from '../platform/testing/portal-harness.js';
import { waitFor } from '../platform/testing/wait-for.js';
import { addDays, todayIn, weekStartOf } from '../core/time/time.js';

const TZ = 'Europe/London';
type Json = Record<string, unknown>;
type Entry = { student_id: string; mark: string | null; [k: string]: unknown };

describe.each(portalModes)('attendance: registers, ledger, reasons, $name', (mode) => {
  let portal: TestPortal;
  const ids: Record<string, string> = {};
  /** The UTC date of the lesson `ids.now` (set with it). */
  let nowDate = '';
  const tokens: Record<string, string> = {};
  const today = todayIn(TZ);
  const nextMonday = addDays(weekStartOf(today), 7);

  const ok = async (answer: Promise<Answer>) => (await portal.settle(await answer)).body;
  const entries = (body: Json) => body.entries as Entry[];
  const markOf = (body: Json, student: string) => entries(body).find((e) => e.student_id === student);

  async function appendProgramme(customerId: string, groups: { name: string; students: string[] }[]) {
    const store = portal.running.infra.eventStore;
    const programmeId = randomUUID();
    const from = addDays(today, -60);
    const events: ProgrammeEvent[] = [
      {
        type: 'ProgrammeCreated',
        data: {
          programmeId,
          networkId: null,
          customerId,
          productId: null,
          subjectId: null,
          yearGroupId: null,
          kind: 'lesson',
          title: 'English catch-up',
          startDate: from,
          endDate: null,
          timezone: TZ,
          sourceProgrammeId: null,
        },
      },
      { type: 'ProgrammeActivated', data: { programmeId, customerId } },
    ];
    let position = (
      await store.append(
        programmeStream(programmeId),
        events.map((e) => ({ id: randomUUID(), ...e })),
        { expectedRevision: 'no_stream' },
      )
    ).position;
    const groupIds: string[] = [];
    for (const g of groups) {
      const groupId = randomUUID();
      const base = { groupId, programmeId, customerId, teacherIds: [] };
      const groupEvents: GroupEvent[] = [
        { type: 'GroupCreated', data: { ...base, name: g.name, teachers: [], sourceGroupId: null } },
        ...g.students.map((studentId): GroupEvent => ({
          type: 'StudentAddedToGroup',
          data: { ...base, studentId, from },
        })),
      ];
      position = (
        await store.append(
          groupStream(groupId),
          groupEvents.map((e) => ({ id: randomUUID(), ...e })),
          { expectedRevision: 'no_stream' },
        )
      ).position;
      groupIds.push(groupId);
    }
    await portal.settle({ status: 200, body: { position: position.toString() } });
    return { programmeId, groupIds };
  }

  async function lesson(over: Json): Promise<string> {
    const body = await ok(
      portal.call('POST', '/lessons/', portal.admin, {
        programme_id: ids.programme,
        group_id: ids.groupA,
        teacher_id: ids.tess,
        timezone: TZ,
        local_date: nextMonday,
        local_start: '09:30',
        duration_minutes: 60,
        ...over,
      }),
    );
    return body.id as string;
  }

  const take = (lessonId: string, who: string, list: Json[], key = randomUUID()) =>
    portal.call('PUT', `/lessons/${lessonId}/register`, tokens[who], { client_key: key, entries: list });
  const register = (lessonId: string, who: string, query = '') =>
    portal.call('GET', `/lessons/${lessonId}/register${query}`, tokens[who]);

  beforeAll(async () => {
    portal = await startTestPortal(mode, 'portal_attendance');
    const { call, admin, settle, createUser } = portal;
    ids.oak = (await ok(call('POST', '/customers/', admin, { name: 'Oakfield Academy' }))).id as string;
    ids.elm = (await ok(call('POST', '/customers/', admin, { name: 'Elm Tree School' }))).id as string;
    const ATTENDANCE_PARTNER = [
      'USER_IS_PARTNER',
      'PARTNER_CAN_SEE_ATTENDANCE',
      'PARTNER_CAN_SET_ABSENCE_REASON',
    ];
    const people: [string, Json][] = [
      ['tess', { user_type: 'teacher' }],
      ['theo', { user_type: 'teacher' }],
      ['ada', { user_type: 'teacher', permissions: ['CAN_MANAGE_ATTENDANCE'] }],
      ['ann', { user_type: 'student', customer_id: ids.oak }],
      ['ben', { user_type: 'student', customer_id: ids.oak }],
      ['gus', { user_type: 'student', customer_id: ids.oak }],
      ['eve', { user_type: 'student', customer_id: ids.elm }],
      [
        'head',
        {
          user_type: 'partner',
          customer_id: ids.oak,
          customer_type: 'super-admin',
          permissions: [...ATTENDANCE_PARTNER, 'PARTNER_CAN_SEE_ALL_STUDENTS_DETAILS'],
        },
      ],
      [
        'link',
        {
          user_type: 'partner',
          customer_id: ids.oak,
          customer_type: 'link-contact',
          permissions: ATTENDANCE_PARTNER,
        },
      ],
      [
        'elmHead',
        {
          user_type: 'partner',
          customer_id: ids.elm,
          customer_type: 'super-admin',
          permissions: [...ATTENDANCE_PARTNER, 'PARTNER_CAN_SEE_ALL_STUDENTS_DETAILS'],
        },
      ],
    ];
    for (const [who, extra] of people) {
      const email = `${who.toLowerCase()}@example.com`;
      const { permissions, ...body } = extra;
      ids[who] = await createUser({
        email,
        first_name: who[0]!.toUpperCase() + who.slice(1),
        last_name: 'Test',
        ...body,
        ...(body.user_type === 'partner' ? {} : { permissions }),
      });
      if (body.user_type === 'partner')
        await settle(await call('PUT', `/users/${ids[who]}/permissions`, admin, { permissions }));
      tokens[who] = await portal.tokenFor(email);
    }
    // Staff job titles: the "position" the ledger records.
    await settle(await call('PUT', `/users/${ids.tess}`, admin, { position: 'English tutor' }));
    await settle(await call('PUT', `/users/${ids.ada}`, admin, { position: 'Attendance officer' }));
    await settle(await call('PUT', `/users/${ids.link}/linked-students`, admin, { student_ids: [ids.ann] }));
    const p = await appendProgramme(ids.oak, [
      { name: 'Group A', students: [ids.ann!, ids.ben!] },
      { name: 'Group B', students: [ids.gus!] },
    ]);
    ids.programme = p.programmeId;
    ids.groupA = p.groupIds[0]!;
    ids.groupB = p.groupIds[1]!;
    // A lesson that started 90 minutes ago (UTC wall clock), one ten days ago, and one next week.
    const start = new Date(Date.now() - 90 * 60_000);
    nowDate = start.toISOString().slice(0, 10);
    ids.now = await lesson({
      timezone: 'UTC',
      local_date: nowDate,
      local_start: start.toISOString().slice(11, 16),
    });
    ids.old = await lesson({ local_date: addDays(today, -10), local_start: '08:00' });
    // A lesson under way (started 20 minutes ago): its meeting can be joined.
    const running = new Date(Date.now() - 20 * 60_000);
    ids.running = await lesson({
      timezone: 'UTC',
      local_date: running.toISOString().slice(0, 10),
      local_start: running.toISOString().slice(11, 16),
    });
    ids.future = await lesson({});
  }, 180_000);

  afterAll(async () => {
    await portal?.close();
  });

  it('refuses bad input with 4xx naming the field', async () => {
    const outside = await take(ids.now!, 'tess', [{ student_id: ids.ann, mark: 'sleeping' }]);
    expect(outside.status).toBe(422);
    expect(outside.body.detail).toContain('mark');
    const tooLate = await take(ids.now!, 'tess', [{ student_id: ids.ann, mark: 'late', minutes_late: 61 }]);
    expect(tooLate.status).toBe(422);
    expect(tooLate.body.detail).toContain('minutes_late');
    const stranger = await take(ids.now!, 'tess', [{ student_id: ids.gus, mark: 'present' }]);
    expect(stranger.status).toBe(422);
    expect(stranger.body.detail).toContain('student_id');
    const noReason = await take(ids.now!, 'tess', [{ student_id: ids.ann, mark: 'absent' }]);
    expect(noReason.status).toBe(422);
    expect(noReason.body.detail).toContain('absence_reason');
    expect((await register(ids.now!, 'tess', '?as_at=yesterday')).status).toBe(422);
    expect(
      (await portal.call('PUT', `/lessons/${ids.now}/register`, tokens.tess, { entries: [] })).status,
    ).toBe(422);
    // Nothing was written: the register is still not open.
    expect((await register(ids.now!, 'tess')).body.opened_at).toBeNull();
  });

  it('lets only the lesson’s teacher and attendance staff take it; others get 403 or 404', async () => {
    expect((await take(ids.now!, 'theo', [])).status).toBe(404);
    expect((await register(ids.now!, 'theo')).status).toBe(404);
    expect((await take(ids.now!, 'ann', [])).status).toBe(403);
    expect((await take(ids.now!, 'head', [])).status).toBe(403);
    expect((await register(ids.now!, 'elmHead')).status).toBe(404);
    // Not open until 60 minutes before the start.
    const early = await take(ids.future!, 'tess', [{ student_id: ids.ann, mark: 'present' }]);
    expect(early.status).toBe(409);
    expect(early.body.detail).toContain('opens at');
  });

  it('takes the register once per client key; the first marks are original entries with suggested codes', async () => {
    const key = randomUUID();
    const first = await ok(
      take(
        ids.now!,
        'tess',
        [
          { student_id: ids.ann, mark: 'present' },
          { student_id: ids.ben, mark: 'absent_pending' },
        ],
        key,
      ),
    );
    expect(first.opened_at).not.toBeNull();
    expect(markOf(first, ids.ann!)).toMatchObject({
      mark: 'present',
      suggested_code: 'B',
      source: 'teacher',
      confirmed: true,
    });
    expect(markOf(first, ids.ben!)).toMatchObject({ mark: 'absent_pending', suggested_code: 'N' });
    const again = await take(ids.now!, 'tess', [{ student_id: ids.ann, mark: 'late', minutes_late: 5 }], key);
    expect(again.status).toBe(200);
    expect(again.body.position).toBe(first.position);
    const read = await register(ids.now!, 'tess');
    expect(markOf(read.body, ids.ann!)).toMatchObject({
      mark: 'present',
      recorded_by: { name: 'Tess Test', position: 'English tutor' },
    });
    expect((await portal.call('GET', `/lessons/${ids.now}`, tokens.tess)).body.status).toBe('delivered');
    expect(
      (await portal.call('GET', `/lessons/${ids.now}/register/history`, tokens.tess)).body.items,
    ).toEqual([]);
  });

  it('answers 409 with the current marks for a change without a reason, and amends with one; the ledger holds the five fields and as_at the old marks', async () => {
    const conflict = await take(ids.now!, 'ada', [{ student_id: ids.ann, mark: 'late', minutes_late: 10 }]);
    expect(conflict.status).toBe(409);
    expect(conflict.body.code).toBe('register_conflict');
    expect(markOf(conflict.body, ids.ann!)).toMatchObject({ mark: 'present' });
    const before = new Date().toISOString();
    await new Promise((r) => setTimeout(r, 5));
    const amended = await ok(
      take(ids.now!, 'ada', [
        { student_id: ids.ann, mark: 'late', minutes_late: 10, reason: 'Joined late; camera off' },
      ]),
    );
    expect(markOf(amended, ids.ann!)).toMatchObject({ mark: 'late', minutes_late: 10 });
    const history = await portal.call('GET', `/lessons/${ids.now}/register/history`, tokens.tess);
    expect(history.body.items).toEqual([
      {
        student_id: ids.ann,
        student_name: 'Ann Test',
        original: {
          mark: 'present',
          minutes_late: null,
          minutes_missed: null,
          absence_reason: null,
          suggested_code: 'B',
        },
        amended: {
          mark: 'late',
          minutes_late: 10,
          minutes_missed: null,
          absence_reason: null,
          suggested_code: 'B',
        },
        reason: 'Joined late; camera off',
        amended_at: expect.any(String),
        amended_by: { id: ids.ada, name: 'Ada Test', position: 'Attendance officer' },
      },
    ]);
    const asAt = await register(ids.now!, 'tess', `?as_at=${encodeURIComponent(before)}`);
    expect(asAt.status).toBe(200);
    expect(markOf(asAt.body, ids.ann!)).toMatchObject({ mark: 'present' });
    // Folding the stream to now gives exactly the read model's register.
    const current = (await register(ids.now!, 'tess')).body;
    const folded = (
      await register(ids.now!, 'tess', `?as_at=${encodeURIComponent(new Date().toISOString())}`)
    ).body;
    expect(folded.entries).toEqual(current.entries);
  });

  it('a partner gives a reason for an absence (N → reason, in the ledger), never over present; link contacts reach their students only', async () => {
    const given = await ok(
      portal.call('PUT', `/lessons/${ids.now}/register/${ids.ben}/reason`, tokens.head, {
        absence_reason: 'illness',
        note: 'Flu',
      }),
    );
    expect(markOf(given, ids.ben!)).toMatchObject({
      mark: 'absent',
      absence_reason: 'illness',
      suggested_code: 'I',
    });
    const items = (await portal.call('GET', `/lessons/${ids.now}/register/history`, tokens.ada)).body
      .items as Json[];
    expect(items.at(-1)).toMatchObject({
      student_id: ids.ben,
      original: { mark: 'absent_pending' },
      amended: { mark: 'absent', absence_reason: 'illness' },
      reason: 'Reason provided by Super System Administrator: Flu',
      amended_by: { id: ids.head, name: 'Head Test', position: 'Super System Administrator' },
    });
    const overPresent = await portal.call(
      'PUT',
      `/lessons/${ids.now}/register/${ids.ann}/reason`,
      tokens.link,
      {
        absence_reason: 'illness',
      },
    );
    expect(overPresent.status).toBe(409);
    const notTheirs = await portal.call(
      'PUT',
      `/lessons/${ids.now}/register/${ids.ben}/reason`,
      tokens.link,
      {
        absence_reason: 'medical',
      },
    );
    expect(notTheirs.status).toBe(404);
    const elm = await portal.call('PUT', `/lessons/${ids.now}/register/${ids.ben}/reason`, tokens.elmHead, {
      absence_reason: 'medical',
    });
    expect(elm.status).toBe(404);
    const seen = await register(ids.now!, 'link');
    expect(entries(seen.body).map((e) => e.student_id)).toEqual([ids.ann]);
    const linkHistory = (await portal.call('GET', `/lessons/${ids.now}/register/history`, tokens.link)).body
      .items as Json[];
    expect(linkHistory.map((i) => i.student_id)).toEqual([ids.ann]);
    const partnerList = await portal.call('GET', '/attendance/partner', tokens.link);
    expect((partnerList.body.items as Json[]).map((i) => i.student_id)).toEqual([ids.ann]);
    expect((await portal.call('GET', '/attendance/partner', tokens.head)).body.total).toBe(2);
    expect((await portal.call('GET', '/attendance/partner', tokens.elmHead)).body.total).toBe(0);
  });

  it('adds a guest from another group of the school, not from another school', async () => {
    const guest = await ok(take(ids.now!, 'tess', [{ student_id: ids.gus, mark: 'present', guest: true }]));
    expect(markOf(guest, ids.gus!)).toMatchObject({ basis: 'guest', mark: 'present' });
    const other = await take(ids.now!, 'tess', [{ student_id: ids.eve, mark: 'present', guest: true }]);
    expect(other.status).toBe(422);
    expect(other.body.detail).toContain('student_id');
  });

  it('a student’s meeting join suggests a mark the teacher confirms, the same however often they join', async () => {
    const lessonView = (await portal.call('GET', `/lessons/${ids.running}`, tokens.tess)).body;
    for (let i = 0; i < 2; i++) {
      const joined = await portal.call(
        'POST',
        `/meetings/${lessonView.meeting_id as string}/join`,
        tokens.ann,
      );
      expect(joined.status).toBe(200);
    }
    await waitFor('the joins are in the read model', async () =>
      Boolean(markOf((await register(ids.running!, 'tess')).body, ids.ann!)?.suggestion),
    );
    const read = await register(ids.running!, 'tess');
    const started = new Date(lessonView.starts_at as string).getTime();
    expect(markOf(read.body, ids.ann!)).toMatchObject({
      mark: null,
      confirmed: false,
      suggestion: { mark: 'late', minutes_late: expect.any(Number) },
    });
    const suggested = markOf(read.body, ids.ann!)!.suggestion as { minutes_late: number; joined_at: string };
    expect(suggested.minutes_late).toBe(
      Math.ceil((new Date(suggested.joined_at).getTime() - started) / 60_000),
    );
    expect(markOf(read.body, ids.ben!)?.suggestion).toBeNull();
    // Confirmed by the teacher, the mark is hers and the suggestion goes.
    const taken = await ok(
      take(ids.running!, 'tess', [
        { student_id: ids.ann, mark: 'late', minutes_late: suggested.minutes_late },
      ]),
    );
    expect(markOf(taken, ids.ann!)).toMatchObject({ mark: 'late', confirmed: true, suggestion: null });
  });

  it('a teacher may not amend after the next working day; attendance staff may', async () => {
    await ok(take(ids.old!, 'ada', [{ student_id: ids.ann, mark: 'absent_pending' }]));
    const late = await take(ids.old!, 'tess', [
      { student_id: ids.ann, mark: 'absent', absence_reason: 'medical', reason: 'Dentist letter' },
    ]);
    expect(late.status).toBe(403);
    // The original is still theirs to record on an unmarked student.
    await ok(take(ids.old!, 'tess', [{ student_id: ids.ben, mark: 'present' }]));
  });

  it('a roster change after the lesson leaves its register as it was', async () => {
    const store = portal.running.infra.eventStore;
    const { position } = await store.append(
      groupStream(ids.groupA!),
      [
        {
          id: randomUUID(),
          type: 'StudentRemovedFromGroup',
          data: {
            groupId: ids.groupA,
            programmeId: ids.programme,
            customerId: ids.oak,
            teacherIds: [],
            studentId: ids.ann,
            to: addDays(today, -20),
          },
        },
      ],
      { expectedRevision: 'any' },
    );
    await portal.settle({ status: 200, body: { position: position.toString() } });
    const old = await register(ids.old!, 'ada');
    expect(entries(old.body).map((e) => e.student_id)).toContain(ids.ann);
    // The next lesson, not opened yet, expects the group as it is on its date.
    const next = await register(ids.future!, 'ada');
    expect(entries(next.body).map((e) => e.student_id)).toEqual([ids.ben]);
  });

  it('records planned absences that pre-fill the register, scoped like reasons', async () => {
    const { call } = portal;
    const bad = await call('POST', '/planned-absences/', tokens.head, {
      student_id: ids.ben,
      from: addDays(today, -5),
      to: addDays(today, -3),
      absence_reason: 'medical',
    });
    expect(bad.status).toBe(422);
    expect(bad.body.detail).toContain('to');
    const notLinked = await call('POST', '/planned-absences/', tokens.link, {
      student_id: ids.ben,
      from: nextMonday,
      to: nextMonday,
      absence_reason: 'medical',
    });
    expect(notLinked.status).toBe(422);
    expect(notLinked.body.detail).toContain('student_id');
    const created = await ok(
      call('POST', '/planned-absences/', tokens.head, {
        student_id: ids.ben,
        from: nextMonday,
        to: addDays(nextMonday, 2),
        absence_reason: 'medical',
        note: 'Hospital',
      }),
    );
    const future = await register(ids.future!, 'tess');
    expect(markOf(future.body, ids.ben!)).toMatchObject({
      mark: 'absent',
      absence_reason: 'medical',
      source: 'prefill',
      confirmed: false,
    });
    const list = await call('GET', '/planned-absences/', tokens.link);
    expect(list.body.total).toBe(0);
    expect((await call('GET', '/planned-absences/', tokens.head)).body.items).toMatchObject([
      { id: created.id, student_id: ids.ben, from: nextMonday, absence_reason: 'medical' },
    ]);
    expect((await call('GET', '/planned-absences/', tokens.tess)).status).toBe(403);
    expect((await call('DELETE', `/planned-absences/${created.id as string}`, tokens.link)).status).toBe(404);
    await ok(call('DELETE', `/planned-absences/${created.id as string}`, tokens.head));
    expect((await call('GET', '/planned-absences/', tokens.head)).body.total).toBe(0);
  });

  it('the day’s board shows registers and absences still without a reason', async () => {
    // The day of the lesson that started 90 minutes ago: yesterday, in a run just after midnight.
    const board = await portal.call('GET', `/attendance/today?timezone=UTC&date=${nowDate}`, tokens.ada);
    expect(board.status).toBe(200);
    const lessons = board.body.lessons as Json[];
    expect(lessons.find((l) => l.lesson_id === ids.now)).toMatchObject({
      register_state: 'taken',
      roster: 3,
      marked: 3,
    });
    const pending = board.body.absences_without_reason as Json[];
    expect(pending.map((p) => [p.lesson_id, p.student_id])).toEqual([[ids.old, ids.ann]]);
    // Teacher Theo teaches none of them.
    const theirs = await portal.call('GET', `/attendance/today?timezone=UTC&date=${nowDate}`, tokens.theo);
    expect(theirs.body.lessons).toEqual([]);
    expect((await portal.call('GET', '/attendance/today', tokens.ann)).status).toBe(403);
    const codes = await portal.call('GET', '/attendance/codes?date=2024-01-10', tokens.tess);
    expect(codes.body).toMatchObject({ version: '2006' });
    expect((await portal.call('GET', '/attendance/codes', tokens.tess)).body).toMatchObject({
      version: '2024',
    });
  });

  it('a mark reaches the school’s open attendance screen live', async () => {
    const school = await listenLive(portal.base, tokens.head!);
    const other = await listenLive(portal.base, tokens.elmHead!);
    try {
      const written = await ok(
        take(ids.now!, 'tess', [
          { student_id: ids.gus, mark: 'left_early', minutes_missed: 20, reason: 'Left for a bus' },
        ]),
      );
      await waitFor('the school hears the mark', () =>
        school.messages.some((m) => m.stream === `lesson-${ids.now}` && m.position === written.position),
      );
      expect(school.messages.find((m) => m.position === written.position)).toMatchObject({
        type: 'AttendanceMarkAmended',
        data: { lessonId: ids.now },
      });
      expect(other.messages.some((m) => m.stream === `lesson-${ids.now}`)).toBe(false);
    } finally {
      school.close();
      other.close();
    }
  });

  it('sums attendance per student and programme or group, per tutor, and lists students in a different class; as CSV too', async () => {
    const { call } = portal;
    // Up to the lesson under way (the one the meeting-join case marked).
    const running = (await call('GET', `/lessons/${ids.running}`, portal.admin)).body.starts_at as string;
    const programmes = await call(
      'GET',
      `/attendance/programmes?programme_id=${ids.programme}&to=${encodeURIComponent(running)}`,
      tokens.ada,
    );
    expect(programmes.status).toBe(200);
    const byStudent = Object.fromEntries(
      (programmes.body.items as Json[]).map((r) => [r.student_id as string, r]),
    );
    expect(byStudent[ids.ann!]).toMatchObject({
      name: 'English catch-up',
      possible: 2,
      attended: 1,
      late: 1,
      absences: 1,
      absences_without_reason: 1,
      attendance_percent: 50,
      planned_minutes: 120,
      attended_minutes: 50,
    });
    expect(byStudent[ids.ben!]).toMatchObject({
      possible: 2,
      attended: 1,
      absences_by_reason: { illness: 1 },
    });
    expect(byStudent[ids.gus!]).toMatchObject({
      possible: 1,
      left_early: 1,
      attended_minutes: 40,
      attendance_percent: 100,
    });
    const weekly = await call('GET', `/attendance/groups?group_id=${ids.groupA}&period=week`, tokens.ada);
    expect((weekly.body.items as Json[]).every((r) => typeof r.period_start === 'string')).toBe(true);
    const linkView = await call('GET', '/attendance/programmes', tokens.link);
    expect(new Set((linkView.body.items as Json[]).map((r) => r.student_id))).toEqual(new Set([ids.ann]));

    const tutors = await call('GET', '/attendance/tutors', tokens.ada);
    expect((tutors.body.items as Json[]).find((r) => r.teacher_id === ids.tess)).toMatchObject({
      lessons: 2,
      registers_taken: 2,
      taken_on_time: 1,
      not_taken: 0,
      amendments: 3,
    });
    expect((await call('GET', '/attendance/tutors', tokens.theo)).body.items).toEqual([]);
    expect((await call('GET', '/attendance/tutors', tokens.head)).status).toBe(403);

    const guests = await call('GET', '/attendance/different-class', tokens.ada);
    expect(guests.body.items).toMatchObject([
      { student_id: ids.gus, home_group_name: 'Group B', group_name: 'Group A' },
    ]);

    const csv = await fetch(
      `${portal.base}/api/v1/attendance/programmes?as_csv=true&programme_id=${ids.programme}`,
      {
        headers: { RequestVerificationToken: tokens.ada! },
      },
    );
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toContain('text/csv');
    const text = await csv.text();
    expect(text).toContain('attendance_percent');
    expect(text).toContain('Ann Test');
    const xlsx = await fetch(`${portal.base}/api/v1/attendance/tutors?as_excel=true`, {
      headers: { RequestVerificationToken: tokens.ada! },
    });
    expect(xlsx.headers.get('content-type')).toContain('spreadsheetml');
    expect((await call('GET', '/attendance/programmes?as_csv=maybe', tokens.ada)).status).toBe(422);
  });

  it('the school’s view gives the best mark per morning or afternoon session, its students only', async () => {
    const { call } = portal;
    // A second morning lesson on the old lesson's day (Ann has left the group by then): Ben, present
    // at 08:00, is late at 10:00; the session keeps the better mark.
    const second = await lesson({ local_date: addDays(today, -10), local_start: '10:00' });
    await ok(take(second, 'ada', [{ student_id: ids.ben, mark: 'late', minutes_late: 5 }]));
    const sessions = await call('GET', '/attendance/partner/sessions?size=100', tokens.head);
    expect(sessions.status).toBe(200);
    const thatDay = (sessions.body.items as Json[]).filter((r) => r.session_date === addDays(today, -10));
    expect(thatDay.map((r) => [r.student_name, r.session, r.mark, r.reason_missing, r.lessons])).toEqual([
      ['Ann Test', 'AM', 'absent_pending', true, 1],
      ['Ben Test', 'AM', 'present', false, 2],
    ]);
    const linkSessions = await call('GET', '/attendance/partner/sessions', tokens.link);
    expect(new Set((linkSessions.body.items as Json[]).map((r) => r.student_id))).toEqual(new Set([ids.ann]));
    const file = await fetch(`${portal.base}/api/v1/attendance/partner?as_csv=true`, {
      headers: { RequestVerificationToken: tokens.link! },
    });
    const text = await file.text();
    expect(text).toContain('Ann Test');
    expect(text).not.toContain('Ben Test');
  });

  it('marks an untaken register from meeting joins after the lesson, unconfirmed, whatever the order or repeats of the joins; the teacher confirms', async () => {
    const { call } = portal;
    // Group B's lesson with Theo ended 20 minutes ago; nobody took the register. Gus joined twice.
    const start = new Date(Date.now() - 80 * 60_000);
    const lessonId = await lesson({
      group_id: ids.groupB,
      teacher_id: ids.theo,
      timezone: 'UTC',
      local_date: start.toISOString().slice(0, 10),
      local_start: start.toISOString().slice(11, 16),
    });
    const view = (await call('GET', `/lessons/${lessonId}`, portal.admin)).body;
    const startsAt = new Date(view.starts_at as string).getTime();
    const join = (minutes: number): MeetingEvent => ({
      type: 'JoinLinkUsed',
      data: {
        meetingId: view.meeting_id as string,
        lessonId,
        userId: ids.gus!,
        role: 'student',
        at: new Date(startsAt + minutes * 60_000).toISOString(),
        customerId: ids.oak!,
      },
    });
    // Stored out of order (the later join first), and one of them twice.
    const store = portal.running.infra.eventStore;
    const events = [join(12), join(8), join(12)];
    let position = 0n;
    for (const e of events)
      position = (
        await store.append(meetingStream(view.meeting_id as string), [{ id: randomUUID(), ...e }], {
          expectedRevision: 'any',
        })
      ).position;
    await portal.settle({ status: 200, body: { position: position.toString() } });
    const job = portal.running.app.get(AutoMarkJob);
    expect(await job.runOnce()).toBeGreaterThanOrEqual(1);
    const read = await register(lessonId, 'theo');
    expect(markOf(read.body, ids.gus!)).toMatchObject({
      mark: 'late',
      minutes_late: 8,
      source: 'meeting',
      confirmed: false,
      recorded_by: { name: 'Meeting joins' },
    });
    // A second pass changes nothing.
    await job.runOnce();
    const stream = await store.readStream(`lesson-${lessonId}`);
    expect(stream.filter((e) => e.type === 'AttendanceMarkRecorded')).toHaveLength(1);
    const tutors = await call('GET', `/attendance/tutors?teacher_id=${ids.theo}`, tokens.ada);
    expect(tutors.body.items).toMatchObject([{ teacher_id: ids.theo, unconfirmed_auto_marks: 1 }]);
    // The teacher confirms it without a reason; it is hers now.
    const confirmed = await ok(
      take(lessonId, 'theo', [{ student_id: ids.gus, mark: 'late', minutes_late: 8 }]),
    );
    expect(markOf(confirmed, ids.gus!)).toMatchObject({ source: 'teacher', confirmed: true });
    const history = await call('GET', `/lessons/${lessonId}/register/history`, tokens.theo);
    expect(history.body.items).toMatchObject([
      { reason: 'Automatic mark confirmed', amended_by: { id: ids.theo } },
    ]);
  });

  it('answers the user reports that waited for attendance: a student per programme, per lesson, a programme’s students; 404 for students out of reach', async () => {
    const { call } = portal;
    expect((await call('GET', `/users/${ids.ben}/performance`, tokens.link)).status).toBe(404);
    expect((await call('GET', `/users/${ids.tess}/performance`, tokens.ada)).status).toBe(404);
    expect((await call('GET', `/users/${ids.ben}/performance?start=soon`, tokens.ada)).status).toBe(422);
    const get = (path: string, who: string) =>
      fetch(`${portal.base}/api/v1${path}`, { headers: { RequestVerificationToken: tokens[who]! } });
    const csv = await get(`/users/${ids.ben}/performance?start=${addDays(today, -30)}&end=${today}`, 'ada');
    expect(csv.headers.get('content-type')).toContain('text/csv');
    expect(await csv.text()).toContain('English catch-up');
    const lessons = await get(`/users/${ids.ben}/performance/${ids.programme}?as_excel=true`, 'ada');
    expect(lessons.headers.get('content-type')).toContain('spreadsheetml');
    const overall = await (
      await get(`/users/overall_performance/${ids.programme}/csv?user_ids=${ids.ben}`, 'ada')
    ).text();
    expect(overall).toContain('Ben Test');
    expect(overall).not.toContain('Ann Test');
  });

  it('two people saving the same register at once: both land, merged by student', async () => {
    // A lesson from before Ann left the group: both students are on it.
    const lessonId = await lesson({ local_date: addDays(today, -25), local_start: '15:00' });
    const [a, b] = await Promise.all([
      take(lessonId, 'tess', [{ student_id: ids.ann, mark: 'present' }]),
      take(lessonId, 'ada', [{ student_id: ids.ben, mark: 'late', minutes_late: 5 }]),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    await portal.settle(BigInt(a.body.position as string) > BigInt(b.body.position as string) ? a : b);
    const read = await register(lessonId, 'ada');
    expect(entries(read.body).map((e) => [e.student_id, e.mark])).toEqual(
      expect.arrayContaining([
        [ids.ann, 'present'],
        [ids.ben, 'late'],
      ]),
    );
    const stream = await portal.running.infra.eventStore.readStream(`lesson-${lessonId}`);
    expect(stream.filter((e) => e.type === 'RegisterOpened')).toHaveLength(1);
  });
  it('offers as attendance contacts only the school’s partner users who see attendance, to whoever may change the list', async () => {
    const path = `/customers/${ids.oak}/attendance-contacts/candidates`;
    const answer = await portal.call('GET', path, portal.admin);
    expect(answer.status).toBe(200);
    const listed = answer.body;
    expect((listed.items as Json[]).map((u) => u.user_id)).toEqual([ids.head, ids.link]);
    expect(listed.items).toContainEqual(
      expect.objectContaining({ user_id: ids.link, full_name: 'Link Test', customer_type: 'link-contact' }),
    );
    // Attendance staff may; partners without EDIT_ATTENDANCE_CONTACTS and teachers may not.
    expect((await portal.call('GET', path, tokens.ada)).status).toBe(200);
    expect((await portal.call('GET', path, tokens.link)).status).toBe(403);
    expect((await portal.call('GET', path, tokens.tess)).status).toBe(403);
    expect(
      (await portal.call('GET', `/customers/${randomUUID()}/attendance-contacts/candidates`, portal.admin))
        .status,
    ).toBe(404);
  });
  it('alerts the school’s attendance contacts to an absence with no reason and to amendments: in the inbox at once, by e-mail each change or daily, never twice', async () => {
    const path = `/customers/${ids.oak}/attendance-contacts`;
    const contacts = [
      { user_id: ids.head, notification_frequency: 'each-change' },
      { user_id: ids.link, notification_frequency: 'daily' },
    ];
    // Only customer editors, attendance staff and partners with EDIT_ATTENDANCE_CONTACTS change the list.
    expect((await portal.call('PUT', path, tokens.link, { contacts })).status).toBe(403);
    expect((await portal.call('PUT', path, tokens.tess, { contacts })).status).toBe(403);
    // Contacts are partner users of this school who see attendance.
    for (const bad of [ids.ann, ids.elmHead, randomUUID()]) {
      const refused = await portal.call('PUT', path, portal.admin, {
        contacts: [{ user_id: bad, notification_frequency: 'daily' }],
      });
      expect(refused.status).toBe(422);
      expect(refused.body.detail).toContain('contacts[0].user_id');
    }
    const frequency = await portal.call('PUT', path, portal.admin, {
      contacts: [{ user_id: ids.head, notification_frequency: 'hourly' }],
    });
    expect(frequency.status).toBe(422);
    expect(JSON.stringify(frequency.body)).toContain('notification_frequency');
    expect((await portal.call('GET', path, tokens.elmHead)).status).toBe(404);
    await ok(portal.call('PUT', path, tokens.ada, { contacts }));
    const listed = await portal.call('GET', path, tokens.head);
    expect(listed.body.contacts).toEqual([
      expect.objectContaining({
        user_id: ids.head,
        full_name: 'Head Test',
        notification_frequency: 'each-change',
      }),
      expect.objectContaining({ user_id: ids.link, full_name: 'Link Test', notification_frequency: 'daily' }),
    ]);

    const job = portal.running.app.get(AttendanceAlertMailJob);
    const outbox = portal.running.app.get(MailOutbox);
    await job.runOnce(); // whatever earlier tests left is sent now, before this test counts
    const mailsTo = async (email: string) =>
      (await outbox.list(1000)).filter((m) => m.to_address === email).map((m) => m.body_text);
    const before = {
      head: (await mailsTo('head@example.com')).length,
      link: (await mailsTo('link@example.com')).length,
    };
    const inbox = async (who: string) =>
      (await portal.call('GET', '/notifications/', tokens[who])).body.items as {
        kind: string;
        link: string;
      }[];
    const kinds = async (who: string) => (await inbox(who)).map((n) => n.kind);
    const headBefore = (await kinds('head')).length;
    const linkBefore = (await kinds('link')).length;

    // A lesson from before Ann left the group: Ann and Ben are both absent, no reason yet.
    const lessonId = await lesson({ local_date: addDays(today, -24), local_start: '11:00' });
    await ok(
      take(lessonId, 'ada', [
        { student_id: ids.ann, mark: 'absent_pending' },
        { student_id: ids.ben, mark: 'absent_pending' },
      ]),
    );
    // In the inbox at once: the head sees both pupils; the link contact only Ann, their linked student.
    expect((await kinds('head')).slice(0, 2)).toEqual(['absence-no-reason', 'absence-no-reason']);
    expect((await kinds('head')).length).toBe(headBefore + 2);
    expect((await kinds('link')).length).toBe(linkBefore + 1);
    expect((await inbox('link'))[0]).toMatchObject({ kind: 'absence-no-reason', link: '/attendance' });
    const unread = await portal.call('GET', '/notifications/unread-count', tokens.head);
    expect(unread.body.count).toBeGreaterThanOrEqual(2);
    // Not a contact: nothing.
    expect((await kinds('elmHead')).filter((k) => k === 'absence-no-reason')).toEqual([]);

    // E-mail: the each-change contact gets one per alert; the daily contact nothing yet.
    expect(await job.runOnce()).toBe(2);
    const headMails = (await mailsTo('head@example.com')).slice(0, 2);
    expect(headMails.join('\n')).toContain('Ann Test was marked absent');
    expect(headMails.join('\n')).toContain('Ben Test was marked absent');
    expect((await mailsTo('link@example.com')).length).toBe(before.link);
    // A re-run, and a rebuild of the inbox, send nothing again.
    expect(await job.runOnce()).toBe(0);
    await portal.running.app.get(ProjectionRunner).rebuild(['notifications']);
    await waitFor('rebuilt', async () => (await kinds('head')).length === headBefore + 2);
    expect(await job.runOnce()).toBe(0);

    // The link contact gives Ann's reason: the head is told of the amendment, the link contact is not
    // told of their own change.
    await ok(
      portal.call('PUT', `/lessons/${lessonId}/register/${ids.ann}/reason`, tokens.link, {
        absence_reason: 'illness',
      }),
    );
    // The teacher's side amends Ben to late (with a reason): the head is told.
    await ok(
      take(lessonId, 'ada', [{ student_id: ids.ben, mark: 'late', minutes_late: 5, reason: 'Joined late' }]),
    );
    expect((await kinds('head')).slice(0, 2)).toEqual(['attendance-amended', 'attendance-amended']);
    // Ben is not the link contact's student, and Ann's change was their own: nothing new for them.
    expect((await kinds('link')).length).toBe(linkBefore + 1);
    expect(await job.runOnce()).toBe(2);
    expect((await mailsTo('head@example.com')).length).toBe(before.head + 4);
    expect((await mailsTo('head@example.com'))[0]).toContain('was amended');

    // The daily contact's digest of the day, once, the next day in their zone.
    const tomorrow = new Date(Date.now() + 86_400_000);
    expect(await job.runOnce(tomorrow)).toBe(1);
    expect(await job.runOnce(tomorrow)).toBe(0);
    const digest = (await mailsTo('link@example.com'))[0]!;
    expect((await mailsTo('link@example.com')).length).toBe(before.link + 1);
    expect(digest).toContain('Ann Test was marked absent');
    expect(digest).toContain('(a reason has been given since)');
    expect(digest).not.toContain('Ben Test');
  });
  it('erasing a person’s personal data keeps the facts of their marks, but their name no longer shows in the register, the ledger, as_at or the stored events', async () => {
    const olive = await portal.createUser({
      email: 'olive@example.com',
      first_name: 'Olive',
      last_name: 'Officer',
      user_type: 'teacher',
      permissions: ['CAN_MANAGE_ATTENDANCE'],
    });
    await portal.settle(
      await portal.call('PUT', `/users/${olive}`, portal.admin, { position: 'Attendance lead' }),
    );
    const token = await portal.tokenFor('olive@example.com');
    const lessonId = await lesson({ local_date: addDays(today, -23), local_start: '13:00' });
    const put = (list: Json[]) =>
      ok(
        portal.call('PUT', `/lessons/${lessonId}/register`, token, {
          client_key: randomUUID(),
          entries: list,
        }),
      );
    await put([{ student_id: ids.ann, mark: 'present' }]);
    await put([{ student_id: ids.ann, mark: 'late', minutes_late: 5, reason: 'Camera came on late' }]);
    type History = { items: { amended_by: { name: string } }[] };
    const history = async () =>
      (await portal.call('GET', `/lessons/${lessonId}/register/history`, tokens.ada))
        .body as unknown as History;
    expect(JSON.stringify(await history())).toContain('Olive Officer');
    // The name is not stored in the clear in the event store.
    const stored = async () =>
      (
        await portal.running.infra.sql.query<{ data: unknown }>(
          'SELECT data FROM es_events WHERE stream = $1',
          [`lesson-${lessonId}`],
        )
      ).rows.map((r) => JSON.stringify(r.data));
    expect((await stored()).join()).not.toContain('Olive');

    await portal.settle(await portal.call('DELETE', `/users/${olive}/user_profile`, portal.admin));
    const after = await history();
    expect(after.items).toEqual([
      expect.objectContaining({
        student_id: ids.ann,
        original: expect.objectContaining({ mark: 'present' }),
        amended: expect.objectContaining({ mark: 'late', minutes_late: 5 }),
        reason: 'Camera came on late',
        amended_by: { id: olive, name: '[erased]', position: 'Attendance lead' },
      }),
    ]);
    const reads: Json[] = [
      after,
      (await register(lessonId, 'ada')).body,
      (await register(lessonId, 'ada', `?as_at=${encodeURIComponent(new Date().toISOString())}`)).body,
    ];
    for (const read of reads) expect(JSON.stringify(read)).not.toContain('Olive');
    expect(markOf(reads[1]!, ids.ann!)).toMatchObject({ mark: 'late', minutes_late: 5 });
    // A rebuild of the read model from the events gives the same.
    await portal.running.app.get(ProjectionRunner).rebuild(['attendance']);
    await waitFor('rebuilt', async () => (await history()).items?.length === 1);
    expect(JSON.stringify(await history())).not.toContain('Olive');
    expect((await history()).items[0]!.amended_by.name).toBe('[erased]');
  });
});
