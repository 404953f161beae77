import { randomUUID } from 'node:crypto';
import { Body, Controller, Get, HttpStatus, Inject, Param, Post, Put, Query, Req } from '@nestjs/common';
import {
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiProperty,
  ApiPropertyOptional,
  ApiTags,
} from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  IsBoolean,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsOptional,
  IsString,
  IsUUID,
  Matches,
  MaxLength,
  ValidateIf,
} from 'class-validator';
import {
  CANCELLED_BY,
  LESSON_STATUSES,
  lessonById,
  lessonVisible,
  listLessons,
  lessonsBetween,
  type CancelledBy,
  type LessonListRow,
  type LessonStatus,
} from '@portal/projections';
import { RequirePermissions } from '../platform/auth/public.decorator.js';
import {
  type Actor,
  type AuthenticatedRequest,
  CurrentActor,
  metadataFor,
} from '../platform/auth/request-context.js';
import { Allow } from '../platform/auth/allow.decorator.js';
import { Commands } from '../platform/event-store/commands.js';
import { Problem } from '../platform/http/problem.js';
import type { SqlClient } from '../platform/sql/sql-client.js';
import { SQL_CLIENT } from '../platform/tokens.js';
import {
  ALL_MARKER_PERMISSIONS,
  INTERNAL_PERMISSIONS,
  MARKER_PERMISSIONS,
  isInternal,
} from '../identity/policy/policy.js';
import { PageOf, PageQuery } from '../platform/http/paging.js';
import { UuidPipe, asArray } from '../platform/http/validation.js';
import { Written } from '../platform/http/written.js';
import { IsCalendarDate, IsInstant } from '../platform/http/dates.js';
import { DomainError } from '../platform/domain/domain-error.js';
import { addDays, instantOf, isTimeZone, weekStartOf, todayIn } from '../core/time/time.js';
import { LessonRules, lessonScope } from './lessons.policy.js';
import { lessonAggregate } from './lesson.decider.js';
import { LessonsService } from './lessons.service.js';
import { groupFacts, personFacts, programmeFacts } from './teaching-lookup.js';
import { meetingIdOf } from './planner.js';

const HH_MM = /^([01]\d|2[0-3]):[0-5]\d$/;

export class ListLessonsQuery extends PageQuery {
  @ApiPropertyOptional({ description: 'Lessons starting at or after this instant' })
  @IsOptional()
  @IsInstant()
  from?: string;
  @ApiPropertyOptional({ description: 'Lessons starting before this instant' })
  @IsOptional()
  @IsInstant()
  to?: string;
  @ApiPropertyOptional({ enum: LESSON_STATUSES, isArray: true })
  @IsOptional()
  @Transform(asArray)
  @IsIn(LESSON_STATUSES, { each: true })
  status?: LessonStatus[];
  @ApiPropertyOptional({ format: 'uuid' }) @IsOptional() @IsUUID() programme_id?: string;
  @ApiPropertyOptional({ format: 'uuid' }) @IsOptional() @IsUUID() group_id?: string;
  @ApiPropertyOptional({ format: 'uuid', description: 'The teacher or the cover teacher' })
  @IsOptional()
  @IsUUID()
  teacher_id?: string;
  @ApiPropertyOptional({ format: 'uuid' }) @IsOptional() @IsUUID() customer_id?: string;
  @ApiPropertyOptional({
    format: 'uuid',
    description: 'Lessons of the groups the student belonged to that day',
  })
  @IsOptional()
  @IsUUID()
  student_id?: string;
}

export class WeekQuery {
  @ApiPropertyOptional({
    description: 'A Monday (yyyy-MM-dd); default: this week. Any day is taken as its week.',
  })
  @IsOptional()
  @IsCalendarDate()
  week_start?: string;
  @ApiPropertyOptional({
    description: 'The zone the week is read in; default: the viewer’s, else Europe/London',
  })
  @IsOptional()
  @IsString()
  timezone?: string;
}

