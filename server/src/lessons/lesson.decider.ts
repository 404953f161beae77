import {
  lessonStream,
  type CancelledBy,
  type LessonAudience,
  type LessonStreamEvent,
  type LessonKind,
  type LessonStatus,
  type LessonTiming,
} from '@portal/projections';
import { DomainError } from '../platform/domain/domain-error.js';
import type { Aggregate } from '../platform/event-store/aggregate.js';

/** One lesson (occurrence), its own stream `lesson-{id}` (decision 0053). */
export interface LessonState {
  exists: boolean;
  status: LessonStatus;
  detached: boolean;
  kind: LessonKind;
  programmeId: string;
  groupId: string;
  customerId: string;
  scheduleId: string | null;
  teacherId: string;
  coverTeacherId: string | null;
  timing: LessonTiming | null;
  notes: string;
  /** A register mark exists (decision 0056): cancelling then voids the register. */
  marked: boolean;
}

export interface PlanLessonCommand extends LessonTiming {
  type: 'PlanLesson';
  lessonId: string;
  kind: LessonKind;
  programmeId: string;
  groupId: string;
  customerId: string;
  scheduleId: string | null;
  teacherId: string;
  meetingId: string;
}

export type LessonCommand =
  | PlanLessonCommand
  /** The planner: the rule now gives this lesson another time, length or teacher. */
  | ({ type: 'ChangeLessonPlan'; lessonId: string; teacherId: string } & LessonTiming)
  /** The planner: the rule no longer produces this lesson. */
  | { type: 'UnscheduleLesson'; lessonId: string; reason: 'rule-changed' | 'skipped' }
  | ({ type: 'RescheduleLesson'; lessonId: string; reason: string } & LessonTiming)
  | {
      type: 'CancelLesson';
      lessonId: string;
      reason: string;
      cancelledBy: CancelledBy;
      chargeCustomer: boolean;
      payTeacher: boolean;
    }
  | { type: 'ChangeCoverTeacher'; lessonId: string; coverTeacherId: string | null }
  | { type: 'ChangeLessonNotes'; lessonId: string; notes: string }
  | { type: 'MarkLessonDelivered'; lessonId: string };

export const initialLessonState = (): LessonState => ({
  exists: false,
  status: 'planned',
  detached: false,
  kind: 'lesson',
  programmeId: '',
  groupId: '',
  customerId: '',
  scheduleId: null,
  teacherId: '',
  coverTeacherId: null,
  timing: null,
  notes: '',
  marked: false,
});

const timingOf = (t: LessonTiming): LessonTiming => ({
  timezone: t.timezone,
  localDate: t.localDate,
  localStart: t.localStart,
  durationMinutes: t.durationMinutes,
  startsAt: t.startsAt,
  endsAt: t.endsAt,
});

export function evolveLesson(state: LessonState, event: LessonStreamEvent): LessonState {
  switch (event.type) {
    case 'LessonPlanned': {
      const d = event.data;
      return {
        ...state,
        exists: true,
        status: 'planned',
        kind: d.kind,
        programmeId: d.programmeId,
        groupId: d.groupId,
        customerId: d.customerId,
        scheduleId: d.scheduleId,
        teacherId: d.teacherId,
        timing: timingOf(d),
      };
    }
    case 'LessonPlanChanged':
      return { ...state, teacherId: event.data.teacherId, timing: timingOf(event.data) };
    case 'LessonRescheduled':
      return { ...state, detached: true, timing: timingOf(event.data) };
    case 'LessonCancelled':
      return { ...state, status: 'cancelled' };
    case 'LessonUnscheduled':
      return { ...state, status: 'unscheduled' };
    case 'LessonCoverTeacherChanged':
      return { ...state, coverTeacherId: event.data.coverTeacherId };
    case 'LessonNotesChanged':
      return { ...state, notes: event.data.notes };
    case 'LessonDelivered':
      return { ...state, status: 'delivered' };
    case 'AttendanceMarkRecorded':
      return { ...state, marked: true };
    default:
      // The register's other events (decision 0056) leave the lesson as it is.
      return state;
  }
}

const audience = (id: string, s: LessonState): LessonAudience => ({
  lessonId: id,
  customerId: s.customerId,
  teacherId: s.teacherId,
  coverTeacherId: s.coverTeacherId,
});

const requireLesson = (state: LessonState) => {
  if (!state.exists || !state.timing) throw new DomainError('not_found', 'Lesson not found');
  return state.timing;
};

