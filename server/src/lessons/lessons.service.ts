import { Inject, Injectable } from '@nestjs/common';
import { findClash, type Clash, type LessonTiming } from '@portal/projections';
import { DomainError } from '../platform/domain/domain-error.js';
import { EVENT_STORE, SQL_CLIENT } from '../platform/tokens.js';
import type { EventStore } from '../platform/event-store/event-store.js';
import type { SqlClient } from '../platform/sql/sql-client.js';
import { ProjectionRunner } from '../platform/projections/projection-runner.js';
import { addMinutes, instantOf, isLocalDate, isLocalTime, isTimeZone } from '../core/time/time.js';
import { isInternal } from '../identity/policy/policy.js';
import { personFacts, studentsOfGroupOn } from './teaching-lookup.js';
import { MAX_DURATION, MIN_DURATION } from './schedule.decider.js';

/** How long a clash check waits for the read models to hold every event written so far. */
const CATCH_UP_MS = 5_000;

/**
 * What lesson commands need beyond their decider: wall-clock → instant, the teacher check, and the
 * clash rule (decision 0053). A clash is read from `rm_lessons` once the projections have caught up
 * with the store's head, so a lesson written just before is seen; two writers racing on the same slot
 * within that instant can both pass (accepted: the planner's next pass and the schedule's conflict list
 * show it).
 */
@Injectable()
export class LessonsService {
  constructor(
    @Inject(SQL_CLIENT) private readonly sql: SqlClient,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly runner: ProjectionRunner,
  ) {}

  /** The timing of a lesson at a local date and time in a zone; 422 naming the field when malformed. */
  timing(timezone: string, localDate: string, localStart: string, durationMinutes: number): LessonTiming {
    if (!isTimeZone(timezone)) throw new DomainError('invalid', 'timezone: unknown time zone');
    if (!isLocalDate(localDate)) throw new DomainError('invalid', 'local_date: must be a date yyyy-MM-dd');
    if (!isLocalTime(localStart)) throw new DomainError('invalid', 'local_start: must be a time HH:mm');
    if (
      !Number.isInteger(durationMinutes) ||
      durationMinutes < MIN_DURATION ||
      durationMinutes > MAX_DURATION
    )
      throw new DomainError(
        'invalid',
        `duration_minutes: must be from ${MIN_DURATION} to ${MAX_DURATION} minutes`,
      );
    const at = instantOf(localDate, localStart, timezone);
    return {
      timezone,
      localDate,
      localStart: at.localTime,
      durationMinutes,
      startsAt: at.instant,
      endsAt: addMinutes(at.instant, durationMinutes),
    };
  }

  /** 422 unless the user exists and is internal staff (a teacher or an administrator). */
  async requireTeacher(teacherId: string, field = 'teacher_id'): Promise<void> {
    const person = await personFacts(this.sql, teacherId);
    if (!person || !isInternal(new Set(person.permissions)))
      throw new DomainError('invalid', `${field}: not a teacher of the portal`);
  }

  /** Waits (briefly) until the read models hold every event written so far. */
  async caughtUp(): Promise<void> {
    await this.runner.waitForPosition(await this.store.headPosition(), CATCH_UP_MS);
  }

  /** The lesson this one would clash with (teacher double-booked, or a student in two lessons), or null. */
  async clashOf(c: {
    lessonId: string;
    /** The group whose students are checked; null checks only the teachers. */
    groupId: string | null;
    teacherIds: string[];
    timing: LessonTiming;
    wait?: boolean;
  }): Promise<Clash | null> {
    if (c.wait !== false) await this.caughtUp();
    const studentIds = c.groupId ? await studentsOfGroupOn(this.sql, c.groupId, c.timing.localDate) : [];
    return findClash(this.sql, {
      teacherIds: c.teacherIds,
      studentIds,
      startsAt: c.timing.startsAt,
      endsAt: c.timing.endsAt,
      excludeIds: [c.lessonId],
    });
  }

  /** 409 naming the other lesson when there is a clash. */
  async refuseClash(c: {
    lessonId: string;
    groupId: string | null;
    teacherIds: string[];
    timing: LessonTiming;
  }): Promise<void> {
    const clash = await this.clashOf(c);
    if (clash)
      throw new DomainError(
        'conflict',
        clash.reason === 'teacher'
          ? `The teacher already has lesson ${clash.lessonId} at that time`
          : `A student of the group already has lesson ${clash.lessonId} at that time`,
        'lesson_clash',
      );
  }
}
