import { Inject, Injectable } from '@nestjs/common';
import {
  pendingDailyDigests,
  pendingEachChangeAlerts,
  type AttendanceAlertMailRow,
} from '@portal/projections';
import { PeriodicJob } from '../platform/scheduling/periodic-job.js';
import { MailOutbox } from '../platform/mail/mail-outbox.js';
import type { AppConfig } from '../platform/config/config.js';
import type { Log } from '../platform/logging/logger.js';
import type { SqlClient } from '../platform/sql/sql-client.js';
import { APP_CONFIG, LOGGER, SQL_CLIENT } from '../platform/tokens.js';

/** How often the pass runs: an alert is e-mailed within about a minute. */
export const ATTENDANCE_ALERT_INTERVAL_MS = 60_000;

const lessonTime = (row: AttendanceAlertMailRow) => {
  if (!row.starts_at) return 'a recent lesson';
  const at = new Intl.DateTimeFormat('en-GB', {
    timeZone: row.timezone,
    weekday: 'short',
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
  }).format(new Date(row.starts_at));
  return `the lesson of ${at}`;
};

/** One line about one alert, as the contact reads it. */
export function alertLine(row: AttendanceAlertMailRow): string {
  const who = row.student_name ?? 'A pupil';
  if (row.kind === 'absence-no-reason')
    return row.mark === 'absent_pending'
      ? `${who} was marked absent in ${lessonTime(row)}; no reason has been given yet.`
      : `${who} was marked absent in ${lessonTime(row)} (a reason has been given since).`;
  return `A register mark of ${who} in ${lessonTime(row)} was amended.`;
}

/**
 * E-mails the attendance alerts of the notifications inbox to the schools' attendance contacts
 * (decision 0061), through the mail outbox: "each-change" contacts one mail per alert within a
 * minute, "daily" contacts one digest of their previous local day. Each mail is queued once under
 * its key (`each:{event}:{user}`, `daily:{user}:{day}`; `MailOutbox.enqueueOnce`), so a re-run, a
 * second process or a projection rebuild never sends it twice. An absence whose reason arrived before its mail went out is recorded and not sent.
 */
@Injectable()
export class AttendanceAlertMailJob extends PeriodicJob<number> {
  readonly intervalMs = ATTENDANCE_ALERT_INTERVAL_MS;

  constructor(
    private readonly outbox: MailOutbox,
    @Inject(SQL_CLIENT) private readonly sql: SqlClient,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(LOGGER) private readonly log: Log,
  ) {
    super();
  }

  /** One pass; returns how many mails it queued. */
  protected async pass(now: Date): Promise<number> {
    const at = now.toISOString();
    const link = `${this.config.publicUrl}/attendance`;
    let sent = 0;
    for (const row of await pendingEachChangeAlerts(this.sql, at)) {
      // A reason given before the mail went out: nothing left to tell.
      const stale = row.kind === 'absence-no-reason' && row.mark !== 'absent_pending';
      const subject =
        row.kind === 'absence-no-reason' ? 'Absence with no reason yet' : 'A register mark was amended';
      const text =
        `Hello ${row.full_name},\n\n${alertLine(row)}\n\n` +
        `Open your students' attendance to see it${row.kind === 'absence-no-reason' ? ' and give a reason' : ''}: ${link}\n\n` +
        `(You receive this as an attendance contact of your school, one e-mail per change.)`;
      if (
        await this.outbox.enqueueOnce(
          `each:${row.event_id}:${row.user_id}`,
          stale ? null : row.email,
          subject,
          text,
        )
      )
        sent++;
    }
    const digests = new Map<string, AttendanceAlertMailRow[]>();
    for (const row of await pendingDailyDigests(this.sql, at))
      digests.set(row.user_id, [...(digests.get(row.user_id) ?? []), row]);
    for (const [userId, rows] of digests) {
      const first = rows[0]!;
      const text =
        `Hello ${first.full_name},\n\nAttendance of your students on ${first.day}:\n\n` +
        rows.map((r) => `- ${alertLine(r)}`).join('\n') +
        `\n\nOpen your students' attendance: ${link}\n\n` +
        `(You receive this as an attendance contact of your school, once a day.)`;
      if (
        await this.outbox.enqueueOnce(
          `daily:${userId}:${first.day}`,
          first.email,
          `Attendance on ${first.day}`,
          text,
        )
      )
        sent++;
    }
    return sent;
  }

  protected override onPassError(error: unknown): void {
    this.log.error({ err: error }, 'attendance alert mail pass failed');
  }
}