export class CreateLessonBody {
  @ApiProperty({ format: 'uuid' }) @IsUUID() programme_id!: string;
  @ApiProperty({ format: 'uuid' }) @IsUUID() group_id!: string;
  @ApiProperty({ format: 'uuid' }) @IsUUID() teacher_id!: string;
  @ApiProperty({ example: 'Europe/London' }) @IsString() timezone!: string;
  @ApiProperty({ example: '2026-09-07' }) @IsCalendarDate() local_date!: string;
  @ApiProperty({ example: '09:30' })
  @Matches(HH_MM, { message: 'local_start: must be a time HH:mm' })
  local_start!: string;
  @ApiProperty({ example: 60 }) @Type(() => Number) @IsInt() duration_minutes!: number;
}

export class RescheduleLessonBody {
  @ApiProperty({ example: '2026-09-08' }) @IsCalendarDate() local_date!: string;
  @ApiProperty({ example: '11:00' })
  @Matches(HH_MM, { message: 'local_start: must be a time HH:mm' })
  local_start!: string;
  @ApiPropertyOptional({ example: 60 }) @IsOptional() @Type(() => Number) @IsInt() duration_minutes?: number;
  @ApiProperty() @IsString() @IsNotEmpty() @MaxLength(1000) reason!: string;
}

export class CancelLessonBody {
  @ApiProperty() @IsString() @IsNotEmpty() @MaxLength(1000) reason!: string;
  @ApiProperty({ enum: CANCELLED_BY }) @IsIn(CANCELLED_BY) cancelled_by!: CancelledBy;
  @ApiProperty() @IsBoolean() charge_customer!: boolean;
  @ApiProperty() @IsBoolean() pay_teacher!: boolean;
}

export class CoverTeacherBody {
  @ApiProperty({
    format: 'uuid',
    nullable: true,
    type: String,
    description: 'null removes the cover teacher',
  })
  @ValidateIf((o: { teacher_id?: unknown }) => o.teacher_id !== null)
  @IsUUID()
  teacher_id!: string | null;
}

export class LessonNotesBody {
  @ApiProperty() @IsString() @MaxLength(10_000) notes!: string;
}

export class CancellationView {
  @ApiProperty() reason!: string;
  @ApiProperty({ enum: CANCELLED_BY }) cancelled_by!: string;
  @ApiProperty() charge_customer!: boolean;
  @ApiProperty() pay_teacher!: boolean;
  @ApiProperty() at!: string;
}

export class LessonView {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ enum: ['lesson', 'mentoring-session'] }) kind!: string;
  @ApiProperty({ format: 'uuid' }) programme_id!: string;
  @ApiProperty({ nullable: true, type: String }) programme_title!: string | null;
  @ApiProperty({ format: 'uuid' }) group_id!: string;
  @ApiProperty({ nullable: true, type: String }) group_name!: string | null;
  @ApiProperty({ format: 'uuid' }) customer_id!: string;
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) schedule_id!: string | null;
  @ApiProperty({ format: 'uuid' }) teacher_id!: string;
  @ApiProperty({ nullable: true, type: String }) teacher_name!: string | null;
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) cover_teacher_id!: string | null;
  @ApiProperty({ nullable: true, type: String }) cover_teacher_name!: string | null;
  @ApiProperty() starts_at!: string;
  @ApiProperty() ends_at!: string;
  @ApiProperty() duration_minutes!: number;
  @ApiProperty() timezone!: string;
  @ApiProperty() local_date!: string;
  @ApiProperty() local_start!: string;
  @ApiProperty({ enum: LESSON_STATUSES }) status!: string;
  @ApiProperty({ description: 'Edited on its own: schedule changes leave it alone' }) detached!: boolean;
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) meeting_id!: string | null;
  @ApiProperty({ nullable: true, type: String, description: 'Internal notes (internal users only)' })
  notes!: string | null;
  @ApiProperty({ type: CancellationView, nullable: true }) cancellation!: CancellationView | null;
}

export class LessonPage extends PageOf(LessonView) {}

export class LessonWeekView {
  @ApiProperty() week_start!: string;
  @ApiProperty() timezone!: string;
  @ApiProperty({ description: 'The week’s first instant' }) from!: string;
  @ApiProperty({ description: 'The instant after the week' }) to!: string;
  @ApiProperty({ type: [LessonView] }) items!: LessonView[];
}

export class LessonWritten extends Written {}

