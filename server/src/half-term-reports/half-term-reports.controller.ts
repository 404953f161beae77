import {
  Body,
  Controller,
  Get,
  HttpCode,
  HttpStatus,
  Inject,
  Param,
  Post,
  Put,
  Query,
  Req,
  Res,
  StreamableFile,
} from '@nestjs/common';
import type { Response } from 'express';
import { randomUUID } from 'node:crypto';
import {
  ApiConflictResponse,
  ApiForbiddenResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiProduces,
  ApiProperty,
  ApiPropertyOptional,
  ApiTags,
} from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsInt,
  Min,
  IsIn,
  IsNotEmpty,
  IsOptional,
  IsString,
  IsUUID,
  Matches,
  MaxLength,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import {
  REPORT_STATES,
  dueSummary,
  factText,
  namesIn,
  reportFacts,
  otherStudentNames,
  sectionLengths,
  halfTermReportById,
  halfTermReportStream,
  halfTermReportViews,
  halfTermReportViewsStream,
  halfTermReportRevisions,
  halfTermReportTimeline,
  listHalfTermReports,
  refusedEdits,
  reportAssignees,
  reportSuggestions,
  sha256Hex,
  unresolvedSuggestions,
  timeframeById,
  type HalfTermReportEvent,
  type HalfTermReportFilter,
  type HalfTermReportListRow,
  type ReportFact,
  type ReportState,
} from '@portal/projections';
import { ALL_MARKER_PERMISSIONS, isAdmin, isInternal } from '../identity/policy/policy.js';
import { Allow } from '../platform/auth/allow.decorator.js';
import { RequirePermissions } from '../platform/auth/public.decorator.js';
import {
  CurrentActor,
  metadataFor,
  type Actor,
  type AuthenticatedRequest,
} from '../platform/auth/request-context.js';
import { DomainError } from '../platform/domain/domain-error.js';
import { Commands } from '../platform/event-store/commands.js';
import { PageOf, PageQuery } from '../platform/http/paging.js';
import { Problem } from '../platform/http/problem.js';
import { statusOfKind } from '../platform/http/all-exceptions.filter.js';
import { UuidPipe, asArray } from '../platform/http/validation.js';
import { PositionAnswer, Written } from '../platform/http/written.js';
import type { SqlClient } from '../platform/sql/sql-client.js';
import { EVENT_STORE, SQL_CLIENT } from '../platform/tokens.js';
import type { EventStore } from '../platform/event-store/event-store.js';
import { todayIn } from '../core/time/time.js';
import { IsCalendarDate } from '../platform/http/dates.js';
import {
  decideReport,
  initialReportState,
  reportAggregate,
  type ReportCommand,
  type ReportDeciderState,
} from './half-term-report.decider.js';
import {
  ReportRules,
  assignmentScope,
  documentMode,
  internalReportScope,
  mayDiscardReports,
  mayLeadReview,
  mayManageAssignments,
  mayQaReview,
  mayRevokePublication,
  mayRevokeQaApproval,
  partnerReportScope,
  partnerSeesReports,
  readsAllReports,
  reportAccess,
  seesAllAssignments,
  type ReportAccess,
} from './half-term-reports.policy.js';
import { hasText, ReportDocuments } from './report-documents.js';
import { HalfTermReportsSetup } from './half-term-reports.setup.js';
import { ReportReads } from './report-reads.js';
import { revisionPdf } from './report-pdf.js';

const asBoolean = ({ value }: { value: unknown }) =>
  value === 'true' ? true : value === 'false' ? false : value;
const HASH = /^[0-9a-f]{64}$/;

export class ListReportsQuery extends PageQuery {
  @ApiPropertyOptional({ format: 'uuid' }) @IsOptional() @IsUUID() timeframe_id?: string;
  @ApiPropertyOptional({ enum: REPORT_STATES, isArray: true })
  @IsOptional()
  @Transform(asArray)
  @IsIn(REPORT_STATES, { each: true })
  state?: ReportState[];
  @ApiPropertyOptional({ format: 'uuid' }) @IsOptional() @IsUUID() customer_id?: string;
  @ApiPropertyOptional({ format: 'uuid' }) @IsOptional() @IsUUID() programme_id?: string;
  @ApiPropertyOptional({ format: 'uuid', description: 'A writer, the QA reviewer or the QA lead' })
  @IsOptional()
  @IsUUID()
  teacher_id?: string;
  @ApiPropertyOptional({ description: 'Still with the writers after submit-by' })
  @IsOptional()
  @Transform(asBoolean)
  @IsBoolean()
  overdue?: boolean;
  @ApiPropertyOptional({ description: 'Only reports that have unresolved suggestions' })
  @IsOptional()
  @Transform(asBoolean)
  @IsBoolean()
  has_suggestions?: boolean;
}

export class QueueQuery extends ListReportsQuery {
  @ApiPropertyOptional({ enum: ['me', 'unclaimed'], description: 'Claimed by me, or not claimed yet' })
  @IsOptional()
  @IsIn(['me', 'unclaimed'])
  claimed?: 'me' | 'unclaimed';
}

export class AssignmentsQuery extends ListReportsQuery {
  @ApiPropertyOptional({ description: 'Every report (administrators only)' })
  @IsOptional()
  @Transform(asBoolean)
  @IsBoolean()
  all?: boolean;
  @ApiPropertyOptional({ description: 'Only rows without a writer, QA reviewer or QA lead' })
  @IsOptional()
  @Transform(asBoolean)
  @IsBoolean()
  unassigned?: boolean;
}

