import { Inject, Injectable } from '@nestjs/common';
import {
  allScheduleIds,
  scheduleLessonsFrom,
  teachingDaysFor,
  type ScheduleConflict,
} from '@portal/projections';
import { Commands } from '../platform/event-store/commands.js';
import type { EventMetadata } from '../platform/event-store/event-store.js';
import { ConcurrencyError } from '../platform/event-store/errors.js';
import { DomainError } from '../platform/domain/domain-error.js';
import { SQL_CLIENT, LOGGER } from '../platform/tokens.js';
import type { SqlClient } from '../platform/sql/sql-client.js';
import type { Log } from '../platform/logging/logger.js';
import { PeriodicJob } from '../platform/scheduling/periodic-job.js';
import { todayIn } from '../core/time/time.js';
import { NO_CUSTOMER } from '../core/access/student-scope.js';
import { scheduleAggregate } from './schedule.decider.js';
import { lessonAggregate } from './lesson.decider.js';
import { LessonsService } from './lessons.service.js';
import { programmeFacts } from './teaching-lookup.js';
import {
  HORIZON_WEEKS,
  meetingIdOf,
  NO_CALENDAR,
  occurrences,
  planningWindow,
  planSteps,
  type Occurrence,
} from './planner.js';

export interface PlanResult {
  planned: number;
  changed: number;
  unscheduled: number;
  conflicts: ScheduleConflict[];
  /** Position of the last event the pass wrote ('0' when it wrote none). */
  position: string;
}

const EMPTY: PlanResult = { planned: 0, changed: 0, unscheduled: 0, conflicts: [], position: '0' };

const later = (a: string, b: string) => (BigInt(a) >= BigInt(b) ? a : b);

/** Programmes whose schedules still produce lessons. */
const PLANNING_STATUSES = new Set(['draft', 'active', 'paused']);

/**
 * The lesson planner's runner (a process manager, decision 0053): reads a schedule from its stream,
 * the programme and the teaching days from the read models, asks the pure planner what to do, and
 * runs each step as a command on the lesson's own stream. Lesson ids are deterministic, so running it
 * twice writes nothing new. An occurrence that would clash with another lesson is not planned: it is
 * recorded on the schedule (`ScheduleConflictsRecorded`) for the schedule view.
 */
@Injectable()
export class LessonPlanner {
  constructor(
    private readonly commands: Commands,
    private readonly lessons: LessonsService,
    @Inject(SQL_CLIENT) private readonly sql: SqlClient,
  ) {}

