import { ALL_MARKER_PERMISSIONS } from '../identity/policy/policy.js';
import { randomUUID } from 'node:crypto';
import { Body, Controller, Get, HttpStatus, Inject, Param, Post, Put, Query, Req } from '@nestjs/common';
import {
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiForbiddenResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiProperty,
  ApiPropertyOptional,
  ApiTags,
} from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsIn,
  IsNotEmpty,
  IsOptional,
  IsString,
  IsUUID,
  MaxLength,
} from 'class-validator';
import {
  COVER_MODES,
  COVER_STATUSES,
  coverLessons,
  coverRequestById,
  coverTeacherFacts,
  listCoverRequests,
  type CoverMode,
  type CoverRequestListRow,
  type CoverStatus,
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
import { PageOf, PageQuery } from '../platform/http/paging.js';
import { UuidPipe, asArray } from '../platform/http/validation.js';
import { Written } from '../platform/http/written.js';
import { DomainError } from '../platform/domain/domain-error.js';
import { isInternal } from '../identity/policy/policy.js';
import { lessonAggregate } from '../lessons/lesson.decider.js';
import { LessonsService } from '../lessons/lessons.service.js';
import { coverRequestAggregate, type CoverLessonFacts } from './cover-request.decider.js';
import {
  CoverRules,
  mayCancelCoverRequest,
  mayRequestCoverForAnyLesson,
  mayTakeCover,
  seesAllCoverRequests,
} from './cover.policy.js';

const VIEWS = ['offers', 'mine', 'all'] as const;
type View = (typeof VIEWS)[number];

export class ListCoverRequestsQuery extends PageQuery {
  @ApiPropertyOptional({ enum: COVER_STATUSES, isArray: true })
  @IsOptional()
  @Transform(asArray)
  @IsIn(COVER_STATUSES, { each: true })
  status?: CoverStatus[];
  @ApiPropertyOptional({
    enum: VIEWS,
    description:
      'offers: open requests I can take; mine: requests I raised or filled; all: everything I may see (default)',
  })
  @IsOptional()
  @IsIn(VIEWS)
  view?: View;
  @ApiPropertyOptional({ format: 'uuid', description: 'Requests that include this lesson' })
  @IsOptional()
  @IsUUID()
  lesson_id?: string;
}

export class CreateCoverRequestBody {
  @ApiProperty({ type: [String], format: 'uuid', description: 'Planned future lessons to cover' })
  @IsArray()
  @ArrayMinSize(1, { message: 'lesson_ids: name at least one lesson' })
  @ArrayMaxSize(50)
  @IsUUID('all', { each: true, message: 'lesson_ids: each must be a uuid' })
  lesson_ids!: string[];
  @ApiProperty() @IsString() @IsNotEmpty() @MaxLength(1000) reason!: string;
  @ApiProperty({ enum: COVER_MODES, description: 'broadcast: every eligible teacher; targeted: teacher_ids' })
  @IsIn(COVER_MODES)
  mode!: CoverMode;
  @ApiPropertyOptional({ type: [String], format: 'uuid', description: 'For mode targeted' })
  @IsOptional()
  @IsArray()
  @IsUUID('all', { each: true, message: 'teacher_ids: each must be a uuid' })
  teacher_ids?: string[];
}

export class CoverLessonView {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() starts_at!: string;
  @ApiProperty() ends_at!: string;
  @ApiProperty() timezone!: string;
  @ApiProperty() local_date!: string;
  @ApiProperty() local_start!: string;
  @ApiProperty() status!: string;
  @ApiProperty({ format: 'uuid' }) teacher_id!: string;
  @ApiProperty({ nullable: true, type: String }) teacher_name!: string | null;
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) cover_teacher_id!: string | null;
  @ApiProperty({ nullable: true, type: String }) programme_title!: string | null;
  @ApiProperty({ nullable: true, type: String }) group_name!: string | null;
}

export class CoverResponseView {
  @ApiProperty({ format: 'uuid' }) teacher_id!: string;
  @ApiProperty({ enum: ['accepted', 'declined'] }) response!: string;
  @ApiProperty() at!: string;
}

