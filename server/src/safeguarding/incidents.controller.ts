import { randomUUID } from 'node:crypto';
import {
  Body,
  Controller,
  Get,
  HttpCode,
  HttpStatus,
  Inject,
  Param,
  Post,
  Query,
  Req,
  Res,
  StreamableFile,
} from '@nestjs/common';
import type { Response } from 'express';
import {
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiProduces,
  ApiProperty,
  ApiTags,
} from '@nestjs/swagger';
import {
  incidentStream,
  incidentViewsStream,
  type IncidentRow,
  type IncidentViewedData,
  type ViewedVia,
} from '@portal/projections';
import { RequirePermissions } from '../platform/auth/public.decorator.js';
import { Allow } from '../platform/auth/allow.decorator.js';
import {
  type Actor,
  actorOf,
  type AuthenticatedRequest,
  CurrentActor,
  metadataFor,
} from '../platform/auth/request-context.js';
import { NO_CUSTOMER } from '../core/access/student-scope.js';
import { studentsFilter } from '../identity/lists/user-list-query.js';
import { EVENT_STORE, type EventStore } from '../platform/event-store/event-store.js';
import { Problem } from '../platform/http/problem.js';
import { isPartner, isSafeguardingLead } from '../identity/policy/policy.js';
import { UsersReadModel } from '../identity/users.read.js';
import { documentStream } from '../platform/collaboration/collab.protocol.js';
import { verifyChain } from './hash-chain.js';
import { Commands } from '../platform/event-store/commands.js';
import { renderIncidentPdf, writeUpText } from './incident-pdf.js';
import { incidentAggregate } from './incident.decider.js';
import {
  AddActionBody,
  ChronologyPage,
  CloseBody,
  CorrectionBody,
  IncidentDetailsView,
  IncidentPage,
  PartnerIncidentPage,
  ReaderIncidentView,
  IncidentViewsPage,
  IncidentWritten,
  ListIncidentsQuery,
  PagingQuery,
  PartnerFeedbackBody,
  PartnerInformedBody,
  ReasonBody,
  ReportIncidentBody,
  ReportableStudentPage,
  ReportableStudentsQuery,
  RiskBody,
  StartReviewBody,
  VerifyView,
} from './incidents.dto.js';
import { IncidentsReadModel } from './incidents.read.js';
import {
  LEAD_PERMISSIONS,
  PARTNER_SEE,
  REPORTER_PERMISSIONS,
  SEE_PERMISSIONS,
  SafeguardingRules,
  incidentAudience,
  incidentViewFor,
  reportRefusal,
  reportScope,
} from './safeguarding.policy.js';
import type { IncidentAudience } from './incidents.dto.js';
import { StudentLinks } from './student-links.js';
import { INCIDENT_DOCUMENT_KIND } from './safeguarding.setup.js';
import { UuidPipe } from '../platform/http/validation.js';

const NOT_FOUND = 'Incident not found';
/** How a read of the details is recorded in the views log, by the reader's view. */
const VIEWED_VIA: Record<IncidentAudience, ViewedVia> = {
  case: 'details',
  partner: 'partner',
  reporter: 'reporter',
};

/** The risk level the reporter chose (the report event), whatever a lead changed it to since. */
function reportedRiskLevel(events: readonly { type: string; data: unknown }[]): string | undefined {
  const report = events.find((e) => e.type === 'SafeguardingIncidentReported');
  return (report?.data as { riskLevel?: string } | undefined)?.riskLevel;
}

/**
 * Safeguarding incidents (docs/decisions/0025-safeguarding-workflow-api.md): report, the workflow's
 * command endpoints, the triage list, details (every read recorded), the partner list, the per-student
 * chronology, the views log and the hash-chain verification.
 */
export class IncidentSummary {
  @ApiProperty({ description: 'Not closed' }) open!: number;
  @ApiProperty({ description: 'Open and escalated' }) escalated!: number;
  @ApiProperty({ description: 'Open and claimed by no lead' }) unclaimed!: number;
}

