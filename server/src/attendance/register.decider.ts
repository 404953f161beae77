import {
  ATTENDED_MARKS,
  isRegisterEvent,
  lessonStream,
  suggestedCodeFor,
  type AbsenceReason,
  type ActingPerson,
  type AttendanceMark,
  type EntrySource,
  type LessonAudience,
  type LessonStreamEvent,
  type Prefill,
  type RegisterEntry,
  type RegisterEvent,
  type RosterLine,
} from '@portal/projections';
import { DomainError } from '../platform/domain/domain-error.js';
import type { Aggregate } from '../platform/event-store/aggregate.js';
import { evolveLesson, initialLessonState, type LessonState } from '../lessons/lesson.decider.js';
import { nextWorkingDayDeadline } from '../core/time/time.js';

/**
 * A lesson's register (decision 0056), in the lesson's own stream: the lesson's events say when and
 * who teaches; the register's events record the roster snapshot, the original entries and every
 * amendment. Pure: the clock, the roster at the lesson's date and the actor come in the command.
 */

/** How long before the start a register may be opened (it never closes). */
export const REGISTER_OPENS_MINUTES_BEFORE = 60;
/** A pupil who joins within this many minutes of the start counts as on time. */
export const JOIN_GRACE_MINUTES = 5;
/** An untaken register is marked from the meeting joins this many minutes after the lesson's end. */
export const AUTO_MARK_AFTER_MINUTES = 15;
/** Who records the automatic marks. */
export const MEETING_RECORDER = {
  id: 'system',
  name: 'Meeting joins',
  position: 'Automatic (to be confirmed)',
};

/**
 * What a pupil's first join of the lesson's meeting suggests (a suggestion the teacher confirms, never
 * a mark): present within the grace, else late by the whole minutes after the start (at most the
 * lesson's length); null when they joined after the end.
 */
export function suggestionFromJoin(
  firstJoinedAt: Date,
  timing: { startsAt: string; durationMinutes: number },
): { mark: 'present' | 'late'; minutesLate: number | null } | null {
  const late = Math.ceil((firstJoinedAt.getTime() - new Date(timing.startsAt).getTime()) / 60_000);
  if (late <= JOIN_GRACE_MINUTES) return { mark: 'present', minutesLate: null };
  if (late > timing.durationMinutes) return null;
  return { mark: 'late', minutesLate: late };
}

export interface CurrentEntry extends RegisterEntry {
  source: EntrySource;
  recordedAt: string;
  recordedBy: ActingPerson;
}

export interface RegisterBook {
  opened: boolean;
  openedAt: string | null;
  voided: boolean;
  roster: RosterLine[];
  /** By student id: the current entry (the original, or the last amendment). */
  entries: Record<string, CurrentEntry>;
  /** By student id: a reason known before the student was marked. */
  prefills: Record<string, Prefill>;
  clientKeys: string[];
}

export interface RegisterState {
  lesson: LessonState;
  register: RegisterBook;
}

/** The actor of a register command: `admin` (attendance permission) amends at any time; `teacher` until the deadline. */
export interface RegisterActor {
  person: ActingPerson;
  role: 'admin' | 'teacher';
}

export interface MarkInput {
  studentId: string;
  mark: AttendanceMark;
  minutesLate?: number | null;
  minutesMissed?: number | null;
  absenceReason?: AbsenceReason | null;
  /** Required when the entry changes an existing mark (an amendment). */
  reason?: string | null;
}

/** What opening needs from outside the stream: who was in the group on the lesson's date, planned absences. */
export interface RosterSnapshot {
  /** Students in the lesson's group on its local date. */
  roster: string[];
  planned: { plannedAbsenceId: string; studentId: string; absenceReason: AbsenceReason }[];
}

export type RegisterCommand =
  | ({ type: 'OpenRegister'; lessonId: string; now: string; actor: RegisterActor } & RosterSnapshot)
  | ({
      type: 'TakeRegister';
      lessonId: string;
      now: string;
      actor: RegisterActor;
      clientKey: string;
      entries: MarkInput[];
      /** Students from elsewhere the caller may add (checked by the caller), with their home group. */
      guests: { studentId: string; homeGroupId: string | null }[];
    } & RosterSnapshot)
  | ({
      /** The system: an untaken register after the end + grace, from each student's first join. */
      type: 'AutoMarkFromJoins';
      lessonId: string;
      now: string;
      joins: Record<string, { mark: 'present' | 'late'; minutesLate: number | null }>;
    } & RosterSnapshot)
  | ({
      type: 'ProvideAbsenceReason';
      lessonId: string;
      now: string;
      by: ActingPerson;
      studentId: string;
      absenceReason: AbsenceReason;
      note: string | null;
    } & RosterSnapshot);

