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
  Put,
  Query,
  Req,
  Res,
} from '@nestjs/common';
import type { Response } from 'express';
import archiver from 'archiver';
import {
  ApiCreatedResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiProduces,
  ApiProperty,
  ApiPropertyOptional,
  ApiTags,
  ApiUnprocessableEntityResponse,
  PartialType,
} from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsOptional,
  IsString,
  IsUUID,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import {
  DEFAULT_REMINDER_OFFSETS,
  HALF_TERMS,
  halfTermReportById,
  halfTermReportRevisions,
  publishedReportIds,
  reportFacts,
  listTimeframes,
  reportCandidates,
  timeframeById,
  timeframeProgress,
  timeframeSuggestions,
  timeframeTimeline,
  userNames,
  type HalfTerm,
  type TimeframeFields,
  type TimeframeRow,
} from '@portal/projections';
import { ALL_MARKER_PERMISSIONS } from '../identity/policy/policy.js';
import { NetworksReadModel } from '../identity/networks/networks.read.js';
import { Allow } from '../platform/auth/allow.decorator.js';
import { RequirePermissions } from '../platform/auth/public.decorator.js';
import { metadataFor, type AuthenticatedRequest } from '../platform/auth/request-context.js';
import { Commands } from '../platform/event-store/commands.js';
import { IsCalendarDate } from '../platform/http/dates.js';
import { PageOf, SearchPageQuery } from '../platform/http/paging.js';
import { Problem } from '../platform/http/problem.js';
import type { Log } from '../platform/logging/logger.js';
import { revisionPdf } from './report-pdf.js';
import { UuidPipe } from '../platform/http/validation.js';
import { Written } from '../platform/http/written.js';
import type { SqlClient } from '../platform/sql/sql-client.js';
import { LOGGER, SQL_CLIENT } from '../platform/tokens.js';
import { ProjectionRunner } from '../platform/projections/projection-runner.js';
import { EVENT_STORE } from '../platform/tokens.js';
import type { EventStore } from '../platform/event-store/event-store.js';
import { todayIn } from '../core/time/time.js';
import { reportAggregate, reportIdOf, timeframeAggregate } from './half-term-report.decider.js';
import { ReportRules } from './half-term-reports.policy.js';
import { ReportDocuments } from './report-documents.js';
import { qaMetrics, suggestionMetrics } from './qa-metrics.js';

const DEFAULT_TIMEZONE = 'Europe/London';
const MAX_SCOPE = 500;

export class BatchPdfQuery {
  @ApiPropertyOptional({ format: 'uuid', description: 'Only this customer’s (school’s) reports' })
  @IsOptional()
  @IsUUID('all', { message: 'customer_id: a customer id (uuid)' })
  customer_id?: string;
}

