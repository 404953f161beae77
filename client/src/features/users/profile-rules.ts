/**
 * Pure rules behind the user details cards (availability, files): no React, unit-tested.
 * Availability minutes are minutes after midnight inside the working day (spec §9: 420–1260).
 */

export const WORKING_DAY_START = 420;
export const WORKING_DAY_END = 1260;
/** Spec §9: week labels run Monday to Sunday; the server's day_of_week is 0 = Monday … 6 = Sunday. */
export const WEEKDAYS = [
  'Monday',
  'Tuesday',
  'Wednesday',
  'Thursday',
  'Friday',
  'Saturday',
  'Sunday',
] as const;

export interface Slot {
  day_of_week: number;
  start_minute: number;
  end_minute: number;
}

/** 450 → "07:30". */
export function minutesToTime(minutes: number): string {
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`;
}

/** "07:30" → 450; null when it is not a HH:mm time of day. */
export function timeToMinutes(value: string): number | null {
  const match = /^(\d{1,2}):(\d{2})$/.exec(value.trim());
  if (!match) return null;
  const h = Number(match[1]);
  const m = Number(match[2]);
  if (h > 24 || m > 59 || (h === 24 && m > 0)) return null;
  return h * 60 + m;
}

/**
 * Why a slot cannot be added to `existing` (in words, for the form), or null when it can: inside the
 * working day, start before end, and not overlapping another slot of the same day.
 */
export function slotProblem(slot: Slot, existing: readonly Slot[]): string | null {
  if (slot.start_minute < WORKING_DAY_START || slot.end_minute > WORKING_DAY_END)
    return `Times must be within the working day (${minutesToTime(WORKING_DAY_START)}–${minutesToTime(WORKING_DAY_END)}).`;
  if (slot.start_minute >= slot.end_minute) return 'The start must be before the end.';
  const clash = existing.find(
    (s) =>
      s.day_of_week === slot.day_of_week &&
      s.start_minute < slot.end_minute &&
      slot.start_minute < s.end_minute,
  );
  if (clash)
    return `Overlaps ${WEEKDAYS[clash.day_of_week]} ${minutesToTime(clash.start_minute)}–${minutesToTime(clash.end_minute)}.`;
  return null;
}

/** Slots in the order a week is read: Monday first, then by start time. */
export function sortSlots(slots: readonly Slot[]): Slot[] {
  return [...slots].sort((a, b) => a.day_of_week - b.day_of_week || a.start_minute - b.start_minute);
}

/** The Monday (yyyy-MM-dd) of the calendar week holding `date` (a local calendar date). */
export function mondayOf(date: Date): string {
  const d = new Date(Date.UTC(date.getFullYear(), date.getMonth(), date.getDate()));
  const offset = (d.getUTCDay() + 6) % 7; // Monday → 0 … Sunday → 6
  d.setUTCDate(d.getUTCDate() - offset);
  return d.toISOString().slice(0, 10);
}

/** `monday` (yyyy-MM-dd) moved by `weeks` weeks. */
export function addWeeks(monday: string, weeks: number): string {
  const d = new Date(`${monday}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + weeks * 7);
  return d.toISOString().slice(0, 10);
}

/** 1536 → "1.5 KB"; bytes in binary units, one decimal above a kilobyte. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}

/** Spec §9: upload size limit 100 (MB, as the server enforces: STORAGE_MAX_UPLOAD_BYTES). */
export const MAX_UPLOAD_BYTES = 100 * 1024 * 1024;

/** The content types the storage service accepts for student files (server ALLOWED_CONTENT_TYPES). */
export const ALLOWED_FILE_TYPES: readonly string[] = [
  'application/pdf',
  'application/msword',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/vnd.oasis.opendocument.text',
  'application/rtf',
  'text/plain',
  'image/jpeg',
  'image/png',
];

/** Why a chosen file cannot be uploaded, or null. */
export function uploadProblem(file: { name: string; size: number; type: string }): string | null {
  if (file.size === 0) return `${file.name} is empty.`;
  if (file.size > MAX_UPLOAD_BYTES) return `${file.name} is larger than the 100 MB allowed.`;
  if (!ALLOWED_FILE_TYPES.includes(file.type))
    return `${file.name} is not a PDF, Word, OpenDocument, RTF, text, JPEG or PNG file.`;
  if (/[/\\]/.test(file.name)) return 'The file name must not contain slashes.';
  return null;
}
