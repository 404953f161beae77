import { Temporal } from 'temporal-polyfill';

/**
 * The time kernel (decision 0052): every wall-clock ↔ instant conversion in the portal goes through
 * here, with Temporal and an explicit IANA zone, never the host's zone. Local dates are `yyyy-MM-dd`,
 * local times `HH:mm`, instants ISO 8601 UTC (`...Z`).
 */

export const LOCAL_DATE = /^\d{4}-\d{2}-\d{2}$/;
export const LOCAL_TIME = /^([01]\d|2[0-3]):[0-5]\d$/;

export interface ResolvedInstant {
  /** ISO 8601 UTC instant, millisecond precision (`2026-03-30T08:30:00.000Z`). */
  instant: string;
  /** True when the wall-clock time did not exist that day (a spring-forward gap) and was moved forward. */
  shifted: boolean;
  /** The local time actually used (`HH:mm`): differs from the asked time only when `shifted`. */
  localTime: string;
}

function plainDate(localDate: string): Temporal.PlainDate {
  if (!LOCAL_DATE.test(localDate)) throw new RangeError(`not a local date (yyyy-MM-dd): ${localDate}`);
  return Temporal.PlainDate.from(localDate, { overflow: 'reject' });
}

function plainTime(localTime: string): Temporal.PlainTime {
  if (!LOCAL_TIME.test(localTime)) throw new RangeError(`not a local time (HH:mm): ${localTime}`);
  return Temporal.PlainTime.from(localTime);
}

function isoZ(instant: Temporal.Instant): string {
  return new Date(instant.epochMilliseconds).toISOString();
}

function hhmm(time: Temporal.PlainTime): string {
  return `${String(time.hour).padStart(2, '0')}:${String(time.minute).padStart(2, '0')}`;
}

/** Whether `timeZone` is an IANA zone name Temporal knows (offsets like `+01:00` are refused). */
export function isTimeZone(timeZone: unknown): timeZone is string {
  if (typeof timeZone !== 'string' || timeZone.length === 0 || /^[+-]/.test(timeZone)) return false;
  try {
    Temporal.Now.instant().toZonedDateTimeISO(timeZone);
    return true;
  } catch {
    return false;
  }
}

/** Whether `value` is a real calendar date written `yyyy-MM-dd`. */
export function isLocalDate(value: unknown): value is string {
  if (typeof value !== 'string' || !LOCAL_DATE.test(value)) return false;
  try {
    plainDate(value);
    return true;
  } catch {
    return false;
  }
}

/** Whether `value` is a wall-clock time written `HH:mm`. */
export function isLocalTime(value: unknown): value is string {
  return typeof value === 'string' && LOCAL_TIME.test(value);
}

/**
 * The instant of a wall-clock time in a zone. A time inside a spring-forward gap resolves forward by
 * the gap's length (01:30 on 29 Mar 2026 in London → 02:30 BST) and says so; a time inside an autumn
 * overlap takes the earlier of its two instants (the first 01:30 on 25 Oct 2026 in London, BST).
 */
export function instantOf(localDate: string, localTime: string, timeZone: string): ResolvedInstant {
  const asked = plainTime(localTime);
  const zoned = plainDate(localDate).toZonedDateTime({ timeZone, plainTime: asked });
  const used = zoned.toPlainTime();
  return {
    instant: isoZ(zoned.toInstant()),
    shifted: !used.equals(asked),
    localTime: hhmm(used),
  };
}

/** The wall clock in a zone at an instant. */
export function localOf(
  instant: string | Date,
  timeZone: string,
): { localDate: string; localTime: string; isoWeekday: number } {
  const epoch =
    typeof instant === 'string'
      ? Temporal.Instant.from(instant)
      : Temporal.Instant.fromEpochMilliseconds(instant.getTime());
  const zoned = epoch.toZonedDateTimeISO(timeZone);
  return {
    localDate: zoned.toPlainDate().toString(),
    localTime: hhmm(zoned.toPlainTime()),
    isoWeekday: zoned.dayOfWeek,
  };
}