  /**
   * Brings one schedule's lessons in line with its rule, from today (in the schedule's zone) to the
   * horizon; `from` plans from an earlier date instead (entering a timetable that already started).
   */
  async planSchedule(
    scheduleId: string,
    metadata: Partial<EventMetadata>,
    options: { now?: Date; from?: string } = {},
  ): Promise<PlanResult> {
    const { state } = await this.commands.load(scheduleAggregate, scheduleId);
    const rule = state.rule;
    if (!state.exists || !rule) return EMPTY;
    const programme = await programmeFacts(this.sql, state.programmeId);
    if (!programme || !PLANNING_STATUSES.has(programme.status)) return EMPTY;
    await this.lessons.caughtUp();
    const today = todayIn(rule.timezone, options.now);
    // From today (or the earlier `from`), never before the programme starts.
    let start = options.from && options.from < today ? options.from : today;
    if (programme.start_date > start) start = programme.start_date;
    const window = planningWindow(rule, today, programme.end_date, HORIZON_WEEKS, start) ?? {
      from: start,
      to: start,
    };
    const days =
      window.from <= window.to
        ? await teachingDaysFor(this.sql, {
            networkId: programme.network_id ?? NO_CUSTOMER,
            customerId: programme.customer_id,
            from: window.from,
            to: window.to,
          })
        : NO_CALENDAR;
    const wanted = planningWindow(rule, today, programme.end_date, HORIZON_WEEKS, start)
      ? occurrences({ id: scheduleId, ...rule, exceptions: state.exceptions }, window, days)
      : [];
    const stored = await scheduleLessonsFrom(this.sql, scheduleId, window.from);
    const steps = planSteps(
      wanted,
      stored.map((l) => ({
        id: l.id,
        status: l.status,
        detached: l.detached,
        localDate: l.local_date,
        teacherId: l.teacher_id,
        startsAt: new Date(l.starts_at).toISOString(),
        durationMinutes: l.duration_minutes,
        timezone: l.timezone,
      })),
      rule,
      window,
    );
    const result: PlanResult = { planned: 0, changed: 0, unscheduled: 0, conflicts: [], position: '0' };
    const timingOf = (o: Occurrence) => ({
      timezone: rule.timezone,
      localDate: o.localDate,
      localStart: o.localStart,
      durationMinutes: rule.durationMinutes,
      startsAt: o.startsAt,
      endsAt: o.endsAt,
    });
    const skipped = new Set(state.exceptions.filter((e) => e.action === 'skip').map((e) => e.localDate));
    for (const step of steps) {
      if (step.kind === 'unschedule') {
        const lesson = stored.find((l) => l.id === step.lessonId);
        const { events, position } = await this.commands.run(
          lessonAggregate,
          {
            type: 'UnscheduleLesson',
            lessonId: step.lessonId,
            reason: lesson && skipped.has(lesson.local_date) ? 'skipped' : 'rule-changed',
          },
          metadata,
        );
        result.unscheduled += events.length;
        result.position = later(result.position, position);
        continue;
      }
      const occurrence = step.occurrence;
      const clash = await this.lessons.clashOf({
        lessonId: occurrence.lessonId,
        groupId: rule.groupId,
        teacherIds: [rule.teacherId],
        timing: timingOf(occurrence),
        wait: false,
      });
      if (clash) {
        result.conflicts.push({
          localDate: occurrence.localDate,
          localStart: occurrence.localStart,
          lessonId: clash.lessonId,
          reason: clash.reason,
        });
        continue;
      }
      if (step.kind === 'plan') {
        const { events, position } = await this.commands.run(
          lessonAggregate,
          {
            type: 'PlanLesson',
            lessonId: occurrence.lessonId,
            kind: programme.kind,
            programmeId: state.programmeId,
            groupId: rule.groupId,
            customerId: state.customerId,
            scheduleId,
            teacherId: rule.teacherId,
            meetingId: meetingIdOf(occurrence.lessonId),
            ...timingOf(occurrence),
          },
          metadata,
        );
        result.planned += events.length;
        result.position = later(result.position, position);
      } else {
        const { events, position } = await this.commands.run(
          lessonAggregate,
          {
            type: 'ChangeLessonPlan',
            lessonId: step.lessonId,
            teacherId: rule.teacherId,
            ...timingOf(occurrence),
          },
          metadata,
        );
        result.changed += events.length;
        result.position = later(result.position, position);
      }
    }
    const recorded = await this.commands.run(
      scheduleAggregate,
      { type: 'RecordScheduleConflicts', scheduleId, conflicts: result.conflicts },
      metadata,
    );
    result.position = later(result.position, recorded.position);
    return result;
  }
}

export const PLANNER_INTERVAL_MS = 24 * 60 * 60_000;

/**
 * Extends every schedule's lessons to the rolling horizon once a day (and at start-up). Safe in every
 * process: each step is a command at a revision, and lesson ids are deterministic.
 */
@Injectable()
export class LessonPlannerJob extends PeriodicJob<number> {
  readonly intervalMs = PLANNER_INTERVAL_MS;

  constructor(
    private readonly planner: LessonPlanner,
    @Inject(SQL_CLIENT) private readonly sql: SqlClient,
    @Inject(LOGGER) private readonly log: Log,
  ) {
    super();
  }

  protected async pass(now: Date): Promise<number> {
    let planned = 0;
    for (const scheduleId of await allScheduleIds(this.sql)) {
      try {
        const result = await this.planner.planSchedule(
          scheduleId,
          { actorId: null, correlationId: `lesson-planner:${scheduleId}` },
          { now },
        );
        planned += result.planned;
      } catch (e) {
        if (e instanceof ConcurrencyError || e instanceof DomainError) continue;
        this.log.error({ err: e, scheduleId }, 'lesson planner pass failed');
      }
    }
    return planned;
  }

  protected override onPassError(error: unknown): void {
    this.log.error({ err: error }, 'lesson planner pass failed');
  }
}
