import {
  coverRequestStream,
  meetingStream,
  type CoverAudience,
  type CoverMode,
  type CoverRequestEvent,
  type CoverStoredStatus,
  type MeetingEvent,
  type MeetingRole,
} from '@portal/projections';
import { DomainError } from '../platform/domain/domain-error.js';
import type { Aggregate } from '../platform/event-store/aggregate.js';

/** One cover request, its own stream `coverRequest-{id}` (decision 0054). */
export interface CoverRequestState {
  exists: boolean;
  status: CoverStoredStatus;
  requestedBy: string;
  mode: CoverMode;
  teacherIds: string[];
  lessonTeacherIds: string[];
  firstStartsAt: string;
  declinedBy: string[];
  filledBy: string | null;
}

/** A lesson as the request command sees it (read by the controller from the lesson aggregate). */
export interface CoverLessonFacts {
  lessonId: string;
  teacherId: string;
  customerId: string;
  status: string;
  startsAt: string;
}

export type CoverRequestCommand =
  | {
      type: 'RequestCover';
      coverRequestId: string;
      requestedBy: string;
      lessons: CoverLessonFacts[];
      reason: string;
      mode: CoverMode;
      teacherIds: string[];
      now: string;
    }
  | { type: 'AcceptCover'; coverRequestId: string; teacherId: string; now: string }
  | { type: 'DeclineCover'; coverRequestId: string; teacherId: string; now: string }
  | { type: 'CancelCoverRequest'; coverRequestId: string; cancelledBy: string; now: string };

export const initialCoverRequestState = (): CoverRequestState => ({
  exists: false,
  status: 'open',
  requestedBy: '',
  mode: 'broadcast',
  teacherIds: [],
  lessonTeacherIds: [],
  firstStartsAt: '',
  declinedBy: [],
  filledBy: null,
});

export function evolveCoverRequest(state: CoverRequestState, event: CoverRequestEvent): CoverRequestState {
  switch (event.type) {
    case 'CoverRequested':
      return {
        ...state,
        exists: true,
        status: 'open',
        requestedBy: event.data.requestedBy,
        mode: event.data.mode,
        teacherIds: event.data.teacherIds,
        lessonTeacherIds: event.data.lessonTeacherIds,
        firstStartsAt: event.data.firstStartsAt,
      };
    case 'CoverOfferDeclined':
      return { ...state, declinedBy: [...state.declinedBy, event.data.teacherId] };
    case 'CoverAccepted':
      return state;
    case 'CoverRequestFilled':
      return { ...state, status: 'filled', filledBy: event.data.teacherId };
    case 'CoverRequestCancelled':
      return { ...state, status: 'cancelled' };
  }
}

const ms = (iso: string) => new Date(iso).getTime();

const audience = (id: string, s: CoverRequestState): CoverAudience => ({
  coverRequestId: id,
  requestedBy: s.requestedBy,
  mode: s.mode,
  teacherIds: s.teacherIds,
});

/** 404 unless it exists; 409 unless it is still open (expired: the first lesson has started). */
function requireOpen(state: CoverRequestState, now: string): void {
  if (!state.exists) throw new DomainError('not_found', 'Cover request not found');
  if (state.status !== 'open') throw new DomainError('conflict', `The cover request is ${state.status}`);
  if (ms(now) >= ms(state.firstStartsAt))
    throw new DomainError('conflict', 'The cover request has expired: its first lesson has started');
}

/** Whether the request is offered to this teacher (mode and target; eligibility is the policy's). */
export function offeredTo(state: CoverRequestState, teacherId: string): boolean {
  if (state.lessonTeacherIds.includes(teacherId) || state.requestedBy === teacherId) return false;
  return state.mode === 'broadcast' || state.teacherIds.includes(teacherId);
}

