import { formatInTimeZone } from 'date-fns-tz';

/** The axis every week view is drawn on: 07:00–21:00 in the viewer's zone (TEACHING-AND-ATTENDANCE §5). */
export const AXIS_START = 7 * 60;
export const AXIS_END = 21 * 60;
const SLIVER = 15;

export interface WeekItem {
  id: string;
  startsAt: string;
  endsAt: string;
}

export interface PlacedItem<T extends WeekItem> {
  item: T;
  /** 0 = Monday … 6 = Sunday, in the viewer's zone. */
  day: number;
  /** Local wall-clock start and end in the viewer's zone (`HH:mm`). */
  start: string;
  end: string;
  /** Minutes after 07:00 (top) and the height, clamped to the axis. */
  top: number;
  height: number;
  /** Drawn at an edge because it starts before 07:00 or ends after 21:00. */
  pinnedStart: boolean;
  pinnedEnd: boolean;
}

/** Adds days to a `yyyy-MM-dd` date (calendar arithmetic in UTC, no zone involved). */
export function addDaysTo(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** The Monday of the week holding `date` (`yyyy-MM-dd`). */
export function mondayOf(date: string): string {
  const d = new Date(`${date}T00:00:00Z`);
  return addDaysTo(date, -((d.getUTCDay() + 6) % 7));
}

/** Today's date in a zone. */
export function todayInZone(timeZone: string, now = new Date()): string {
  return formatInTimeZone(now, timeZone, 'yyyy-MM-dd');
}

const minutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/**
 * Where each item goes on a week view starting `weekStart` (Monday), read in `timeZone`: its day
 * column and its place on the 07:00–21:00 axis. Items outside the axis are pinned to its edge, never
 * dropped; items of other weeks are left out.
 */
export function placeWeek<T extends WeekItem>(
  items: readonly T[],
  weekStart: string,
  timeZone: string,
): PlacedItem<T>[] {
  const placed: PlacedItem<T>[] = [];
  for (const item of items) {
    const startDate = formatInTimeZone(new Date(item.startsAt), timeZone, 'yyyy-MM-dd');
    const start = formatInTimeZone(new Date(item.startsAt), timeZone, 'HH:mm');
    const endDate = formatInTimeZone(new Date(item.endsAt), timeZone, 'yyyy-MM-dd');
    const end = formatInTimeZone(new Date(item.endsAt), timeZone, 'HH:mm');
    const day = Math.round(
      (Date.parse(`${startDate}T00:00:00Z`) - Date.parse(`${weekStart}T00:00:00Z`)) / 86_400_000,
    );
    if (day < 0 || day > 6) continue;
    const startMinute = minutes(start);
    // A lesson running past midnight ends, on this day's axis, at its end.
    const endMinute = endDate > startDate ? 24 * 60 : minutes(end);
    let top = Math.min(Math.max(startMinute, AXIS_START), AXIS_END);
    let bottom = Math.min(Math.max(endMinute, AXIS_START), AXIS_END);
    if (bottom - top < SLIVER) {
      if (endMinute <= AXIS_START) bottom = AXIS_START + SLIVER;
      else if (startMinute >= AXIS_END) top = AXIS_END - SLIVER;
      else bottom = Math.min(top + SLIVER, AXIS_END);
      top = Math.min(top, bottom - SLIVER);
    }
    placed.push({
      item,
      day,
      start,
      end,
      top: top - AXIS_START,
      height: bottom - top,
      pinnedStart: startMinute < AXIS_START || startMinute > AXIS_END - SLIVER,
      pinnedEnd: endMinute > AXIS_END,
    });
  }
  return placed.sort((a, b) => a.day - b.day || a.top - b.top);
}