@ApiTags('safeguarding')
@Controller('api/v1/safeguarding-incidents')
export class IncidentsController {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly commands: Commands,
    private readonly incidents: IncidentsReadModel,
    private readonly users: UsersReadModel,
    private readonly links: StudentLinks,
  ) {}

  // Reads (static paths first, so `:id` does not catch them)

  @Get()
  @RequirePermissions(...SEE_PERMISSIONS)
  @Allow(SafeguardingRules.access)
  @ApiOkResponse({ type: IncidentPage, description: 'Newest report first' })
  async list(@Query() q: ListIncidentsQuery): Promise<IncidentPage> {
    return this.incidents.list(q);
  }

  @Get('partner')
  @RequirePermissions(...PARTNER_SEE)
  @Allow(SafeguardingRules.partner)
  @ApiOkResponse({
    type: PartnerIncidentPage,
    description: "Incidents about the partner's own customer's students, as partner views (decision 0037)",
  })
  async partnerList(
    @CurrentActor() actor: Actor,
    @Query() q: ListIncidentsQuery,
  ): Promise<PartnerIncidentPage> {
    const page = await this.incidents.list(
      { ...q, customer_id: undefined },
      { customerId: actor.customerId ?? NO_CUSTOMER },
    );
    return { ...page, items: page.items.map((i) => incidentViewFor('partner', i)) };
  }

  @Get('summary')
  @RequirePermissions(...SEE_PERMISSIONS)
  @Allow(SafeguardingRules.access)
  @ApiOkResponse({
    type: IncidentSummary,
    description: 'Open, escalated and unclaimed incidents (the home page)',
  })
  summary(): Promise<IncidentSummary> {
    return this.incidents.summary();
  }

  @Get('reported-by-me')
  @RequirePermissions(...REPORTER_PERMISSIONS)
  @ApiOkResponse({
    type: PartnerIncidentPage,
    description:
      'The concerns the caller reported, newest first, in the reporter view: what they reported and ' +
      'its stage (issue 18)',
  })
  async reportedByMe(
    @CurrentActor() actor: Actor,
    @Query() q: ListIncidentsQuery,
  ): Promise<PartnerIncidentPage> {
    const page = await this.incidents.list(
      { ...q, customer_id: undefined, student_id: undefined },
      { reporterId: actor.userId },
    );
    // Each in the reporter's view: what they reported (their own risk level, not the lead's later
    // assessment) and its stage. Staff with access open the case from the board as usual.
    const items: ReaderIncidentView[] = [];
    for (const incident of page.items)
      items.push(
        incidentViewFor('reporter', incident, {
          reportedRiskLevel: reportedRiskLevel(await this.store.readStream(incidentStream(incident.id))),
        }),
      );
    return { ...page, items };
  }

  @Get('reportable-students')
  @RequirePermissions(...REPORTER_PERMISSIONS)
  @Allow(SafeguardingRules.submit)
  @ApiOkResponse({
    type: ReportableStudentPage,
    description:
      'Active students the caller may report about (search by name): any student for administrators and ' +
      "teachers; the partner's own customer's (or linked) students for partners with a submit permission",
  })
  async reportableStudents(
    @CurrentActor() actor: Actor,
    @Query() q: ReportableStudentsQuery,
  ): Promise<ReportableStudentPage> {
    const size = q.size ?? 20;
    // Selected students only (decision 0034): without SUBMIT_..._FOR_ALL, the linked ones.
    const { rows, total } = await this.users.list({
      page: q.page ?? 1,
      size,
      text: q.query?.trim() || undefined,
      userTypes: ['student'],
      statuses: ['active'],
      ...studentsFilter(actor.userId, reportScope(actor)),
      sortBy: 'full_name',
    });
    return {
      items: rows.map((r) => ({
        id: r.id,
        full_name: r.full_name,
        customer_name: r.customer_name ?? null,
        year_group: r.year_group ?? null,
      })),
      total,
      page: q.page ?? 1,
      size,
    };
  }

  @Get('students/:studentId/chronology')
  @RequirePermissions(...SEE_PERMISSIONS)
  @Allow(SafeguardingRules.access)
  @ApiOkResponse({
    type: ChronologyPage,
    description: 'Every incident step about the student, by when it happened',
  })
  async chronology(
    @Req() req: AuthenticatedRequest,
    @Param('studentId', UuidPipe) studentId: string,
    @Query() q: PagingQuery,
  ): Promise<ChronologyPage> {
    const page = await this.incidents.chronology(studentId, q.page ?? 1, q.size ?? 50);
    for (const id of new Set(page.items.map((i) => i.incident_id)))
      await this.recordView(req, id, 'chronology');
    return page;
  }

  @Get(':id')
  @RequirePermissions(...SEE_PERMISSIONS, ...REPORTER_PERMISSIONS)
  @ApiOkResponse({
    type: IncidentDetailsView,
    description:
      'The read is recorded (SafeguardingIncidentViewed). Safeguarding staff get the case, partners the ' +
      'partner view, a reporter without access what they reported and its status (decision 0037)',
  })
  @ApiNotFoundResponse({ description: NOT_FOUND })
  async details(
    @Req() req: AuthenticatedRequest,
    @Param('id', UuidPipe) id: string,
  ): Promise<IncidentDetailsView> {
    const { row, audience } = await this.readable(req, id);
    await this.recordView(req, id, VIEWED_VIA[audience]);
    const [view] = await this.incidents.views([row]);
    return incidentViewFor(audience, view!, {
      timeline: audience === 'reporter' ? undefined : await this.incidents.timeline(id),
      reportedRiskLevel:
        audience === 'reporter'
          ? reportedRiskLevel(await this.store.readStream(incidentStream(id)))
          : undefined,
    });
  }

  @Get(':id/pdf')
  @RequirePermissions(...SEE_PERMISSIONS, ...REPORTER_PERMISSIONS)
  @ApiProduces('application/pdf')
  @ApiOkResponse({
    description: 'The incident, chronology, actions, partner steps and write-up (the read is recorded)',
  })
  @ApiNotFoundResponse({ description: NOT_FOUND })
  async pdf(
    @Req() req: AuthenticatedRequest,
    @Param('id', UuidPipe) id: string,
    @Res({ passthrough: true }) res: Response,
  ): Promise<StreamableFile> {
    const { row, audience } = await this.readable(req, id);
    await this.recordView(req, id, 'pdf');
    const [incidentEvents, writeUpEvents] = await Promise.all([
      this.store.readStream(incidentStream(id)),
      this.store.readStream(documentStream(INCIDENT_DOCUMENT_KIND, id)),
    ]);
    const position = [...incidentEvents, ...writeUpEvents].reduce(
      (max, e) => (e.position > max ? e.position : max),
      0n,
    );
    const [full] = await this.incidents.views([row]);
    // The PDF holds what the reader's view holds, no more (decision 0037).
    const incident = incidentViewFor(audience, full!, {
      timeline: audience === 'reporter' ? undefined : await this.incidents.timeline(id),
      reportedRiskLevel: reportedRiskLevel(incidentEvents),
    });
    const people =
      audience === 'case'
        ? [row.acknowledged_by, row.assigned_lead_id, ...row.actions.map((a) => a.assignee_id)]
        : [];
    const buffer = await renderIncidentPdf({
      incident,
      writeUp: writeUpText(writeUpEvents),
      position,
      names: await this.incidents.userNames(people.filter((p): p is string => !!p)),
    });
    res.set({
      'Content-Type': 'application/pdf',
      'Content-Disposition': `attachment; filename="safeguarding-incident-${id}.pdf"`,
      'X-Event-Position': position.toString(),
    });
    return new StreamableFile(buffer);
  }

  @Get(':id/views')
  @RequirePermissions(...LEAD_PERMISSIONS)
  @Allow(SafeguardingRules.lead)
  @ApiOkResponse({ type: IncidentViewsPage, description: 'Who read the incident, newest first' })
  @ApiNotFoundResponse({ description: NOT_FOUND })
  async views(@Param('id', UuidPipe) id: string, @Query() q: PagingQuery): Promise<IncidentViewsPage> {
    await this.existing(id);
    return this.incidents.viewsLog(id, q.page ?? 1, q.size ?? 50);
  }

  @Get(':id/verify')
  @RequirePermissions(...LEAD_PERMISSIONS)
  @Allow(SafeguardingRules.lead)
  @ApiOkResponse({ type: VerifyView, description: "Recomputes the stream's hash chain" })
  @ApiNotFoundResponse({ description: NOT_FOUND })
  async verify(@Param('id', UuidPipe) id: string): Promise<VerifyView> {
    const events = await this.store.readStream(incidentStream(id));
    if (events.length === 0) throw new Problem(HttpStatus.NOT_FOUND, NOT_FOUND);
    return verifyChain(events);
  }

  // Commands

  @Post()
  @RequirePermissions(...REPORTER_PERMISSIONS)
  @ApiCreatedResponse({ type: IncidentWritten })
  async report(
    @Req() req: AuthenticatedRequest,
    @CurrentActor() actor: Actor,
    @Body() body: ReportIncidentBody,
  ): Promise<IncidentWritten> {
    const studentIds = [...new Set(body.student_ids)];
    const students: { id: string; customerId: string | null }[] = [];
    for (const sid of studentIds) {
      const row = await this.users.byId(sid);
      if (!row || row.user_type !== 'student')
        throw new Problem(HttpStatus.UNPROCESSABLE_ENTITY, `student_ids: ${sid} is not a student`);
      students.push({ id: sid, customerId: row.customer_id ?? null });
    }
    const partner = isPartner(actor.permissions);
    const refusal = reportRefusal(
      {
        userId: actor.userId,
        permissions: actor.permissions,
        customerId: partner ? actor.customerId : null,
        linkedStudentIds: partner ? await this.links.linkedStudents(actor.userId) : new Set(),
      },
      students,
    );
    if (refusal) throw new Problem(HttpStatus.FORBIDDEN, refusal);
    const typeIds = [...new Set(body.type_ids)];
    const known = await this.incidents.activeTypes(typeIds);
    const missing = typeIds.filter((t) => !known.has(t));
    if (missing.length)
      throw new Problem(
        HttpStatus.UNPROCESSABLE_ENTITY,
        `type_ids: ${missing.join(', ')} ${missing.length === 1 ? 'is not an' : 'are not'} active incident type${missing.length === 1 ? '' : 's'}`,
      );
    const id = randomUUID();
    const { position } = await this.commands.run(
      incidentAggregate,
      {
        type: 'ReportIncident',
        now: new Date().toISOString(),
        incidentId: id,
        reporterId: actor.userId,
        students: students.map((s) => ({ studentId: s.id, customerId: s.customerId })),
        typeIds,
        occurredAt: new Date(body.occurred_at).toISOString(),
        lessonId: body.lesson_id ?? null,
        description: body.description,
        immediateAction: body.immediate_action,
        leadToldVerbally: body.lead_told_verbally,
        riskLevel: body.risk_level ?? 'medium',
      },
      metadataFor(req),
    );
    return { id, position };
  }

  @Post(':id/acknowledge')
  @HttpCode(HttpStatus.OK)
  @RequirePermissions(...LEAD_PERMISSIONS)
  @Allow(SafeguardingRules.lead)
  @ApiOkResponse({ type: IncidentWritten })
  @ApiConflictResponse({ description: 'Not in a state this step starts from' })
  async acknowledge(
    @Req() req: AuthenticatedRequest,
    @CurrentActor() actor: Actor,
    @Param('id', UuidPipe) id: string,
  ) {
    return this.written(
      id,
      await this.commands.run(
        incidentAggregate,
        { type: 'AcknowledgeIncident', incidentId: id, leadId: actor.userId },
        metadataFor(req),
      ),
    );
  }

  @Post(':id/review')
  @HttpCode(HttpStatus.OK)
  @RequirePermissions(...LEAD_PERMISSIONS)
  @Allow(SafeguardingRules.lead)
  @ApiOkResponse({ type: IncidentWritten })
  @ApiConflictResponse({ description: 'Not in a state this step starts from' })
  async review(
    @Req() req: AuthenticatedRequest,
    @CurrentActor() actor: Actor,
    @Param('id', UuidPipe) id: string,
    @Body() body: StartReviewBody,
  ) {
    const leadId = body.lead_id ?? actor.userId;
    if (body.lead_id) {
      const lead = await this.users.byId(body.lead_id);
      if (!lead || !isSafeguardingLead(new Set(lead.permissions)))
        throw new Problem(HttpStatus.UNPROCESSABLE_ENTITY, 'lead_id: not a safeguarding lead');
    }
    return this.written(
      id,
      await this.commands.run(
        incidentAggregate,
        { type: 'StartReview', incidentId: id, leadId },
        metadataFor(req),
      ),
    );
  }

  @Post(':id/claim')
  @HttpCode(HttpStatus.OK)
  @RequirePermissions(...LEAD_PERMISSIONS)
  @Allow(SafeguardingRules.lead)
  @ApiOkResponse({ type: IncidentWritten })
  @ApiConflictResponse({ description: 'Closed, or already claimed' })
  async claim(
    @Req() req: AuthenticatedRequest,
    @CurrentActor() actor: Actor,
    @Param('id', UuidPipe) id: string,
  ) {
    return this.written(
      id,
      await this.commands.run(
        incidentAggregate,
        { type: 'ClaimIncident', incidentId: id, leadId: actor.userId },
        metadataFor(req),
      ),
    );
  }

  @Post(':id/release')
  @HttpCode(HttpStatus.OK)
  @RequirePermissions(...LEAD_PERMISSIONS)
  @Allow(SafeguardingRules.lead)
  @ApiOkResponse({ type: IncidentWritten })
  @ApiConflictResponse({ description: 'Closed, or not claimed' })
  async release(
    @Req() req: AuthenticatedRequest,
    @CurrentActor() actor: Actor,
    @Param('id', UuidPipe) id: string,
  ) {
    return this.written(
      id,
      await this.commands.run(
        incidentAggregate,
        { type: 'ReleaseIncident', incidentId: id, byLeadId: actor.userId },
        metadataFor(req),
      ),
    );
  }

  @Post(':id/actions')
  @HttpCode(HttpStatus.OK)
  @RequirePermissions(...LEAD_PERMISSIONS)
  @Allow(SafeguardingRules.lead)
  @ApiOkResponse({ type: IncidentWritten })
  @ApiConflictResponse({ description: 'Not in a state this step starts from' })
  async addAction(
    @Req() req: AuthenticatedRequest,
    @Param('id', UuidPipe) id: string,
    @Body() body: AddActionBody,
  ) {
    if (!(await this.users.byId(body.assignee_id)))
      throw new Problem(HttpStatus.UNPROCESSABLE_ENTITY, 'assignee_id: user not found');
    return this.written(
      id,
      await this.commands.run(
        incidentAggregate,
        {
          type: 'AddAction',
          incidentId: id,
          actionId: randomUUID(),
          description: body.description,
          assigneeId: body.assignee_id,
          dueDate: body.due_date,
          referral: body.referral_agency
            ? { agency: body.referral_agency, reference: body.referral_reference ?? null }
            : null,
        },
        metadataFor(req),
      ),
    );
  }

  @Post(':id/partner-informed')
  @HttpCode(HttpStatus.OK)
  @RequirePermissions(...LEAD_PERMISSIONS)
  @Allow(SafeguardingRules.lead)
  @ApiOkResponse({ type: IncidentWritten })
  @ApiConflictResponse({ description: 'Not in a state this step starts from' })
  async partnerInformed(
    @Req() req: AuthenticatedRequest,
    @Param('id', UuidPipe) id: string,
    @Body() body: PartnerInformedBody,
  ) {
    return this.written(
      id,
      await this.commands.run(
        incidentAggregate,
        { type: 'InformPartner', incidentId: id, method: body.method, note: body.note },
        metadataFor(req),
      ),
    );
  }

  @Post(':id/partner-feedback')
  @HttpCode(HttpStatus.OK)
  @RequirePermissions(...LEAD_PERMISSIONS)
  @Allow(SafeguardingRules.lead)
  @ApiOkResponse({ type: IncidentWritten })
  @ApiConflictResponse({ description: 'Not in a state this step starts from' })
  async partnerFeedback(
    @Req() req: AuthenticatedRequest,
    @Param('id', UuidPipe) id: string,
    @Body() body: PartnerFeedbackBody,
  ) {
    return this.written(
      id,
      await this.commands.run(
        incidentAggregate,
        { type: 'RecordPartnerFeedback', incidentId: id, feedback: body.feedback },
        metadataFor(req),
      ),
    );
  }

  @Post(':id/close')
  @HttpCode(HttpStatus.OK)
  @RequirePermissions(...LEAD_PERMISSIONS)
  @Allow(SafeguardingRules.lead)
  @ApiOkResponse({ type: IncidentWritten })
  @ApiConflictResponse({ description: 'Not in a state this step starts from' })
  async close(@Req() req: AuthenticatedRequest, @Param('id', UuidPipe) id: string, @Body() body: CloseBody) {
    return this.written(
      id,
      await this.commands.run(
        incidentAggregate,
        { type: 'CloseIncident', incidentId: id, outcome: body.outcome },
        metadataFor(req),
      ),
    );
  }

  @Post(':id/reopen')
  @HttpCode(HttpStatus.OK)
  @RequirePermissions(...LEAD_PERMISSIONS)
  @Allow(SafeguardingRules.lead)
  @ApiOkResponse({ type: IncidentWritten })
  @ApiConflictResponse({ description: 'Only a closed incident can be reopened' })
  async reopen(
    @Req() req: AuthenticatedRequest,
    @Param('id', UuidPipe) id: string,
    @Body() body: ReasonBody,
  ) {
    return this.written(
      id,
      await this.commands.run(
        incidentAggregate,
        { type: 'ReopenIncident', incidentId: id, reason: body.reason },
        metadataFor(req),
      ),
    );
  }

  @Post(':id/risk')
  @HttpCode(HttpStatus.OK)
  @RequirePermissions(...LEAD_PERMISSIONS)
  @Allow(SafeguardingRules.lead)
  @ApiOkResponse({ type: IncidentWritten })
  @ApiConflictResponse({ description: 'Closed, or already at that level' })
  async risk(@Req() req: AuthenticatedRequest, @Param('id', UuidPipe) id: string, @Body() body: RiskBody) {
    return this.written(
      id,
      await this.commands.run(
        incidentAggregate,
        {
          type: 'ChangeRiskLevel',
          incidentId: id,
          to: body.risk_level,
          reason: body.reason,
        },
        metadataFor(req),
      ),
    );
  }

  @Post(':id/corrections')
  @HttpCode(HttpStatus.OK)
  @RequirePermissions(...LEAD_PERMISSIONS, ...REPORTER_PERMISSIONS)
  @ApiOkResponse({ type: IncidentWritten, description: 'A correction is a new event; the original stays' })
  async correct(
    @Req() req: AuthenticatedRequest,
    @CurrentActor() actor: Actor,
    @Param('id', UuidPipe) id: string,
    @Body() body: CorrectionBody,
  ) {
    const row = await this.existing(id);
    if (!isSafeguardingLead(actor.permissions) && row.reporter_id !== actor.userId)
      throw new Problem(
        HttpStatus.FORBIDDEN,
        'Only the reporter or a safeguarding lead corrects an incident',
      );
    let value = body.value;
    if (body.field === 'occurred_at') {
      if (!value || Number.isNaN(Date.parse(value)))
        throw new Problem(HttpStatus.UNPROCESSABLE_ENTITY, 'value: occurred_at must be an ISO 8601 date');
      value = new Date(value).toISOString();
      if (Date.parse(value) > Date.now() + 5 * 60_000)
        throw new Problem(HttpStatus.UNPROCESSABLE_ENTITY, 'value: occurred_at must not be in the future');
    }
    return this.written(
      id,
      await this.commands.run(
        incidentAggregate,
        {
          type: 'CorrectIncident',
          incidentId: id,
          field: body.field,
          value,
          reason: body.reason,
        },
        metadataFor(req),
      ),
    );
  }

  // Helpers

  private async existing(id: string): Promise<IncidentRow> {
    const row = await this.incidents.byId(id);
    if (!row) throw new Problem(HttpStatus.NOT_FOUND, NOT_FOUND);
    return row;
  }

  /** The incident and the view this user gets of it; 404 when they may not read it (no hint it exists). */
  private async readable(
    req: AuthenticatedRequest,
    id: string,
  ): Promise<{ row: IncidentRow; audience: IncidentAudience }> {
    const actor = actorOf(req);
    const row = await this.existing(id);
    const audience = incidentAudience(actor, row);
    if (!audience) throw new Problem(HttpStatus.NOT_FOUND, NOT_FOUND);
    return { row, audience };
  }

  private async recordView(req: AuthenticatedRequest, incidentId: string, via: ViewedVia): Promise<void> {
    const data: IncidentViewedData = { incidentId, viewerId: actorOf(req).userId, via };
    await this.store.append(
      incidentViewsStream(incidentId),
      [{ id: randomUUID(), type: 'SafeguardingIncidentViewed', data, metadata: metadataFor(req) }],
      { expectedRevision: 'any' },
    );
  }

  private written(id: string, { position }: { position: string }): IncidentWritten {
    return { id, position };
  }
}
