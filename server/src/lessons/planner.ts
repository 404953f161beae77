import { uuidV5 } from '../platform/uuid.js';
import { addDays, addMinutes, daysBetween, instantOf, isoWeekday, weekStartOf } from '../core/time/time.js';

/**
 * The lesson planner's pure core (decision 0053): which occurrences a schedule's rule produces over a
 * window, and what that means for the lessons that already exist. The runner (`LessonPlanner`) feeds it
 * the schedule, the calendar and the stored lessons, and turns its answer into commands.
 */

/** How far ahead lessons are materialised. */
export const HORIZON_WEEKS = 26;

/** Namespace of lesson ids (uuid v5 of `scheduleId|localDate|localStart`). */
export const LESSON_NAMESPACE = 'b3c1f0e2-5d1a-4c8e-9f3a-2e7d6c5b4a10';
/** Namespace of meeting ids (uuid v5 of the lesson id). */
export const MEETING_NAMESPACE = 'c4d2a1f3-6e2b-4d9f-8a4b-3f8e7d6c5b21';

export const lessonIdOf = (scheduleId: string, localDate: string, slotStart: string) =>
  uuidV5(`${scheduleId}|${localDate}|${slotStart}`, LESSON_NAMESPACE);
export const meetingIdOf = (lessonId: string) => uuidV5(lessonId, MEETING_NAMESPACE);

export interface PlannableSchedule {
  id: string;
  timezone: string;
  weekdays: readonly number[];
  localStart: string;
  durationMinutes: number;
  intervalWeeks: number;
  validFrom: string;
  validUntil: string | null;
  exceptions: readonly { localDate: string; action: 'skip' | 'move'; newLocalStart: string | null }[];
}

/** The teaching days that apply (the reference area's `teachingDaysFor`): no terms = no restriction. */
export interface TeachingDays {
  terms: readonly { first_day: string; last_day: string }[];
  closures: readonly string[];
}

export const NO_CALENDAR: TeachingDays = { terms: [], closures: [] };

export interface Occurrence {
  lessonId: string;
  localDate: string;
  /** The rule's start: part of the id, so a moved occurrence keeps its lesson. */
  slotStart: string;
  /** The start that day (a `move` exception changes it; a clock-change gap may shift it). */
  localStart: string;
  startsAt: string;
  endsAt: string;
  /** The wall-clock time did not exist that day (spring-forward gap) and was moved forward. */
  shifted: boolean;
}

/**
 * The window a planner pass covers: from max(valid_from, `start`) to min(valid_until, programme end,
 * today + 26 weeks). `start` is today, or later when the programme starts later, or earlier when a
 * timetable that already started is entered.
 */
export function planningWindow(
  schedule: Pick<PlannableSchedule, 'validFrom' | 'validUntil'>,
  today: string,
  programmeEnd: string | null,
  horizonWeeks = HORIZON_WEEKS,
  start: string = today,
): { from: string; to: string } | null {
  const from = schedule.validFrom > start ? schedule.validFrom : start;
  const ends = [addDays(today, horizonWeeks * 7), schedule.validUntil, programmeEnd].filter(
    (d): d is string => d !== null,
  );
  const to = ends.sort()[0]!;
  return from <= to ? { from, to } : null;
}

const inTerm = (date: string, days: TeachingDays) =>
  days.terms.length === 0 || days.terms.some((t) => t.first_day <= date && date <= t.last_day);

/** The occurrences the rule produces from `from` to `to` (inclusive local dates), in order. */
export function occurrences(
  schedule: PlannableSchedule,
  window: { from: string; to: string },
  days: TeachingDays = NO_CALENDAR,
): Occurrence[] {
  const result: Occurrence[] = [];
  const closures = new Set(days.closures);
  const exceptions = new Map(schedule.exceptions.map((e) => [e.localDate, e]));
  const firstWeek = weekStartOf(schedule.validFrom);
  for (let date = window.from; date <= window.to; date = addDays(date, 1)) {
    if (date < schedule.validFrom || (schedule.validUntil !== null && date > schedule.validUntil)) continue;
    if (!schedule.weekdays.includes(isoWeekday(date))) continue;
    const week = daysBetween(firstWeek, weekStartOf(date)) / 7;
    if (week % schedule.intervalWeeks !== 0) continue;
    if (closures.has(date) || !inTerm(date, days)) continue;
    const exception = exceptions.get(date);
    if (exception?.action === 'skip') continue;
    const wanted =
      exception?.action === 'move' && exception.newLocalStart ? exception.newLocalStart : schedule.localStart;
    const at = instantOf(date, wanted, schedule.timezone);
    result.push({
      lessonId: lessonIdOf(schedule.id, date, schedule.localStart),
      localDate: date,
      slotStart: schedule.localStart,
      localStart: at.localTime,
      startsAt: at.instant,
      endsAt: addMinutes(at.instant, schedule.durationMinutes),
      shifted: at.shifted,
    });
  }
  return result;
}

/** A stored lesson of the schedule, as the planner needs it. */
export interface ExistingLesson {
  id: string;
  status: string;
  detached: boolean;
  localDate: string;
  teacherId: string;
  startsAt: string;
  durationMinutes: number;
  timezone: string;
}

export type PlanStep =
  | { kind: 'plan'; occurrence: Occurrence }
  | { kind: 'change'; occurrence: Occurrence; lessonId: string }
  | { kind: 'unschedule'; lessonId: string };

/**
 * What to do so the stored lessons match the rule over the window: plan what is new (or was unscheduled
 * and is produced again), move planned undetached lessons whose time, length or teacher changed, and
 * unschedule planned undetached lessons the rule no longer produces. Delivered, cancelled and
 * detached lessons are never touched, nor anything before `window.from`.
 */
export function planSteps(
  wanted: readonly Occurrence[],
  existing: readonly ExistingLesson[],
  rule: { teacherId: string; durationMinutes: number; timezone: string },
  window: { from: string; to: string },
): PlanStep[] {
  const steps: PlanStep[] = [];
  const byId = new Map(existing.map((l) => [l.id, l]));
  const wantedIds = new Set(wanted.map((o) => o.lessonId));
  for (const occurrence of wanted) {
    const lesson = byId.get(occurrence.lessonId);
    if (!lesson || lesson.status === 'unscheduled') {
      steps.push({ kind: 'plan', occurrence });
      continue;
    }
    if (lesson.status !== 'planned' || lesson.detached) continue;
    const same =
      new Date(lesson.startsAt).getTime() === new Date(occurrence.startsAt).getTime() &&
      lesson.durationMinutes === rule.durationMinutes &&
      lesson.teacherId === rule.teacherId &&
      lesson.timezone === rule.timezone;
    if (!same) steps.push({ kind: 'change', occurrence, lessonId: lesson.id });
  }
  for (const lesson of existing) {
    if (lesson.localDate < window.from || wantedIds.has(lesson.id)) continue;
    if (lesson.status === 'planned' && !lesson.detached)
      steps.push({ kind: 'unschedule', lessonId: lesson.id });
  }
  return steps;
}
