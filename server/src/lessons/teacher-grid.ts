import type { AvailabilitySlot } from '@portal/projections';
import { addDays, instantOf } from '../core/time/time.js';

/**
 * The teachers' grid arithmetic (pure; decision 0058): a teacher's availability in their own zone,
 * turned into instants for one week, minus the lessons they teach, gives the free slots; a lesson not
 * wholly inside an available slot is flagged; overlapping lessons are named as clashes. Everything is
 * in instants, so the grid can be drawn in the viewer's zone whatever the teacher's.
 */

export interface Interval {
  starts_at: string;
  ends_at: string;
}

export interface GridLessonInput extends Interval {
  id: string;
}

export interface TeacherWeek {
  /** The availability slots as instants, in start order. */
  available: Interval[];
  /** Available time no lesson takes, in start order. */
  free: Interval[];
  /** Lessons not wholly inside one available slot (only when the teacher has availability at all). */
  outsideAvailability: Set<string>;
  /** Lessons that overlap another of the same teacher's lessons. */
  clashes: Set<string>;
}

const hhmm = (minute: number) =>
  `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;

const ms = (instant: string) => Date.parse(instant);
const iso = (instant: string | number) => new Date(instant).toISOString();

/**
 * Wall-clock → instant, remembered: a grid page converts the same few slot times for every teacher
 * (Temporal's zone arithmetic is the grid's main cost). Bounded; cleared when full.
 */
const remembered = new Map<string, string>();
function instantAt(date: string, time: string, zone: string): string {
  const key = `${date} ${time} ${zone}`;
  let instant = remembered.get(key);
  if (instant === undefined) {
    if (remembered.size >= 20_000) remembered.clear();
    instant = iso(instantOf(date, time, zone).instant);
    remembered.set(key, instant);
  }
  return instant;
}

/** The eight local dates from a Monday (the eighth for slots ending at midnight on Sunday), remembered. */
const weeks = new Map<string, string[]>();
function datesFrom(weekStart: string): string[] {
  let dates = weeks.get(weekStart);
  if (dates === undefined) {
    if (weeks.size >= 1_000) weeks.clear();
    dates = Array.from({ length: 8 }, (_, i) => addDays(weekStart, i));
    weeks.set(weekStart, dates);
  }
  return dates;
}

/** The week's availability slots as instants: slot day 0 is the week's Monday, times in `zone`. */
export function availableIntervals(
  weekStart: string,
  zone: string,
  slots: readonly AvailabilitySlot[],
): Interval[] {
  const out: Interval[] = [];
  const dates = datesFrom(weekStart);
  for (const s of slots) {
    if (!(s.endMinute > s.startMinute)) continue;
    const date = dates[s.dayOfWeek] ?? addDays(weekStart, s.dayOfWeek);
    // 24:00 is not a wall-clock time: an end at midnight is the next day's 00:00.
    const end =
      s.endMinute >= 1440
        ? instantAt(addDays(date, 1), '00:00', zone)
        : instantAt(date, hhmm(s.endMinute), zone);
    out.push({ starts_at: instantAt(date, hhmm(s.startMinute), zone), ends_at: end });
  }
  return mergeIntervals(out);
}

/** Sorted, with overlapping or touching intervals joined. */
export function mergeIntervals(intervals: readonly Interval[]): Interval[] {
  const sorted = [...intervals].sort((a, b) => ms(a.starts_at) - ms(b.starts_at));
  const out: Interval[] = [];
  for (const i of sorted) {
    const last = out[out.length - 1];
    if (last && ms(i.starts_at) <= ms(last.ends_at)) {
      if (ms(i.ends_at) > ms(last.ends_at)) last.ends_at = i.ends_at;
    } else out.push({ ...i });
  }
  return out;
}

/** `from` minus every interval of `busy`. */
export function subtractIntervals(from: readonly Interval[], busy: readonly Interval[]): Interval[] {
  const taken = mergeIntervals(busy);
  const out: Interval[] = [];
  for (const slot of from) {
    let start = ms(slot.starts_at);
    const end = ms(slot.ends_at);
    for (const b of taken) {
      const bs = ms(b.starts_at);
      const be = ms(b.ends_at);
      if (be <= start || bs >= end) continue;
      if (bs > start) out.push({ starts_at: iso(start), ends_at: iso(bs) });
      start = Math.max(start, be);
      if (start >= end) break;
    }
    if (start < end) out.push({ starts_at: iso(start), ends_at: iso(end) });
  }
  return out;
}

/** One teacher's week: free slots, lessons outside availability and clashes. */
export function teacherWeek(
  weekStart: string,
  zone: string,
  slots: readonly AvailabilitySlot[] | null,
  lessons: readonly GridLessonInput[],
): TeacherWeek {
  const available = slots ? availableIntervals(weekStart, zone, slots) : [];
  const outsideAvailability = new Set<string>();
  if (slots)
    for (const l of lessons)
      if (!available.some((a) => ms(a.starts_at) <= ms(l.starts_at) && ms(l.ends_at) <= ms(a.ends_at)))
        outsideAvailability.add(l.id);
  const clashes = new Set<string>();
  const sorted = [...lessons].sort((a, b) => ms(a.starts_at) - ms(b.starts_at));
  for (let i = 0; i < sorted.length; i++)
    for (let j = i + 1; j < sorted.length && ms(sorted[j]!.starts_at) < ms(sorted[i]!.ends_at); j++) {
      clashes.add(sorted[i]!.id);
      clashes.add(sorted[j]!.id);
    }
  return { available, free: subtractIntervals(available, lessons), outsideAvailability, clashes };
}
