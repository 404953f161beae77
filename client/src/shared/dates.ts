import { formatInTimeZone, fromZonedTime, toZonedTime } from 'date-fns-tz';

/** Spec §9 date formats, always shown in the user's timezone. */
export const DATE_TIME_FORMAT = 'dd.MM.yyyy HH:mm';
export const DATE_FORMAT = 'dd.MM.yyyy';
/** Used when a user has no timezone of their own (the server applies the same default). */
export const DEFAULT_TIMEZONE = 'Europe/London';

/** `iso` formatted in `timeZone` (default dd.MM.yyyy HH:mm); "N/A" for missing or invalid values. */
export function formatInZone(
  iso: string | null | undefined,
  timeZone: string | null | undefined,
  pattern = DATE_TIME_FORMAT,
): string {
  if (!iso) return 'N/A';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return 'N/A';
  try {
    return formatInTimeZone(date, timeZone || DEFAULT_TIMEZONE, pattern);
  } catch {
    return formatInTimeZone(date, DEFAULT_TIMEZONE, pattern);
  }
}

/**
 * A wall-clock value picked in a form ("YYYY-MM-DD HH:mm[:ss]", as Mantine's pickers give it) read as a
 * time in `timeZone`, returned as an ISO instant.
 */
export function wallClockToIso(wallClock: string, timeZone: string): string {
  return fromZonedTime(wallClock.replace(' ', 'T'), timeZone || DEFAULT_TIMEZONE).toISOString();
}

/** An instant as the wall clock in `timeZone` ("YYYY-MM-DD HH:mm:ss"), for a picker's value. */
export function isoToWallClock(iso: string, timeZone: string): string {
  return formatInTimeZone(toZonedTime(new Date(iso), timeZone), timeZone, 'yyyy-MM-dd HH:mm:ss');
}

/** The signed-in user's timezone, for showing times (spec §9). */
export function viewerTimezone(user: { timezone?: string | null } | null): string {
  return user?.timezone || DEFAULT_TIMEZONE;
}

/** "25.11.2026" (also 25/11/2026, 25-11-2026) as `2026-11-25`, or null when it is not a real day. */
export function parseDayMonthYear(text: string): string | null {
  const match = /^\s*(\d{1,2})[./-](\d{1,2})[./-](\d{4})\s*$/.exec(text);
  if (!match) return null;
  const iso = `${match[3]}-${match[2]!.padStart(2, '0')}-${match[1]!.padStart(2, '0')}`;
  const date = new Date(`${iso}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === iso ? iso : null;
}

/**
 * A table file's name with the day it was made, in the user's timezone (spec §9, issue 18):
 * `students.csv` → `students-2026-11-25.csv`. Names that already carry a day (a report's range) and
 * other files (PDFs with their revision) stay as they are.
 */
export function datedFilename(name: string, timeZone: string, now: Date = new Date()): string {
  if (!/\.(csv|xlsx)$/i.test(name) || /\d{4}-\d{2}-\d{2}/.test(name)) return name;
  const dot = name.lastIndexOf('.');
  return `${name.slice(0, dot)}-${formatInZone(now.toISOString(), timeZone, 'yyyy-MM-dd')}${name.slice(dot)}`;
}

/** A calendar day (`2026-11-25`, no time, no timezone) as spec §9 shows it: `25.11.2026`; "—" for none. */
export function formatDay(day: string | null | undefined): string {
  const match = day ? /^(\d{4})-(\d{2})-(\d{2})/.exec(day) : null;
  return match ? `${match[3]}.${match[2]}.${match[1]}` : '—';
}
