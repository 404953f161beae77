import { randomUUID } from 'node:crypto';
import {
  Body,
  Controller,
  Delete,
  Get,
  HttpStatus,
  Inject,
  Param,
  Post,
  Put,
  Query,
  Req,
} from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiProperty,
  ApiPropertyOptional,
  ApiTags,
} from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { incidentTypeById, listIncidentTypes, type IncidentTypeRow } from '@portal/projections';
import { RequirePermissions } from '../platform/auth/public.decorator.js';
import { type AuthenticatedRequest, metadataFor } from '../platform/auth/request-context.js';
import { Commands } from '../platform/event-store/commands.js';
import { Problem } from '../platform/http/problem.js';
import type { SqlClient } from '../platform/sql/sql-client.js';
import { SQL_CLIENT } from '../platform/tokens.js';
import { incidentTypeAggregate } from './incident-type.decider.js';
import { REPORTER_PERMISSIONS, SafeguardingRules, TYPE_MANAGERS } from './safeguarding.policy.js';
import { Allow } from '../platform/auth/allow.decorator.js';
import { SearchPageQuery, PageOf, searchTextOf } from '../platform/http/paging.js';
import { UuidPipe } from '../platform/http/validation.js';
import { Written } from '../platform/http/written.js';

export class ListIncidentTypesQuery extends SearchPageQuery {
  @ApiPropertyOptional({ description: 'Include retired types (default false)' })
  @IsOptional()
  @Transform(({ value }: { value: unknown }) => (value === 'true' ? true : value === 'false' ? false : value))
  @IsBoolean()
  include_retired?: boolean;
}

export class CreateIncidentTypeBody {
  @ApiProperty({ example: 'Neglect' }) @IsString() @IsNotEmpty() @MaxLength(200) name!: string;
  @ApiPropertyOptional({ description: 'Guidance shown to reporters', default: '' })
  @IsOptional()
  @IsString()
  @MaxLength(10_000)
  guidance?: string;
}

export class UpdateIncidentTypeBody {
  @ApiPropertyOptional() @IsOptional() @IsString() @IsNotEmpty() @MaxLength(200) name?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(10_000) guidance?: string;
}

export class IncidentTypeView {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty() guidance!: string;
  @ApiProperty() retired!: boolean;
  @ApiProperty() created_at!: string;
  @ApiProperty() updated_at!: string;
}

export class IncidentTypePage extends PageOf(IncidentTypeView) {}

const view = (r: IncidentTypeRow): IncidentTypeView => ({
  id: r.id,
  name: r.name,
  guidance: r.guidance,
  retired: r.retired,
  created_at: new Date(r.created_at).toISOString(),
  updated_at: new Date(r.updated_at).toISOString(),
});

/**
 * Safeguarding incident types (categories with guidance). Everyone who may report an incident reads
 * them; administrators with safeguarding access manage them. DELETE retires: the type stays readable
 * (incidents keep their history) but can no longer be chosen for a new report.
 */
@ApiTags('safeguarding')
@Controller('api/v1/safeguarding-incident-types')
export class IncidentTypesController {
  constructor(
    private readonly commands: Commands,
    @Inject(SQL_CLIENT) private readonly sql: SqlClient,
  ) {}

  @Get()
  @RequirePermissions(...REPORTER_PERMISSIONS)
  @Allow(SafeguardingRules.readTypes)
  @ApiOkResponse({ type: IncidentTypePage })
  async list(@Query() q: ListIncidentTypesQuery): Promise<IncidentTypePage> {
    const found = await listIncidentTypes(this.sql, {
      ...q,
      text: searchTextOf(q),
      includeRetired: q.include_retired,
    });
    return { ...found, items: found.items.map(view) };
  }

  @Get(':id')
  @RequirePermissions(...REPORTER_PERMISSIONS)
  @Allow(SafeguardingRules.readTypes)
  @ApiOkResponse({ type: IncidentTypeView })
  @ApiNotFoundResponse({ description: 'Incident type not found' })
  async get(@Param('id', UuidPipe) id: string): Promise<IncidentTypeView> {
    const row = await incidentTypeById(this.sql, id);
    if (!row) throw new Problem(HttpStatus.NOT_FOUND, 'Incident type not found');
    return view(row);
  }

  @Post()
  @RequirePermissions(...TYPE_MANAGERS)
  @Allow(SafeguardingRules.manageTypes)
  @ApiCreatedResponse({ type: Written })
  async create(@Req() req: AuthenticatedRequest, @Body() body: CreateIncidentTypeBody): Promise<Written> {
    const id = randomUUID();
    const { position } = await this.commands.run(
      incidentTypeAggregate,
      {
        type: 'CreateIncidentType',
        typeId: id,
        name: body.name.trim(),
        guidance: body.guidance ?? '',
      },
      metadataFor(req),
    );
    return { id, position };
  }

  @Put(':id')
  @RequirePermissions(...TYPE_MANAGERS)
  @Allow(SafeguardingRules.manageTypes)
  @ApiOkResponse({ type: Written })
  @ApiNotFoundResponse({ description: 'Incident type not found' })
  async update(
    @Req() req: AuthenticatedRequest,
    @Param('id', UuidPipe) id: string,
    @Body() body: UpdateIncidentTypeBody,
  ): Promise<Written> {
    const { position } = await this.commands.run(
      incidentTypeAggregate,
      {
        type: 'UpdateIncidentType',
        typeId: id,
        name: body.name?.trim(),
        guidance: body.guidance,
      },
      metadataFor(req),
    );
    return { id, position };
  }

  @Delete(':id')
  @RequirePermissions(...TYPE_MANAGERS)
  @Allow(SafeguardingRules.manageTypes)
  @ApiOkResponse({ type: Written, description: 'Retired (kept for history)' })
  @ApiNotFoundResponse({ description: 'Incident type not found' })
  async retire(@Req() req: AuthenticatedRequest, @Param('id', UuidPipe) id: string): Promise<Written> {
    const { position } = await this.commands.run(
      incidentTypeAggregate,
      { type: 'RetireIncidentType', typeId: id },
      metadataFor(req),
    );
    return { id, position };
  }
}
