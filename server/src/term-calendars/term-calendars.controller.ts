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
  IsNotEmpty,
  IsOptional,
  IsString,
  IsUUID,
  MaxLength,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import {
  customerById,
  listTermCalendars,
  termCalendarById,
  TERM_CALENDAR_SORTS,
  type TermCalendarWithDays,
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
import { INTERNAL_PERMISSIONS, MARKER_PERMISSIONS } from '../identity/policy/policy.js';
import { NetworksReadModel } from '../identity/networks/networks.read.js';
import { PageOf } from '../platform/http/paging.js';
import { IsCalendarDate } from '../platform/http/dates.js';
import { UuidPipe } from '../platform/http/validation.js';
import { Written } from '../platform/http/written.js';
import { listFilterOf, SortByQuery } from '../reference/reference.http.js';
import { termCalendarAggregate } from './term-calendar.decider.js';
import { calendarScope, calendarVisible, TermCalendarRules } from './term-calendars.policy.js';

const MAX_TERMS = 12;
const MAX_CLOSURES = 366;

export class ListTermCalendarsQuery extends SortByQuery(TERM_CALENDAR_SORTS) {
  @ApiPropertyOptional({ format: 'uuid' }) @IsOptional() @IsUUID() network_id?: string;
  @ApiPropertyOptional({ format: 'uuid' }) @IsOptional() @IsUUID() customer_id?: string;
}

export class TermItem {
  @ApiProperty({ example: 'Autumn' }) @IsString() @IsNotEmpty() @MaxLength(100) name!: string;
  @ApiProperty({ format: 'date', example: '2026-09-02' }) @IsCalendarDate() first_day!: string;
  @ApiProperty({ format: 'date', example: '2026-12-18' }) @IsCalendarDate() last_day!: string;
}

export class ClosureItem {
  @ApiProperty({ format: 'date', example: '2026-10-26' }) @IsCalendarDate() date!: string;
  @ApiProperty({ example: 'Half term' }) @IsString() @MaxLength(200) reason!: string;
}

export class CreateTermCalendarBody {
  @ApiProperty({ format: 'uuid' }) @IsUUID() network_id!: string;
  @ApiPropertyOptional({ format: 'uuid', nullable: true, description: "A partner school's own calendar" })
  @IsOptional()
  @ValidateIf((o: { customer_id?: unknown }) => o.customer_id !== null)
  @IsUUID()
  customer_id?: string | null;
  @ApiPropertyOptional({ description: 'Defaults to the academic year of the first term, e.g. 2026/27' })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  name?: string;
  @ApiProperty({ type: [TermItem], maxItems: MAX_TERMS })
  @IsArray()
  @ArrayMaxSize(MAX_TERMS)
  @ValidateNested({ each: true })
  @Type(() => TermItem)
  terms!: TermItem[];
  @ApiProperty({ type: [ClosureItem], maxItems: MAX_CLOSURES })
  @IsArray()
  @ArrayMaxSize(MAX_CLOSURES)
  @ValidateNested({ each: true })
  @Type(() => ClosureItem)
  closures!: ClosureItem[];
}

export class UpdateTermCalendarBody {
  @ApiPropertyOptional() @IsOptional() @IsString() @IsNotEmpty() @MaxLength(100) name?: string;
  @ApiPropertyOptional({ type: [TermItem], maxItems: MAX_TERMS, description: 'Replaces the whole list' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_TERMS)
  @ValidateNested({ each: true })
  @Type(() => TermItem)
  terms?: TermItem[];
  @ApiPropertyOptional({
    type: [ClosureItem],
    maxItems: MAX_CLOSURES,
    description: 'Replaces the whole list',
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_CLOSURES)
  @ValidateNested({ each: true })
  @Type(() => ClosureItem)
  closures?: ClosureItem[];
}

export class TermView {
  @ApiProperty() name!: string;
  @ApiProperty({ format: 'date' }) first_day!: string;
  @ApiProperty({ format: 'date' }) last_day!: string;
}

export class ClosureView {
  @ApiProperty({ format: 'date' }) date!: string;
  @ApiProperty() reason!: string;
}

export class TermCalendarView {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ format: 'uuid' }) network_id!: string;
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) customer_id!: string | null;
  @ApiProperty() name!: string;
  @ApiProperty({ type: [TermView] }) terms!: TermView[];
  @ApiProperty({ type: [ClosureView] }) closures!: ClosureView[];
  @ApiProperty() updated_at!: string;
}

export class TermCalendarPage extends PageOf(TermCalendarView) {}
export class TermCalendarWritten extends Written {}

const { admin: ADMIN, teacher: TEACHER, partner: PARTNER } = MARKER_PERMISSIONS;
const EDIT = INTERNAL_PERMISSIONS.PROGRAMME;

const view = (r: TermCalendarWithDays): TermCalendarView => ({
  id: r.id,
  network_id: r.network_id,
  customer_id: r.customer_id,
  name: r.name,
  terms: r.terms,
  closures: r.closures,
  updated_at: new Date(r.updated_at).toISOString(),
});