export function decideCoverRequest(
  command: CoverRequestCommand,
  state: CoverRequestState,
): CoverRequestEvent[] {
  switch (command.type) {
    case 'RequestCover': {
      if (state.exists) throw new DomainError('conflict', 'The cover request exists already');
      if (command.lessons.length === 0)
        throw new DomainError('invalid', 'lesson_ids: name at least one lesson');
      if (!command.reason.trim()) throw new DomainError('invalid', 'reason: say why cover is needed');
      const teacherIds = command.mode === 'targeted' ? [...new Set(command.teacherIds)] : [];
      if (command.mode === 'targeted' && teacherIds.length === 0)
        throw new DomainError('invalid', 'teacher_ids: a targeted request names at least one teacher');
      const lessonTeacherIds = [...new Set(command.lessons.map((l) => l.teacherId))];
      const own = teacherIds.find((t) => lessonTeacherIds.includes(t));
      if (own) throw new DomainError('invalid', 'teacher_ids: a lesson’s own teacher cannot cover it');
      for (const l of command.lessons) {
        if (l.status !== 'planned')
          throw new DomainError(
            'conflict',
            `Lesson ${l.lessonId} is ${l.status}: only planned lessons need cover`,
          );
        if (ms(l.startsAt) <= ms(command.now))
          throw new DomainError('conflict', `Lesson ${l.lessonId} has started: cover is for future lessons`);
      }
      const firstStartsAt = command.lessons.map((l) => l.startsAt).reduce((a, b) => (ms(a) <= ms(b) ? a : b));
      return [
        {
          type: 'CoverRequested',
          data: {
            coverRequestId: command.coverRequestId,
            requestedBy: command.requestedBy,
            mode: command.mode,
            teacherIds,
            lessonIds: command.lessons.map((l) => l.lessonId),
            lessonTeacherIds,
            customerIds: [...new Set(command.lessons.map((l) => l.customerId))],
            reason: command.reason.trim(),
            firstStartsAt: new Date(firstStartsAt).toISOString(),
          },
        },
      ];
    }
    case 'AcceptCover': {
      requireOpen(state, command.now);
      if (!offeredTo(state, command.teacherId))
        throw new DomainError('forbidden', 'This cover request is not offered to you');
      const data = { ...audience(command.coverRequestId, state), teacherId: command.teacherId };
      return [
        { type: 'CoverAccepted', data },
        { type: 'CoverRequestFilled', data },
      ];
    }
    case 'DeclineCover': {
      requireOpen(state, command.now);
      if (!offeredTo(state, command.teacherId))
        throw new DomainError('forbidden', 'This cover request is not offered to you');
      if (state.declinedBy.includes(command.teacherId)) return [];
      return [
        {
          type: 'CoverOfferDeclined',
          data: { ...audience(command.coverRequestId, state), teacherId: command.teacherId },
        },
      ];
    }
    case 'CancelCoverRequest':
      if (!state.exists) throw new DomainError('not_found', 'Cover request not found');
      if (state.status === 'cancelled') return [];
      if (state.status !== 'open') throw new DomainError('conflict', `The cover request is ${state.status}`);
      return [
        {
          type: 'CoverRequestCancelled',
          data: { ...audience(command.coverRequestId, state), cancelledBy: command.cancelledBy },
        },
      ];
  }
}

export const coverRequestAggregate: Aggregate<CoverRequestState, CoverRequestCommand, CoverRequestEvent> = {
  stream: coverRequestStream,
  idOf: (command) => command.coverRequestId,
  initialState: initialCoverRequestState,
  evolve: evolveCoverRequest,
  decide: decideCoverRequest,
};

/** A meeting's join log, `meeting-{meetingId}`: each use of the join link is a fact (decision 0054). */
export interface MeetingJoinCommand {
  type: 'UseJoinLink';
  meetingId: string;
  lessonId: string;
  customerId: string;
  lessonStatus: string;
  startsAt: string;
  endsAt: string;
  /** The lesson's zone and the local "come back at" text, for the refusal. */
  opensAtLocal: string;
  userId: string;
  role: MeetingRole;
  now: string;
}

/** The join window opens this many minutes before the start and closes at the end. */
export const JOIN_OPENS_MINUTES_BEFORE = 10;

export function decideMeetingJoin(command: MeetingJoinCommand): MeetingEvent[] {
  if (command.lessonStatus === 'cancelled' || command.lessonStatus === 'unscheduled')
    throw new DomainError('conflict', `This lesson is ${command.lessonStatus}`, 'lesson_not_joinable');
  const now = ms(command.now);
  const opens = ms(command.startsAt) - JOIN_OPENS_MINUTES_BEFORE * 60_000;
  if (now < opens)
    throw new DomainError(
      'conflict',
      `The lesson opens for joining at ${command.opensAtLocal}; come back then`,
      'join_window_not_open',
    );
  if (now >= ms(command.endsAt))
    throw new DomainError('conflict', 'This lesson has ended', 'join_window_closed');
  return [
    {
      type: 'JoinLinkUsed',
      data: {
        meetingId: command.meetingId,
        lessonId: command.lessonId,
        userId: command.userId,
        role: command.role,
        at: new Date(now).toISOString(),
        customerId: command.customerId,
      },
    },
  ];
}

export const meetingAggregate: Aggregate<null, MeetingJoinCommand, MeetingEvent> = {
  stream: meetingStream,
  idOf: (command) => command.meetingId,
  initialState: () => null,
  evolve: (state) => state,
  decide: (command) => decideMeetingJoin(command),
};
