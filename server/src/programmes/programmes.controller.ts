import { randomUUID } from 'node:crypto';
import { Body, Controller, Get, Inject, Param, Post, Put, Query, Req } from '@nestjs/common';
import { ApiCreatedResponse, ApiNotFoundResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import {
  customerById,
  customerNetwork,
  listProgrammes,
  programmeGroupsWithTeachers,
  programmeStatistics,
  type ProgrammeDetails,
  type ProgrammeListRow,
  type ProgrammeRow,
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
import { searchTextOf } from '../platform/http/paging.js';
import { invalidInput, UuidPipe } from '../platform/http/validation.js';
import type { SqlClient } from '../platform/sql/sql-client.js';
import { SQL_CLIENT } from '../platform/tokens.js';
import { INTERNAL_PERMISSIONS, MARKER_PERMISSIONS } from '../identity/policy/policy.js';
import { groupAggregate } from './group.decider.js';
import { programmeAggregate, transitionsFrom, type ProgrammeTransition } from './programme.decider.js';
import { ProgrammeAccess } from './programme-access.js';
import {
  CreateProgrammeBody,
  ListProgrammesQuery,
  ProgrammePage,
  ProgrammeStatisticsView,
  ProgrammeStatusBody,
  ProgrammeView,
  ProgrammeWritten,
  UpdateProgrammeBody,
} from './programmes.dto.js';
import { ProgrammeRules, programmeScopeSql } from './programmes.policy.js';

const ADMIN = MARKER_PERMISSIONS.admin;
const MANAGE = INTERNAL_PERMISSIONS.PROGRAMME;
const READERS = [ADMIN, MARKER_PERMISSIONS.teacher, MARKER_PERMISSIONS.partner, MARKER_PERMISSIONS.student];
/** Where a new programme's time zone comes from when neither the body nor the network gives one. */
export const FALLBACK_TIMEZONE = 'Europe/London';

export const programmeView = (r: ProgrammeRow & { customer_name?: string | null }): ProgrammeView => ({
  id: r.id,
  title: r.title,
  customer_id: r.customer_id,
  customer_name: r.customer_name ?? null,
  network_id: r.network_id,
  product_id: r.product_id,
  subject_id: r.subject_id,
  year_group_id: r.year_group_id,
  kind: r.kind,
  start_date: r.start_date,
  end_date: r.end_date,
  timezone: r.timezone,
  status: r.status,
  source_programme_id: r.source_programme_id,
  actions: transitionsFrom(r.status),
  created_at: new Date(r.created_at).toISOString(),
  updated_at: new Date(r.updated_at).toISOString(),
});

const sortOf = (sortBy: string | undefined) =>
  sortBy?.startsWith('-') ? { sortBy: sortBy.slice(1), descending: true } : { sortBy, descending: false };

/**
 * Programmes (issue 15 item 3; docs/decisions/0051): what a partner school commissions, with a
 * draft → active → paused/completed/cancelled life. Managers (CAN_MANAGE_PROGRAMMES, administrators
 * implicitly) create and change them; teachers read the ones they teach; partners their school's.
 */
@ApiTags('programmes')
@Controller('api/v1/programmes')
export class ProgrammesController {
  constructor(
    private readonly commands: Commands,
    @Inject(SQL_CLIENT) private readonly sql: SqlClient,
    private readonly access: ProgrammeAccess,
  ) {}

  @Get()
  @RequirePermissions(...READERS)
  @Allow(ProgrammeRules.read)
  @ApiOkResponse({ type: ProgrammePage })
  async list(@CurrentActor() actor: Actor, @Query() q: ListProgrammesQuery): Promise<ProgrammePage> {
    return this.page(actor, q, false);
  }

  @Get('my')
  @RequirePermissions(...READERS)
  @Allow(ProgrammeRules.read)
  @ApiOkResponse({
    type: ProgrammePage,
    description: "A teacher's programmes (via their groups); a partner's school's",
  })
  async my(@CurrentActor() actor: Actor, @Query() q: ListProgrammesQuery): Promise<ProgrammePage> {
    return this.page(actor, q, true);
  }

  @Get('statistics')
  @RequirePermissions(...READERS)
  @Allow(ProgrammeRules.read)
  @ApiOkResponse({ type: ProgrammeStatisticsView })
  statistics(@CurrentActor() actor: Actor): Promise<ProgrammeStatisticsView> {
    return programmeStatistics(this.sql, (bind) => programmeScopeSql(actor, bind));
  }

  @Get(':id')
  @RequirePermissions(...READERS)
  @Allow(ProgrammeRules.read)
  @ApiOkResponse({ type: ProgrammeView })
  @ApiNotFoundResponse({ description: 'Programme not found' })
  async get(@CurrentActor() actor: Actor, @Param('id', UuidPipe) id: string): Promise<ProgrammeView> {
    const row = await this.access.visibleProgramme(actor, id);
    const customer = await customerById(this.sql, row.customer_id);
    return programmeView({ ...row, customer_name: customer?.name ?? null });
  }

  @Post()
  @RequirePermissions(ADMIN, MANAGE)
  @Allow(ProgrammeRules.manage)
  @ApiCreatedResponse({ type: ProgrammeWritten })
  async create(
    @Req() req: AuthenticatedRequest,
    @CurrentActor() actor: Actor,
    @Body() body: CreateProgrammeBody,
  ): Promise<ProgrammeWritten> {
    const source = body.source_program_id
      ? await this.access.namedProgramme(actor, body.source_program_id, 'source_program_id')
      : null;
    const customerId = body.customer_id ?? source?.customer_id;
    const title = body.title?.trim() ?? source?.title;
    const startDate = body.start_date ?? source?.start_date;
    if (!title) throw invalidInput([{ field: 'title', message: 'title: is required' }]);
    if (!customerId) throw invalidInput([{ field: 'customer_id', message: 'customer_id: is required' }]);
    if (!startDate) throw invalidInput([{ field: 'start_date', message: 'start_date: is required' }]);
    if (!(await customerById(this.sql, customerId)))
      throw invalidInput([{ field: 'customer_id', message: 'customer_id: no such customer' }]);
    const network = await customerNetwork(this.sql, customerId);
    const details: ProgrammeDetails = {
      title,
      productId: pick(body.product_id, source?.product_id),
      subjectId: pick(body.subject_id, source?.subject_id),
      yearGroupId: pick(body.year_group_id, source?.year_group_id),
      kind: body.kind ?? source?.kind ?? 'lesson',
      startDate,
      endDate: pick(body.end_date, source?.end_date),
      timezone: body.timezone ?? source?.timezone ?? network?.timezone ?? FALLBACK_TIMEZONE,
    };
    await this.checkReferences(details);
    const id = randomUUID();
    const metadata = metadataFor(req);
    let { position } = await this.commands.run(
      programmeAggregate,
      {
        type: 'CreateProgramme',
        programmeId: id,
        networkId: network?.network_id ?? null,
        customerId,
        sourceProgrammeId: source?.id ?? null,
        details,
      },
      metadata,
    );
    if (source)
      for (const group of await programmeGroupsWithTeachers(this.sql, source.id))
        ({ position } = await this.commands.run(
          groupAggregate,
          {
            type: 'CreateGroup',
            groupId: randomUUID(),
            programmeId: id,
            customerId,
            name: group.name,
            teachers: group.teachers.map((t) => ({ teacherId: t.teacher_id, role: t.role })),
            sourceGroupId: group.id,
          },
          metadata,
        ));
    return { id, position };
  }

  @Put(':id')
  @RequirePermissions(ADMIN, MANAGE)
  @Allow(ProgrammeRules.manage)
  @ApiOkResponse({ type: ProgrammeWritten })
  @ApiNotFoundResponse({ description: 'Programme not found' })
  async update(
    @Req() req: AuthenticatedRequest,
    @CurrentActor() actor: Actor,
    @Param('id', UuidPipe) id: string,
    @Body() body: UpdateProgrammeBody,
  ): Promise<ProgrammeWritten> {
    await this.access.visibleProgramme(actor, id);
    const changes: Partial<ProgrammeDetails> = {
      title: body.title?.trim(),
      productId: body.product_id,
      subjectId: body.subject_id,
      yearGroupId: body.year_group_id,
      kind: body.kind,
      startDate: body.start_date,
      endDate: body.end_date,
      timezone: body.timezone,
    };
    await this.checkReferences(changes);
    const { position } = await this.commands.run(
      programmeAggregate,
      {
        type: 'ChangeProgrammeDetails',
        programmeId: id,
        changes,
        teacherIds: await this.access.teacherIdsOf(id),
      },
      metadataFor(req),
    );
    return { id, position };
  }

  @Put(':id/activate')
  @RequirePermissions(ADMIN, MANAGE)
  @Allow(ProgrammeRules.manage)
  @ApiOkResponse({ type: ProgrammeWritten })
  activate(
    @Req() req: AuthenticatedRequest,
    @Param('id', UuidPipe) id: string,
    @Body() body: ProgrammeStatusBody,
  ) {
    return this.transition(req, id, 'activate', body);
  }

  @Put(':id/pause')
  @RequirePermissions(ADMIN, MANAGE)
  @Allow(ProgrammeRules.manage)
  @ApiOkResponse({ type: ProgrammeWritten })
  pause(
    @Req() req: AuthenticatedRequest,
    @Param('id', UuidPipe) id: string,
    @Body() body: ProgrammeStatusBody,
  ) {
    return this.transition(req, id, 'pause', body);
  }

  @Put(':id/resume')
  @RequirePermissions(ADMIN, MANAGE)
  @Allow(ProgrammeRules.manage)
  @ApiOkResponse({ type: ProgrammeWritten })
  resume(
    @Req() req: AuthenticatedRequest,
    @Param('id', UuidPipe) id: string,
    @Body() body: ProgrammeStatusBody,
  ) {
    return this.transition(req, id, 'resume', body);
  }

  @Put(':id/complete')
  @RequirePermissions(ADMIN, MANAGE)
  @Allow(ProgrammeRules.manage)
  @ApiOkResponse({ type: ProgrammeWritten })
  complete(
    @Req() req: AuthenticatedRequest,
    @Param('id', UuidPipe) id: string,
    @Body() body: ProgrammeStatusBody,
  ) {
    return this.transition(req, id, 'complete', body);
  }

  @Put(':id/cancel')
  @RequirePermissions(ADMIN, MANAGE)
  @Allow(ProgrammeRules.manage)
  @ApiOkResponse({ type: ProgrammeWritten })
  cancel(
    @Req() req: AuthenticatedRequest,
    @Param('id', UuidPipe) id: string,
    @Body() body: ProgrammeStatusBody,
  ) {
    return this.transition(req, id, 'cancel', body);
  }

  private async transition(
    req: AuthenticatedRequest,
    id: string,
    transition: ProgrammeTransition,
    body: ProgrammeStatusBody,
  ): Promise<ProgrammeWritten> {
    const { position } = await this.commands.run(
      programmeAggregate,
      {
        type: 'ChangeProgrammeStatus',
        programmeId: id,
        transition,
        reason: body?.reason?.trim() || null,
        teacherIds: await this.access.teacherIdsOf(id),
      },
      metadataFor(req),
    );
    return { id, position };
  }

  private async page(actor: Actor, q: ListProgrammesQuery, own: boolean): Promise<ProgrammePage> {
    const found = await listProgrammes(this.sql, {
      page: q.page,
      size: q.size,
      status: q.status,
      customerId: q.customer_id,
      productId: q.product_id,
      subjectId: q.subject_id,
      teacherId: q.teacher_id,
      text: searchTextOf(q),
      ...sortOf(q.sort_by),
      scope: (bind) => programmeScopeSql(actor, bind, { own }),
    });
    return { ...found, items: found.items.map((r: ProgrammeListRow) => programmeView(r)) };
  }

  private async checkReferences(d: Partial<ProgrammeDetails>): Promise<void> {
    await this.access.requireReference('rm_products', d.productId, 'product_id');
    await this.access.requireReference('rm_subjects', d.subjectId, 'subject_id');
    await this.access.requireReference('rm_year_groups', d.yearGroupId, 'year_group_id');
  }
}

/** The body's value when it has the field (null included), else the copied one, else null. */
const pick = <T>(own: T | null | undefined, copied: T | null | undefined): T | null =>
  own !== undefined ? own : (copied ?? null);