const termsOf = (terms: TermItem[]) =>
  terms.map((t) => ({ name: t.name, firstDay: t.first_day, lastDay: t.last_day }));
const closuresOf = (closures: ClosureItem[]) => closures.map((c) => ({ date: c.date, reason: c.reason }));

/** "2026/27" for a first term starting 2026-09-02 (academic years start on 1 September). */
export function academicYearOf(firstDay: string | undefined): string {
  if (!firstDay) return 'Term calendar';
  const year = Number(firstDay.slice(0, 4));
  const start = Number(firstDay.slice(5, 7)) >= 9 ? year : year - 1;
  return `${start}/${String((start + 1) % 100).padStart(2, '0')}`;
}

/** Term calendars: terms and closure days per network, or per partner school (decision 0049). */
@ApiTags('term calendars')
@Controller('api/v1/term-calendars')
export class TermCalendarsController {
  constructor(
    private readonly commands: Commands,
    @Inject(SQL_CLIENT) private readonly sql: SqlClient,
    private readonly networks: NetworksReadModel,
  ) {}

  @Get()
  @RequirePermissions(ADMIN, TEACHER, PARTNER)
  @Allow(TermCalendarRules.read)
  @ApiOkResponse({ type: TermCalendarPage })
  async list(@CurrentActor() actor: Actor, @Query() q: ListTermCalendarsQuery): Promise<TermCalendarPage> {
    const scope = calendarScope(actor);
    const page = await listTermCalendars(this.sql, {
      ...listFilterOf(q),
      networkId: q.network_id,
      customerId: q.customer_id,
      visibleTo: scope.all
        ? undefined
        : { customerId: scope.customerId ?? NO_ONE, networkId: await this.networkOf(scope.customerId) },
    });
    return { ...page, items: page.items.map(view) };
  }

  @Get(':id')
  @RequirePermissions(ADMIN, TEACHER, PARTNER)
  @Allow(TermCalendarRules.read)
  @ApiOkResponse({ type: TermCalendarView })
  @ApiNotFoundResponse({ description: 'Term calendar not found' })
  async get(@CurrentActor() actor: Actor, @Param('id', UuidPipe) id: string): Promise<TermCalendarView> {
    const scope = calendarScope(actor);
    const row = await termCalendarById(this.sql, id);
    if (!row || !calendarVisible(scope, row, scope.all ? null : await this.networkOf(scope.customerId)))
      throw new Problem(HttpStatus.NOT_FOUND, 'Term calendar not found');
    return view(row);
  }

  @Post()
  @RequirePermissions(ADMIN, EDIT)
  @Allow(TermCalendarRules.edit)
  @ApiCreatedResponse({ type: TermCalendarWritten })
  async create(
    @Req() req: AuthenticatedRequest,
    @Body() body: CreateTermCalendarBody,
  ): Promise<TermCalendarWritten> {
    await this.networks.requireKnown(body.network_id);
    const customerId = body.customer_id ?? null;
    if (customerId !== null) {
      const customer = await customerById(this.sql, customerId);
      if (!customer)
        throw new Problem(HttpStatus.UNPROCESSABLE_ENTITY, 'customer_id: no customer with this id');
      if (customer.network_id !== body.network_id)
        throw new Problem(HttpStatus.UNPROCESSABLE_ENTITY, 'customer_id: this customer is not in network_id');
    }
    const id = randomUUID();
    const firstDay = body.terms.map((t) => t.first_day).sort()[0];
    const { position } = await this.commands.run(
      termCalendarAggregate,
      {
        type: 'CreateTermCalendar',
        calendarId: id,
        networkId: body.network_id,
        customerId,
        name: body.name ?? academicYearOf(firstDay),
        terms: termsOf(body.terms),
        closures: closuresOf(body.closures),
      },
      metadataFor(req),
    );
    return { id, position };
  }

  @Put(':id')
  @RequirePermissions(ADMIN, EDIT)
  @Allow(TermCalendarRules.edit)
  @ApiOkResponse({ type: TermCalendarWritten })
  @ApiNotFoundResponse({ description: 'Term calendar not found' })
  async update(
    @Req() req: AuthenticatedRequest,
    @Param('id', UuidPipe) id: string,
    @Body() body: UpdateTermCalendarBody,
  ): Promise<TermCalendarWritten> {
    const { position } = await this.commands.run(
      termCalendarAggregate,
      {
        type: 'UpdateTermCalendar',
        calendarId: id,
        name: body.name,
        terms: body.terms && termsOf(body.terms),
        closures: body.closures && closuresOf(body.closures),
      },
      metadataFor(req),
    );
    return { id, position };
  }

  /** The network of a partner's customer (null without one). */
  private async networkOf(customerId: string | null): Promise<string | null> {
    if (!customerId) return null;
    return (await customerById(this.sql, customerId))?.network_id ?? null;
  }
}

/** A customer id no calendar has (a partner without a customer sees only their network's: none). */
const NO_ONE = '00000000-0000-0000-0000-000000000000';
