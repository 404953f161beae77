import { Inject, Injectable } from '@nestjs/common';
import { firstStudentJoins, untakenLessonsWithJoins } from '@portal/projections';
import { PeriodicJob } from '../platform/scheduling/periodic-job.js';
import { Commands } from '../platform/event-store/commands.js';
import { ConcurrencyError } from '../platform/event-store/errors.js';
import { DomainError } from '../platform/domain/domain-error.js';
import { LOGGER, SQL_CLIENT } from '../platform/tokens.js';
import type { SqlClient } from '../platform/sql/sql-client.js';
import type { Log } from '../platform/logging/logger.js';
import { AttendanceService } from './attendance.service.js';
import { AUTO_MARK_AFTER_MINUTES, registerAggregate, suggestionFromJoin } from './register.decider.js';

/** How often the pass runs. */
export const AUTO_MARK_INTERVAL_MS = 5 * 60_000;
/** How far back it looks (a lesson missed while the portal was down is still marked). */
const LOOK_BACK_MS = 2 * 86_400_000;

/**
 * Marks untaken registers from the meeting joins (decision 0056): every few minutes, each lesson that
 * ended more than AUTO_MARK_AFTER_MINUTES ago (up to two days back) with no mark and at least one
 * student join gets `AttendanceMarkRecorded { source: "meeting" }` for its roster: present or late
 * from each student's first join, absent (reason pending, or the reason already known) without one.
 * These stay unconfirmed until the teacher confirms or corrects them; a teacher's mark always wins and
 * a register with any mark is never touched. Safe in every process: each lesson goes through the
 * decider at its stream revision.
 */
@Injectable()
export class AutoMarkJob extends PeriodicJob<number> {
  readonly intervalMs = AUTO_MARK_INTERVAL_MS;

  constructor(
    private readonly commands: Commands,
    private readonly attendance: AttendanceService,
    @Inject(SQL_CLIENT) private readonly sql: SqlClient,
    @Inject(LOGGER) private readonly log: Log,
  ) {
    super();
  }

  protected async pass(now: Date): Promise<number> {
    const endedBefore = new Date(now.getTime() - AUTO_MARK_AFTER_MINUTES * 60_000).toISOString();
    const endedAfter = new Date(now.getTime() - LOOK_BACK_MS).toISOString();
    let marked = 0;
    for (const lessonId of await untakenLessonsWithJoins(this.sql, { endedAfter, endedBefore })) {
      try {
        const state = await this.attendance.lesson(lessonId);
        const timing = state.lesson.timing!;
        const joins: Record<string, { mark: 'present' | 'late'; minutesLate: number | null }> = {};
        for (const [studentId, at] of await firstStudentJoins(this.sql, lessonId)) {
          const s = suggestionFromJoin(at, timing);
          if (s) joins[studentId] = s;
        }
        const result = await this.commands.run(
          registerAggregate,
          {
            type: 'AutoMarkFromJoins',
            lessonId,
            now: now.toISOString(),
            joins,
            ...(await this.attendance.snapshot(state)),
          },
          { actorId: null, correlationId: `auto-mark:${lessonId}` },
        );
        if (result.events.length > 0) marked++;
      } catch (e) {
        if (e instanceof ConcurrencyError || e instanceof DomainError) continue;
        this.log.error({ err: e, lessonId }, 'automatic marking failed');
      }
    }
    return marked;
  }

  protected override onPassError(error: unknown): void {
    this.log.error({ err: error }, 'automatic marking pass failed');
  }
}
