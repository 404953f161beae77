import { Controller, Get, HttpStatus, Inject, Param, Query } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiProperty, ApiTags } from '@nestjs/swagger';
import { availabilityFor, lessonsBetween } from '@portal/projections';
import { RequirePermissions } from '../platform/auth/public.decorator.js';
import { type Actor, CurrentActor } from '../platform/auth/request-context.js';
import { Allow } from '../platform/auth/allow.decorator.js';
import { Problem } from '../platform/http/problem.js';
import type { SqlClient } from '../platform/sql/sql-client.js';
import { SQL_CLIENT } from '../platform/tokens.js';
import { ALL_MARKER_PERMISSIONS, isInternal, partnerVisibility } from '../identity/policy/policy.js';
import { UuidPipe } from '../platform/http/validation.js';
import { DomainError } from '../platform/domain/domain-error.js';
import { isTimeZone } from '../core/time/time.js';
import { LessonRules, lessonScope, mayReadTimetableOf } from './lessons.policy.js';
import { isLinkedStudent, personFacts } from './teaching-lookup.js';
import { LessonView, TAKING_PLACE, WeekQuery, lessonView, weekBounds } from './lessons.controller.js';

export class TimetableView {
  @ApiProperty({ format: 'uuid' }) user_id!: string;
  @ApiProperty() user_name!: string;
  @ApiProperty({ enum: ['teacher', 'student'] }) role!: string;
  @ApiProperty() week_start!: string;
  @ApiProperty({ description: 'The zone the week was read in (the viewer’s)' }) timezone!: string;
  @ApiProperty() from!: string;
  @ApiProperty() to!: string;
  @ApiProperty({ type: [LessonView] }) lessons!: LessonView[];
  @ApiProperty({
    nullable: true,
    description: 'The teacher’s availability for that week (the week’s own list, else the recurring one)',
    type: Object,
  })
  availability!: unknown;
}

/**
 * A user's week (decision 0053): a teacher's lessons (taught or covered) or a student's (their groups
 * on each lesson's date), read in the viewer's zone, with the teacher's availability. Who may read whom:
 * the user themselves, internal users who read every lesson, and a partner (with lesson details) for
 * their own customer's students (selected students only for link contacts and parents); others 404.
 */
@ApiTags('lessons')
@Controller('api/v1/timetable')
export class TimetableController {
  constructor(@Inject(SQL_CLIENT) private readonly sql: SqlClient) {}

  @Get(':userId')
  @RequirePermissions(...ALL_MARKER_PERMISSIONS)
  @Allow(LessonRules.read)
  @ApiOkResponse({ type: TimetableView })
  @ApiNotFoundResponse({ description: 'User not found' })
  async get(
    @CurrentActor() actor: Actor,
    @Param('userId', UuidPipe) userId: string,
    @Query() q: WeekQuery,
  ): Promise<TimetableView> {
    const target = await personFacts(this.sql, userId);
    const access = target && mayReadTimetableOf(actor, target);
    if (!target || !access) throw new Problem(HttpStatus.NOT_FOUND, 'User not found');
    if (
      access === 'partner' &&
      !partnerVisibility(actor.permissions).students &&
      !(await isLinkedStudent(this.sql, actor.userId, userId))
    )
      throw new Problem(HttpStatus.NOT_FOUND, 'User not found');
    const viewer = access === 'self' ? target : await personFacts(this.sql, actor.userId);
    let timezone = viewer?.timezone && isTimeZone(viewer.timezone) ? viewer.timezone : 'Europe/London';
    if (q.timezone !== undefined) {
      if (!isTimeZone(q.timezone)) throw new DomainError('invalid', 'timezone: unknown time zone');
      timezone = q.timezone;
    }
    const week = weekBounds(q.week_start, timezone);
    const teacher = isInternal(new Set(target.permissions));
    const rows = await lessonsBetween(this.sql, {
      from: week.from,
      to: week.to,
      status: TAKING_PLACE,
      ...(teacher ? { teacherId: userId } : { studentId: userId }),
      scope: access === 'self' ? null : lessonScope(actor),
    });
    const availability = teacher ? await availabilityFor(this.sql, userId, 'default', week.weekStart) : null;
    return {
      user_id: userId,
      user_name: target.full_name,
      role: teacher ? 'teacher' : 'student',
      week_start: week.weekStart,
      timezone,
      from: week.from,
      to: week.to,
      lessons: rows.map((r) => lessonView(r, actor)),
      availability: availability ?? null,
    };
  }
}