const ADMIN = MARKER_PERMISSIONS.admin;
/** A week view shows the lessons that take (or took) place: not cancelled or unscheduled ones. */
export const TAKING_PLACE: LessonStatus[] = ['planned', 'delivered', 'not_delivered'];
const EDIT = INTERNAL_PERMISSIONS.LESSON_EDITS;

export function lessonView(r: LessonListRow, actor: Pick<Actor, 'permissions'>): LessonView {
  const c = r.cancellation;
  return {
    id: r.id,
    kind: r.kind,
    programme_id: r.programme_id,
    programme_title: r.programme_title,
    group_id: r.group_id,
    group_name: r.group_name,
    customer_id: r.customer_id,
    schedule_id: r.schedule_id,
    teacher_id: r.teacher_id,
    teacher_name: r.teacher_name,
    cover_teacher_id: r.cover_teacher_id,
    cover_teacher_name: r.cover_teacher_name,
    starts_at: new Date(r.starts_at).toISOString(),
    ends_at: new Date(r.ends_at).toISOString(),
    duration_minutes: r.duration_minutes,
    timezone: r.timezone,
    local_date: r.local_date,
    local_start: r.local_start,
    status: r.status,
    detached: r.detached,
    meeting_id: r.meeting_id,
    notes: isInternal(actor.permissions) ? r.notes : null,
    cancellation: c
      ? {
          reason: c.reason,
          cancelled_by: c.cancelledBy,
          charge_customer: c.chargeCustomer,
          pay_teacher: c.payTeacher,
          at: c.at,
        }
      : null,
  };
}

/** The instants bounding a week (Monday 00:00 to the next Monday 00:00) in a zone. */
export function weekBounds(
  weekStart: string | undefined,
  timezone: string,
): { weekStart: string; from: string; to: string } {
  const monday = weekStartOf(weekStart ?? todayIn(timezone));
  return {
    weekStart: monday,
    from: instantOf(monday, '00:00', timezone).instant,
    to: instantOf(addDays(monday, 7), '00:00', timezone).instant,
  };
}

/**
 * Lessons (decision 0053): one per occurrence. Everyone who reads lessons reads them through one
 * scope (`lessonScope`: all, the teacher's own, the partner's customer or selected students, the
 * student's groups); others get 404. Internal users with CAN_EDIT_LESSONS (administrators implicitly)
 * plan one-off lessons, reschedule, cancel, assign cover and write notes. A clash answers 409 naming
 * the other lesson.
 */
@ApiTags('lessons')
@Controller('api/v1/lessons')
export class LessonsController {
  constructor(
    private readonly commands: Commands,
    private readonly lessons: LessonsService,
    @Inject(SQL_CLIENT) private readonly sql: SqlClient,
  ) {}

  @Get()
  @RequirePermissions(...ALL_MARKER_PERMISSIONS)
  @Allow(LessonRules.read)
  @ApiOkResponse({ type: LessonPage })
  async list(@CurrentActor() actor: Actor, @Query() q: ListLessonsQuery): Promise<LessonPage> {
    const page = await listLessons(this.sql, {
      page: q.page,
      size: q.size,
      from: q.from,
      to: q.to,
      status: q.status,
      programmeId: q.programme_id,
      groupId: q.group_id,
      teacherId: q.teacher_id,
      customerId: q.customer_id,
      studentId: q.student_id,
      scope: lessonScope(actor),
    });
    return { ...page, items: page.items.map((r) => lessonView(r, actor)) };
  }

  @Get('my')
  @RequirePermissions(...ALL_MARKER_PERMISSIONS)
  @Allow(LessonRules.read)
  @ApiOkResponse({ type: LessonWeekView })
  async my(@CurrentActor() actor: Actor, @Query() q: WeekQuery): Promise<LessonWeekView> {
    const timezone = await this.zoneFor(actor.userId, q.timezone);
    const week = weekBounds(q.week_start, timezone);
    const perms = actor.permissions;
    const own = isInternal(perms)
      ? { teacherId: actor.userId }
      : perms.has(MARKER_PERMISSIONS.student)
        ? { studentId: actor.userId }
        : {};
    const rows = await lessonsBetween(this.sql, {
      from: week.from,
      to: week.to,
      status: TAKING_PLACE,
      ...own,
      scope: lessonScope(actor),
    });
    return {
      week_start: week.weekStart,
      timezone,
      from: week.from,
      to: week.to,
      items: rows.map((r) => lessonView(r, actor)),
    };
  }

