/** Pure helpers of the user activity panel (users/activity, ADR 0032). */

export interface ActivityReport {
  /** The server counts per day up to 93 days, per month beyond. */
  bucket: 'day' | 'month';
  rows: { period: string; active: number }[];
}

/**
 * Reads GET /users/students/count/active/report as CSV: an optional UTF-8 BOM, a header
 * `day|month,active_students`, then one `period,count` line per day or month.
 */
export function parseActivityReport(csv: string): ActivityReport {
  const lines = csv
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);
  const header = (lines[0] ?? '').split(',');
  if (header.length !== 2 || !['day', 'month'].includes(header[0]!) || header[1] !== 'active_students')
    throw new Error('The activity report has an unexpected format.');
  const rows = lines.slice(1).map((line) => {
    const [period = '', count = ''] = line.split(',');
    const active = Number(count);
    if (!/^\d{4}-\d{2}(-\d{2})?$/.test(period) || !Number.isInteger(active))
      throw new Error(`The activity report has an unreadable line: ${line}`);
    return { period, active };
  });
  return { bucket: header[0] as 'day' | 'month', rows };
}

/** Highest, lowest and mean count over the periods (null when there are none). */
export function summarise(rows: { active: number }[]): { peak: number; low: number; mean: number } | null {
  if (rows.length === 0) return null;
  const counts = rows.map((r) => r.active);
  const mean = counts.reduce((a, b) => a + b, 0) / counts.length;
  return { peak: Math.max(...counts), low: Math.min(...counts), mean: Math.round(mean * 10) / 10 };
}

/** `yyyy-MM-dd` of a date in UTC (the report's days are UTC days). */
export const utcDay = (date: Date): string => date.toISOString().slice(0, 10);

/** The default range: the 30 days up to today (UTC), as the server's own default. */
export function defaultRange(now: Date): { from: string; to: string } {
  const to = utcDay(now);
  const from = utcDay(new Date(Date.parse(to) - 29 * 86_400_000));
  return { from, to };
}

export const END_MISSING = 'Choose an end date.';

/** Why a range cannot be asked for, or null. */
export function rangeProblem(from: string, to: string): string | null {
  const day = /^\d{4}-\d{2}-\d{2}$/;
  if (!day.test(from)) return 'Choose a start date.';
  if (!day.test(to)) return END_MISSING;
  if (from > to) return 'The start date must be on or before the end date.';
  if ((Date.parse(to) - Date.parse(from)) / 86_400_000 + 1 > 3660) return 'The range is at most 10 years.';
  return null;
}