export class AssignmentItem {
  @ApiProperty({ format: 'uuid' }) @IsUUID() report_id!: string;
  @ApiPropertyOptional({ type: [String], format: 'uuid', description: 'Writer first; left out: unchanged' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(10)
  @IsUUID('all', { each: true })
  writer_ids?: string[];
  @ApiPropertyOptional({ format: 'uuid', nullable: true, type: String })
  @IsOptional()
  @ValidateIf((o: { qa_reviewer_id?: unknown }) => o.qa_reviewer_id !== null)
  @IsUUID()
  qa_reviewer_id?: string | null;
  @ApiPropertyOptional({ format: 'uuid', nullable: true, type: String })
  @IsOptional()
  @ValidateIf((o: { lead_reviewer_id?: unknown }) => o.lead_reviewer_id !== null)
  @IsUUID()
  lead_reviewer_id?: string | null;
}

export class AssignmentsBody {
  @ApiProperty({ type: [AssignmentItem] })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(500)
  @ValidateNested({ each: true })
  @Type(() => AssignmentItem)
  items!: AssignmentItem[];
}

export class SignBody {
  @ApiProperty({ description: 'SHA-256 (hex) of the text the signer saw (GET /{id} content_hash)' })
  @IsString()
  @Matches(HASH, { message: 'expected_hash: a SHA-256 in lower-case hex (64 characters)' })
  expected_hash!: string;
}

export class FactView {
  @ApiProperty({ enum: ['attendance', 'lessons', 'objectivesCovered'] }) kind!: string;
  @ApiProperty({ description: 'The period the facts cover: yyyy-MM-dd/yyyy-MM-dd' }) period!: string;
  @ApiProperty({ description: 'What the block says, as shown in the editor and the PDF' }) text!: string;
  @ApiProperty({ type: 'object', additionalProperties: true, description: 'The counts behind the line' })
  values!: Record<string, unknown>;
}

export class FactsRefreshed extends Written {
  @ApiProperty({ description: 'Whether the text changed (no change: no event, the hash stays)' })
  changed!: boolean;
  @ApiProperty({ type: [FactView] }) facts!: FactView[];
}

export class BulkPublishItem {
  @ApiProperty({ format: 'uuid' })
  @IsUUID('all', { message: 'report_id: a report id (uuid)' })
  report_id!: string;

  @ApiProperty({ description: 'SHA-256 (hex) of the text the lead saw for this report' })
  @IsString()
  @Matches(HASH, { message: 'expected_hash: a SHA-256 in lower-case hex (64 characters)' })
  expected_hash!: string;
}

export class BulkPublishBody {
  @ApiProperty({ type: [BulkPublishItem] })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(200)
  @ValidateNested({ each: true })
  @Type(() => BulkPublishItem)
  items!: BulkPublishItem[];
}

export class BulkPublishResult {
  @ApiProperty({ format: 'uuid' }) report_id!: string;
  @ApiProperty({ description: 'Published now' }) ok!: boolean;
  @ApiProperty({ description: 'What a single publish would have answered: 200, or 403/404/409/422' })
  status!: number;
  @ApiPropertyOptional({ type: String, nullable: true, description: 'Why not (the single publish’s detail)' })
  detail!: string | null;
  @ApiPropertyOptional({ type: String, nullable: true, description: 'e.g. hash_mismatch, state_published' })
  code!: string | null;
  @ApiPropertyOptional({ type: Number, nullable: true, description: 'The published revision' })
  revision!: number | null;
}

export class BulkPublishAnswer extends PositionAnswer {
  @ApiProperty() published!: number;
  @ApiProperty() refused!: number;
  @ApiProperty({ type: [BulkPublishResult] }) items!: BulkPublishResult[];
}

export class PdfQuery {
  @ApiPropertyOptional({ description: 'The revision (default: the latest published)' })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  revision?: number;
}

export class ReasonBody {
  @ApiProperty() @IsString() @IsNotEmpty() @MaxLength(2000) reason!: string;
}

export class ExtendDeadlineBody extends ReasonBody {
  @ApiProperty({ format: 'date', description: "This report's new submit-by, after the timeframe's" })
  @IsCalendarDate()
  submit_by!: string;
}

export class ReturnBody extends ReasonBody {
  @ApiProperty({ enum: ['qa', 'writer'] }) @IsIn(['qa', 'writer']) to!: 'qa' | 'writer';
}

export class ReportView {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ format: 'uuid' }) timeframe_id!: string;
  @ApiProperty({ format: 'uuid' }) student_id!: string;
  @ApiProperty({ format: 'uuid' }) programme_id!: string;
  @ApiProperty({ format: 'uuid' }) customer_id!: string;
  @ApiProperty({ type: [String], description: 'Writer first, then co-writers' }) writer_ids!: string[];
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) qa_reviewer_id!: string | null;
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) lead_reviewer_id!: string | null;
  @ApiProperty({ enum: REPORT_STATES }) state!: string;
  @ApiProperty() revision!: number;
  @ApiProperty({
    nullable: true,
    type: String,
    description: 'GET /{id}: SHA-256 of the text now (sign with it); lists: of the last sign-off',
  })
  content_hash!: string | null;
  @ApiProperty() unresolved_suggestions!: number;
  @ApiProperty({ nullable: true, type: String }) student_name!: string | null;
  @ApiProperty({ nullable: true, type: String }) programme_title!: string | null;
  @ApiProperty({ nullable: true, type: String }) customer_name!: string | null;
  @ApiProperty() timeframe_name!: string;
  @ApiProperty({ format: 'date', description: "The report's submit-by: its extension, else the timeframe's" })
  submit_by!: string;
  @ApiProperty({ format: 'date' }) timeframe_submit_by!: string;
  @ApiProperty({ format: 'date', nullable: true, type: String, description: 'A per-report extension' })
  extended_submit_by!: string | null;
  @ApiProperty({
    nullable: true,
    type: String,
    description: 'When its submit-by was recorded as missed (HalfTermReportDeadlineMissed)',
  })
  deadline_missed_at!: string | null;
  @ApiProperty({ format: 'date' }) release_at!: string;
  @ApiProperty() overdue!: boolean;
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) qa_claimed_by!: string | null;
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) lead_claimed_by!: string | null;
  @ApiProperty({ nullable: true, type: String }) qa_claimed_by_name!: string | null;
  @ApiProperty({ nullable: true, type: String }) lead_claimed_by_name!: string | null;
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) qa_approved_by!: string | null;
  @ApiProperty({ nullable: true, type: Number }) published_revision!: number | null;
  @ApiProperty({ nullable: true, type: String }) published_at!: string | null;
  @ApiProperty({ description: 'When it entered its state (queues: oldest first)' }) state_since!: string;
}

export class SectionLength {
  @ApiProperty() title!: string;
  @ApiProperty() characters!: number;
}

export class ReportDetailView extends ReportView {
  @ApiProperty({
    enum: ['edit', 'suggest', 'view'],
    nullable: true,
    type: String,
    description: 'What the reader may do with the live text',
  })
  allowed_mode!: 'edit' | 'suggest' | 'view' | null;
  @ApiProperty({ type: [String], description: 'Workflow commands the reader may send now' })
  actions!: string[];
  @ApiProperty({ nullable: true, type: String, description: 'Hash of the last sign-off' })
  signed_hash!: string | null;
  @ApiProperty({ nullable: true, type: Object, description: 'Partners: the published revision’s content' })
  published_content!: unknown;
  @ApiProperty({ type: [SectionLength], description: 'Characters written per section (internal readers)' })
  sections!: SectionLength[];
  @ApiProperty({
    type: [String],
    description:
      'Names of other students of the same timeframe that appear in the text (check before submit)',
  })
  name_conflicts!: string[];
  @ApiProperty({
    type: () => [SuggestionView],
    description: 'Suggestions on the text (open first), as the server recorded them (decision 0060)',
  })
  suggestions!: SuggestionView[];
  @ApiProperty({
    type: () => [RefusedEditView],
    description: 'Edits the server refused and kept: the reader’s own (administrators: everyone’s)',
  })
  refused_edits!: RefusedEditView[];
}

export class SuggestionView {
  @ApiProperty() id!: string;
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) author_id!: string | null;
  @ApiProperty({ nullable: true, type: String }) author_name!: string | null;
  @ApiProperty() inserted!: string;
  @ApiProperty() deleted!: string;
  @ApiProperty({ enum: ['open', 'accepted', 'rejected'] }) state!: string;
  @ApiProperty() made_at!: string;
  @ApiProperty({ nullable: true, type: String }) resolved_by_name!: string | null;
  @ApiProperty({ nullable: true, type: String }) resolved_at!: string | null;
}

export class RefusedEditView {
  @ApiProperty() id!: string;
  @ApiProperty({ format: 'uuid' }) by!: string;
  @ApiProperty({ nullable: true, type: String }) by_name!: string | null;
  @ApiProperty({
    description: 'direct_edit, foreign_suggestion, formatting, sections (template section), read_only',
  })
  reason!: string;
  @ApiProperty({ description: 'Text the edit would have removed' }) removed!: string;
  @ApiProperty({ description: 'Text the edit would have added' }) inserted!: string;
  @ApiProperty() at!: string;
}