export const emptyRegister = (): RegisterBook => ({
  opened: false,
  openedAt: null,
  voided: false,
  roster: [],
  entries: {},
  prefills: {},
  clientKeys: [],
});

export const initialRegisterState = (): RegisterState => ({
  lesson: initialLessonState(),
  register: emptyRegister(),
});

const entryOf = (e: RegisterEntry): RegisterEntry => ({
  mark: e.mark,
  minutesLate: e.minutesLate,
  minutesMissed: e.minutesMissed,
  absenceReason: e.absenceReason,
  suggestedCode: e.suggestedCode,
});

export function evolveRegisterBook(book: RegisterBook, event: RegisterEvent): RegisterBook {
  switch (event.type) {
    case 'RegisterOpened': {
      const prefills = { ...book.prefills };
      for (const p of event.data.prefills) prefills[p.studentId] ??= p;
      return {
        ...book,
        opened: true,
        openedAt: event.data.openedAt,
        roster: event.data.roster,
        prefills,
      };
    }
    case 'GuestStudentAddedToRegister':
      if (book.roster.some((r) => r.studentId === event.data.studentId)) return book;
      return { ...book, roster: [...book.roster, { studentId: event.data.studentId, basis: 'guest' }] };
    case 'AttendanceMarkRecorded': {
      const d = event.data;
      return {
        ...book,
        entries: {
          ...book.entries,
          [d.studentId]: {
            ...entryOf(d),
            source: d.source,
            recordedAt: d.recordedAt,
            recordedBy: d.recordedBy,
          },
        },
        clientKeys:
          d.clientKey && !book.clientKeys.includes(d.clientKey)
            ? [...book.clientKeys, d.clientKey]
            : book.clientKeys,
      };
    }
    case 'AttendanceMarkAmended': {
      const d = event.data;
      return {
        ...book,
        entries: {
          ...book.entries,
          [d.studentId]: {
            ...entryOf(d.amended),
            source: d.source,
            recordedAt: d.amendedAt,
            recordedBy: d.amendedBy,
          },
        },
        clientKeys:
          d.clientKey && !book.clientKeys.includes(d.clientKey)
            ? [...book.clientKeys, d.clientKey]
            : book.clientKeys,
      };
    }
    case 'AbsenceReasonProvided':
      return {
        ...book,
        prefills: {
          ...book.prefills,
          [event.data.studentId]: {
            studentId: event.data.studentId,
            absenceReason: event.data.absenceReason,
            source: 'partner',
            plannedAbsenceId: null,
          },
        },
      };
    case 'RegisterVoided':
      return { ...book, voided: true };
  }
}

export function evolveRegister(state: RegisterState, event: LessonStreamEvent): RegisterState {
  if (isRegisterEvent(event)) {
    const register = evolveRegisterBook(state.register, event);
    return { ...state, register, lesson: evolveLesson(state.lesson, event) };
  }
  return { ...state, lesson: evolveLesson(state.lesson, event) };
}

const audience = (id: string, s: LessonState): LessonAudience => ({
  lessonId: id,
  customerId: s.customerId,
  teacherId: s.teacherId,
  coverTeacherId: s.coverTeacherId,
});

const sameEntry = (a: RegisterEntry, b: RegisterEntry) =>
  a.mark === b.mark &&
  (a.minutesLate ?? null) === (b.minutesLate ?? null) &&
  (a.minutesMissed ?? null) === (b.minutesMissed ?? null) &&
  (a.absenceReason ?? null) === (b.absenceReason ?? null);

/** The lesson a register command may act on: it exists and is not cancelled or unscheduled. */
function requireLive(state: RegisterState) {
  const l = state.lesson;
  if (!l.exists || !l.timing) throw new DomainError('not_found', 'Lesson not found');
  if (l.status === 'cancelled' || l.status === 'unscheduled' || state.register.voided)
    throw new DomainError(
      'conflict',
      `The lesson is ${l.status}: it has no register`,
      'lesson_not_taking_place',
    );
  return l.timing;
}