  @Get(':id')
  @RequirePermissions(...ALL_MARKER_PERMISSIONS)
  @Allow(LessonRules.read)
  @ApiOkResponse({ type: LessonView })
  @ApiNotFoundResponse({ description: 'Lesson not found' })
  async get(@CurrentActor() actor: Actor, @Param('id', UuidPipe) id: string): Promise<LessonView> {
    return lessonView(await this.visible(actor, id), actor);
  }

  @Post()
  @RequirePermissions(ADMIN, EDIT)
  @Allow(LessonRules.edit)
  @ApiCreatedResponse({ type: LessonView })
  @ApiConflictResponse({ description: 'The lesson would clash with another (detail names it)' })
  async create(
    @CurrentActor() actor: Actor,
    @Req() req: AuthenticatedRequest,
    @Body() body: CreateLessonBody,
  ): Promise<LessonView & { position: string }> {
    const programme = await programmeFacts(this.sql, body.programme_id);
    if (!programme) throw new DomainError('invalid', 'programme_id: no such programme');
    const group = await groupFacts(this.sql, body.group_id);
    if (!group || group.programme_id !== programme.id)
      throw new DomainError('invalid', 'group_id: not a group of this programme');
    await this.lessons.requireTeacher(body.teacher_id);
    const timing = this.lessons.timing(
      body.timezone,
      body.local_date,
      body.local_start,
      body.duration_minutes,
    );
    const id = randomUUID();
    await this.lessons.refuseClash({
      lessonId: id,
      groupId: group.id,
      teacherIds: [body.teacher_id],
      timing,
    });
    const { position } = await this.commands.run(
      lessonAggregate,
      {
        type: 'PlanLesson',
        lessonId: id,
        kind: programme.kind,
        programmeId: programme.id,
        groupId: group.id,
        customerId: programme.customer_id,
        scheduleId: null,
        teacherId: body.teacher_id,
        meetingId: meetingIdOf(id),
        ...timing,
      },
      metadataFor(req),
    );
    await this.lessons.caughtUp();
    const row = await lessonById(this.sql, id);
    if (!row) throw new Problem(HttpStatus.ACCEPTED, 'Lesson planned; not yet readable');
    return { ...lessonView(row, actor), position };
  }

  @Put(':id/reschedule')
  @RequirePermissions(ADMIN, EDIT)
  @Allow(LessonRules.edit)
  @ApiOkResponse({ type: LessonWritten })
  @ApiNotFoundResponse({ description: 'Lesson not found' })
  @ApiConflictResponse({
    description: 'Not a planned lesson, or the new time clashes (detail names the lesson)',
  })
  async reschedule(
    @Req() req: AuthenticatedRequest,
    @Param('id', UuidPipe) id: string,
    @Body() body: RescheduleLessonBody,
  ): Promise<LessonWritten> {
    const { state } = await this.commands.load(lessonAggregate, id);
    if (!state.exists || !state.timing) throw new Problem(HttpStatus.NOT_FOUND, 'Lesson not found');
    const timing = this.lessons.timing(
      state.timing.timezone,
      body.local_date,
      body.local_start,
      body.duration_minutes ?? state.timing.durationMinutes,
    );
    if (state.status === 'planned')
      await this.lessons.refuseClash({
        lessonId: id,
        groupId: state.groupId,
        teacherIds: [state.teacherId, ...(state.coverTeacherId ? [state.coverTeacherId] : [])],
        timing,
      });
    const { position } = await this.commands.run(
      lessonAggregate,
      { type: 'RescheduleLesson', lessonId: id, reason: body.reason, ...timing },
      metadataFor(req),
    );
    return { id, position };
  }