export class PresenceEditor {
  @ApiProperty({ format: 'uuid' }) user_id!: string;
  @ApiProperty() name!: string;
  @ApiProperty() color!: string;
  @ApiProperty({ enum: ['edit', 'suggest', 'view'] }) mode!: string;
  @ApiProperty({ description: "When the user's earliest open connection to the report started" })
  since!: string;
}
export class ReportPresenceView {
  @ApiProperty({ format: 'uuid' }) report_id!: string;
  @ApiProperty({ type: [PresenceEditor] }) editors!: PresenceEditor[];
  @ApiProperty({ type: () => ReportView, description: 'The report as the lists show it (live board)' })
  report!: ReportView;
}
export class PresenceList {
  @ApiProperty({ type: [ReportPresenceView] }) items!: ReportPresenceView[];
}

export class ReportPage extends PageOf(ReportView) {}

export class TimelineItem {
  @ApiProperty() type!: string;
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) by!: string | null;
  @ApiProperty({ nullable: true, type: String }) by_name!: string | null;
  @ApiProperty({ nullable: true, type: String }) reason!: string | null;
  @ApiProperty({ enum: REPORT_STATES }) state!: string;
  @ApiProperty({ nullable: true, type: String }) hash!: string | null;
  @ApiProperty({ nullable: true, type: Number }) revision!: number | null;
  @ApiProperty() at!: string;
  @ApiProperty() position!: string;
}
export class TimelineView {
  @ApiProperty({ type: [TimelineItem] }) items!: TimelineItem[];
}

export class RevisionItem {
  @ApiProperty() revision!: number;
  @ApiProperty() hash!: string;
  @ApiProperty({ format: 'uuid' }) published_by!: string;
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) qa_approved_by!: string | null;
  @ApiProperty() published_at!: string;
  @ApiProperty({ nullable: true, type: String }) revoked_at!: string | null;
  @ApiProperty({ nullable: true, type: String }) revoked_reason!: string | null;
  @ApiProperty({ type: Object, description: 'The frozen content (ProseMirror JSON)' }) content!: unknown;
}
export class RevisionsView {
  @ApiProperty({ type: [RevisionItem] }) items!: RevisionItem[];
}

export class ViewItem {
  @ApiProperty({ format: 'uuid' }) viewer_id!: string;
  @ApiProperty({ nullable: true, type: String }) viewer_name!: string | null;
  @ApiProperty() revision!: number;
  @ApiProperty({ enum: ['view', 'pdf'] }) via!: string;
  @ApiProperty() at!: string;
}
export class ViewsView {
  @ApiProperty({ type: [ViewItem] }) items!: ViewItem[];
}

export class VerifyItem {
  @ApiProperty({ description: 'Submitted, QaApproved or Published' }) step!: string;
  @ApiProperty({ nullable: true, type: Number }) revision!: number | null;
  @ApiProperty({ description: 'The hash the event recorded' }) recorded_hash!: string;
  @ApiProperty({ description: 'SHA-256 of the frozen canonical text' }) canonical_hash!: string;
  @ApiProperty({ description: 'SHA-256 of the document rebuilt from its stream at that revision' })
  document_hash!: string;
  @ApiProperty() valid!: boolean;
}
export class VerifyView {
  @ApiProperty() valid!: boolean;
  @ApiProperty({ type: [VerifyItem] }) items!: VerifyItem[];
  @ApiProperty({ description: 'SHA-256 of the text now' }) current_hash!: string;
}

export class DueTimeframe {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ format: 'date' }) submit_by!: string;
  @ApiProperty({ description: 'My reports still in draft' }) draft!: number;
  @ApiProperty({ description: 'My reports returned for changes' }) returned!: number;
  @ApiProperty({ description: 'The submit-by date has passed' }) overdue!: boolean;
}
export class DueSummaryView {
  @ApiProperty({ type: [DueTimeframe] }) timeframes!: DueTimeframe[];
}

export class AssignmentsWritten extends PositionAnswer {
  @ApiProperty() updated!: number;
}

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

function view(r: HalfTermReportListRow): ReportView {
  return {
    id: r.id,
    timeframe_id: r.timeframe_id,
    student_id: r.student_id,
    programme_id: r.programme_id,
    customer_id: r.customer_id,
    writer_ids: r.writer_ids,
    qa_reviewer_id: r.qa_reviewer_id,
    lead_reviewer_id: r.lead_reviewer_id,
    state: r.state,
    revision: r.revision,
    content_hash: r.content_hash,
    unresolved_suggestions: r.unresolved_suggestions,
    student_name: r.student_name,
    programme_title: r.programme_title,
    customer_name: r.customer_name,
    timeframe_name: r.timeframe_name,
    submit_by: r.submit_by,
    timeframe_submit_by: r.timeframe_submit_by,
    extended_submit_by: r.extended_submit_by,
    deadline_missed_at: iso(r.deadline_missed_at),
    release_at: r.release_at,
    overdue: r.overdue,
    qa_claimed_by: r.qa_claimed_by,
    lead_claimed_by: r.lead_claimed_by,
    qa_claimed_by_name: r.qa_claimed_by_name,
    lead_claimed_by_name: r.lead_claimed_by_name,
    qa_approved_by: r.qa_approved_by,
    published_revision: r.published_revision,
    published_at: iso(r.published_at),
    state_since: iso(r.state_since)!,
  };
}

/** A refusal as a single command would have answered it (bulk items); anything else is thrown. */
function refusalOf(e: unknown): { status: number; detail: string; code: string | null } {
  if (e instanceof DomainError)
    return { status: statusOfKind(e.kind), detail: e.detail, code: e.code ?? null };
  if (e instanceof Problem) {
    const answer = e.getResponse() as { detail?: string; code?: string };
    return { status: e.getStatus(), detail: answer.detail ?? e.message, code: answer.code ?? null };
  }
  throw e;
}

/** The decider state a row stands for (to ask the decider which commands would pass). */
const stateOf = (r: HalfTermReportListRow): ReportDeciderState => ({
  ...initialReportState(),
  exists: true,
  timeframeId: r.timeframe_id,
  customerId: r.customer_id,
  state: r.state,
  writerIds: r.writer_ids,
  qaReviewerId: r.qa_reviewer_id,
  leadReviewerId: r.lead_reviewer_id,
  qaClaimedBy: r.qa_claimed_by,
  leadClaimedBy: r.lead_claimed_by,
  qaApprovedBy: r.qa_approved_by,
  revision: r.revision,
  restoreTo: 'draft',
});

