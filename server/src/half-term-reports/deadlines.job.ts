import { Inject, Injectable } from '@nestjs/common';
import { mailRecipients, reportsWithWriters, type DueReportRow } from '@portal/projections';
import { PeriodicJob } from '../platform/scheduling/periodic-job.js';
import { Commands } from '../platform/event-store/commands.js';
import { ConcurrencyError } from '../platform/event-store/errors.js';
import { DomainError } from '../platform/domain/domain-error.js';
import { MailOutbox } from '../platform/mail/mail-outbox.js';
import type { AppConfig } from '../platform/config/config.js';
import type { Log } from '../platform/logging/logger.js';
import type { SqlClient } from '../platform/sql/sql-client.js';
import { APP_CONFIG, LOGGER, SQL_CLIENT } from '../platform/tokens.js';
import { addDays } from '../core/time/time.js';
import { reportAggregate } from './half-term-report.decider.js';

/** How often the pass runs: deadlines and reminders are per local day, so a few minutes is prompt. */
export const DEADLINES_INTERVAL_MS = 5 * 60_000;

/**
 * The reminder due today for a writer's reports with this submit-by: the smallest offset whose day
 * (submit-by minus offset days) has come, with the larger offsets it makes redundant (a reminder
 * missed while the portal was down is not sent late as well). Null before the first offset's day.
 */
export function reminderDue(
  offsets: readonly number[],
  submitBy: string,
  today: string,
): { offset: number; superseded: number[] } | null {
  const reached = [...new Set(offsets)].filter((o) => addDays(submitBy, -o) <= today).sort((a, b) => a - b);
  if (reached.length === 0) return null;
  return { offset: reached[0]!, superseded: reached.slice(1) };
}

/**
 * Half-term report deadlines (decision 0061), every few minutes in every process:
 * - a report still with its writers (draft, returned) after its submit-by (its extension, else the
 *   timeframe's, in the timeframe's zone) gets `HalfTermReportDeadlineMissed` once per date, through
 *   the decider at the stream's revision (a second process is refused or decides nothing);
 * - each writer of such reports before the deadline is e-mailed on the timeframe's reminder offsets:
 *   one mail per writer, timeframe, submit-by and offset, queued once under its key
 *   (`MailOutbox.enqueueOnce`), so re-runs and other processes never send it twice.
 */
@Injectable()
export class HalfTermDeadlinesJob extends PeriodicJob<{ missed: number; reminders: number }> {
  readonly intervalMs = DEADLINES_INTERVAL_MS;

  constructor(
    private readonly commands: Commands,
    private readonly outbox: MailOutbox,
    @Inject(SQL_CLIENT) private readonly sql: SqlClient,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(LOGGER) private readonly log: Log,
  ) {
    super();
  }

  protected async pass(now: Date): Promise<{ missed: number; reminders: number }> {
    const at = now.toISOString();
    let missed = 0;
    for (const r of await reportsWithWriters(this.sql, at, 'missed')) {
      try {
        const result = await this.commands.run(
          reportAggregate,
          {
            type: 'MarkDeadlineMissed',
            reportId: r.id,
            today: r.today,
            timeframeSubmitBy: r.timeframe_submit_by,
          },
          { actorId: null, correlationId: `deadline-missed:${r.id}:${r.submit_by}` },
        );
        if (result.events.length > 0) missed++;
      } catch (e) {
        if (e instanceof ConcurrencyError || e instanceof DomainError) continue;
        this.log.error({ err: e, reportId: r.id }, 'recording a missed deadline failed');
      }
    }
    return { missed, reminders: await this.remind(at) };
  }

  private async remind(at: string): Promise<number> {
    // Writer × timeframe × submit-by → their reports due.
    const groups = new Map<string, { writerId: string; reports: DueReportRow[] }>();
    for (const r of await reportsWithWriters(this.sql, at, 'due'))
      for (const writerId of r.writer_ids) {
        const key = `${r.timeframe_id}:${writerId}:${r.submit_by}`;
        const group = groups.get(key) ?? { writerId, reports: [] };
        group.reports.push(r);
        groups.set(key, group);
      }
    const people = await mailRecipients(this.sql, [...new Set([...groups.values()].map((g) => g.writerId))]);
    let sent = 0;
    for (const [key, { writerId, reports }] of groups) {
      const first = reports[0]!;
      const due = reminderDue(first.reminder_offsets, first.submit_by, first.today);
      const person = people.get(writerId);
      if (!due || !person) continue;
      const left = Math.round((Date.parse(first.submit_by) - Date.parse(first.today)) / 86_400_000);
      const when = left <= 0 ? 'today' : left === 1 ? 'tomorrow' : `in ${left} days`;
      const text =
        `Hello ${person.full_name},\n\nYour half-term reports of "${first.timeframe_name}" are due ${when} ` +
        `(submit by ${first.submit_by}). Still to submit:\n\n` +
        reports
          .map((r) => `- ${r.student_name ?? 'A student'}, ${r.programme_title ?? 'a programme'}`)
          .join('\n') +
        `\n\nOpen them: ${this.config.publicUrl}/my-half-term-reports`;
      if (
        await this.outbox.enqueueOnce(
          `htr-reminder:${key}:${due.offset}`,
          person.email,
          `Half-term reports due ${when}`,
          text,
        )
      )
        sent++;
      for (const offset of due.superseded)
        await this.outbox.enqueueOnce(`htr-reminder:${key}:${offset}`, null, '', '');
    }
    return sent;
  }

  protected override onPassError(error: unknown): void {
    this.log.error({ err: error }, 'half-term report deadline pass failed');
  }
}
