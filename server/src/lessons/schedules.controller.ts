import { randomUUID } from 'node:crypto';
import { Body, Controller, Get, HttpStatus, Inject, Param, Post, Put, Query, Req } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiProperty,
  ApiPropertyOptional,
  ApiTags,
} from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  IsUUID,
  Matches,
  ValidateIf,
} from 'class-validator';
import {
  listSchedules,
  scheduleById,
  scheduleLessonCounts,
  type ScheduleListRow,
  type ScheduleRule,
} from '@portal/projections';
import { RequirePermissions } from '../platform/auth/public.decorator.js';
import { type AuthenticatedRequest, metadataFor } from '../platform/auth/request-context.js';
import { Allow } from '../platform/auth/allow.decorator.js';
import { Commands } from '../platform/event-store/commands.js';
import { Problem } from '../platform/http/problem.js';
import type { SqlClient } from '../platform/sql/sql-client.js';
import { SQL_CLIENT } from '../platform/tokens.js';
import { INTERNAL_PERMISSIONS, MARKER_PERMISSIONS } from '../identity/policy/policy.js';
import { PageOf, PageQuery } from '../platform/http/paging.js';
import { UuidPipe } from '../platform/http/validation.js';
import { Written } from '../platform/http/written.js';
import { IsCalendarDate } from '../platform/http/dates.js';
import { DomainError } from '../platform/domain/domain-error.js';
import { addDays, todayIn } from '../core/time/time.js';
import { LessonRules } from './lessons.policy.js';
import { scheduleAggregate } from './schedule.decider.js';
import { LessonPlanner, type PlanResult } from './lesson-planner.js';
import { LessonsService } from './lessons.service.js';
import { groupFacts, programmeFacts } from './teaching-lookup.js';
import { occurrences } from './planner.js';

const HH_MM = /^([01]\d|2[0-3]):[0-5]\d$/;

