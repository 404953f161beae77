import { randomUUID } from 'node:crypto';
import { Body, Controller, Get, HttpStatus, Inject, Param, Post, Put, Query, Req } from '@nestjs/common';
import { ApiCreatedResponse, ApiNotFoundResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import {
  enrolmentVisible,
  listEnrolments,
  openEnrolmentOf,
  programmeById,
  type EnrolmentListRow,
  type EnrolmentRow,
} from '@portal/projections';
import { Allow } from '../platform/auth/allow.decorator.js';
import { RequirePermissions } from '../platform/auth/public.decorator.js';
import {
  type Actor,
  type AuthenticatedRequest,
  CurrentActor,
  metadataFor,
} from '../platform/auth/request-context.js';
import { Commands } from '../platform/event-store/commands.js';
import { Problem } from '../platform/http/problem.js';
import { UuidPipe } from '../platform/http/validation.js';
import { Written } from '../platform/http/written.js';
import type { SqlClient } from '../platform/sql/sql-client.js';
import { SQL_CLIENT } from '../platform/tokens.js';
import { INTERNAL_PERMISSIONS, MARKER_PERMISSIONS, PARTNER } from '../identity/policy/policy.js';
import { studentScope, studentScopeSql } from '../core/access/student-scope.js';
import { enrolmentAggregate } from './enrolment.decider.js';
import { ProgrammeAccess, todayIn } from './programme-access.js';
import {
  CreateEnrolmentBody,
  EndEnrolmentBody,
  EnrolmentPage,
  EnrolmentView,
  ListEnrolmentsQuery,
  UpdateEnrolmentBody,
  WithdrawEnrolmentBody,
} from './programmes.dto.js';
import { enrolmentScopeSql, mayManageProgrammes, ProgrammeRules } from './programmes.policy.js';

const ADMIN = MARKER_PERMISSIONS.admin;
const MANAGE = INTERNAL_PERMISSIONS.PROGRAMME;
const READERS = [ADMIN, MARKER_PERMISSIONS.teacher, MARKER_PERMISSIONS.partner, MARKER_PERMISSIONS.student];

export class EnrolmentWritten extends Written {}

const view = (r: EnrolmentRow & Partial<EnrolmentListRow>): EnrolmentView => ({
  id: r.id,
  student_id: r.student_id,
  student_name: r.student_name ?? null,
  programme_id: r.programme_id,
  programme_title: r.programme_title ?? null,
  customer_id: r.customer_id,
  customer_name: r.customer_name ?? null,
  start_date: r.start_date,
  end_date: r.end_date,
  status: r.status,
  placement_type: r.placement_type,
  setting: r.setting,
  reason_for_placement: r.reason_for_placement,
  withdrawal_reason: r.withdrawal_reason,
});

/**
 * Enrolments (placements) of students in programmes, with the spec's placement enums (issue 15 item
 * 4). Managers create and change them; a partner holding WITHDRAW_STUDENT_FROM_ENROLLMENT withdraws
 * their own students; readers see them within their student scope.
 */
@ApiTags('enrolments')
@Controller('api/v1/enrolments')
export class EnrolmentsController {
  constructor(
    private readonly commands: Commands,
    @Inject(SQL_CLIENT) private readonly sql: SqlClient,
    private readonly access: ProgrammeAccess,
  ) {}

  @Get()
  @RequirePermissions(...READERS)
  @Allow(ProgrammeRules.read)
  @ApiOkResponse({ type: EnrolmentPage })
  async list(@CurrentActor() actor: Actor, @Query() q: ListEnrolmentsQuery): Promise<EnrolmentPage> {
    const descending = q.sort_by ? q.sort_by.startsWith('-') : undefined;
    const found = await listEnrolments(this.sql, {
      page: q.page,
      size: q.size,
      studentId: q.student_id,
      programmeId: q.programme_id,
      customerId: q.customer_id,
      status: q.status,
      sortBy: q.sort_by?.replace(/^-/, ''),
      descending,
      scope: (bind) => enrolmentScopeSql(actor, bind),
    });
    return { ...found, items: found.items.map(view) };
  }

  @Get(':id')
  @RequirePermissions(...READERS)
  @Allow(ProgrammeRules.read)
  @ApiOkResponse({ type: EnrolmentView })
  @ApiNotFoundResponse({ description: 'Enrolment not found' })
  async get(@CurrentActor() actor: Actor, @Param('id', UuidPipe) id: string): Promise<EnrolmentView> {
    const row = await this.access.visibleEnrolment(actor, id);
    const [item] = (
      await listEnrolments(this.sql, { studentId: row.student_id, programmeId: row.programme_id, size: 500 })
    ).items.filter((e) => e.id === id);
    return view(item ?? row);
  }

  @Post()
  @RequirePermissions(ADMIN, MANAGE)
  @Allow(ProgrammeRules.manage)
  @ApiCreatedResponse({ type: EnrolmentWritten })
  async create(
    @Req() req: AuthenticatedRequest,
    @CurrentActor() actor: Actor,
    @Body() body: CreateEnrolmentBody,
  ): Promise<EnrolmentWritten> {
    const programme = await this.access.namedProgramme(actor, body.programme_id, 'programme_id');
    await this.access.requireStudentOf(programme.customer_id, body.student_id);
    const id = randomUUID();
    const { position } = await this.commands.run(
      enrolmentAggregate,
      {
        type: 'Enrol',
        enrolmentId: id,
        studentId: body.student_id,
        programmeId: programme.id,
        customerId: programme.customer_id,
        status: body.status ?? 'active',
        details: {
          startDate: body.start_date ?? programme.start_date,
          endDate: body.end_date !== undefined ? body.end_date : programme.end_date,
          placementType: body.placement_type ?? 'NOT_SET',
          setting: body.setting ?? 'NOT_SET',
          reasonForPlacement: body.reason_for_placement ?? 'NOT_SET',
        },
        otherOpenEnrolmentId: await openEnrolmentOf(this.sql, body.student_id, programme.id),
        teacherIds: await this.access.teacherIdsOf(programme.id),
      },
      metadataFor(req),
    );
    return { id, position };
  }

  @Put(':id')
  @RequirePermissions(ADMIN, MANAGE)
  @Allow(ProgrammeRules.manage)
  @ApiOkResponse({ type: EnrolmentWritten })
  async update(
    @Req() req: AuthenticatedRequest,
    @CurrentActor() actor: Actor,
    @Param('id', UuidPipe) id: string,
    @Body() body: UpdateEnrolmentBody,
  ): Promise<EnrolmentWritten> {
    const row = await this.access.visibleEnrolment(actor, id);
    const { position } = await this.commands.run(
      enrolmentAggregate,
      {
        type: 'ChangeEnrolment',
        enrolmentId: id,
        changes: {
          startDate: body.start_date,
          endDate: body.end_date,
          placementType: body.placement_type,
          setting: body.setting,
          reasonForPlacement: body.reason_for_placement,
        },
        status: body.status,
        teacherIds: await this.access.teacherIdsOf(row.programme_id),
      },
      metadataFor(req),
    );
    return { id, position };
  }

  @Put(':id/withdraw')
  @RequirePermissions(ADMIN, MANAGE, PARTNER.WITHDRAW_STUDENT_FROM_ENROLLMENT)
  @Allow(ProgrammeRules.withdraw)
  @ApiOkResponse({ type: EnrolmentWritten })
  @ApiNotFoundResponse({ description: 'Enrolment not found' })
  async withdraw(
    @Req() req: AuthenticatedRequest,
    @CurrentActor() actor: Actor,
    @Param('id', UuidPipe) id: string,
    @Body() body: WithdrawEnrolmentBody,
  ): Promise<EnrolmentWritten> {
    const row = await this.access.visibleEnrolment(actor, id);
    // A partner withdraws only their own school's students within their student scope (decision 0046).
    if (!mayManageProgrammes(actor.permissions)) {
      const own = await enrolmentVisible(this.sql, id, (bind) =>
        studentScopeSql(studentScope(actor), bind, { id: 'e.student_id', customerId: 'e.customer_id' }),
      );
      if (!own) throw new Problem(HttpStatus.NOT_FOUND, 'Enrolment not found');
    }
    const programme = await programmeById(this.sql, row.programme_id);
    const { position } = await this.commands.run(
      enrolmentAggregate,
      {
        type: 'Withdraw',
        enrolmentId: id,
        reason: body.reason.trim(),
        on: body.on ?? todayIn(programme?.timezone ?? 'Europe/London'),
        teacherIds: await this.access.teacherIdsOf(row.programme_id),
      },
      metadataFor(req),
    );
    return { id, position };
  }

  @Put(':id/end')
  @RequirePermissions(ADMIN, MANAGE)
  @Allow(ProgrammeRules.manage)
  @ApiOkResponse({ type: EnrolmentWritten })
  async end(
    @Req() req: AuthenticatedRequest,
    @CurrentActor() actor: Actor,
    @Param('id', UuidPipe) id: string,
    @Body() body: EndEnrolmentBody,
  ): Promise<EnrolmentWritten> {
    const row = await this.access.visibleEnrolment(actor, id);
    const programme = await programmeById(this.sql, row.programme_id);
    const { position } = await this.commands.run(
      enrolmentAggregate,
      {
        type: 'End',
        enrolmentId: id,
        on: body?.on ?? row.end_date ?? todayIn(programme?.timezone ?? 'Europe/London'),
        teacherIds: await this.access.teacherIdsOf(row.programme_id),
      },
      metadataFor(req),
    );
    return { id, position };
  }
}
