import { expect } from '@jest/globals';
import {
  attendanceProjection,
  ERASED,
  lessonStream,
  plannedAbsenceStream,
  type ProjectionEvent,
} from '@portal/projections';
import { describeFoldInBatches, record } from '../platform/testing/projection-contract.js';

/**
 * Decision 0086: a batch of attendance events folds the registers it opens in memory and writes each
 * row once. Whatever the batch boundaries, the tables must end as they do when every event is applied
 * on its own by SQL. The history below walks every rule the fold copies: duplicate roster lines,
 * prefills, guests (also on an empty register), marks, amendments, a partner's
 * reason, voids and cancellations before and after the register opened, an erasure of a teacher
 * whose marks sit in registers opened in the same batch, ids written in capitals, a register opened
 * again with one more student, and a planned absence. (After the erasure only the other person acts:
 * the erased teacher records nothing more.)
 */
const id = (n: number) => `abcdef00-0000-4000-8000-${String(n).padStart(12, '0')}`;
const [A, B, C, D] = [id(101), id(102), id(103), id(104)];
const [S1, S2, S3, S4, S5] = [id(201), id(202), id(203), id(204), id(205)];
const CUSTOMER = id(301);
const T1 = { id: id(401), name: 'Tess Teacher', position: 'Teacher' };
const T2 = { id: id(402), name: "Ann O'Neil", position: 'Head of attendance' };
const audience = (lessonId: string) => ({
  lessonId,
  customerId: CUSTOMER,
  teacherId: T1.id,
  coverTeacherId: null,
});
const opened = (lessonId: string, roster: string[], prefills: { studentId: string }[] = []) => ({
  ...audience(lessonId),
  openedAt: '2026-09-07T09:00:00.000Z',
  roster: roster.map((studentId) => ({ studentId, basis: 'enrolled' })),
  prefills: prefills.map((p) => ({
    studentId: p.studentId,
    absenceReason: 'illness',
    source: 'planned_absence',
    plannedAbsenceId: id(501),
  })),
  localDate: '2026-09-07',
  startsAt: '2026-09-07T09:00:00.000Z',
  durationMinutes: 50,
  programmeId: id(601),
  groupId: id(602),
});
const entry = (mark: string, minutesLate: number | null = null) => ({
  mark,
  minutesLate,
  minutesMissed: null,
  absenceReason: mark === 'absent' ? 'illness' : null,
  suggestedCode: mark === 'present' ? '/' : null,
});
const marked = (lessonId: string, studentId: string, mark: string, by = T1) => ({
  ...audience(lessonId),
  studentId,
  ...entry(mark, mark === 'late' ? 7 : null),
  source: 'teacher',
  recordedAt: '2026-09-07T09:05:00.000Z',
  recordedBy: by,
  clientKey: null,
});
const amended = (lessonId: string, studentId: string, from: string, to: string) => ({
  ...audience(lessonId),
  studentId,
  original: entry(from),
  amended: entry(to),
  reason: 'Arrived after the register',
  amendedAt: '2026-09-08T10:00:00.000Z',
  amendedBy: T2,
  source: 'admin',
  clientKey: null,
});
const cancelled = (lessonId: string) => ({
  ...audience(lessonId),
  reason: 'Teacher ill',
  cancelledBy: 'provider',
  chargeCustomer: false,
  payTeacher: false,
});

