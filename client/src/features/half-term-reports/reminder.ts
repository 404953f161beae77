/** Where the reminder modal remembers when it last showed (kept on logout, spec §4). */
export const REMINDER_KEY = 'half-term-reminder-modal-last-displayed-at';
export const REMINDER_INTERVAL_MS = 24 * 60 * 60 * 1000;

/** Last display per user id (a shared computer: each teacher gets their own daily reminder). */
export type ReminderLog = Record<string, string>;

/** Reads the stored value; anything but a per-user map (e.g. an old plain date) counts as never shown. */
export function reminderLogOf(stored: unknown): ReminderLog {
  if (!stored || typeof stored !== 'object' || Array.isArray(stored)) return {};
  return Object.fromEntries(
    Object.entries(stored as Record<string, unknown>).filter(
      (e): e is [string, string] => typeof e[1] === 'string',
    ),
  );
}

/** Whether the modal may show for `userId` now: never shown, or last shown 24 hours ago or more. */
export function reminderDue(log: ReminderLog, userId: string, now: Date): boolean {
  const last = Date.parse(log[userId] ?? '');
  return Number.isNaN(last) || now.getTime() - last >= REMINDER_INTERVAL_MS;
}

/** The log after showing the modal to `userId` at `now` (other users' entries are kept). */
export const remember = (log: ReminderLog, userId: string, now: Date): ReminderLog => ({
  ...log,
  [userId]: now.toISOString(),
});