export class CoverRequestView {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ type: [String] }) lesson_ids!: string[];
  @ApiProperty({ type: [CoverLessonView] }) lessons!: CoverLessonView[];
  @ApiProperty() reason!: string;
  @ApiProperty({ enum: COVER_MODES }) mode!: string;
  @ApiProperty({ type: [String] }) teacher_ids!: string[];
  @ApiProperty({ format: 'uuid' }) requested_by!: string;
  @ApiProperty({ nullable: true, type: String }) requested_by_name!: string | null;
  @ApiProperty({ enum: COVER_STATUSES }) status!: string;
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) filled_by!: string | null;
  @ApiProperty({ nullable: true, type: String }) filled_by_name!: string | null;
  @ApiProperty({ type: [CoverResponseView] }) responses!: CoverResponseView[];
  @ApiProperty({ description: 'The first lesson’s start: the request expires then' })
  first_starts_at!: string;
  @ApiProperty() created_at!: string;
  @ApiProperty({ description: 'The viewer may accept it now (eligible, offered, and free at that time)' })
  can_accept!: boolean;
  @ApiProperty({ description: 'The viewer may cancel it' }) can_cancel!: boolean;
}

export class CoverRequestPage extends PageOf(CoverRequestView) {}
export class CoverRequestWritten extends Written {}

const iso = (d: Date | string) => new Date(d).toISOString();

/**
 * Cover requests (decision 0054). Internal users only: teachers raise cover for their own planned
 * future lessons; lesson editors (administrators implicitly) for any and see all. Teachers holding
 * CAN_ACCESS_COVER_REQUESTS without a quality issue are offered open requests (broadcast, or targeted
 * at them) for lessons not their own, and the first eligible acceptance fills the request: each lesson
 * gets them as cover teacher through the lesson aggregate (the clash rule of PUT /lessons/{id}/cover-teacher).
 */
@ApiTags('cover-requests')
@Controller('api/v1/cover-requests')
export class CoverRequestsController {
  constructor(
    private readonly commands: Commands,
    private readonly lessons: LessonsService,
    @Inject(SQL_CLIENT) private readonly sql: SqlClient,
  ) {}

  @Get()
  @RequirePermissions(...ALL_MARKER_PERMISSIONS)
  @Allow(CoverRules.use)
  @ApiOkResponse({ type: CoverRequestPage })
  async list(@CurrentActor() actor: Actor, @Query() q: ListCoverRequestsQuery): Promise<CoverRequestPage> {
    const taker = await this.takesCover(actor);
    const view = q.view ?? 'all';
    const me = actor.userId;
    const all = seesAllCoverRequests(actor.permissions);
    const page = await listCoverRequests(this.sql, {
      page: q.page,
      size: q.size,
      status: q.status,
      lessonId: q.lesson_id,
      offeredTo: view === 'offers' ? me : undefined,
      scope:
        view === 'offers' && !taker
          ? () => 'false'
          : view === 'mine'
            ? (bind) => `(r.requested_by = ${bind(me)}::uuid OR r.filled_by = ${bind(me)}::uuid)`
            : view === 'all' && !all
              ? (bind, now) => {
                  const p = bind(me);
                  const own = `(r.requested_by = ${p}::uuid OR r.filled_by = ${p}::uuid)`;
                  if (!taker) return own;
                  // Offers use the same condition as view=offers.
                  return `(${own} OR (r.status = 'open' AND r.first_starts_at > ${now}::timestamptz
                  AND (r.mode = 'broadcast' OR r.teacher_ids @> jsonb_build_array(${p}::text))
                  AND NOT r.lesson_teacher_ids @> jsonb_build_array(${p}::text)))`;
                }
              : null,
    });
    const items: CoverRequestView[] = [];
    for (const row of page.items) items.push(await this.view(actor, row, taker));
    return { ...page, items };
  }

  @Get(':id')
  @RequirePermissions(...ALL_MARKER_PERMISSIONS)
  @Allow(CoverRules.use)
  @ApiOkResponse({ type: CoverRequestView })
  @ApiNotFoundResponse({ description: 'Cover request not found' })
  async get(@CurrentActor() actor: Actor, @Param('id', UuidPipe) id: string): Promise<CoverRequestView> {
    const taker = await this.takesCover(actor);
    const row = await coverRequestById(this.sql, id);
    if (!row || !this.sees(actor, row, taker))
      throw new Problem(HttpStatus.NOT_FOUND, 'Cover request not found');
    return this.view(actor, row, taker);
  }