/** The route name of each workflow command and the permission rule it needs first. */
const ACTIONS: {
  name: string;
  may: (actor: Actor) => boolean;
  command: (id: string, by: string) => ReportCommand;
}[] = [
  {
    name: 'submit',
    may: (a) => isInternal(a.permissions),
    command: (id, by) => ({
      type: 'Submit',
      reportId: id,
      by,
      signOff: { expectedHash: '', current: { hash: '', canonical: '', documentRevision: '' } },
      writingOpen: true,
      hasText: true,
    }),
  },
  {
    name: 'refresh-facts',
    may: (a) => isInternal(a.permissions),
    command: (id, by) => ({
      type: 'RefreshFacts',
      reportId: id,
      by,
      override: false,
      position: '-1',
      changed: true,
      facts: [],
    }),
  },
  {
    name: 'withdraw',
    may: (a) => isInternal(a.permissions),
    command: (id, by) => ({ type: 'Withdraw', reportId: id, by }),
  },
  {
    name: 'qa/claim',
    may: (a) => mayQaReview(a.permissions),
    command: (id, by) => ({ type: 'QaClaim', reportId: id, by }),
  },
  {
    name: 'qa/release',
    may: (a) => mayQaReview(a.permissions),
    command: (id, by) => ({ type: 'QaRelease', reportId: id, by, override: false }),
  },
  {
    name: 'qa/request-changes',
    may: (a) => mayQaReview(a.permissions),
    command: (id, by) => ({ type: 'QaRequestChanges', reportId: id, by, reason: 'x' }),
  },
  {
    name: 'qa/approve',
    may: (a) => mayQaReview(a.permissions),
    command: (id, by) => ({
      type: 'QaApprove',
      reportId: id,
      by,
      signOff: { expectedHash: '', current: { hash: '', canonical: '', documentRevision: '' } },
    }),
  },
  {
    name: 'qa/revoke-approval',
    may: (a) => mayRevokeQaApproval(a.permissions),
    command: (id, by) => ({ type: 'QaRevokeApproval', reportId: id, by, reason: 'x', isLead: false }),
  },
  {
    name: 'lead/claim',
    may: (a) => mayLeadReview(a.permissions),
    command: (id, by) => ({ type: 'LeadClaim', reportId: id, by }),
  },
  {
    name: 'lead/release',
    may: (a) => mayLeadReview(a.permissions),
    command: (id, by) => ({ type: 'LeadRelease', reportId: id, by, override: false }),
  },
  {
    name: 'lead/return',
    may: (a) => mayLeadReview(a.permissions),
    command: (id, by) => ({ type: 'LeadReturn', reportId: id, by, to: 'writer', reason: 'x' }),
  },
  {
    name: 'lead/publish',
    may: (a) => mayLeadReview(a.permissions),
    command: (id, by) => ({
      type: 'Publish',
      reportId: id,
      by,
      signOff: { expectedHash: '', current: { hash: '', canonical: '', documentRevision: '' } },
    }),
  },
  {
    name: 'lead/revoke-publication',
    may: (a) => mayRevokePublication(a.permissions),
    command: (id, by) => ({ type: 'RevokePublication', reportId: id, by, reason: 'x' }),
  },
  {
    name: 'discard',
    may: (a) => mayDiscardReports(a.permissions),
    command: (id, by) => ({ type: 'Discard', reportId: id, by, reason: 'x' }),
  },
  {
    name: 'restore',
    may: (a) => mayDiscardReports(a.permissions),
    command: (id, by) => ({ type: 'Restore', reportId: id, by }),
  },
];

/**
 * Half-term reports (issue 17, decision 0057): lists and queues, one report with its timeline,
 * revisions and hash verification, and the workflow commands. Every read checks the reader's access
 * (404 when the report is not theirs to see); every command checks its spec §6 permission (403), then
 * the decider checks state (409 naming it) and identity (own report, claim holder: 403).
 */
@ApiTags('half-term-reports')
@Controller('api/v1/half-term-reports')
export class HalfTermReportsController {
  constructor(
    private readonly commands: Commands,
    private readonly documents: ReportDocuments,
    private readonly reads: ReportReads,
    @Inject(SQL_CLIENT) private readonly sql: SqlClient,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly setup: HalfTermReportsSetup,
  ) {}

  private filter(q: ListReportsQuery): HalfTermReportFilter {
    return {
      page: q.page,
      size: q.size,
      timeframeId: q.timeframe_id,
      state: q.state,
      customerId: q.customer_id,
      programmeId: q.programme_id,
      teacherId: q.teacher_id,
      overdue: q.overdue,
      hasSuggestions: q.has_suggestions,
    };
  }

  private async page(f: HalfTermReportFilter): Promise<ReportPage> {
    const page = await listHalfTermReports(this.sql, f);
    return { ...page, items: page.items.map(view) };
  }

  @Get()
  @RequirePermissions(...ALL_MARKER_PERMISSIONS)
  @Allow(ReportRules.list)
  @ApiOkResponse({ type: ReportPage })
  list(@CurrentActor() actor: Actor, @Query() q: ListReportsQuery): Promise<ReportPage> {
    return this.page({ ...this.filter(q), scope: internalReportScope(actor) });
  }

  @Get('mine')
  @RequirePermissions(...ALL_MARKER_PERMISSIONS)
  @Allow(ReportRules.internal)
  @ApiOkResponse({ type: ReportPage, description: 'Reports I write or co-write' })
  mine(@CurrentActor() actor: Actor, @Query() q: ListReportsQuery): Promise<ReportPage> {
    return this.page({ ...this.filter(q), writerId: actor.userId });
  }

  @Get('mine/due-summary')
  @RequirePermissions(...ALL_MARKER_PERMISSIONS)
  @Allow(ReportRules.internal)
  @ApiOkResponse({ type: DueSummaryView, description: 'Open timeframes where I still have reports to write' })
  async dueSummary(@CurrentActor() actor: Actor): Promise<DueSummaryView> {
    return { timeframes: await dueSummary(this.sql, actor.userId) };
  }

  @Get('qa')
  @RequirePermissions(...ALL_MARKER_PERMISSIONS)
  @Allow(ReportRules.qa)
  @ApiOkResponse({ type: ReportPage, description: 'Submitted and in QA, oldest first' })
  qa(@CurrentActor() actor: Actor, @Query() q: QueueQuery): Promise<ReportPage> {
    return this.queue(actor, q, ['submitted', 'in_qa'], 'qa');
  }

  @Get('qa-lead')
  @RequirePermissions(...ALL_MARKER_PERMISSIONS)
  @Allow(ReportRules.lead)
  @ApiOkResponse({ type: ReportPage, description: 'QA approved and in lead review, oldest first' })
  qaLead(@CurrentActor() actor: Actor, @Query() q: QueueQuery): Promise<ReportPage> {
    return this.queue(actor, q, ['qa_approved', 'in_lead_review'], 'qa-lead');
  }

  private queue(
    actor: Actor,
    q: QueueQuery,
    states: ReportState[],
    queue: 'qa' | 'qa-lead',
  ): Promise<ReportPage> {
    const requested = q.state?.filter((s) => states.includes(s));
    return this.page({
      ...this.filter(q),
      state: requested?.length ? requested : states,
      queue,
      claimedBy: q.claimed === 'me' ? actor.userId : q.claimed === 'unclaimed' ? null : undefined,
    });
  }

  /**
   * Who has which report's text open now (the live board, decisions 0060 and 0067): this process's
   * connections, only on reports the reader may list (assignment managers: their scope), each with the
   * report as the lists show it; longest open first.
   */
  @Get('presence')
  @RequirePermissions(...ALL_MARKER_PERMISSIONS)
  @Allow(ReportRules.list)
  @ApiOkResponse({ type: PresenceList })
  async presence(@CurrentActor() actor: Actor): Promise<PresenceList> {
    const current = this.setup.currentPresence();
    if (current.length === 0) return { items: [] };
    const rows = new Map<string, ReportView>();
    const scope = internalReportScope(actor);
    for (let i = 0; i < current.length; i += 200) {
      const ids = current.slice(i, i + 200).map((p) => p.reportId);
      const page = await listHalfTermReports(this.sql, { ids, scope, size: ids.length });
      for (const r of page.items) rows.set(r.id, view(r));
    }
    const since = (p: (typeof current)[number]) =>
      p.editors.reduce((m, e) => (e.since < m ? e.since : m), '~');
    return {
      items: current
        .filter((p) => rows.has(p.reportId))
        .sort((a, b) => since(a).localeCompare(since(b)))
        .map((p) => ({
          report_id: p.reportId,
          report: rows.get(p.reportId)!,
          editors: p.editors.map((e) => ({
            user_id: e.userId,
            name: e.name,
            color: e.color,
            mode: e.mode,
            since: e.since,
          })),
        })),
    };
  }