const requirePlanned = (state: LessonState, doing: string) => {
  requireLesson(state);
  if (state.status !== 'planned')
    throw new DomainError('conflict', `Cannot ${doing} a ${state.status} lesson`);
};

const sameTiming = (a: LessonTiming, b: LessonTiming) =>
  a.timezone === b.timezone &&
  a.localDate === b.localDate &&
  a.localStart === b.localStart &&
  a.durationMinutes === b.durationMinutes &&
  new Date(a.startsAt).getTime() === new Date(b.startsAt).getTime();

export function decideLesson(command: LessonCommand, state: LessonState): LessonStreamEvent[] {
  switch (command.type) {
    case 'PlanLesson': {
      // Planning what exists is a no-op (the planner runs again and again); an unscheduled lesson the
      // rule produces again is planned again.
      if (state.exists && state.status !== 'unscheduled') return [];
      const { type: _type, ...data } = command;
      return [{ type: 'LessonPlanned', data: { ...data, coverTeacherId: state.coverTeacherId } }];
    }
    case 'ChangeLessonPlan': {
      if (!state.exists || !state.timing || state.status !== 'planned' || state.detached) return [];
      if (sameTiming(state.timing, command) && state.teacherId === command.teacherId) return [];
      const next = { ...state, teacherId: command.teacherId };
      return [
        {
          type: 'LessonPlanChanged',
          data: {
            ...audience(command.lessonId, next),
            ...timingOf(command),
            previousTeacherId: state.teacherId !== command.teacherId ? state.teacherId : null,
          },
        },
      ];
    }
    case 'UnscheduleLesson':
      if (!state.exists || state.status !== 'planned' || state.detached || state.scheduleId === null)
        return [];
      return [
        {
          type: 'LessonUnscheduled',
          data: {
            ...audience(command.lessonId, state),
            scheduleId: state.scheduleId,
            reason: command.reason,
          },
        },
      ];
    case 'RescheduleLesson': {
      requirePlanned(state, 'reschedule');
      if (!command.reason.trim()) throw new DomainError('invalid', 'reason: say why the lesson moves');
      if (sameTiming(state.timing!, command) && state.detached) return [];
      return [
        {
          type: 'LessonRescheduled',
          data: { ...audience(command.lessonId, state), ...timingOf(command), reason: command.reason.trim() },
        },
      ];
    }
    case 'CancelLesson':
      requirePlanned(state, 'cancel');
      if (!command.reason.trim()) throw new DomainError('invalid', 'reason: say why the lesson is cancelled');
      return [
        {
          type: 'LessonCancelled',
          data: {
            ...audience(command.lessonId, state),
            reason: command.reason.trim(),
            cancelledBy: command.cancelledBy,
            chargeCustomer: command.chargeCustomer,
            payTeacher: command.payTeacher,
          },
        },
        // Marks taken before a cancellation are kept, but no longer count (decision 0056).
        ...(state.marked
          ? [
              {
                type: 'RegisterVoided' as const,
                data: { ...audience(command.lessonId, state), reason: command.reason.trim() },
              },
            ]
          : []),
      ];
    case 'ChangeCoverTeacher': {
      requirePlanned(state, 'change the cover teacher of');
      if (command.coverTeacherId !== null && command.coverTeacherId === state.teacherId)
        throw new DomainError('invalid', 'teacher_id: the lesson’s own teacher cannot cover it');
      if (command.coverTeacherId === state.coverTeacherId) return [];
      const next = { ...state, coverTeacherId: command.coverTeacherId };
      return [
        {
          type: 'LessonCoverTeacherChanged',
          data: { ...audience(command.lessonId, next), previousCoverTeacherId: state.coverTeacherId },
        },
      ];
    }
    case 'ChangeLessonNotes':
      requireLesson(state);
      if (command.notes === state.notes) return [];
      return [
        { type: 'LessonNotesChanged', data: { ...audience(command.lessonId, state), notes: command.notes } },
      ];
    case 'MarkLessonDelivered':
      requireLesson(state);
      if (state.status === 'delivered') return [];
      if (state.status !== 'planned')
        throw new DomainError('conflict', `Cannot mark a ${state.status} lesson delivered`);
      return [{ type: 'LessonDelivered', data: audience(command.lessonId, state) }];
  }
}

export const lessonAggregate: Aggregate<LessonState, LessonCommand, LessonStreamEvent> = {
  stream: lessonStream,
  idOf: (command) => command.lessonId,
  initialState: initialLessonState,
  evolve: evolveLesson,
  decide: decideLesson,
};