  @Post()
  @RequirePermissions(...ALL_MARKER_PERMISSIONS)
  @Allow(CoverRules.use)
  @ApiCreatedResponse({ type: CoverRequestWritten })
  @ApiForbiddenResponse({ description: 'Not your lesson (teachers raise cover for their own lessons)' })
  @ApiConflictResponse({
    description: 'A lesson is not planned, has started, or already has an open request',
  })
  async create(
    @CurrentActor() actor: Actor,
    @Req() req: AuthenticatedRequest,
    @Body() body: CreateCoverRequestBody,
  ): Promise<CoverRequestWritten> {
    const lessons: CoverLessonFacts[] = [];
    for (const lessonId of [...new Set(body.lesson_ids)]) {
      const { state } = await this.commands.load(lessonAggregate, lessonId);
      const mine = state.teacherId === actor.userId;
      if (
        !state.exists ||
        !state.timing ||
        (!mine && state.coverTeacherId !== actor.userId && !mayRequestCoverForAnyLesson(actor.permissions))
      )
        throw new DomainError('invalid', `lesson_ids: no such lesson of yours (${lessonId})`);
      if (!mine && !mayRequestCoverForAnyLesson(actor.permissions))
        throw new DomainError(
          'forbidden',
          `Only the lesson’s teacher or a lesson editor can request cover for ${lessonId}`,
        );
      lessons.push({
        lessonId,
        teacherId: state.teacherId,
        customerId: state.customerId,
        status: state.status,
        startsAt: state.timing.startsAt,
      });
    }
    for (const t of body.teacher_ids ?? []) await this.lessons.requireTeacher(t, 'teacher_ids');
    await this.lessons.caughtUp();
    for (const l of lessons) {
      const open = await listCoverRequests(this.sql, { lessonId: l.lessonId, status: ['open'], size: 1 });
      if (open.items[0])
        throw new DomainError(
          'conflict',
          `Lesson ${l.lessonId} already has an open cover request (${open.items[0].id})`,
          'cover_already_requested',
        );
    }
    const id = randomUUID();
    const { position } = await this.commands.run(
      coverRequestAggregate,
      {
        type: 'RequestCover',
        coverRequestId: id,
        requestedBy: actor.userId,
        lessons,
        reason: body.reason,
        mode: body.mode,
        teacherIds: body.teacher_ids ?? [],
        now: new Date().toISOString(),
      },
      metadataFor(req),
    );
    return { id, position };
  }

  @Put(':id/accept')
  @RequirePermissions(...ALL_MARKER_PERMISSIONS)
  @Allow(CoverRules.use)
  @ApiOkResponse({ type: CoverRequestWritten })
  @ApiForbiddenResponse({ description: 'Not offered to you, no cover permission, or a quality issue' })
  @ApiConflictResponse({
    description: 'Filled, cancelled or expired; or you are busy then (detail names the lesson)',
  })
  async accept(
    @CurrentActor() actor: Actor,
    @Req() req: AuthenticatedRequest,
    @Param('id', UuidPipe) id: string,
  ): Promise<CoverRequestWritten> {
    if (!(await this.takesCover(actor)))
      throw new DomainError(
        'forbidden',
        'You cannot take cover (no cover-request permission, or a quality issue)',
      );
    const row = await coverRequestById(this.sql, id);
    if (!row) throw new Problem(HttpStatus.NOT_FOUND, 'Cover request not found');
    // The clash rule of PUT /lessons/{id}/cover-teacher, for every lesson, before the request is filled.
    for (const lessonId of row.lesson_ids) {
      const { state } = await this.commands.load(lessonAggregate, lessonId);
      if (state.exists && state.timing && state.status === 'planned')
        await this.lessons.refuseClash({
          lessonId,
          groupId: null,
          teacherIds: [actor.userId],
          timing: state.timing,
        });
    }
    const { position } = await this.commands.run(
      coverRequestAggregate,
      { type: 'AcceptCover', coverRequestId: id, teacherId: actor.userId, now: new Date().toISOString() },
      metadataFor(req),
    );
    let last = position;
    for (const lessonId of row.lesson_ids) {
      const written = await this.commands.run(
        lessonAggregate,
        { type: 'ChangeCoverTeacher', lessonId, coverTeacherId: actor.userId },
        { ...metadataFor(req), coverRequestId: id },
      );
      last = written.position;
    }
    return { id, position: last };
  }

  @Put(':id/decline')
  @RequirePermissions(...ALL_MARKER_PERMISSIONS)
  @Allow(CoverRules.use)
  @ApiOkResponse({ type: CoverRequestWritten })
  @ApiForbiddenResponse({ description: 'Not offered to you' })
  @ApiConflictResponse({ description: 'No longer open' })
  async decline(
    @CurrentActor() actor: Actor,
    @Req() req: AuthenticatedRequest,
    @Param('id', UuidPipe) id: string,
  ): Promise<CoverRequestWritten> {
    if (!(await this.takesCover(actor)))
      throw new DomainError(
        'forbidden',
        'You cannot take cover (no cover-request permission, or a quality issue)',
      );
    const { position } = await this.commands.run(
      coverRequestAggregate,
      { type: 'DeclineCover', coverRequestId: id, teacherId: actor.userId, now: new Date().toISOString() },
      metadataFor(req),
    );
    return { id, position };
  }