const history: ProjectionEvent[] = record([
  [lessonStream(B), 'LessonCancelled', cancelled(B)], // before any register: changes nothing
  [lessonStream(A), 'RegisterOpened', opened(A, [S1, S2, S3, S1], [{ studentId: S2 }])],
  [lessonStream(A), 'AttendanceMarkRecorded', marked(A, S1, 'present')],
  [lessonStream(A), 'AttendanceMarkRecorded', marked(A, S2, 'absent')],
  [
    lessonStream(A),
    'AbsenceReasonProvided',
    {
      ...audience(A),
      studentId: S3,
      absenceReason: 'medical',
      note: null,
      providedAt: '2026-09-07T09:01:00.000Z',
      providedBy: T2,
    },
  ],
  [lessonStream(A), 'AttendanceMarkRecorded', marked(A, S3, 'late')],
  [lessonStream(B), 'RegisterOpened', opened(B, [])],
  [lessonStream(B), 'GuestStudentAddedToRegister', { ...audience(B), studentId: S5, homeGroupId: null }],
  [lessonStream(B), 'AttendanceMarkRecorded', marked(B, S5, 'present')], // no line: changes nothing
  [lessonStream(C), 'RegisterOpened', opened(C, [S1, S2])],
  [lessonStream(A), 'AttendanceMarkAmended', amended(A, S2, 'absent', 'late')],
  [lessonStream(A), 'GuestStudentAddedToRegister', { ...audience(A), studentId: S4, homeGroupId: id(603) }],
  [lessonStream(A), 'AttendanceMarkRecorded', marked(A, S4, 'present')],
  [lessonStream(C), 'AttendanceMarkRecorded', marked(C, S1, 'present', T2)],
  ['user-' + T1.id, 'UserPersonalDataErased', { userId: T1.id }],
  [lessonStream(C), 'AttendanceMarkRecorded', marked(C, S2, 'absent', T2)], // after the erasure: keeps its name
  [lessonStream(C), 'GuestStudentAddedToRegister', { ...audience(C), studentId: S3, homeGroupId: null }],
  [lessonStream(C), 'LessonCancelled', cancelled(C)],
  [lessonStream(A), 'AttendanceMarkAmended', amended(A, S1, 'present', 'left_early')],
  [lessonStream(D), 'RegisterOpened', opened(D, [S1, S2, S3])],
  [lessonStream(D), 'AttendanceMarkRecorded', marked(D.toUpperCase(), S1.toUpperCase(), 'late', T2)],
  [lessonStream(D), 'AttendanceMarkRecorded', marked(D, S2, 'present', T2)],
  [lessonStream(A), 'RegisterVoided', { ...audience(A), reason: 'Wrong class' }],
  [
    plannedAbsenceStream(id(501)),
    'PlannedAbsenceRecorded',
    {
      plannedAbsenceId: id(501),
      studentId: S2,
      customerId: CUSTOMER,
      from: '2026-09-07',
      to: '2026-09-09',
      absenceReason: 'illness',
      note: null,
      recordedBy: T2,
    },
  ],
  [
    plannedAbsenceStream(id(501)),
    'PlannedAbsenceWithdrawn',
    { plannedAbsenceId: id(501), studentId: S2, customerId: CUSTOMER },
  ],
  [lessonStream(D), 'AttendanceMarkRecorded', marked(D, S3, 'absent', T2)],
  // Opened again with one more student: only the new line is added, the marked ones stay.
  [lessonStream(D), 'RegisterOpened', opened(D, [S1, S4])],
  [lessonStream(D), 'AttendanceMarkRecorded', marked(D, S4, 'late', T2)],
]);

describeFoldInBatches('attendance projection', 'portal_attendance_fold', attendanceProjection, history, {
  title: 'event by event, the history sets every rule the fold copies',
  async check(sql, byEvent) {
    const lines = (
      await sql.query<Record<string, unknown>>(
        `SELECT lesson_id::text, student_id::text, basis, mark, prefill_reason, prefill_source, amendments,
              voided, recorded_by->>'name' AS by FROM rm_register_entries ORDER BY lesson_id, student_id`,
      )
    ).rows;
    const line = (lesson: string, student: string) =>
      lines.find((l) => l.lesson_id === lesson && l.student_id === student);
    expect(lines.filter((l) => l.lesson_id === B)).toEqual([]); // empty register: the guest had no line to copy
    expect(lines.filter((l) => l.lesson_id === A)).toHaveLength(4); // S1 once, S2, S3, guest S4
    expect(line(A, S1)).toMatchObject({ mark: 'left_early', amendments: 1, voided: true, by: T2.name });
    expect(line(A, S2)).toMatchObject({ mark: 'late', prefill_reason: 'illness', amendments: 1 });
    expect(line(A, S3)).toMatchObject({ mark: 'late', prefill_source: 'partner', by: ERASED });
    expect(line(A, S4)).toMatchObject({ basis: 'guest', mark: 'present', by: ERASED });
    expect(line(C, S1)).toMatchObject({ by: T2.name, voided: true });
    expect(line(C, S2)).toMatchObject({ by: T2.name, voided: true });
    expect(line(C, S3)).toMatchObject({ basis: 'guest', voided: true, mark: null });
    expect(line(D, S1)).toMatchObject({ mark: 'late' });
    expect(line(D, S4)).toMatchObject({ mark: 'late', basis: 'enrolled' });
    expect(byEvent['rm_attendance_amendments']).toHaveLength(2);
  },
});