/** The register opens 60 minutes before the start and never closes. */
export function registerOpensAt(startsAt: string): string {
  return new Date(new Date(startsAt).getTime() - REGISTER_OPENS_MINUTES_BEFORE * 60_000).toISOString();
}

/** Until when the lesson's teacher may amend: the end of the next working day after the lesson (spec §9). */
export const teacherAmendDeadline = (endsAt: string, timezone: string) =>
  nextWorkingDayDeadline(endsAt, timezone);

function opening(id: string, state: RegisterState, now: string, snapshot: RosterSnapshot): RegisterEvent[] {
  if (state.register.opened) return [];
  const timing = state.lesson.timing!;
  const opensAt = registerOpensAt(timing.startsAt);
  if (new Date(now).getTime() < new Date(opensAt).getTime())
    throw new DomainError(
      'conflict',
      `The register opens at ${opensAt} (60 minutes before the start)`,
      'register_not_open',
    );
  const roster = [...new Set(snapshot.roster)].map((studentId): RosterLine => ({
    studentId,
    basis: 'enrolled',
  }));
  const inRoster = new Set(roster.map((r) => r.studentId));
  const prefills: Prefill[] = [];
  const seen = new Set<string>();
  // A partner's reason given for this lesson wins over a planned absence.
  for (const p of Object.values(state.register.prefills))
    if (inRoster.has(p.studentId) && !seen.has(p.studentId)) {
      prefills.push(p);
      seen.add(p.studentId);
    }
  for (const p of snapshot.planned)
    if (inRoster.has(p.studentId) && !seen.has(p.studentId)) {
      prefills.push({
        studentId: p.studentId,
        absenceReason: p.absenceReason,
        source: 'planned_absence',
        plannedAbsenceId: p.plannedAbsenceId,
      });
      seen.add(p.studentId);
    }
  const s = state.lesson;
  return [
    {
      type: 'RegisterOpened',
      data: {
        ...audience(id, s),
        openedAt: now,
        roster,
        prefills,
        localDate: timing.localDate,
        startsAt: timing.startsAt,
        durationMinutes: timing.durationMinutes,
        programmeId: s.programmeId,
        groupId: s.groupId,
      },
    },
  ];
}

/** The entry a mark input asks for, validated against the lesson's length; `at` names the input. */
export function entryFrom(
  input: MarkInput,
  durationMinutes: number,
  localDate: string,
  at: string,
  prefill?: Prefill,
): RegisterEntry {
  const minutesLate = input.minutesLate ?? null;
  const minutesMissed = input.minutesMissed ?? null;
  let mark = input.mark;
  let absenceReason = input.absenceReason ?? null;
  const minutes = (value: number | null, field: string) => {
    if (value === null || !Number.isInteger(value) || value < 1 || value > durationMinutes)
      throw new DomainError(
        'invalid',
        `${at}.${field}: must be whole minutes from 1 to ${durationMinutes} (the lesson's length)`,
      );
  };
  if (mark === 'late') minutes(minutesLate, 'minutes_late');
  else if (minutesLate !== null && minutesLate !== 0)
    throw new DomainError('invalid', `${at}.minutes_late: only for a late mark`);
  if (mark === 'left_early') minutes(minutesMissed, 'minutes_missed');
  else if (minutesMissed !== null && minutesMissed !== 0)
    throw new DomainError('invalid', `${at}.minutes_missed: only for a left_early mark`);
  // A reason the school gave before the lesson turns "absent, reason unknown" into "absent, reason".
  if (mark === 'absent_pending' && absenceReason === null && prefill) {
    mark = 'absent';
    absenceReason = prefill.absenceReason;
  }
  if (mark === 'absent' && absenceReason === null)
    throw new DomainError(
      'invalid',
      `${at}.absence_reason: required for absent (use absent_pending while it is unknown)`,
    );
  if (mark !== 'absent' && absenceReason !== null)
    throw new DomainError('invalid', `${at}.absence_reason: only for an absent mark`);
  return {
    mark,
    minutesLate: mark === 'late' ? minutesLate : null,
    minutesMissed: mark === 'left_early' ? minutesMissed : null,
    absenceReason,
    suggestedCode: suggestedCodeFor(mark, absenceReason, localDate),
  };
}