  @Put(':id/cancel')
  @RequirePermissions(...ALL_MARKER_PERMISSIONS)
  @Allow(CoverRules.use)
  @ApiOkResponse({ type: CoverRequestWritten })
  @ApiForbiddenResponse({ description: 'Only the requester or a lesson editor cancels' })
  @ApiConflictResponse({ description: 'Already filled' })
  async cancel(
    @CurrentActor() actor: Actor,
    @Req() req: AuthenticatedRequest,
    @Param('id', UuidPipe) id: string,
  ): Promise<CoverRequestWritten> {
    const { state } = await this.commands.load(coverRequestAggregate, id);
    if (!state.exists) throw new Problem(HttpStatus.NOT_FOUND, 'Cover request not found');
    if (!mayCancelCoverRequest(actor, state.requestedBy))
      throw new DomainError('forbidden', 'Only the requester or a lesson editor can cancel a cover request');
    const { position } = await this.commands.run(
      coverRequestAggregate,
      {
        type: 'CancelCoverRequest',
        coverRequestId: id,
        cancelledBy: actor.userId,
        now: new Date().toISOString(),
      },
      metadataFor(req),
    );
    return { id, position };
  }

  /** Whether the actor may be offered and take cover (permission, no quality issue: rm_users). */
  private async takesCover(actor: Actor): Promise<boolean> {
    if (!isInternal(actor.permissions)) return false;
    const me = await coverTeacherFacts(this.sql, actor.userId);
    return mayTakeCover(actor.permissions, me?.has_quality_issue ?? false);
  }

  private offered(actor: Actor, row: CoverRequestListRow): boolean {
    const me = actor.userId;
    return (
      row.status === 'open' &&
      !row.lesson_teacher_ids.includes(me) &&
      row.requested_by !== me &&
      (row.mode === 'broadcast' || row.teacher_ids.includes(me))
    );
  }

  private sees(actor: Actor, row: CoverRequestListRow, taker: boolean): boolean {
    if (seesAllCoverRequests(actor.permissions)) return true;
    if (row.requested_by === actor.userId || row.filled_by === actor.userId) return true;
    return taker && this.offered(actor, row);
  }

  private async view(actor: Actor, row: CoverRequestListRow, taker: boolean): Promise<CoverRequestView> {
    const lessons = await coverLessons(this.sql, row.lesson_ids);
    const declined = row.responses.some((r) => r.teacherId === actor.userId && r.response === 'declined');
    let canAccept = taker && this.offered(actor, row) && !declined;
    if (canAccept)
      for (const l of lessons) {
        const clash = await this.lessons.clashOf({
          lessonId: l.id,
          groupId: null,
          teacherIds: [actor.userId],
          timing: {
            timezone: l.timezone,
            localDate: l.local_date,
            localStart: l.local_start,
            durationMinutes: 0,
            startsAt: iso(l.starts_at),
            endsAt: iso(l.ends_at),
          },
          wait: false,
        });
        if (clash) {
          canAccept = false;
          break;
        }
      }
    return {
      id: row.id,
      lesson_ids: row.lesson_ids,
      lessons: lessons.map((l) => ({
        id: l.id,
        starts_at: iso(l.starts_at),
        ends_at: iso(l.ends_at),
        timezone: l.timezone,
        local_date: l.local_date,
        local_start: l.local_start,
        status: l.status,
        teacher_id: l.teacher_id,
        teacher_name: l.teacher_name,
        cover_teacher_id: l.cover_teacher_id,
        programme_title: l.programme_title,
        group_name: l.group_name,
      })),
      reason: row.reason,
      mode: row.mode,
      teacher_ids: row.teacher_ids,
      requested_by: row.requested_by,
      requested_by_name: row.requested_by_name,
      status: row.status,
      filled_by: row.filled_by,
      filled_by_name: row.filled_by_name,
      responses: row.responses.map((r) => ({ teacher_id: r.teacherId, response: r.response, at: r.at })),
      first_starts_at: iso(row.first_starts_at),
      created_at: iso(row.created_at),
      can_accept: canAccept,
      can_cancel: row.status === 'open' && mayCancelCoverRequest(actor, row.requested_by),
    };
  }
}
