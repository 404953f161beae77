import { describe, expect, it } from '@jest/globals';
import type { LessonStreamEvent } from '@portal/projections';
import { thrownKind, type ErrorKind } from '../platform/domain/domain-error.js';
import { decideLesson, type LessonCommand } from '../lessons/lesson.decider.js';
import {
  decideRegister,
  evolveRegister,
  initialRegisterState,
  type RegisterActor,
  type RegisterCommand,
  type RegisterState,
  suggestionFromJoin,
} from './register.decider.js';

const L = '22222222-2222-4222-8222-222222222222';
const [ANN, BEN, CAL, GUS] = ['ann', 'ben', 'cal', 'gus'];
// Wednesday 7 October 2026, 09:30–10:30 in London (08:30Z–09:30Z).
const timing = {
  timezone: 'Europe/London',
  localDate: '2026-10-07',
  localStart: '09:30',
  durationMinutes: 60,
  startsAt: '2026-10-07T08:30:00.000Z',
  endsAt: '2026-10-07T09:30:00.000Z',
};
const DURING = '2026-10-07T08:45:00.000Z';
const teacher: RegisterActor = {
  person: { id: 't1', name: 'Tess Teacher', position: 'Maths tutor' },
  role: 'teacher',
};
const admin: RegisterActor = {
  person: { id: 'a1', name: 'Ada Admin', position: 'Attendance officer' },
  role: 'admin',
};
const snapshot = { roster: [ANN, BEN, CAL], planned: [] };

const fold = (state: RegisterState, events: LessonStreamEvent[]) => events.reduce(evolveRegister, state);
const lesson = (): RegisterState =>
  fold(initialRegisterState(), [
    {
      type: 'LessonPlanned',
      data: {
        lessonId: L,
        customerId: 'c1',
        teacherId: 't1',
        coverTeacherId: null,
        kind: 'lesson',
        programmeId: 'p1',
        groupId: 'g1',
        scheduleId: null,
        meetingId: 'm1',
        ...timing,
      },
    },
  ]);
const take = (over: Partial<Extract<RegisterCommand, { type: 'TakeRegister' }>> = {}): RegisterCommand => ({
  type: 'TakeRegister',
  lessonId: L,
  now: DURING,
  actor: teacher,
  clientKey: `k-${Math.random()}`,
  entries: [],
  guests: [],
  ...snapshot,
  ...over,
});
const after = (state: RegisterState, command: RegisterCommand) => fold(state, decideRegister(command, state));
const marked = () =>
  after(
    lesson(),
    take({
      entries: [
        { studentId: ANN, mark: 'present' },
        { studentId: BEN, mark: 'absent_pending' },
      ],
    }),
  );
const types = (events: LessonStreamEvent[]) => events.map((e) => e.type);

