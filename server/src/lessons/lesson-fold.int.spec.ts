import { expect } from '@jest/globals';
import { lessonsProjection, lessonStream, scheduleStream, type ProjectionEvent } from '@portal/projections';
import { describeFoldInBatches, record } from '../platform/testing/projection-contract.js';

/**
 * Decision 0090: a batch of lessons events folds the lessons it touches in memory (their rows read
 * once, whether or not an earlier batch made them) and writes the changed rows with one upsert;
 * schedule events go to SQL. Whatever the batch boundaries, the rows must be those of event-by-event
 * apply. The history walks every lesson rule: planning, planning again (after unscheduling, after a
 * cancellation: the notes, the cancellation and the detachment stay), a plan change, a reschedule, a
 * cancellation, unscheduling, a cover teacher set and cleared, notes, delivery, an event before its
 * lesson is planned, ids in capitals; and every schedule rule beside them.
 */
const id = (n: number) => `abcdef00-0000-4000-8000-${String(n).padStart(12, '0')}`;
const [OLD, A, B, C] = [id(1), id(2), id(3), id(4)];
const SCHEDULE = id(10);
const [T1, T2] = [id(20), id(21)];
const [CUSTOMER, PROGRAMME, GROUP] = [id(30), id(31), id(32)];

const when = (day: number, start = '09:00') => ({
  timezone: 'Europe/London',
  localDate: `2027-01-${String(day).padStart(2, '0')}`,
  localStart: start,
  durationMinutes: 60,
  startsAt: `2027-01-${String(day).padStart(2, '0')}T${start}:00.000Z`,
  endsAt: `2027-01-${String(day).padStart(2, '0')}T${String(Number(start.slice(0, 2)) + 1).padStart(2, '0')}:${start.slice(3)}:00.000Z`,
});
const audience = (lessonId: string, teacherId = T1, coverTeacherId: string | null = null) => ({
  lessonId,
  customerId: CUSTOMER,
  teacherId,
  coverTeacherId,
});
const lesson = (lessonId: string, type: string, data: object = {}) =>
  [lessonStream(lessonId.toLowerCase()), type, { ...audience(lessonId), ...data }] as const;
const planned = (lessonId: string, day: number, teacherId = T1) =>
  lesson(lessonId, 'LessonPlanned', {
    ...audience(lessonId, teacherId),
    ...when(day),
    kind: 'lesson',
    programmeId: PROGRAMME,
    groupId: GROUP,
    scheduleId: SCHEDULE,
    meetingId: id(40 + day),
  });
const rule = {
  groupId: GROUP,
  teacherId: T1,
  timezone: 'Europe/London',
  weekdays: [1, 3],
  localStart: '09:00',
  durationMinutes: 60,
  intervalWeeks: 1,
  validFrom: '2027-01-04',
  validUntil: null,
};
const schedule = (type: string, data: object) =>
  [scheduleStream(SCHEDULE), type, { scheduleId: SCHEDULE, customerId: CUSTOMER, ...data }] as const;

const history: ProjectionEvent[] = record([
  schedule('ScheduleCreated', { ...rule, programmeId: PROGRAMME }), // 0
  planned(OLD, 4), // 1
  lesson(OLD, 'LessonNotesChanged', { notes: 'Bring the reading book' }), // 2
  lesson(A, 'LessonDelivered'), // 3: before A is planned: nothing
  planned(A.toUpperCase(), 5), // 4
  schedule('ScheduleChanged', { ...rule, weekdays: [1, 3, 5], previousTeacherId: null }), // 5
  lesson(A, 'LessonCoverTeacherChanged', { coverTeacherId: T2, previousCoverTeacherId: null }), // 6
  lesson(OLD, 'LessonPlanChanged', { ...audience(OLD, T2), ...when(6, '10:00'), previousTeacherId: T1 }), // 7
  planned(B, 7), // 8
  lesson(B, 'LessonCancelled', {
    reason: 'Snow',
    cancelledBy: 'provider',
    chargeCustomer: false,
    payTeacher: true,
  }), // 9
  schedule('ScheduleExceptionAdded', {
    teacherId: T1,
    localDate: '2027-01-11',
    action: 'move',
    newLocalStart: '11:00',
  }), // 10
  lesson(A.toUpperCase(), 'LessonRescheduled', { ...when(8, '14:00'), reason: 'Trip' }), // 11
  lesson(OLD, 'LessonUnscheduled', { scheduleId: SCHEDULE, reason: 'rule-changed' }), // 12
  planned(OLD, 11), // 13: planned again: the notes stay
  lesson(A, 'LessonCoverTeacherChanged', { coverTeacherId: null, previousCoverTeacherId: T2 }), // 14
  planned(C, 12), // 15
  lesson(C, 'LessonDelivered'), // 16
  schedule('ScheduleConflictsRecorded', {
    teacherId: T1,
    conflicts: [{ localDate: '2027-01-13', localStart: '09:00', lessonId: C, reason: 'teacher' }],
  }), // 17
  lesson(B, 'LessonNotesChanged', { notes: 'Moved to spring' }), // 18
  planned(B.toUpperCase(), 14, T2), // 19: planned again after its cancellation: the cancellation stays
  lesson(A, 'LessonDelivered'), // 20
  lesson(OLD, 'LessonDelivered'), // 21
]);

describeFoldInBatches('lessons projection', 'portal_lesson_fold', lessonsProjection, history, {
  title: 'event by event, the history sets every lesson and schedule rule',
  async check(sql) {
    const lessons = await sql.query(
      `SELECT id::text, status, teacher_id::text AS teacher, cover_teacher_id::text AS cover, local_date,
         starts_at, detached, notes, cancellation->>'reason' AS cancelled, version::int
       FROM rm_lessons ORDER BY id`,
    );
    expect(lessons.rows).toEqual([
      {
        id: OLD,
        status: 'delivered',
        teacher: T1,
        cover: null,
        local_date: '2027-01-11',
        starts_at: new Date('2027-01-11T09:00:00.000Z'),
        detached: false,
        notes: 'Bring the reading book',
        cancelled: null,
        version: 5,
      },
      {
        id: A,
        status: 'delivered',
        teacher: T1,
        cover: null,
        local_date: '2027-01-08',
        starts_at: new Date('2027-01-08T14:00:00.000Z'),
        detached: true,
        notes: '',
        cancelled: null,
        version: 5, // its stream began with the delivery that came too early
      },
      {
        id: B,
        status: 'planned',
        teacher: T2,
        cover: null,
        local_date: '2027-01-14',
        starts_at: new Date('2027-01-14T09:00:00.000Z'),
        detached: false,
        notes: 'Moved to spring',
        cancelled: 'Snow',
        version: 3,
      },
      {
        id: C,
        status: 'delivered',
        teacher: T1,
        cover: null,
        local_date: '2027-01-12',
        starts_at: new Date('2027-01-12T09:00:00.000Z'),
        detached: false,
        notes: '',
        cancelled: null,
        version: 1,
      },
    ]);
    const schedules = await sql.query(
      `SELECT weekdays, exceptions, jsonb_array_length(conflicts) AS conflicts, version::int FROM rm_schedules`,
    );
    expect(schedules.rows).toEqual([
      {
        weekdays: [1, 3, 5],
        exceptions: [{ localDate: '2027-01-11', action: 'move', newLocalStart: '11:00' }],
        conflicts: 1,
        version: 3,
      },
    ]);
  },
});