export class ScheduleBody {
  @ApiProperty({ format: 'uuid' }) @IsUUID() group_id!: string;
  @ApiProperty({ format: 'uuid' }) @IsUUID() teacher_id!: string;
  @ApiProperty({ example: 'Europe/London' }) @IsString() timezone!: string;
  @ApiProperty({ type: [Number], example: [1, 4], description: 'ISO weekdays, 1 = Monday' })
  @IsArray()
  @ArrayMaxSize(7)
  @IsInt({ each: true })
  weekdays!: number[];
  @ApiProperty({ example: '09:30' })
  @Matches(HH_MM, { message: 'local_start: must be a time HH:mm' })
  local_start!: string;
  @ApiProperty({ example: 60, minimum: 5, maximum: 720 })
  @Type(() => Number)
  @IsInt()
  duration_minutes!: number;
  @ApiPropertyOptional({ default: 1, minimum: 1, maximum: 52 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  interval_weeks?: number;
  @ApiProperty({ example: '2026-09-07' }) @IsCalendarDate() valid_from!: string;
  @ApiPropertyOptional({ nullable: true, type: String })
  @IsOptional()
  @ValidateIf((o: { valid_until?: unknown }) => o.valid_until !== null)
  @IsCalendarDate()
  valid_until?: string | null;
}

export class CreateScheduleBody extends ScheduleBody {
  @ApiPropertyOptional({
    description:
      'Also plan the lessons between valid_from and today (entering a timetable that already started); default: from today',
  })
  @IsOptional()
  @IsBoolean()
  plan_past?: boolean;
}

export class ListSchedulesQuery extends PageQuery {
  @ApiPropertyOptional({ format: 'uuid' }) @IsOptional() @IsUUID() programme_id?: string;
  @ApiPropertyOptional({ format: 'uuid' }) @IsOptional() @IsUUID() teacher_id?: string;
  @ApiPropertyOptional({ format: 'uuid' }) @IsOptional() @IsUUID() group_id?: string;
}

export class ScheduleExceptionBody {
  @ApiProperty({ example: '2026-09-14' }) @IsCalendarDate() local_date!: string;
  @ApiProperty({ enum: ['skip', 'move'] }) @IsIn(['skip', 'move']) action!: 'skip' | 'move';
  @ApiPropertyOptional({ example: '11:00', nullable: true, type: String })
  @IsOptional()
  @ValidateIf((o: { new_local_start?: unknown }) => o.new_local_start !== null)
  @Matches(HH_MM, { message: 'new_local_start: must be a time HH:mm' })
  new_local_start?: string | null;
}

export class ScheduleExceptionView {
  @ApiProperty() local_date!: string;
  @ApiProperty({ enum: ['skip', 'move'] }) action!: string;
  @ApiProperty({ nullable: true, type: String }) new_local_start!: string | null;
}

export class ScheduleConflictView {
  @ApiProperty() local_date!: string;
  @ApiProperty() local_start!: string;
  @ApiProperty({ format: 'uuid', description: 'The lesson it clashes with' }) lesson_id!: string;
  @ApiProperty({ enum: ['teacher', 'student'] }) reason!: string;
}

export class OccurrenceView {
  @ApiProperty({ format: 'uuid' }) lesson_id!: string;
  @ApiProperty() local_date!: string;
  @ApiProperty() local_start!: string;
  @ApiProperty() starts_at!: string;
  @ApiProperty() ends_at!: string;
}

export class ScheduleCountsView {
  @ApiProperty() planned!: number;
  @ApiProperty() delivered!: number;
  @ApiProperty() cancelled!: number;
  @ApiProperty() unscheduled!: number;
  @ApiProperty({ description: 'Lessons edited on their own (rescheduled), which rule changes leave alone' })
  detached!: number;
}

export class ScheduleView {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ format: 'uuid' }) programme_id!: string;
  @ApiProperty({ format: 'uuid' }) group_id!: string;
  @ApiProperty({ nullable: true, type: String }) group_name!: string | null;
  @ApiProperty({ format: 'uuid' }) teacher_id!: string;
  @ApiProperty({ nullable: true, type: String }) teacher_name!: string | null;
  @ApiProperty() timezone!: string;
  @ApiProperty({ type: [Number] }) weekdays!: number[];
  @ApiProperty() local_start!: string;
  @ApiProperty() duration_minutes!: number;
  @ApiProperty() interval_weeks!: number;
  @ApiProperty() valid_from!: string;
  @ApiProperty({ nullable: true, type: String }) valid_until!: string | null;
  @ApiProperty({ type: [ScheduleExceptionView] }) exceptions!: ScheduleExceptionView[];
  @ApiProperty({ type: [ScheduleConflictView], description: 'Occurrences not planned because they clash' })
  conflicts!: ScheduleConflictView[];
  @ApiProperty({ type: [OccurrenceView], description: 'The next occurrences the rule gives (up to 5)' })
  next_occurrences!: OccurrenceView[];
  @ApiProperty({ type: ScheduleCountsView }) counts!: ScheduleCountsView;
}

export class SchedulePage extends PageOf(ScheduleView) {}

export class ScheduleWritten extends Written {
  @ApiProperty() planned!: number;
  @ApiProperty() changed!: number;
  @ApiProperty() unscheduled!: number;
  @ApiProperty({ type: [ScheduleConflictView] }) conflicts!: ScheduleConflictView[];
}

const ADMIN = MARKER_PERMISSIONS.admin;
const PROGRAMMES = INTERNAL_PERMISSIONS.PROGRAMME;

const ruleOf = (body: ScheduleBody): ScheduleRule => ({
  groupId: body.group_id,
  teacherId: body.teacher_id,
  timezone: body.timezone,
  weekdays: body.weekdays,
  localStart: body.local_start,
  durationMinutes: body.duration_minutes,
  intervalWeeks: body.interval_weeks ?? 1,
  validFrom: body.valid_from,
  validUntil: body.valid_until ?? null,
});

const conflictsView = (c: PlanResult['conflicts']): ScheduleConflictView[] =>
  c.map((x) => ({
    local_date: x.localDate,
    local_start: x.localStart,
    lesson_id: x.lessonId,
    reason: x.reason,
  }));