describe('register decider', () => {
  it.each<[string, () => RegisterState, RegisterCommand, ErrorKind | undefined]>([
    ['open 61 minutes before the start', lesson, take({ now: '2026-10-07T07:29:00.000Z' }), 'conflict'],
    ['open 60 minutes before the start', lesson, take({ now: '2026-10-07T07:30:00.000Z' }), undefined],
    [
      'open a week after (registers never close)',
      lesson,
      take({ now: '2026-10-14T09:00:00.000Z' }),
      undefined,
    ],
    ['take the register of a missing lesson', initialRegisterState, take(), 'not_found'],
    [
      'mark a student not on the register',
      lesson,
      take({ entries: [{ studentId: GUS, mark: 'present' }] }),
      'invalid',
    ],
    [
      'mark a guest the caller allowed',
      lesson,
      take({
        entries: [{ studentId: GUS, mark: 'present' }],
        guests: [{ studentId: GUS, homeGroupId: 'g2' }],
      }),
      undefined,
    ],
    ['late without minutes', lesson, take({ entries: [{ studentId: ANN, mark: 'late' }] }), 'invalid'],
    [
      'late beyond the lesson',
      lesson,
      take({ entries: [{ studentId: ANN, mark: 'late', minutesLate: 61 }] }),
      'invalid',
    ],
    [
      'minutes late on a present mark',
      lesson,
      take({ entries: [{ studentId: ANN, mark: 'present', minutesLate: 5 }] }),
      'invalid',
    ],
    [
      'left early beyond the lesson',
      lesson,
      take({ entries: [{ studentId: ANN, mark: 'left_early', minutesMissed: 90 }] }),
      'invalid',
    ],
    ['absent without a reason', lesson, take({ entries: [{ studentId: ANN, mark: 'absent' }] }), 'invalid'],
    [
      'the same student twice',
      lesson,
      take({
        entries: [
          { studentId: ANN, mark: 'present' },
          { studentId: ANN, mark: 'present' },
        ],
      }),
      'invalid',
    ],
    [
      'change a mark without a reason',
      marked,
      take({ entries: [{ studentId: ANN, mark: 'late', minutesLate: 10 }] }),
      'conflict',
    ],
    [
      'a teacher amends after the next working day',
      marked,
      take({
        now: '2026-10-09T08:00:00.000Z',
        entries: [{ studentId: ANN, mark: 'late', minutesLate: 10, reason: 'Misread' }],
      }),
      'forbidden',
    ],
    [
      'an attendance administrator amends a month later',
      marked,
      take({
        actor: admin,
        now: '2026-11-09T08:00:00.000Z',
        entries: [{ studentId: ANN, mark: 'late', minutesLate: 10, reason: 'Misread' }],
      }),
      undefined,
    ],
    [
      'a partner reason overrides present',
      marked,
      {
        type: 'ProvideAbsenceReason',
        lessonId: L,
        now: DURING,
        by: { id: 'p1', name: 'Pat Parent', position: 'Parent / Carer' },
        studentId: ANN,
        absenceReason: 'illness',
        note: null,
        ...snapshot,
      },
      'conflict',
    ],
    [
      'a partner reason for a student not on the register',
      marked,
      {
        type: 'ProvideAbsenceReason',
        lessonId: L,
        now: DURING,
        by: { id: 'p1', name: 'Pat Parent', position: 'Parent / Carer' },
        studentId: GUS,
        absenceReason: 'illness',
        note: null,
        ...snapshot,
      },
      'not_found',
    ],
  ])('%s', (_name, given, command, kind) => {
    expect(thrownKind(() => decideRegister(command, given()))).toBe(kind);
  });

  it('opens with the roster snapshot and pre-fills planned absences; the first marks are original entries', () => {
    const events = decideRegister(
      take({
        planned: [{ plannedAbsenceId: 'pa1', studentId: CAL, absenceReason: 'medical' }],
        entries: [
          { studentId: ANN, mark: 'late', minutesLate: 7 },
          { studentId: CAL, mark: 'absent_pending' },
        ],
      }),
      lesson(),
    );
    expect(types(events)).toEqual([
      'RegisterOpened',
      'AttendanceMarkRecorded',
      'AttendanceMarkRecorded',
      'LessonDelivered',
    ]);
    const opened = events[0]!.data as { roster: { studentId: string }[]; prefills: unknown[] };
    expect(opened.roster.map((r) => r.studentId)).toEqual([ANN, BEN, CAL]);
    expect(opened.prefills).toEqual([
      { studentId: CAL, absenceReason: 'medical', source: 'planned_absence', plannedAbsenceId: 'pa1' },
    ]);
    // The planned reason turns "absent, reason unknown" into "absent, medical" (suggested M).
    expect(events[2]!.data).toMatchObject({
      studentId: CAL,
      mark: 'absent',
      absenceReason: 'medical',
      suggestedCode: 'M',
    });
    expect(events[1]!.data).toMatchObject({
      studentId: ANN,
      mark: 'late',
      minutesLate: 7,
      suggestedCode: 'B',
    });
  });

  it('a change with a reason is an amendment carrying original, amended, reason, when and who', () => {
    const events = decideRegister(
      take({
        now: '2026-10-08T10:00:00.000Z',
        entries: [{ studentId: ANN, mark: 'left_early', minutesMissed: 15, reason: 'Left for the dentist' }],
      }),
      marked(),
    );
    expect(events).toEqual([
      {
        type: 'AttendanceMarkAmended',
        data: expect.objectContaining({
          studentId: ANN,
          original: {
            mark: 'present',
            minutesLate: null,
            minutesMissed: null,
            absenceReason: null,
            suggestedCode: 'B',
          },
          amended: {
            mark: 'left_early',
            minutesLate: null,
            minutesMissed: 15,
            absenceReason: null,
            suggestedCode: 'B',
          },
          reason: 'Left for the dentist',
          amendedAt: '2026-10-08T10:00:00.000Z',
          amendedBy: teacher.person,
        }),
      },
    ]);
  });

  it('is idempotent by client key, and an unchanged mark is no change (two savers merge by student)', () => {
    const first = take({ clientKey: 'same', entries: [{ studentId: ANN, mark: 'present' }] });
    const state = after(lesson(), first);
    expect(decideRegister({ ...first }, state)).toEqual([]);
    // A second teacher saves Ben only, and repeats Ann's unchanged mark: only Ben is recorded.
    const second = decideRegister(
      take({
        entries: [
          { studentId: ANN, mark: 'present' },
          { studentId: BEN, mark: 'absent_pending' },
        ],
      }),
      state,
    );
    expect(types(second)).toEqual(['AttendanceMarkRecorded']);
  });

  it('a partner reason for absent_pending amends it (N → reason); before marking it is a prefill', () => {
    const by = { id: 'p1', name: 'Pat Parent', position: 'Parent / Carer' };
    const reason = (studentId: string): RegisterCommand => ({
      type: 'ProvideAbsenceReason',
      lessonId: L,
      now: DURING,
      by,
      studentId,
      absenceReason: 'illness',
      note: 'Flu',
      ...snapshot,
    });
    const events = decideRegister(reason(BEN), marked());
    expect(types(events)).toEqual(['AbsenceReasonProvided', 'AttendanceMarkAmended']);
    expect(events[1]!.data).toMatchObject({
      original: { mark: 'absent_pending', suggestedCode: 'N' },
      amended: { mark: 'absent', absenceReason: 'illness', suggestedCode: 'I' },
      reason: 'Reason provided by Parent / Carer: Flu',
      amendedBy: by,
    });
    // Before the register opens the reason waits as a prefill, and the opening carries it.
    const waiting = after(lesson(), reason(CAL));
    const opened = decideRegister(take(), waiting);
    expect(opened[0]!.data).toMatchObject({
      prefills: [{ studentId: CAL, absenceReason: 'illness', source: 'partner' }],
    });
  });

  it('cancelling after marks voids the register, and the register then takes no marks', () => {
    const cancel: LessonCommand = {
      type: 'CancelLesson',
      lessonId: L,
      reason: 'Platform outage',
      cancelledBy: 'provider',
      chargeCustomer: false,
      payTeacher: false,
    };
    const absentOnly = after(lesson(), take({ entries: [{ studentId: BEN, mark: 'absent_pending' }] }));
    const events = decideLesson(cancel, absentOnly.lesson);
    expect(types(events)).toEqual(['LessonCancelled', 'RegisterVoided']);
    expect(types(decideLesson(cancel, lesson().lesson))).toEqual(['LessonCancelled']);
    const cancelled = fold(absentOnly, events);
    expect(
      thrownKind(() => decideRegister(take({ entries: [{ studentId: ANN, mark: 'present' }] }), cancelled)),
    ).toBe('conflict');
    // Marks from before are kept.
    expect(cancelled.register.entries[BEN]?.mark).toBe('absent_pending');
  });

  it('old dates get the old code set', () => {
    const old = fold(initialRegisterState(), [
      {
        type: 'LessonPlanned',
        data: {
          lessonId: L,
          customerId: 'c1',
          teacherId: 't1',
          coverTeacherId: null,
          kind: 'lesson',
          programmeId: 'p1',
          groupId: 'g1',
          scheduleId: null,
          meetingId: 'm1',
          ...timing,
          localDate: '2024-03-06',
          startsAt: '2024-03-06T09:30:00.000Z',
          endsAt: '2024-03-06T10:30:00.000Z',
        },
      },
    ]);
    const events = decideRegister(
      take({
        now: '2024-03-06T09:40:00.000Z',
        entries: [{ studentId: ANN, mark: 'absent', absenceReason: 'interview' }],
      }),
      old,
    );
    expect(events[1]!.data).toMatchObject({ suggestedCode: 'J' });
  });

  it('a meeting join suggests present within the grace, late after it, nothing after the end', () => {
    const at = (minutes: number) => new Date(new Date(timing.startsAt).getTime() + minutes * 60_000);
    expect(suggestionFromJoin(at(-8), timing)).toEqual({ mark: 'present', minutesLate: null });
    expect(suggestionFromJoin(at(5), timing)).toEqual({ mark: 'present', minutesLate: null });
    expect(suggestionFromJoin(at(5.5), timing)).toEqual({ mark: 'late', minutesLate: 6 });
    expect(suggestionFromJoin(at(60), timing)).toEqual({ mark: 'late', minutesLate: 60 });
    expect(suggestionFromJoin(at(61), timing)).toBeNull();
  });

  it('marks an untaken register from the joins after the end + grace, unconfirmed; the teacher confirms or corrects without a reason', () => {
    const auto = (
      now: string,
      joins = { [ANN]: { mark: 'late' as const, minutesLate: 8 } },
    ): RegisterCommand => ({
      type: 'AutoMarkFromJoins',
      lessonId: L,
      now,
      joins,
      ...snapshot,
    });
    // The lesson ends 09:30Z; the pass may mark from 09:45Z.
    expect(thrownKind(() => decideRegister(auto('2026-10-07T09:40:00.000Z'), lesson()))).toBe('conflict');
    const events = decideRegister(auto('2026-10-07T09:45:00.000Z'), lesson());
    expect(types(events)).toEqual([
      'RegisterOpened',
      'AttendanceMarkRecorded',
      'AttendanceMarkRecorded',
      'AttendanceMarkRecorded',
      'LessonDelivered',
    ]);
    expect(events.slice(1, 4).map((e) => e.data)).toMatchObject([
      { studentId: ANN, mark: 'late', minutesLate: 8, source: 'meeting' },
      { studentId: BEN, mark: 'absent_pending', source: 'meeting' },
      { studentId: CAL, mark: 'absent_pending', source: 'meeting' },
    ]);
    const marked = fold(lesson(), events);
    // A second pass, or a pass over a register the teacher took, changes nothing.
    expect(decideRegister(auto('2026-10-07T10:00:00.000Z'), marked)).toEqual([]);
    expect(
      decideRegister(
        auto('2026-10-07T10:00:00.000Z'),
        after(lesson(), take({ entries: [{ studentId: BEN, mark: 'present' }] })),
      ),
    ).toEqual([]);
    // Days later the teacher confirms Ann and corrects Ben, with no reason and past her deadline.
    const late = '2026-10-20T10:00:00.000Z';
    const teacherMarks = decideRegister(
      take({
        now: late,
        entries: [
          { studentId: ANN, mark: 'late', minutesLate: 8 },
          { studentId: BEN, mark: 'present' },
        ],
      }),
      marked,
    );
    expect(teacherMarks.map((e) => [e.type, (e.data as { reason?: string }).reason])).toEqual([
      ['AttendanceMarkAmended', 'Automatic mark confirmed'],
      ['AttendanceMarkAmended', 'Automatic mark corrected'],
    ]);
  });
});