export function decideRegister(command: RegisterCommand, state: RegisterState): LessonStreamEvent[] {
  const id = command.lessonId;
  switch (command.type) {
    case 'OpenRegister':
      requireLive(state);
      return opening(id, state, command.now, command);
    case 'TakeRegister': {
      const timing = requireLive(state);
      if (state.register.clientKeys.includes(command.clientKey)) return [];
      const events: LessonStreamEvent[] = [...opening(id, state, command.now, command)];
      let book = events.reduce((b, e) => evolveRegisterBook(b, e as RegisterEvent), state.register);
      const aud = audience(id, state.lesson);
      const seen = new Set<string>();
      const conflicts: string[] = [];
      const guests = new Map(command.guests.map((g) => [g.studentId, g.homeGroupId]));
      command.entries.forEach((input, i) => {
        const at = `entries[${i}]`;
        if (seen.has(input.studentId))
          throw new DomainError('invalid', `${at}.student_id: the student appears twice`);
        seen.add(input.studentId);
        if (!book.roster.some((r) => r.studentId === input.studentId)) {
          if (!guests.has(input.studentId))
            throw new DomainError('invalid', `${at}.student_id: not on this register (add them as a guest)`);
          const guest: RegisterEvent = {
            type: 'GuestStudentAddedToRegister',
            data: { ...aud, studentId: input.studentId, homeGroupId: guests.get(input.studentId) ?? null },
          };
          events.push(guest);
          book = evolveRegisterBook(book, guest);
        }
        const current = book.entries[input.studentId];
        const wanted = entryFrom(
          input,
          timing.durationMinutes,
          timing.localDate,
          at,
          book.prefills[input.studentId],
        );
        const source: EntrySource = command.actor.role;
        if (!current) {
          const recorded: RegisterEvent = {
            type: 'AttendanceMarkRecorded',
            data: {
              ...aud,
              studentId: input.studentId,
              ...wanted,
              source,
              recordedAt: command.now,
              recordedBy: command.actor.person,
              clientKey: command.clientKey,
            },
          };
          events.push(recorded);
          book = evolveRegisterBook(book, recorded);
          return;
        }
        if (current.source === 'meeting') {
          // A teacher's mark always wins over an automatic one: confirming or correcting it needs no reason.
          const confirmed: RegisterEvent = {
            type: 'AttendanceMarkAmended',
            data: {
              ...aud,
              studentId: input.studentId,
              original: entryOf(current),
              amended: wanted,
              reason: sameEntry(current, wanted)
                ? 'Automatic mark confirmed'
                : input.reason?.trim() || 'Automatic mark corrected',
              amendedAt: command.now,
              amendedBy: command.actor.person,
              source,
              clientKey: command.clientKey,
            },
          };
          events.push(confirmed);
          book = evolveRegisterBook(book, confirmed);
          return;
        }
        if (sameEntry(current, wanted)) return;
        const reason = input.reason?.trim() ?? '';
        if (!reason) {
          conflicts.push(input.studentId);
          return;
        }
        if (
          command.actor.role === 'teacher' &&
          new Date(command.now).getTime() >
            new Date(teacherAmendDeadline(timing.endsAt, timing.timezone)).getTime()
        )
          throw new DomainError(
            'forbidden',
            `${at}: teachers may amend until the end of the next working day (${teacherAmendDeadline(timing.endsAt, timing.timezone)}); ask an attendance administrator`,
            'amend_deadline_passed',
          );
        const amended: RegisterEvent = {
          type: 'AttendanceMarkAmended',
          data: {
            ...aud,
            studentId: input.studentId,
            original: entryOf(current),
            amended: wanted,
            reason,
            amendedAt: command.now,
            amendedBy: command.actor.person,
            source,
            clientKey: command.clientKey,
          },
        };
        events.push(amended);
        book = evolveRegisterBook(book, amended);
      });
      if (conflicts.length)
        throw new DomainError(
          'conflict',
          `These students are already marked differently; say why to amend: ${conflicts.join(', ')}`,
          'register_conflict',
        );
      const attended = command.entries.some((e) =>
        (ATTENDED_MARKS as readonly string[]).includes(book.entries[e.studentId]?.mark ?? ''),
      );
      if (attended && state.lesson.status === 'planned') events.push({ type: 'LessonDelivered', data: aud });
      return events;
    }
    case 'AutoMarkFromJoins': {
      const timing = requireLive(state);
      const due = new Date(timing.endsAt).getTime() + AUTO_MARK_AFTER_MINUTES * 60_000;
      if (new Date(command.now).getTime() < due)
        throw new DomainError('conflict', 'The lesson has not ended long enough ago', 'too_early');
      // Only an untaken register: any mark (the teacher's or an earlier automatic pass) means it was taken.
      if (Object.keys(state.register.entries).length > 0) return [];
      if (Object.keys(command.joins).length === 0) return [];
      const events: LessonStreamEvent[] = [...opening(id, state, command.now, command)];
      let book = events.reduce((b, e) => evolveRegisterBook(b, e as RegisterEvent), state.register);
      const aud = audience(id, state.lesson);
      for (const line of book.roster) {
        const joined = command.joins[line.studentId];
        const entry = joined
          ? entryFrom(
              { studentId: line.studentId, mark: joined.mark, minutesLate: joined.minutesLate },
              timing.durationMinutes,
              timing.localDate,
              'joins',
            )
          : entryFrom(
              { studentId: line.studentId, mark: 'absent_pending' },
              timing.durationMinutes,
              timing.localDate,
              'joins',
              book.prefills[line.studentId],
            );
        const recorded: RegisterEvent = {
          type: 'AttendanceMarkRecorded',
          data: {
            ...aud,
            studentId: line.studentId,
            ...entry,
            source: 'meeting',
            recordedAt: command.now,
            recordedBy: MEETING_RECORDER,
            clientKey: null,
          },
        };
        events.push(recorded);
        book = evolveRegisterBook(book, recorded);
      }
      if (
        state.lesson.status === 'planned' &&
        Object.values(book.entries).some((e) => (ATTENDED_MARKS as readonly string[]).includes(e.mark))
      )
        events.push({ type: 'LessonDelivered', data: aud });
      return events;
    }
    case 'ProvideAbsenceReason': {
      const timing = requireLive(state);
      const onRoster = state.register.opened
        ? state.register.roster.some((r) => r.studentId === command.studentId)
        : command.roster.includes(command.studentId);
      if (!onRoster) throw new DomainError('not_found', 'The student is not on this lesson’s register');
      const aud = audience(id, state.lesson);
      const provided: RegisterEvent = {
        type: 'AbsenceReasonProvided',
        data: {
          ...aud,
          studentId: command.studentId,
          absenceReason: command.absenceReason,
          note: command.note,
          providedAt: command.now,
          providedBy: command.by,
        },
      };
      const current = state.register.entries[command.studentId];
      if (!current) {
        const prefill = state.register.prefills[command.studentId];
        if (prefill?.source === 'partner' && prefill.absenceReason === command.absenceReason) return [];
        return [provided];
      }
      if (current.mark !== 'absent_pending' && current.mark !== 'absent')
        throw new DomainError(
          'conflict',
          `The provider marked this student ${current.mark}; a reason cannot override it`,
          'mark_not_absent',
        );
      if (current.mark === 'absent' && current.absenceReason === command.absenceReason) return [];
      const amended: RegisterEntry = {
        mark: 'absent',
        minutesLate: null,
        minutesMissed: null,
        absenceReason: command.absenceReason,
        suggestedCode: suggestedCodeFor('absent', command.absenceReason, timing.localDate),
      };
      return [
        provided,
        {
          type: 'AttendanceMarkAmended',
          data: {
            ...aud,
            studentId: command.studentId,
            original: entryOf(current),
            amended,
            reason: `Reason provided by ${command.by.position}${command.note ? `: ${command.note}` : ''}`,
            amendedAt: command.now,
            amendedBy: command.by,
            source: 'partner',
            clientKey: null,
          },
        },
      ];
    }
  }
}

export const registerAggregate: Aggregate<RegisterState, RegisterCommand, LessonStreamEvent> = {
  stream: lessonStream,
  idOf: (command) => command.lessonId,
  initialState: initialRegisterState,
  evolve: evolveRegister,
  decide: decideRegister,
};