/**
 * Schedules (decision 0053): the weekly rules of a programme's groups. Internal users with
 * CAN_MANAGE_PROGRAMMES (administrators implicitly) read and change them; every change runs the lesson
 * planner at once, and its answer says what it planned and which occurrences clashed.
 */
@ApiTags('lessons')
@Controller('api/v1')
export class SchedulesController {
  constructor(
    private readonly commands: Commands,
    private readonly planner: LessonPlanner,
    private readonly lessons: LessonsService,
    @Inject(SQL_CLIENT) private readonly sql: SqlClient,
  ) {}

  @Get('programmes/:id/schedules')
  @RequirePermissions(ADMIN, PROGRAMMES)
  @Allow(LessonRules.schedules)
  @ApiOkResponse({ type: SchedulePage })
  async list(@Param('id', UuidPipe) programmeId: string, @Query() q: PageQuery): Promise<SchedulePage> {
    if (!(await programmeFacts(this.sql, programmeId)))
      throw new Problem(HttpStatus.NOT_FOUND, 'Programme not found');
    const page = await listSchedules(this.sql, { ...q, programmeId });
    return { ...page, items: await Promise.all(page.items.map((r) => this.view(r))) };
  }

  @Post('programmes/:id/schedules')
  @RequirePermissions(ADMIN, PROGRAMMES)
  @Allow(LessonRules.schedules)
  @ApiCreatedResponse({ type: ScheduleWritten })
  @ApiNotFoundResponse({ description: 'Programme not found' })
  async create(
    @Req() req: AuthenticatedRequest,
    @Param('id', UuidPipe) programmeId: string,
    @Body() body: CreateScheduleBody,
  ): Promise<ScheduleWritten> {
    const programme = await programmeFacts(this.sql, programmeId);
    if (!programme) throw new Problem(HttpStatus.NOT_FOUND, 'Programme not found');
    if (programme.status === 'cancelled' || programme.status === 'completed')
      throw new DomainError('conflict', `The programme is ${programme.status}`);
    await this.checkGroupAndTeacher(programmeId, body);
    const id = randomUUID();
    const metadata = metadataFor(req);
    const { position } = await this.commands.run(
      scheduleAggregate,
      {
        type: 'CreateSchedule',
        scheduleId: id,
        programmeId,
        customerId: programme.customer_id,
        rule: ruleOf(body),
      },
      metadata,
    );
    const plan = await this.planner.planSchedule(
      id,
      metadata,
      body.plan_past ? { from: body.valid_from } : {},
    );
    return this.written(id, position, plan);
  }

  @Get('schedules')
  @RequirePermissions(ADMIN, PROGRAMMES)
  @Allow(LessonRules.schedules)
  @ApiOkResponse({ type: SchedulePage })
  async listAll(@Query() q: ListSchedulesQuery): Promise<SchedulePage> {
    const page = await listSchedules(this.sql, {
      page: q.page,
      size: q.size,
      programmeId: q.programme_id,
      teacherId: q.teacher_id,
      groupId: q.group_id,
    });
    return { ...page, items: await Promise.all(page.items.map((r) => this.view(r))) };
  }

  @Get('schedules/:id')
  @RequirePermissions(ADMIN, PROGRAMMES)
  @Allow(LessonRules.schedules)
  @ApiOkResponse({ type: ScheduleView })
  @ApiNotFoundResponse({ description: 'Schedule not found' })
  async get(@Param('id', UuidPipe) id: string): Promise<ScheduleView> {
    const row = await scheduleById(this.sql, id);
    if (!row) throw new Problem(HttpStatus.NOT_FOUND, 'Schedule not found');
    return this.view(row);
  }

