import { describe, expect, it } from '@jest/globals';
import type { LessonStreamEvent, ScheduleRule } from '@portal/projections';
import { thrownKind, type ErrorKind } from '../platform/domain/domain-error.js';
import {
  decideLesson,
  evolveLesson,
  initialLessonState,
  type LessonCommand,
  type LessonState,
} from './lesson.decider.js';
import {
  decideSchedule,
  evolveSchedule,
  initialScheduleState,
  type ScheduleCommand,
  type ScheduleState,
} from './schedule.decider.js';

const S = '11111111-1111-4111-8111-111111111111';
const L = '22222222-2222-4222-8222-222222222222';
const rule: ScheduleRule = {
  groupId: 'g',
  teacherId: 't1',
  timezone: 'Europe/London',
  weekdays: [1, 4],
  localStart: '09:30',
  durationMinutes: 60,
  intervalWeeks: 1,
  validFrom: '2026-09-01',
  validUntil: null,
};
const created = (): ScheduleState =>
  evolveSchedule(initialScheduleState(), {
    type: 'ScheduleCreated',
    data: { scheduleId: S, programmeId: 'p', customerId: 'c', ...rule },
  });

describe('schedule decider', () => {
  const create = (r: Partial<ScheduleRule>): ScheduleCommand => ({
    type: 'CreateSchedule',
    scheduleId: S,
    programmeId: 'p',
    customerId: 'c',
    rule: { ...rule, ...r },
  });
  it.each<[string, ScheduleCommand, ScheduleState, ErrorKind | undefined, string | undefined]>([
    ['a valid rule', create({}), initialScheduleState(), undefined, undefined],
    ['no weekdays', create({ weekdays: [] }), initialScheduleState(), 'invalid', 'weekdays'],
    ['weekday 8', create({ weekdays: [8] }), initialScheduleState(), 'invalid', 'weekdays'],
    [
      'a 4-minute lesson',
      create({ durationMinutes: 4 }),
      initialScheduleState(),
      'invalid',
      'duration_minutes',
    ],
    [
      'a lesson over 12 hours',
      create({ durationMinutes: 721 }),
      initialScheduleState(),
      'invalid',
      'duration_minutes',
    ],
    ['exactly 12 hours', create({ durationMinutes: 720 }), initialScheduleState(), undefined, undefined],
    [
      'an unknown zone',
      create({ timezone: 'Europe/Atlantis' }),
      initialScheduleState(),
      'invalid',
      'timezone',
    ],
    ['a bad start', create({ localStart: '25:00' }), initialScheduleState(), 'invalid', 'local_start'],
    [
      'until before from',
      create({ validUntil: '2026-08-31' }),
      initialScheduleState(),
      'invalid',
      'valid_until',
    ],
    ['interval 0', create({ intervalWeeks: 0 }), initialScheduleState(), 'invalid', 'interval_weeks'],
    ['creating twice', create({}), created(), 'conflict', undefined],
    [
      'changing a missing schedule',
      { type: 'ChangeSchedule', scheduleId: S, rule },
      initialScheduleState(),
      'not_found',
      undefined,
    ],
    [
      'a move without a time',
      {
        type: 'AddScheduleException',
        scheduleId: S,
        localDate: '2026-09-07',
        action: 'move',
        newLocalStart: null,
      },
      created(),
      'invalid',
      'new_local_start',
    ],
  ])('%s', (_name, command, state, kind, field) => {
    expect(thrownKind(() => decideSchedule(command, state))).toBe(kind);
    if (field) expect(() => decideSchedule(command, state)).toThrow(new RegExp(`^${field}:`));
  });

  it('changes nothing when the rule is the same, and names the previous teacher when it changes', () => {
    expect(decideSchedule({ type: 'ChangeSchedule', scheduleId: S, rule }, created())).toEqual([]);
    const [event] = decideSchedule(
      { type: 'ChangeSchedule', scheduleId: S, rule: { ...rule, teacherId: 't2' } },
      created(),
    );
    expect(event).toMatchObject({
      type: 'ScheduleChanged',
      data: { teacherId: 't2', previousTeacherId: 't1', customerId: 'c' },
    });
  });

  it('records an exception once', () => {
    const command: ScheduleCommand = {
      type: 'AddScheduleException',
      scheduleId: S,
      localDate: '2026-09-07',
      action: 'skip',
      newLocalStart: null,
    };
    const events = decideSchedule(command, created());
    expect(events).toHaveLength(1);
    const after = events.reduce((s, e) => evolveSchedule(s, e), created());
    expect(decideSchedule(command, after)).toEqual([]);
  });
});