  @Get('assignments')
  @RequirePermissions(...ALL_MARKER_PERMISSIONS)
  @Allow(ReportRules.assignments)
  @ApiOkResponse({ type: ReportPage, description: 'Unassigned rows first' })
  @ApiForbiddenResponse({ description: 'all=true is for administrators' })
  assignments(@CurrentActor() actor: Actor, @Query() q: AssignmentsQuery): Promise<ReportPage> {
    if (q.all && !seesAllAssignments(actor.permissions))
      throw new DomainError('forbidden', 'all: the all-assignments view is for administrators');
    return this.page({
      ...this.filter(q),
      queue: 'assignments',
      unassignedOnly: q.unassigned,
      scope: assignmentScope(actor, q.all ?? isAdmin(actor.permissions)),
    });
  }

  @Put('assignments')
  @RequirePermissions(...ALL_MARKER_PERMISSIONS)
  @Allow(ReportRules.assignments)
  @ApiOkResponse({ type: AssignmentsWritten })
  async assign(
    @CurrentActor() actor: Actor,
    @Req() req: AuthenticatedRequest,
    @Body() body: AssignmentsBody,
  ): Promise<AssignmentsWritten> {
    const ids = new Set<string>();
    body.items.forEach((i, n) => {
      for (const w of i.writer_ids ?? []) ids.add(w);
      if (i.qa_reviewer_id) ids.add(i.qa_reviewer_id);
      if (i.lead_reviewer_id) ids.add(i.lead_reviewer_id);
      if (i.writer_ids && i.writer_ids.length === 0)
        throw new DomainError('invalid', `items[${n}].writer_ids: name at least one writer`);
    });
    const people = new Map(
      (await reportAssignees(this.sql, [...ids])).map((p) => [p.id, new Set(p.permissions)] as const),
    );
    const all = isAdmin(actor.permissions);
    let updated = 0;
    let position = '0';
    for (const [n, item] of body.items.entries()) {
      const field = (name: string) => `items[${n}].${name}`;
      for (const w of item.writer_ids ?? [])
        if (!people.has(w) || !isInternal(people.get(w)!))
          throw new DomainError('invalid', `${field('writer_ids')}: ${w} is not a teacher of the portal`);
      if (
        item.qa_reviewer_id &&
        !(people.has(item.qa_reviewer_id) && mayQaReview(people.get(item.qa_reviewer_id)!))
      )
        throw new DomainError('invalid', `${field('qa_reviewer_id')}: not a QA reviewer`);
      if (
        item.lead_reviewer_id &&
        !(people.has(item.lead_reviewer_id) && mayLeadReview(people.get(item.lead_reviewer_id)!))
      )
        throw new DomainError('invalid', `${field('lead_reviewer_id')}: not a QA lead`);
      const row = await halfTermReportById(this.sql, item.report_id);
      if (!row || (!all && !(await this.teaches(actor, item.report_id))))
        throw new DomainError('invalid', `${field('report_id')}: no such report in your scope`);
      const result = await this.commands.run(
        reportAggregate,
        {
          type: 'ChangeAssignment',
          reportId: item.report_id,
          by: actor.userId,
          writerIds: item.writer_ids,
          qaReviewerId: item.qa_reviewer_id,
          leadReviewerId: item.lead_reviewer_id,
        },
        metadataFor(req),
      );
      if (result.events.length) updated++;
      if (BigInt(result.position) > BigInt(position)) position = result.position;
    }
    return { position, updated };
  }

  @Get('partner')
  @RequirePermissions(...ALL_MARKER_PERMISSIONS)
  @Allow(ReportRules.partner)
  @ApiOkResponse({ type: ReportPage, description: 'Published reports of my school, from their release date' })
  partner(@CurrentActor() actor: Actor, @Query() q: ListReportsQuery): Promise<ReportPage> {
    return this.page({ ...this.filter(q), releasedOnly: true, scope: partnerReportScope(actor) });
  }

  @Get(':id')
  @RequirePermissions(...ALL_MARKER_PERMISSIONS)
  @ApiOkResponse({ type: ReportDetailView })
  @ApiNotFoundResponse({ description: 'Not found, or not yours to see' })
  async get(@CurrentActor() actor: Actor, @Param('id', UuidPipe) id: string): Promise<ReportDetailView> {
    const { row, access } = await this.readable(actor, id);
    const base = view(row);
    if (access === 'partner') {
      const published = (await halfTermReportRevisions(this.sql, id)).find(
        (r) => r.revision === row.published_revision,
      );
      if (published) await this.recordView(actor, row, published.revision, 'view');
      return {
        ...base,
        qa_claimed_by: null,
        lead_claimed_by: null,
        content_hash: published?.hash ?? null,
        allowed_mode: null,
        actions: [],
        signed_hash: published?.hash ?? null,
        published_content: published
          ? (JSON.parse(published.canonical) as { content: unknown }).content
          : null,
        sections: [],
        name_conflicts: [],
        suggestions: [],
        refused_edits: [],
      };
    }
    const current = await this.documents.current(id);
    const suggestions = await reportSuggestions(this.sql, id);
    const refused = await refusedEdits(this.sql, id, isAdmin(actor.permissions) ? null : actor.userId);
    return {
      ...base,
      unresolved_suggestions: unresolvedSuggestions(current.content),
      suggestions: suggestions.map((x) => ({
        id: x.suggestion_id,
        author_id: x.author_id,
        author_name: x.author_name,
        inserted: x.inserted,
        deleted: x.deleted,
        state: x.state,
        made_at: new Date(x.made_at).toISOString(),
        resolved_by_name: x.resolved_by_name,
        resolved_at: x.resolved_at ? new Date(x.resolved_at).toISOString() : null,
      })),
      refused_edits: refused.map((r) => ({
        id: r.event_id,
        by: r.by_user,
        by_name: r.by_name,
        reason: r.reason,
        removed: r.removed,
        inserted: r.inserted,
        at: new Date(r.at).toISOString(),
      })),
      content_hash: current.hash,
      signed_hash: row.content_hash,
      allowed_mode: documentMode(actor, row, access),
      actions: this.actionsFor(actor, row),
      published_content: null,
      sections: sectionLengths(current.content),
      name_conflicts: namesIn(current.content, await otherStudentNames(this.sql, id)),
    };
  }

  @Get(':id/timeline')
  @RequirePermissions(...ALL_MARKER_PERMISSIONS)
  @ApiOkResponse({ type: TimelineView })
  @ApiNotFoundResponse({ description: 'Not found, or not yours to see' })
  async timeline(@CurrentActor() actor: Actor, @Param('id', UuidPipe) id: string): Promise<TimelineView> {
    const { access } = await this.readable(actor, id);
    if (access === 'partner') throw new Problem(HttpStatus.NOT_FOUND, 'Half-term report not found');
    const rows = await halfTermReportTimeline(this.sql, id);
    return {
      items: rows.map((r) => ({
        type: r.type,
        by: r.by,
        by_name: r.by_name ?? null,
        reason: r.reason,
        state: r.state,
        hash: r.hash,
        revision: r.revision,
        at: iso(r.at)!,
        position: r.position,
      })),
    };
  }