  @Put('schedules/:id')
  @RequirePermissions(ADMIN, PROGRAMMES)
  @Allow(LessonRules.schedules)
  @ApiOkResponse({ type: ScheduleWritten })
  @ApiNotFoundResponse({ description: 'Schedule not found' })
  async update(
    @Req() req: AuthenticatedRequest,
    @Param('id', UuidPipe) id: string,
    @Body() body: ScheduleBody,
  ): Promise<ScheduleWritten> {
    const { state } = await this.commands.load(scheduleAggregate, id);
    if (!state.exists) throw new Problem(HttpStatus.NOT_FOUND, 'Schedule not found');
    await this.checkGroupAndTeacher(state.programmeId, body);
    const metadata = metadataFor(req);
    const { position } = await this.commands.run(
      scheduleAggregate,
      { type: 'ChangeSchedule', scheduleId: id, rule: ruleOf(body) },
      metadata,
    );
    return this.written(id, position, await this.planner.planSchedule(id, metadata));
  }

  @Post('schedules/:id/exceptions')
  @RequirePermissions(ADMIN, PROGRAMMES)
  @Allow(LessonRules.schedules)
  @ApiCreatedResponse({ type: ScheduleWritten })
  @ApiNotFoundResponse({ description: 'Schedule not found' })
  async addException(
    @Req() req: AuthenticatedRequest,
    @Param('id', UuidPipe) id: string,
    @Body() body: ScheduleExceptionBody,
  ): Promise<ScheduleWritten> {
    const metadata = metadataFor(req);
    const { position } = await this.commands.run(
      scheduleAggregate,
      {
        type: 'AddScheduleException',
        scheduleId: id,
        localDate: body.local_date,
        action: body.action,
        newLocalStart: body.new_local_start ?? null,
      },
      metadata,
    );
    return this.written(id, position, await this.planner.planSchedule(id, metadata));
  }

  private async checkGroupAndTeacher(programmeId: string, body: ScheduleBody): Promise<void> {
    const group = await groupFacts(this.sql, body.group_id);
    if (!group || group.programme_id !== programmeId)
      throw new DomainError('invalid', 'group_id: not a group of this programme');
    await this.lessons.requireTeacher(body.teacher_id);
  }

  private written(id: string, position: string, plan: PlanResult): ScheduleWritten {
    return {
      id,
      position: BigInt(plan.position) > BigInt(position) ? plan.position : position,
      planned: plan.planned,
      changed: plan.changed,
      unscheduled: plan.unscheduled,
      conflicts: conflictsView(plan.conflicts),
    };
  }

  private async view(r: ScheduleListRow): Promise<ScheduleView> {
    const today = todayIn(r.timezone);
    const next = occurrences(
      {
        id: r.id,
        timezone: r.timezone,
        weekdays: r.weekdays,
        localStart: r.local_start,
        durationMinutes: r.duration_minutes,
        intervalWeeks: r.interval_weeks,
        validFrom: r.valid_from,
        validUntil: r.valid_until,
        exceptions: r.exceptions,
      },
      {
        from: today > r.valid_from ? today : r.valid_from,
        to: addDays(today > r.valid_from ? today : r.valid_from, 62),
      },
    ).slice(0, 5);
    const counts: ScheduleCountsView = {
      planned: 0,
      delivered: 0,
      cancelled: 0,
      unscheduled: 0,
      detached: 0,
    };
    for (const c of await scheduleLessonCounts(this.sql, r.id)) {
      if (c.status in counts) counts[c.status as keyof ScheduleCountsView] += c.n;
      if (c.detached) counts.detached += c.n;
    }
    return {
      id: r.id,
      programme_id: r.programme_id,
      group_id: r.group_id,
      group_name: r.group_name,
      teacher_id: r.teacher_id,
      teacher_name: r.teacher_name,
      timezone: r.timezone,
      weekdays: r.weekdays,
      local_start: r.local_start,
      duration_minutes: r.duration_minutes,
      interval_weeks: r.interval_weeks,
      valid_from: r.valid_from,
      valid_until: r.valid_until,
      exceptions: r.exceptions.map((e) => ({
        local_date: e.localDate,
        action: e.action,
        new_local_start: e.newLocalStart,
      })),
      conflicts: conflictsView(r.conflicts),
      next_occurrences: next.map((o) => ({
        lesson_id: o.lessonId,
        local_date: o.localDate,
        local_start: o.localStart,
        starts_at: o.startsAt,
        ends_at: o.endsAt,
      })),
      counts,
    };
  }
}