  @Put(':id/cancel')
  @RequirePermissions(ADMIN, EDIT)
  @Allow(LessonRules.edit)
  @ApiOkResponse({ type: LessonWritten })
  @ApiNotFoundResponse({ description: 'Lesson not found' })
  @ApiConflictResponse({ description: 'Not a planned lesson' })
  async cancel(
    @Req() req: AuthenticatedRequest,
    @Param('id', UuidPipe) id: string,
    @Body() body: CancelLessonBody,
  ): Promise<LessonWritten> {
    const { position } = await this.commands.run(
      lessonAggregate,
      {
        type: 'CancelLesson',
        lessonId: id,
        reason: body.reason,
        cancelledBy: body.cancelled_by,
        chargeCustomer: body.charge_customer,
        payTeacher: body.pay_teacher,
      },
      metadataFor(req),
    );
    return { id, position };
  }

  @Put(':id/cover-teacher')
  @RequirePermissions(ADMIN, EDIT)
  @Allow(LessonRules.edit)
  @ApiOkResponse({ type: LessonWritten })
  @ApiNotFoundResponse({ description: 'Lesson not found' })
  @ApiConflictResponse({
    description: 'Not a planned lesson, or the cover teacher is busy (detail names the lesson)',
  })
  async cover(
    @Req() req: AuthenticatedRequest,
    @Param('id', UuidPipe) id: string,
    @Body() body: CoverTeacherBody,
  ): Promise<LessonWritten> {
    const { state } = await this.commands.load(lessonAggregate, id);
    if (!state.exists || !state.timing) throw new Problem(HttpStatus.NOT_FOUND, 'Lesson not found');
    if (body.teacher_id !== null) {
      await this.lessons.requireTeacher(body.teacher_id);
      if (state.status === 'planned' && body.teacher_id !== state.teacherId)
        await this.lessons.refuseClash({
          lessonId: id,
          groupId: null,
          teacherIds: [body.teacher_id],
          timing: state.timing,
        });
    }
    const { position } = await this.commands.run(
      lessonAggregate,
      { type: 'ChangeCoverTeacher', lessonId: id, coverTeacherId: body.teacher_id },
      metadataFor(req),
    );
    return { id, position };
  }

  @Put(':id/notes')
  @RequirePermissions(ADMIN, EDIT)
  @Allow(LessonRules.edit)
  @ApiOkResponse({ type: LessonWritten })
  @ApiNotFoundResponse({ description: 'Lesson not found' })
  async notes(
    @Req() req: AuthenticatedRequest,
    @Param('id', UuidPipe) id: string,
    @Body() body: LessonNotesBody,
  ): Promise<LessonWritten> {
    const { position } = await this.commands.run(
      lessonAggregate,
      { type: 'ChangeLessonNotes', lessonId: id, notes: body.notes },
      metadataFor(req),
    );
    return { id, position };
  }

  /**
   * Interim (until attendance records delivery from registers): an administrator marks a planned
   * lesson delivered. The demo data uses it for past lessons.
   */
  @Put(':id/delivered')
  @RequirePermissions(ADMIN)
  @Allow(LessonRules.edit)
  @ApiOkResponse({ type: LessonWritten })
  @ApiNotFoundResponse({ description: 'Lesson not found' })
  @ApiConflictResponse({ description: 'Not a planned lesson' })
  async delivered(
    @Req() req: AuthenticatedRequest,
    @Param('id', UuidPipe) id: string,
  ): Promise<LessonWritten> {
    const { position } = await this.commands.run(
      lessonAggregate,
      { type: 'MarkLessonDelivered', lessonId: id },
      metadataFor(req),
    );
    return { id, position };
  }

  private async visible(actor: Actor, id: string): Promise<LessonListRow> {
    const row = await lessonById(this.sql, id);
    if (!row || !(await lessonVisible(this.sql, id, lessonScope(actor))))
      throw new Problem(HttpStatus.NOT_FOUND, 'Lesson not found');
    return row;
  }

  private async zoneFor(userId: string, asked: string | undefined): Promise<string> {
    if (asked !== undefined) {
      if (!isTimeZone(asked)) throw new DomainError('invalid', 'timezone: unknown time zone');
      return asked;
    }
    const me = await personFacts(this.sql, userId);
    return me?.timezone && isTimeZone(me.timezone) ? me.timezone : 'Europe/London';
  }
}