  @Get(':id/revisions')
  @RequirePermissions(...ALL_MARKER_PERMISSIONS)
  @ApiOkResponse({ type: RevisionsView })
  @ApiNotFoundResponse({ description: 'Not found, or not yours to see' })
  async revisions(@CurrentActor() actor: Actor, @Param('id', UuidPipe) id: string): Promise<RevisionsView> {
    const { access } = await this.readable(actor, id);
    const rows = await halfTermReportRevisions(this.sql, id);
    return {
      items: rows
        .filter((r) => access !== 'partner' || r.revoked_at === null)
        .map((r) => ({
          revision: r.revision,
          hash: r.hash,
          published_by: r.published_by,
          qa_approved_by: r.qa_approved_by,
          published_at: iso(r.published_at)!,
          revoked_at: iso(r.revoked_at),
          revoked_reason: r.revoked_reason,
          content: (JSON.parse(r.canonical) as { content: unknown }).content,
        })),
    };
  }

  /** The partners' read receipts (who opened or downloaded which revision, when). */
  @Get(':id/views')
  @RequirePermissions(...ALL_MARKER_PERMISSIONS)
  @Allow(ReportRules.internal)
  @ApiOkResponse({ type: ViewsView })
  @ApiNotFoundResponse({ description: 'Not found, or not yours to see' })
  async views(@CurrentActor() actor: Actor, @Param('id', UuidPipe) id: string): Promise<ViewsView> {
    await this.readable(actor, id);
    const rows = await halfTermReportViews(this.sql, id);
    return {
      items: rows.map((r) => ({
        viewer_id: r.viewer_id,
        viewer_name: r.viewer_name,
        revision: r.revision,
        via: r.via,
        at: iso(r.at)!,
      })),
    };
  }

  /** Recomputes every sign-off's hash from its frozen text and from the document's own stream. */
  @Get(':id/verify')
  @RequirePermissions(...ALL_MARKER_PERMISSIONS)
  @ApiOkResponse({ type: VerifyView })
  @ApiNotFoundResponse({ description: 'Not found, or not yours to see' })
  async verify(@CurrentActor() actor: Actor, @Param('id', UuidPipe) id: string): Promise<VerifyView> {
    const { access } = await this.readable(actor, id);
    if (access === 'partner') throw new Problem(HttpStatus.NOT_FOUND, 'Half-term report not found');
    const events = (await this.store.readStream(
      halfTermReportStream(id),
    )) as unknown as (HalfTermReportEvent & {
      revision: bigint;
    })[];
    const items: VerifyItem[] = [];
    for (const e of events) {
      if (
        e.type !== 'HalfTermReportSubmitted' &&
        e.type !== 'HalfTermReportQaApproved' &&
        e.type !== 'HalfTermReportPublished'
      )
        continue;
      const d = e.data;
      const canonicalHash = await sha256Hex(d.canonical);
      const rebuilt = await this.documents.at(id, d.documentRevision);
      items.push({
        step: e.type.replace('HalfTermReport', ''),
        revision: 'revision' in d ? d.revision : null,
        recorded_hash: d.hash,
        canonical_hash: canonicalHash,
        document_hash: rebuilt.hash,
        valid: canonicalHash === d.hash && rebuilt.hash === d.hash,
      });
    }
    const current = await this.documents.current(id);
    return { valid: items.every((i) => i.valid), items, current_hash: current.hash };
  }

  /** A published revision as a PDF (default: the latest one the reader may see). */
  @Get(':id/pdf')
  @RequirePermissions(...ALL_MARKER_PERMISSIONS)
  @ApiProduces('application/pdf')
  @ApiOkResponse({ description: 'The revision, its hash and signers in the footer' })
  @ApiNotFoundResponse({ description: 'Not found, not yours to see, or no such published revision' })
  async pdf(
    @CurrentActor() actor: Actor,
    @Param('id', UuidPipe) id: string,
    @Query() q: PdfQuery,
    @Res({ passthrough: true }) res: Response,
  ): Promise<StreamableFile> {
    const { row, access } = await this.readable(actor, id);
    const revisions = (await halfTermReportRevisions(this.sql, id)).filter(
      (r) => access !== 'partner' || r.revoked_at === null,
    );
    const revision =
      q.revision === undefined ? revisions.at(-1) : revisions.find((r) => r.revision === q.revision);
    if (!revision) throw new Problem(HttpStatus.NOT_FOUND, 'No such published revision of this report');
    if (access === 'partner') await this.recordView(actor, row, revision.revision, 'pdf');
    const buffer = await revisionPdf(this.sql, row, revision);
    res.set({
      'Content-Type': 'application/pdf',
      'Content-Disposition': `attachment; filename="half-term-report-${id}-r${revision.revision}.pdf"`,
      'X-Content-Hash': revision.hash,
    });
    return new StreamableFile(buffer);
  }

  /* ---------------------------------------------------------------------------------- commands */

  @Post(':id/submit')
  @HttpCode(HttpStatus.OK)
  @RequirePermissions(...ALL_MARKER_PERMISSIONS)
  @Allow(ReportRules.internal)
  @ApiOkResponse({ type: Written })
  @ApiConflictResponse({ description: 'Wrong state, the timeframe is not open, or the text changed (hash)' })
  async submit(
    @CurrentActor() actor: Actor,
    @Req() req: AuthenticatedRequest,
    @Param('id', UuidPipe) id: string,
    @Body() body: SignBody,
  ): Promise<Written> {
    const { row } = await this.readable(actor, id);
    const current = await this.documents.current(id);
    const today = todayIn(row.timezone);
    const t = await timeframeById(this.sql, row.timeframe_id);
    // An extension lets its writers submit after a hard close, until the extension (decision 0061).
    const writingOpen =
      !!t &&
      today >= t.opens_at &&
      (t.closes_at === null ||
        today <= t.closes_at ||
        (row.extended_submit_by !== null && today <= row.extended_submit_by));
    return this.run(req, {
      type: 'Submit',
      reportId: id,
      by: actor.userId,
      signOff: {
        expectedHash: body.expected_hash,
        current,
        unresolvedSuggestions: unresolvedSuggestions(current.content),
      },
      writingOpen,
      hasText: hasText(current.content),
    });
  }

  /**
   * Rewrites the draft's fact blocks (attendance, lessons delivered) from the read models (decision
   * 0068). Draft only: from submission on, the signed snapshot freezes them.
   */
  @Post(':id/refresh-facts')
  @HttpCode(HttpStatus.OK)
  @RequirePermissions(...ALL_MARKER_PERMISSIONS)
  @Allow(ReportRules.internal)
  @ApiOkResponse({ type: FactsRefreshed })
  @ApiForbiddenResponse({ description: 'Not one of its writers' })
  @ApiConflictResponse({ description: 'Not a draft: its facts are frozen' })
  async refreshFacts(
    @CurrentActor() actor: Actor,
    @Req() req: AuthenticatedRequest,
    @Param('id', UuidPipe) id: string,
  ): Promise<FactsRefreshed> {
    const { row } = await this.readable(actor, id);
    const override = isAdmin(actor.permissions);
    const command = (
      position: string,
      changed: boolean,
      facts: ReportFact[],
    ): Extract<ReportCommand, { type: 'RefreshFacts' }> => ({
      type: 'RefreshFacts',
      reportId: id,
      by: actor.userId,
      override,
      position,
      changed,
      facts: facts.map(({ kind, period, values }) => ({ kind, period, values })),
    });
    // The rules first, on the stream's state: a report past its draft never has its text touched.
    const { state } = await this.commands.load(reportAggregate, id);
    decideReport(command('-1', true, []), state);
    const t = await timeframeById(this.sql, row.timeframe_id);
    if (!t) throw new Problem(HttpStatus.NOT_FOUND, 'Report submission timeframe not found');
    const facts = await reportFacts(this.sql, {
      studentId: row.student_id,
      programmeId: row.programme_id,
      periodFrom: t.period_from,
      periodTo: t.period_to,
      position: (await this.store.headPosition()).toString(),
    });
    const { changed, revision } = await this.documents.refreshFacts(id, facts, actor.userId);
    const written = await this.run(req, command(revision, changed, facts));
    return {
      ...written,
      changed,
      facts: facts.map((f) => ({ kind: f.kind, period: f.period, text: factText(f), values: f.values })),
    };
  }