export class ScopeBody {
  @ApiPropertyOptional({ type: [String], format: 'uuid' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_SCOPE)
  @IsUUID('all', { each: true })
  customer_ids?: string[];
  @ApiPropertyOptional({ type: [String], format: 'uuid' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_SCOPE)
  @IsUUID('all', { each: true })
  programme_ids?: string[];
  @ApiPropertyOptional({ type: [String], format: 'uuid' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_SCOPE)
  @IsUUID('all', { each: true })
  product_ids?: string[];
}

export class CreateTimeframeBody {
  @ApiProperty({ example: 'Autumn 1 2026/27' }) @IsString() @IsNotEmpty() @MaxLength(200) name!: string;
  @ApiProperty({ example: '2026/27' })
  @Matches(/^\d{4}\/\d{2}$/, { message: 'academic_year: write it as 2026/27' })
  academic_year!: string;
  @ApiProperty({ enum: HALF_TERMS }) @IsIn(HALF_TERMS) half_term!: HalfTerm;
  @ApiPropertyOptional({ format: 'uuid', nullable: true, type: String, description: 'Its timezone holds' })
  @IsOptional()
  @ValidateIf((o: { network_id?: unknown }) => o.network_id !== null)
  @IsUUID()
  network_id?: string | null;
  @ApiProperty({ format: 'date', description: 'The lessons the reports cover, from' })
  @IsCalendarDate()
  period_from!: string;
  @ApiProperty({ format: 'date' }) @IsCalendarDate() period_to!: string;
  @ApiProperty({ format: 'date', description: 'Writing opens' }) @IsCalendarDate() opens_at!: string;
  @ApiProperty({ format: 'date', description: 'Teacher deadline (end of that day, network time)' })
  @IsCalendarDate()
  submit_by!: string;
  @ApiProperty({ format: 'date' }) @IsCalendarDate() qa_by!: string;
  @ApiProperty({ format: 'date', description: 'Partners see published reports from this date' })
  @IsCalendarDate()
  release_at!: string;
  @ApiPropertyOptional({ format: 'date', nullable: true, type: String, description: 'Hard close' })
  @IsOptional()
  @ValidateIf((o: { closes_at?: unknown }) => o.closes_at !== null)
  @IsCalendarDate()
  closes_at?: string | null;
  @ApiPropertyOptional({ type: ScopeBody, description: 'Empty lists: the whole network' })
  @IsOptional()
  @ValidateNested()
  @Type(() => ScopeBody)
  scope?: ScopeBody;
  @ApiPropertyOptional({
    type: [Number],
    example: [7, 1],
    description: 'Days before submit-by on which writers with reports still due are e-mailed (0: that day)',
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(10)
  @IsInt({ each: true })
  @Min(0, { each: true })
  @Max(60, { each: true })
  reminder_offsets?: number[];
}

/** PUT: a field left out is unchanged. */
export class UpdateTimeframeBody extends PartialType(CreateTimeframeBody) {}

export class ScopeView {
  @ApiProperty({ type: [String] }) customer_ids!: string[];
  @ApiProperty({ type: [String] }) programme_ids!: string[];
  @ApiProperty({ type: [String] }) product_ids!: string[];
}

export class TimeframeView {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty() academic_year!: string;
  @ApiProperty({ enum: HALF_TERMS }) half_term!: string;
  @ApiProperty({ type: [Number], description: 'Reminder days before submit-by' }) reminder_offsets!: number[];
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) network_id!: string | null;
  @ApiProperty({ description: 'The zone the dates are evaluated in' }) timezone!: string;
  @ApiProperty({ format: 'date' }) period_from!: string;
  @ApiProperty({ format: 'date' }) period_to!: string;
  @ApiProperty({ format: 'date' }) opens_at!: string;
  @ApiProperty({ format: 'date' }) submit_by!: string;
  @ApiProperty({ format: 'date' }) qa_by!: string;
  @ApiProperty({ format: 'date' }) release_at!: string;
  @ApiProperty({ format: 'date', nullable: true, type: String }) closes_at!: string | null;
  @ApiProperty({ type: ScopeView }) scope!: ScopeView;
  @ApiProperty({ enum: ['upcoming', 'open', 'closed'], description: 'Writing window today (network time)' })
  status!: string;
  @ApiProperty({ description: 'Reports by state' }) counts!: Record<string, number>;
}

export class TimeframePage extends PageOf(TimeframeView) {}

export class ProgressRow {
  @ApiProperty({ nullable: true, type: String }) id!: string | null;
  @ApiProperty({ nullable: true, type: String }) name!: string | null;
  @ApiProperty() total!: number;
  @ApiProperty({ description: 'Still with their writers (draft, returned)' }) with_writers!: number;
  @ApiProperty() submitted!: number;
  @ApiProperty() published!: number;
  @ApiProperty() overdue!: number;
}

export class TimeframeDetailsView {
  @ApiProperty({ type: TimeframeView }) timeframe!: TimeframeView;
  @ApiProperty({ description: 'Reports by state' }) counts!: Record<string, number>;
  @ApiProperty({ type: [ProgressRow], description: 'Per writer' }) teachers!: ProgressRow[];
  @ApiProperty({ type: [ProgressRow] }) customers!: ProgressRow[];
}

export class ReviewerMetricsView {
  @ApiProperty({ format: 'uuid' }) reviewer_id!: string;
  @ApiProperty({ nullable: true, type: String }) name!: string | null;
  @ApiProperty() claims!: number;
  @ApiProperty() approvals!: number;
  @ApiProperty() changes_requested!: number;
  @ApiProperty({ nullable: true, type: Number, description: 'Mean minutes from submission to claim' })
  minutes_to_claim!: number | null;
  @ApiProperty({ nullable: true, type: Number, description: 'Mean minutes from claim to decision' })
  minutes_to_decide!: number | null;
}
export class WriterMetricsView {
  @ApiProperty({ format: 'uuid' }) writer_id!: string;
  @ApiProperty({ nullable: true, type: String }) name!: string | null;
  @ApiProperty() reports!: number;
  @ApiProperty() submissions!: number;
  @ApiProperty({ description: 'Times a report came back to its writers' }) rework_cycles!: number;
  @ApiProperty({ description: 'Submit-by dates missed (deadline-missed events)' }) deadlines_missed!: number;
}
export class SuggestionAuthorView {
  @ApiProperty({ format: 'uuid' }) author_id!: string;
  @ApiProperty({ nullable: true, type: String }) name!: string | null;
  @ApiProperty() suggestions!: number;
  @ApiProperty() accepted!: number;
  @ApiProperty() rejected!: number;
  @ApiProperty() open!: number;
  @ApiProperty({ nullable: true, type: Number, description: 'Accepted out of resolved' })
  acceptance_rate!: number | null;
}
export class SuggestionMetricsView {
  @ApiProperty() total!: number;
  @ApiProperty({ nullable: true, type: Number, description: 'Suggestions per report of the timeframe' })
  per_report!: number | null;
  @ApiProperty({ nullable: true, type: Number, description: 'Accepted out of resolved' })
  acceptance_rate!: number | null;
  @ApiProperty({ type: [SuggestionAuthorView] }) authors!: SuggestionAuthorView[];
}
export class QaMetricsView {
  @ApiProperty({ type: [ReviewerMetricsView] }) reviewers!: ReviewerMetricsView[];
  @ApiProperty({ type: [WriterMetricsView] }) writers!: WriterMetricsView[];
  @ApiProperty({ type: SuggestionMetricsView }) suggestions!: SuggestionMetricsView;
}

export class GenerateAnswer {
  @ApiProperty({ description: 'Reports created now' }) created!: number;
  @ApiProperty({ description: 'Reports that existed already' }) existing!: number;
  @ApiProperty() position!: string;
}

export class TimeframeWritten extends Written {}

export function timeframeStatus(
  t: Pick<TimeframeRow, 'timezone' | 'opens_at' | 'closes_at' | 'qa_by'>,
  now = new Date(),
) {
  const today = todayIn(t.timezone, now);
  if (today < t.opens_at) return 'upcoming';
  if (today > (t.closes_at ?? t.qa_by)) return 'closed';
  return 'open';
}

const view = (t: TimeframeRow, counts: Record<string, number> = {}): TimeframeView => ({
  id: t.id,
  name: t.name,
  academic_year: t.academic_year,
  half_term: t.half_term,
  reminder_offsets: t.reminder_offsets,
  network_id: t.network_id,
  timezone: t.timezone,
  period_from: t.period_from,
  period_to: t.period_to,
  opens_at: t.opens_at,
  submit_by: t.submit_by,
  qa_by: t.qa_by,
  release_at: t.release_at,
  closes_at: t.closes_at,
  scope: {
    customer_ids: t.scope.customerIds,
    programme_ids: t.scope.programmeIds,
    product_ids: t.scope.productIds,
  },
  status: timeframeStatus(t),
  counts,
});

/**
 * Report-submission timeframes (issue 17, decision 0057): internal users read them; administrators
 * create and change them and generate their reports. Dates are local dates in the network's zone.
 */
@ApiTags('half-term-reports')
@Controller('api/v1/report-submission-timeframes')
export class TimeframesController {
  constructor(
    private readonly commands: Commands,
    private readonly networks: NetworksReadModel,
    private readonly documents: ReportDocuments,
    private readonly runner: ProjectionRunner,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(SQL_CLIENT) private readonly sql: SqlClient,
    @Inject(LOGGER) private readonly log: Log,
  ) {}

  @Get()
  @RequirePermissions(...ALL_MARKER_PERMISSIONS)
  @Allow(ReportRules.internal)
  @ApiOkResponse({ type: TimeframePage })
  async list(@Query() q: SearchPageQuery): Promise<TimeframePage> {
    const page = await listTimeframes(this.sql, { page: q.page, size: q.size, query: q.query ?? q.name });
    return { ...page, items: page.items.map((t) => view(t, t.counts as Record<string, number>)) };
  }

  @Get(':id')
  @RequirePermissions(...ALL_MARKER_PERMISSIONS)
  @Allow(ReportRules.internal)
  @ApiOkResponse({ type: TimeframeView })
  @ApiNotFoundResponse({ description: 'Timeframe not found' })
  async get(@Param('id', UuidPipe) id: string): Promise<TimeframeView> {
    const t = await this.require(id);
    const progress = await timeframeProgress(this.sql, id);
    return view(t, progress.counts);
  }

  @Get(':id/details')
  @RequirePermissions(...ALL_MARKER_PERMISSIONS)
  @Allow(ReportRules.internal)
  @ApiOkResponse({ type: TimeframeDetailsView })
  @ApiNotFoundResponse({ description: 'Timeframe not found' })
  async details(@Param('id', UuidPipe) id: string): Promise<TimeframeDetailsView> {
    const t = await this.require(id);
    const progress = await timeframeProgress(this.sql, id);
    const counts = progress.counts as Record<string, number>;
    return { timeframe: view(t, counts), counts, teachers: progress.teachers, customers: progress.customers };
  }

  /**
   * Every published report of the timeframe (of one customer with `customer_id`) as one zip of PDFs,
   * each the report's current published revision rendered on the server (decision 0068). Streamed:
   * each PDF is rendered and written before the next; `X-Report-Count` says how many will come.
   */
  @Get(':id/pdfs')
  @RequirePermissions(...ALL_MARKER_PERMISSIONS)
  @Allow(ReportRules.list)
  @ApiProduces('application/zip')
  @ApiOkResponse({ description: 'A zip of one PDF per published report' })
  @ApiNotFoundResponse({ description: 'Timeframe not found, or no published report in it' })
  async pdfs(
    @Param('id', UuidPipe) id: string,
    @Query() q: BatchPdfQuery,
    @Res() res: Response,
  ): Promise<void> {
    const t = await this.require(id);
    const ids = await publishedReportIds(this.sql, id, q.customer_id ?? null);
    if (ids.length === 0)
      throw new Problem(HttpStatus.NOT_FOUND, 'No published report in this timeframe to download yet');
    const slug = (text: string) => text.replace(/[^\p{L}\p{N}]+/gu, '-').replace(/^-|-$/g, '') || 'report';
    res.status(200).set({
      'Content-Type': 'application/zip',
      'Content-Disposition': `attachment; filename="half-term-reports-${slug(t.name)}.zip"`,
      'X-Report-Count': String(ids.length),
    });
    const zip = archiver('zip', { zlib: { level: 6 } });
    zip.on('warning', (e) => this.log.warn({ err: e }, 'half-term reports: zip warning'));
    zip.on('error', (e) => {
      this.log.error({ err: e }, 'half-term reports: zip failed');
      res.destroy(e);
    });
    zip.pipe(res);
    const names = new Set<string>();
    try {
      for (const reportId of ids) {
        if (res.destroyed) break;
        const row = await halfTermReportById(this.sql, reportId);
        const revision = (await halfTermReportRevisions(this.sql, reportId))
          .filter((r) => r.revoked_at === null)
          .at(-1);
        if (!row || !revision) continue;
        let name = `${slug(row.customer_name ?? 'school')}/${slug(row.student_name ?? row.student_id)}-${slug(
          row.programme_title ?? 'programme',
        )}-r${revision.revision}.pdf`;
        if (names.has(name)) name = name.replace(/\.pdf$/, `-${reportId.slice(0, 8)}.pdf`);
        names.add(name);
        const written = new Promise((resolve) => zip.once('entry', resolve));
        zip.append(await revisionPdf(this.sql, row, revision), { name });
        await written;
      }
      await zip.finalize();
    } catch (e) {
      // The headers are out: the client sees a broken download, never a zip missing reports.
      this.log.error({ err: e, timeframeId: id }, 'half-term reports: batch PDF download failed');
      zip.abort();
      res.destroy(e as Error);
    }
  }

  /** QA metrics of the timeframe, from its workflow events: per reviewer and per writer. */
  @Get(':id/qa-metrics')
  @RequirePermissions(...ALL_MARKER_PERMISSIONS)
  @Allow(ReportRules.list)
  @ApiOkResponse({ type: QaMetricsView })
  @ApiNotFoundResponse({ description: 'Timeframe not found' })
  async qaMetrics(@Param('id', UuidPipe) id: string): Promise<QaMetricsView> {
    await this.require(id);
    const timeline = await timeframeTimeline(this.sql, id);
    const { reviewers, writers } = qaMetrics(timeline);
    const reports = new Set(timeline.map((e) => e.report_id)).size;
    const suggestions = suggestionMetrics(await timeframeSuggestions(this.sql, id), reports);
    const names = await userNames(this.sql, [
      ...reviewers.map((r) => r.reviewer_id),
      ...writers.map((w) => w.writer_id),
      ...suggestions.authors.map((a) => a.author_id),
    ]);
    return {
      reviewers: reviewers.map((r) => ({ ...r, name: names.get(r.reviewer_id) ?? null })),
      writers: writers.map((w) => ({ ...w, name: names.get(w.writer_id) ?? null })),
      suggestions: {
        ...suggestions,
        authors: suggestions.authors.map((a) => ({ ...a, name: names.get(a.author_id) ?? null })),
      },
    };
  }

  @Post()
  @RequirePermissions(...ALL_MARKER_PERMISSIONS)
  @Allow(ReportRules.timeframes)
  @ApiCreatedResponse({ type: TimeframeWritten })
  @ApiUnprocessableEntityResponse({ description: 'A field is missing or the dates are out of order' })
  async create(
    @Req() req: AuthenticatedRequest,
    @Body() body: CreateTimeframeBody,
  ): Promise<TimeframeWritten> {
    const id = randomUUID();
    const fields = await this.fields(body, null);
    const { position } = await this.commands.run(
      timeframeAggregate,
      { type: 'CreateTimeframe', timeframeId: id, fields },
      metadataFor(req),
    );
    return { id, position };
  }

  @Put(':id')
  @RequirePermissions(...ALL_MARKER_PERMISSIONS)
  @Allow(ReportRules.timeframes)
  @ApiOkResponse({ type: TimeframeWritten })
  @ApiNotFoundResponse({ description: 'Timeframe not found' })
  @ApiUnprocessableEntityResponse({ description: 'The dates are out of order' })
  async update(
    @Req() req: AuthenticatedRequest,
    @Param('id', UuidPipe) id: string,
    @Body() body: UpdateTimeframeBody,
  ): Promise<TimeframeWritten> {
    const { state } = await this.commands.load(timeframeAggregate, id);
    if (!state.fields) throw new Problem(HttpStatus.NOT_FOUND, 'Report submission timeframe not found');
    const fields = await this.fields(body, state.fields);
    const { position } = await this.commands.run(
      timeframeAggregate,
      { type: 'ChangeTimeframe', timeframeId: id, fields },
      metadataFor(req),
    );
    return { id, position };
  }

  /**
   * One report per enrolment in scope with lessons planned or delivered in the period (ids are uuid v5
   * of timeframe × student × programme, so a second run creates only what is new).
   */
  @Post(':id/generate')
  @HttpCode(HttpStatus.OK)
  @RequirePermissions(...ALL_MARKER_PERMISSIONS)
  @Allow(ReportRules.timeframes)
  @ApiOkResponse({ type: GenerateAnswer })
  @ApiNotFoundResponse({ description: 'Timeframe not found' })
  async generate(
    @Req() req: AuthenticatedRequest,
    @Param('id', UuidPipe) id: string,
  ): Promise<GenerateAnswer> {
    await this.runner.waitForPosition(await this.store.headPosition(), 30_000);
    const t = await this.require(id);
    let created = 0;
    let existing = 0;
    let position = '0';
    for (const c of await reportCandidates(this.sql, t)) {
      const reportId = reportIdOf(id, c.student_id, c.programme_id);
      const result = await this.commands.run(
        reportAggregate,
        {
          type: 'CreateReport',
          reportId,
          timeframeId: id,
          studentId: c.student_id,
          programmeId: c.programme_id,
          customerId: c.customer_id,
          lessonCounts: c.lesson_counts,
        },
        metadataFor(req),
      );
      if (result.events.length) {
        created++;
        const facts = await reportFacts(this.sql, {
          studentId: c.student_id,
          programmeId: c.programme_id,
          periodFrom: t.period_from,
          periodTo: t.period_to,
          position: result.position,
        });
        await this.documents.seed(reportId, facts);
      } else existing++;
      if (BigInt(result.position) > BigInt(position)) position = result.position;
    }
    return { created, existing, position };
  }

  private async require(id: string): Promise<TimeframeRow> {
    const t = await timeframeById(this.sql, id);
    if (!t) throw new Problem(HttpStatus.NOT_FOUND, 'Report submission timeframe not found');
    return t;
  }

  private async fields(body: UpdateTimeframeBody, old: TimeframeFields | null): Promise<TimeframeFields> {
    const networkId = body.network_id === undefined ? (old?.networkId ?? null) : body.network_id;
    let timezone = old?.timezone ?? DEFAULT_TIMEZONE;
    if (body.network_id !== undefined) {
      if (networkId) {
        await this.networks.requireKnown(networkId);
        timezone = (await this.networks.byId(networkId))?.timezone ?? DEFAULT_TIMEZONE;
      } else timezone = DEFAULT_TIMEZONE;
    }
    const pick = <K extends keyof TimeframeFields>(value: TimeframeFields[K] | undefined, key: K) =>
      (value !== undefined ? value : old?.[key]) as TimeframeFields[K];
    return {
      name: pick(body.name, 'name'),
      academicYear: pick(body.academic_year, 'academicYear'),
      halfTerm: pick(body.half_term, 'halfTerm'),
      networkId,
      timezone,
      periodFrom: pick(body.period_from, 'periodFrom'),
      periodTo: pick(body.period_to, 'periodTo'),
      opensAt: pick(body.opens_at, 'opensAt'),
      submitBy: pick(body.submit_by, 'submitBy'),
      qaBy: pick(body.qa_by, 'qaBy'),
      releaseAt: pick(body.release_at, 'releaseAt'),
      closesAt: body.closes_at === undefined ? (old?.closesAt ?? null) : body.closes_at,
      scope: body.scope
        ? {
            customerIds: body.scope.customer_ids ?? [],
            programmeIds: body.scope.programme_ids ?? [],
            productIds: body.scope.product_ids ?? [],
          }
        : (old?.scope ?? { customerIds: [], programmeIds: [], productIds: [] }),
      reminderOffsets: [
        ...new Set(body.reminder_offsets ?? old?.reminderOffsets ?? DEFAULT_REMINDER_OFFSETS),
      ].sort((a, b) => b - a),
    };
  }
}