/** Today's local date in a zone. */
export function todayIn(timeZone: string, now: Date = new Date()): string {
  return localOf(now, timeZone).localDate;
}

/** `localDate` plus `days` (negative goes back). */
export function addDays(localDate: string, days: number): string {
  return plainDate(localDate).add({ days }).toString();
}

/** Whole days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  return plainDate(from).until(plainDate(to), { largestUnit: 'days' }).days;
}

/** ISO weekday of a local date: 1 = Monday … 7 = Sunday. */
export function isoWeekday(localDate: string): number {
  return plainDate(localDate).dayOfWeek;
}

/** The Monday of the week holding `localDate`. */
export function weekStartOf(localDate: string): string {
  const date = plainDate(localDate);
  return date.subtract({ days: date.dayOfWeek - 1 }).toString();
}

/** The academic year a date falls in, named by its first calendar year: it starts on 1 September. */
export function academicYearOf(localDate: string): {
  startYear: number;
  firstDay: string;
  lastDay: string;
  label: string;
} {
  const date = plainDate(localDate);
  const startYear = date.month >= 9 ? date.year : date.year - 1;
  return {
    startYear,
    firstDay: `${startYear}-09-01`,
    lastDay: `${startYear + 1}-08-31`,
    label: `${startYear}/${String((startYear + 1) % 100).padStart(2, '0')}`,
  };
}

/** Days from a weekday to the next working day (Mon–Thu +1, Fri +3, Sat +2, Sun +1). */
const TO_NEXT_WORKING_DAY: Record<number, number> = { 1: 1, 2: 1, 3: 1, 4: 1, 5: 3, 6: 2, 7: 1 };

/**
 * The amendment deadline for something that happened at `instant`: the end (23:59:59.999 local) of the
 * next working day in `timeZone` (Monday–Friday; bank holidays are not known here).
 */
export function nextWorkingDayDeadline(instant: string | Date, timeZone: string): string {
  const { localDate } = localOf(instant, timeZone);
  const next = plainDate(addDays(localDate, TO_NEXT_WORKING_DAY[isoWeekday(localDate)]!));
  const endOfDay = next
    .add({ days: 1 })
    .toZonedDateTime({ timeZone })
    .toInstant()
    .subtract({ milliseconds: 1 });
  return isoZ(endOfDay);
}

/** The working day the timetables are drawn on: 07:00–21:00 (minutes after local midnight). */
export const WORKING_DAY = { startMinute: 7 * 60, endMinute: 21 * 60 } as const;

/** Minutes after midnight of an `HH:mm` time. */
export function minuteOfDay(localTime: string): number {
  const t = plainTime(localTime);
  return t.hour * 60 + t.minute;
}

/**
 * Where an item from `startMinute` lasting `durationMinutes` is drawn on the working-day axis: clamped
 * into 07:00–21:00 so nothing is dropped, with flags saying which edge it was pinned to.
 */
export function clampToWorkingDay(
  startMinute: number,
  durationMinutes: number,
): { start: number; end: number; pinnedStart: boolean; pinnedEnd: boolean } {
  const { startMinute: lo, endMinute: hi } = WORKING_DAY;
  const rawEnd = startMinute + durationMinutes;
  let start = Math.min(Math.max(startMinute, lo), hi);
  let end = Math.min(Math.max(rawEnd, lo), hi);
  if (end <= start) {
    // Wholly outside: keep a sliver at the edge it is nearest.
    if (rawEnd <= lo) {
      start = lo;
      end = lo + 15;
    } else {
      start = hi - 15;
      end = hi;
    }
  }
  return {
    start,
    end,
    pinnedStart: startMinute < lo || startMinute > hi,
    pinnedEnd: rawEnd > hi || rawEnd < lo,
  };
}

/** The instant `minutes` after another. */
export function addMinutes(instant: string, minutes: number): string {
  return isoZ(Temporal.Instant.from(instant).add({ minutes }));
}