  @Post(':id/withdraw')
  @HttpCode(HttpStatus.OK)
  @RequirePermissions(...ALL_MARKER_PERMISSIONS)
  @Allow(ReportRules.internal)
  @ApiOkResponse({ type: Written })
  async withdraw(
    @CurrentActor() actor: Actor,
    @Req() req: AuthenticatedRequest,
    @Param('id', UuidPipe) id: string,
  ): Promise<Written> {
    await this.readable(actor, id);
    return this.run(req, { type: 'Withdraw', reportId: id, by: actor.userId });
  }

  @Post(':id/qa/claim')
  @HttpCode(HttpStatus.OK)
  @RequirePermissions(...ALL_MARKER_PERMISSIONS)
  @Allow(ReportRules.qa)
  @ApiOkResponse({ type: Written })
  async qaClaim(
    @CurrentActor() actor: Actor,
    @Req() req: AuthenticatedRequest,
    @Param('id', UuidPipe) id: string,
  ): Promise<Written> {
    await this.readable(actor, id);
    return this.run(req, { type: 'QaClaim', reportId: id, by: actor.userId });
  }

  @Post(':id/qa/release')
  @HttpCode(HttpStatus.OK)
  @RequirePermissions(...ALL_MARKER_PERMISSIONS)
  @Allow(ReportRules.qa)
  @ApiOkResponse({ type: Written })
  async qaRelease(
    @CurrentActor() actor: Actor,
    @Req() req: AuthenticatedRequest,
    @Param('id', UuidPipe) id: string,
  ): Promise<Written> {
    await this.readable(actor, id);
    return this.run(req, {
      type: 'QaRelease',
      reportId: id,
      by: actor.userId,
      override: isAdmin(actor.permissions),
    });
  }

  @Post(':id/qa/request-changes')
  @HttpCode(HttpStatus.OK)
  @RequirePermissions(...ALL_MARKER_PERMISSIONS)
  @Allow(ReportRules.qa)
  @ApiOkResponse({ type: Written })
  async qaRequestChanges(
    @CurrentActor() actor: Actor,
    @Req() req: AuthenticatedRequest,
    @Param('id', UuidPipe) id: string,
    @Body() body: ReasonBody,
  ): Promise<Written> {
    await this.readable(actor, id);
    return this.run(req, { type: 'QaRequestChanges', reportId: id, by: actor.userId, reason: body.reason });
  }

  @Post(':id/qa/approve')
  @HttpCode(HttpStatus.OK)
  @RequirePermissions(...ALL_MARKER_PERMISSIONS)
  @Allow(ReportRules.qa)
  @ApiOkResponse({ type: Written })
  @ApiConflictResponse({ description: 'Wrong state, or the text changed since you read it (hash)' })
  async qaApprove(
    @CurrentActor() actor: Actor,
    @Req() req: AuthenticatedRequest,
    @Param('id', UuidPipe) id: string,
    @Body() body: SignBody,
  ): Promise<Written> {
    await this.readable(actor, id);
    const current = await this.documents.current(id);
    return this.run(req, {
      type: 'QaApprove',
      reportId: id,
      by: actor.userId,
      signOff: {
        expectedHash: body.expected_hash,
        current,
        unresolvedSuggestions: unresolvedSuggestions(current.content),
      },
    });
  }

  @Post(':id/qa/revoke-approval')
  @HttpCode(HttpStatus.OK)
  @RequirePermissions(...ALL_MARKER_PERMISSIONS)
  @Allow(ReportRules.revokeApproval)
  @ApiOkResponse({ type: Written })
  async qaRevokeApproval(
    @CurrentActor() actor: Actor,
    @Req() req: AuthenticatedRequest,
    @Param('id', UuidPipe) id: string,
    @Body() body: ReasonBody,
  ): Promise<Written> {
    await this.readable(actor, id);
    return this.run(req, {
      type: 'QaRevokeApproval',
      reportId: id,
      by: actor.userId,
      reason: body.reason,
      isLead: mayLeadReview(actor.permissions),
    });
  }

  @Post(':id/lead/claim')
  @HttpCode(HttpStatus.OK)
  @RequirePermissions(...ALL_MARKER_PERMISSIONS)
  @Allow(ReportRules.lead)
  @ApiOkResponse({ type: Written })
  async leadClaim(
    @CurrentActor() actor: Actor,
    @Req() req: AuthenticatedRequest,
    @Param('id', UuidPipe) id: string,
  ): Promise<Written> {
    await this.readable(actor, id);
    return this.run(req, { type: 'LeadClaim', reportId: id, by: actor.userId });
  }

  @Post(':id/lead/release')
  @HttpCode(HttpStatus.OK)
  @RequirePermissions(...ALL_MARKER_PERMISSIONS)
  @Allow(ReportRules.lead)
  @ApiOkResponse({ type: Written })
  async leadRelease(
    @CurrentActor() actor: Actor,
    @Req() req: AuthenticatedRequest,
    @Param('id', UuidPipe) id: string,
  ): Promise<Written> {
    await this.readable(actor, id);
    return this.run(req, {
      type: 'LeadRelease',
      reportId: id,
      by: actor.userId,
      override: isAdmin(actor.permissions),
    });
  }

  @Post(':id/lead/return')
  @HttpCode(HttpStatus.OK)
  @RequirePermissions(...ALL_MARKER_PERMISSIONS)
  @Allow(ReportRules.lead)
  @ApiOkResponse({ type: Written })
  async leadReturn(
    @CurrentActor() actor: Actor,
    @Req() req: AuthenticatedRequest,
    @Param('id', UuidPipe) id: string,
    @Body() body: ReturnBody,
  ): Promise<Written> {
    await this.readable(actor, id);
    return this.run(req, {
      type: 'LeadReturn',
      reportId: id,
      by: actor.userId,
      to: body.to,
      reason: body.reason,
    });
  }