const timing = {
  timezone: 'Europe/London',
  localDate: '2026-09-07',
  localStart: '09:30',
  durationMinutes: 60,
  startsAt: '2026-09-07T08:30:00.000Z',
  endsAt: '2026-09-07T09:30:00.000Z',
};
const plan: LessonCommand = {
  type: 'PlanLesson',
  lessonId: L,
  kind: 'lesson',
  programmeId: 'p',
  groupId: 'g',
  customerId: 'c',
  scheduleId: S,
  teacherId: 't1',
  meetingId: 'm',
  ...timing,
};
const fold = (state: LessonState, events: LessonStreamEvent[]) => events.reduce(evolveLesson, state);
const planned = () => fold(initialLessonState(), decideLesson(plan, initialLessonState()));
const withStatus = (status: LessonState['status']) => ({ ...planned(), status });
const cancel: LessonCommand = {
  type: 'CancelLesson',
  lessonId: L,
  reason: 'Teacher ill',
  cancelledBy: 'provider',
  chargeCustomer: false,
  payTeacher: true,
};
const reschedule: LessonCommand = {
  type: 'RescheduleLesson',
  lessonId: L,
  reason: 'Trip',
  ...timing,
  localStart: '11:00',
};

describe('lesson decider', () => {
  it.each<[string, LessonCommand, LessonState, ErrorKind | undefined]>([
    ['cancel a planned lesson', cancel, planned(), undefined],
    ['cancel a cancelled lesson', cancel, withStatus('cancelled'), 'conflict'],
    ['cancel a delivered lesson', cancel, withStatus('delivered'), 'conflict'],
    ['cancel an unscheduled lesson', cancel, withStatus('unscheduled'), 'conflict'],
    ['cancel without a reason', { ...cancel, reason: ' ' }, planned(), 'invalid'],
    ['cancel a missing lesson', cancel, initialLessonState(), 'not_found'],
    ['reschedule a planned lesson', reschedule, planned(), undefined],
    ['reschedule a delivered lesson', reschedule, withStatus('delivered'), 'conflict'],
    ['reschedule a cancelled lesson', reschedule, withStatus('cancelled'), 'conflict'],
    [
      'cover by the lesson’s own teacher',
      { type: 'ChangeCoverTeacher', lessonId: L, coverTeacherId: 't1' },
      planned(),
      'invalid',
    ],
    [
      'cover a cancelled lesson',
      { type: 'ChangeCoverTeacher', lessonId: L, coverTeacherId: 't2' },
      withStatus('cancelled'),
      'conflict',
    ],
    [
      'deliver a cancelled lesson',
      { type: 'MarkLessonDelivered', lessonId: L },
      withStatus('cancelled'),
      'conflict',
    ],
    [
      'notes on a delivered lesson',
      { type: 'ChangeLessonNotes', lessonId: L, notes: 'Went well' },
      withStatus('delivered'),
      undefined,
    ],
  ])('%s', (_name, command, state, kind) => {
    expect(thrownKind(() => decideLesson(command, state))).toBe(kind);
  });

  it('plans once: planning an existing lesson writes nothing, an unscheduled one is planned again', () => {
    expect(decideLesson(plan, planned())).toEqual([]);
    expect(decideLesson(plan, withStatus('unscheduled')).map((e) => e.type)).toEqual(['LessonPlanned']);
  });

  it('detaches a rescheduled lesson: the planner then leaves it alone', () => {
    const moved = fold(planned(), decideLesson(reschedule, planned()));
    expect(moved.detached).toBe(true);
    expect(moved.timing?.localStart).toBe('11:00');
    expect(decideLesson({ type: 'UnscheduleLesson', lessonId: L, reason: 'rule-changed' }, moved)).toEqual(
      [],
    );
    expect(
      decideLesson({ type: 'ChangeLessonPlan', lessonId: L, teacherId: 't2', ...timing }, moved),
    ).toEqual([]);
  });

  it('never lets the planner unschedule or move a delivered or cancelled lesson', () => {
    for (const status of ['delivered', 'cancelled'] as const) {
      expect(
        decideLesson({ type: 'UnscheduleLesson', lessonId: L, reason: 'rule-changed' }, withStatus(status)),
      ).toEqual([]);
      expect(
        decideLesson(
          { type: 'ChangeLessonPlan', lessonId: L, teacherId: 't2', ...timing },
          withStatus(status),
        ),
      ).toEqual([]);
    }
  });

  it('carries the audience (teacher, cover teacher, customer) on every event, and the previous cover teacher', () => {
    const covered = fold(
      planned(),
      decideLesson({ type: 'ChangeCoverTeacher', lessonId: L, coverTeacherId: 't2' }, planned()),
    );
    const [change] = decideLesson({ type: 'ChangeCoverTeacher', lessonId: L, coverTeacherId: 't3' }, covered);
    expect(change).toMatchObject({
      data: { teacherId: 't1', coverTeacherId: 't3', previousCoverTeacherId: 't2', customerId: 'c' },
    });
    const [cancelled] = decideLesson(cancel, covered);
    expect(cancelled).toMatchObject({
      type: 'LessonCancelled',
      data: {
        teacherId: 't1',
        coverTeacherId: 't2',
        customerId: 'c',
        chargeCustomer: false,
        payTeacher: true,
      },
    });
  });
});