  /**
   * Publishes several reports at once (the QA lead's bulk sign-off, decision 0068): each item carries
   * the hash the lead saw and is decided on its own, exactly as `POST /{id}/lead/publish` would be, so
   * one refusal (a moved text, a wrong state, an unresolved suggestion) does not stop the others. A QA
   * approved report nobody has claimed is claimed for the lead first (only when its hash still matches).
   */
  @Post('lead/publish')
  @HttpCode(HttpStatus.OK)
  @RequirePermissions(...ALL_MARKER_PERMISSIONS)
  @Allow(ReportRules.lead)
  @ApiOkResponse({ type: BulkPublishAnswer })
  async leadPublishMany(
    @CurrentActor() actor: Actor,
    @Req() req: AuthenticatedRequest,
    @Body() body: BulkPublishBody,
  ): Promise<BulkPublishAnswer> {
    const ids = body.items.map((i) => i.report_id);
    const twice = ids.findIndex((id, n) => ids.indexOf(id) !== n);
    if (twice >= 0) throw new DomainError('invalid', `items[${twice}].report_id: listed twice`);
    const items: BulkPublishResult[] = [];
    let position = '0';
    for (const item of body.items) {
      const id = item.report_id;
      try {
        const { row } = await this.readable(actor, id);
        const current = await this.documents.current(id);
        const signOff = {
          expectedHash: item.expected_hash,
          current,
          unresolvedSuggestions: unresolvedSuggestions(current.content),
        };
        if (row.state === 'qa_approved' && row.lead_claimed_by === null) {
          // Claim only what would publish: the same checks, on the state the claim would give.
          decideReport(
            { type: 'Publish', reportId: id, by: actor.userId, signOff },
            { ...stateOf(row), state: 'in_lead_review', leadClaimedBy: actor.userId },
          );
          await this.run(req, { type: 'LeadClaim', reportId: id, by: actor.userId });
        }
        const written = await this.run(req, { type: 'Publish', reportId: id, by: actor.userId, signOff });
        if (BigInt(written.position) > BigInt(position)) position = written.position;
        items.push({
          report_id: id,
          ok: true,
          status: 200,
          detail: null,
          code: null,
          revision: row.revision,
        });
      } catch (e) {
        items.push({ report_id: id, ok: false, revision: null, ...refusalOf(e) });
      }
    }
    const published = items.filter((i) => i.ok).length;
    return { position, published, refused: items.length - published, items };
  }

  @Post(':id/lead/publish')
  @HttpCode(HttpStatus.OK)
  @RequirePermissions(...ALL_MARKER_PERMISSIONS)
  @Allow(ReportRules.lead)
  @ApiOkResponse({ type: Written })
  @ApiConflictResponse({ description: 'Wrong state, or the text changed since you read it (hash)' })
  async leadPublish(
    @CurrentActor() actor: Actor,
    @Req() req: AuthenticatedRequest,
    @Param('id', UuidPipe) id: string,
    @Body() body: SignBody,
  ): Promise<Written> {
    await this.readable(actor, id);
    const current = await this.documents.current(id);
    return this.run(req, {
      type: 'Publish',
      reportId: id,
      by: actor.userId,
      signOff: {
        expectedHash: body.expected_hash,
        current,
        unresolvedSuggestions: unresolvedSuggestions(current.content),
      },
    });
  }

  @Post(':id/lead/revoke-publication')
  @HttpCode(HttpStatus.OK)
  @RequirePermissions(...ALL_MARKER_PERMISSIONS)
  @Allow(ReportRules.revokePublication)
  @ApiOkResponse({ type: Written })
  async leadRevokePublication(
    @CurrentActor() actor: Actor,
    @Req() req: AuthenticatedRequest,
    @Param('id', UuidPipe) id: string,
    @Body() body: ReasonBody,
  ): Promise<Written> {
    await this.readable(actor, id);
    return this.run(req, { type: 'RevokePublication', reportId: id, by: actor.userId, reason: body.reason });
  }

  @Post(':id/discard')
  @HttpCode(HttpStatus.OK)
  @RequirePermissions(...ALL_MARKER_PERMISSIONS)
  @Allow(ReportRules.discard)
  @ApiOkResponse({ type: Written })
  async discard(
    @CurrentActor() actor: Actor,
    @Req() req: AuthenticatedRequest,
    @Param('id', UuidPipe) id: string,
    @Body() body: ReasonBody,
  ): Promise<Written> {
    await this.readable(actor, id);
    return this.run(req, { type: 'Discard', reportId: id, by: actor.userId, reason: body.reason });
  }

  /** A new submit-by for this one report (administrators, QA leads; decision 0061). */
  @Post(':id/extend-deadline')
  @HttpCode(HttpStatus.OK)
  @RequirePermissions(...ALL_MARKER_PERMISSIONS)
  @Allow(ReportRules.extendDeadline)
  @ApiOkResponse({ type: Written })
  @ApiConflictResponse({ description: 'The report is no longer with its writers' })
  async extendDeadline(
    @CurrentActor() actor: Actor,
    @Req() req: AuthenticatedRequest,
    @Param('id', UuidPipe) id: string,
    @Body() body: ExtendDeadlineBody,
  ): Promise<Written> {
    const { row } = await this.readable(actor, id);
    return this.run(req, {
      type: 'ExtendDeadline',
      reportId: id,
      by: actor.userId,
      submitBy: body.submit_by,
      reason: body.reason,
      timeframeSubmitBy: row.timeframe_submit_by,
    });
  }

  @Post(':id/restore')
  @HttpCode(HttpStatus.OK)
  @RequirePermissions(...ALL_MARKER_PERMISSIONS)
  @Allow(ReportRules.discard)
  @ApiOkResponse({ type: Written })
  async restore(
    @CurrentActor() actor: Actor,
    @Req() req: AuthenticatedRequest,
    @Param('id', UuidPipe) id: string,
  ): Promise<Written> {
    await this.readable(actor, id);
    return this.run(req, { type: 'Restore', reportId: id, by: actor.userId });
  }

  /* ----------------------------------------------------------------------------------- helpers */

  private async run(
    req: AuthenticatedRequest,
    command: Exclude<ReportCommand, { type: 'CreateReport' }>,
  ): Promise<Written> {
    const { position } = await this.commands.run(reportAggregate, command, metadataFor(req));
    return { id: command.reportId, position };
  }

  private teaches(actor: Actor, id: string): Promise<boolean> {
    return this.reads.teaches(id, actor.userId);
  }

  /** A partner's read receipt (its own stream, so reading never moves the report's revision). */
  private async recordView(actor: Actor, row: HalfTermReportListRow, revision: number, via: 'view' | 'pdf') {
    await this.store.append(
      halfTermReportViewsStream(row.id),
      [
        {
          id: randomUUID(),
          type: 'HalfTermReportViewedByPartner',
          data: { reportId: row.id, customerId: row.customer_id, viewerId: actor.userId, revision, via },
          metadata: { actorId: actor.userId },
        },
      ],
      { expectedRevision: 'any' },
    );
  }

  /** The report and how the actor sees it; 404 when they may not. */
  private async readable(
    actor: Actor,
    id: string,
  ): Promise<{ row: HalfTermReportListRow; access: ReportAccess }> {
    const row = await halfTermReportById(this.sql, id);
    const notFound = () => new Problem(HttpStatus.NOT_FOUND, 'Half-term report not found');
    if (!row) throw notFound();
    let linked = false;
    if (partnerSeesReports(actor.permissions)) {
      linked = await this.reads.linked(row.student_id, actor.userId);
    }
    const teaches =
      isInternal(actor.permissions) &&
      mayManageAssignments(actor.permissions) &&
      !readsAllReports(actor.permissions)
        ? await this.teaches(actor, id)
        : false;
    const access = reportAccess(actor, row, { teachesProgramme: teaches, linkedToStudent: linked });
    if (!access) throw notFound();
    return { row, access };
  }

  /** The workflow commands the decider would accept from the actor now (the screen's buttons). */
  private actionsFor(actor: Actor, row: HalfTermReportListRow): string[] {
    const state = stateOf(row);
    return ACTIONS.filter((a) => {
      if (!a.may(actor)) return false;
      try {
        decideReport(a.command(row.id, actor.userId), { ...state, restoreTo: 'draft' });
        return true;
      } catch (e) {
        return !(e instanceof DomainError)
          ? false
          : e.code === 'hash_mismatch' || e.code === 'unresolved_suggestions';
      }
    }).map((a) => a.name);
  }
}
