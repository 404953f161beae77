import { randomUUID } from 'node:crypto';
import { Body, Controller, Get, Inject, Param, Post, Put, Query, Req } from '@nestjs/common';
import {
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiProperty,
  ApiPropertyOptional,
  ApiTags,
} from '@nestjs/swagger';
import { IsIn, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import {
  KEY_STAGES,
  listYearGroups,
  yearGroupById,
  YEAR_GROUP_SORTS,
  type KeyStage,
  type YearGroupRow,
} from '@portal/projections';
import { RequirePermissions } from '../platform/auth/public.decorator.js';
import { type AuthenticatedRequest, metadataFor } from '../platform/auth/request-context.js';
import { Allow } from '../platform/auth/allow.decorator.js';
import { Commands } from '../platform/event-store/commands.js';
import type { SqlClient } from '../platform/sql/sql-client.js';
import { SQL_CLIENT } from '../platform/tokens.js';
import { INTERNAL_PERMISSIONS, MARKER_PERMISSIONS } from '../identity/policy/policy.js';
import { PageOf } from '../platform/http/paging.js';
import { UuidPipe } from '../platform/http/validation.js';
import { Written } from '../platform/http/written.js';
import { yearGroupAggregate } from './year-group.decider.js';
import { ReferenceRules } from './reference.policy.js';
import { found, listFilterOf, requireFreeName, SortByQuery } from './reference.http.js';

export class ListYearGroupsQuery extends SortByQuery(YEAR_GROUP_SORTS) {}

const KEY_STAGE_MESSAGE = { message: `key_stage: must be one of ${KEY_STAGES.join(', ')}` };

export class CreateYearGroupBody {
  @ApiProperty({ example: 'Year 7' }) @IsString() @IsNotEmpty() @MaxLength(100) name!: string;
  @ApiProperty({ enum: KEY_STAGES, example: 'KS3' })
  @IsIn(KEY_STAGES, KEY_STAGE_MESSAGE)
  key_stage!: KeyStage;
}

export class UpdateYearGroupBody {
  @ApiPropertyOptional() @IsOptional() @IsString() @IsNotEmpty() @MaxLength(100) name?: string;
  @ApiPropertyOptional({ enum: KEY_STAGES })
  @IsOptional()
  @IsIn(KEY_STAGES, KEY_STAGE_MESSAGE)
  key_stage?: KeyStage;
}

export class YearGroupView {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ enum: KEY_STAGES }) key_stage!: KeyStage;
}

export class YearGroupPage extends PageOf(YearGroupView) {}
export class YearGroupWritten extends Written {}

const { admin: ADMIN, teacher: TEACHER, partner: PARTNER } = MARKER_PERMISSIONS;
/** Year groups are edited with the subject permission (decision 0049): the same people curate both. */
const EDIT = INTERNAL_PERMISSIONS.SUBJECT;

const view = (r: YearGroupRow): YearGroupView => ({ id: r.id, name: r.name, key_stage: r.key_stage });

/** Year groups with their key stage (decision 0049). */
@ApiTags('reference data')
@Controller('api/v1/year-groups')
export class YearGroupsController {
  constructor(
    private readonly commands: Commands,
    @Inject(SQL_CLIENT) private readonly sql: SqlClient,
  ) {}

  @Get()
  @RequirePermissions(ADMIN, TEACHER, PARTNER)
  @Allow(ReferenceRules.read)
  @ApiOkResponse({ type: YearGroupPage })
  async list(@Query() q: ListYearGroupsQuery): Promise<YearGroupPage> {
    const page = await listYearGroups(this.sql, listFilterOf(q));
    return { ...page, items: page.items.map(view) };
  }

  @Get(':id')
  @RequirePermissions(ADMIN, TEACHER, PARTNER)
  @Allow(ReferenceRules.read)
  @ApiOkResponse({ type: YearGroupView })
  @ApiNotFoundResponse({ description: 'Year group not found' })
  async get(@Param('id', UuidPipe) id: string): Promise<YearGroupView> {
    return view(found(await yearGroupById(this.sql, id), 'Year group'));
  }

  @Post()
  @RequirePermissions(ADMIN, EDIT)
  @Allow(ReferenceRules.editSubjects)
  @ApiCreatedResponse({ type: YearGroupWritten })
  @ApiConflictResponse({ description: 'A year group with this name already exists' })
  async create(
    @Req() req: AuthenticatedRequest,
    @Body() body: CreateYearGroupBody,
  ): Promise<YearGroupWritten> {
    await requireFreeName(this.sql, 'yearGroup', body.name);
    const id = randomUUID();
    const { position } = await this.commands.run(
      yearGroupAggregate,
      { type: 'CreateYearGroup', yearGroupId: id, name: body.name, keyStage: body.key_stage },
      metadataFor(req),
    );
    return { id, position };
  }

  @Put(':id')
  @RequirePermissions(ADMIN, EDIT)
  @Allow(ReferenceRules.editSubjects)
  @ApiOkResponse({ type: YearGroupWritten })
  @ApiNotFoundResponse({ description: 'Year group not found' })
  @ApiConflictResponse({ description: 'A year group with this name already exists' })
  async update(
    @Req() req: AuthenticatedRequest,
    @Param('id', UuidPipe) id: string,
    @Body() body: UpdateYearGroupBody,
  ): Promise<YearGroupWritten> {
    await requireFreeName(this.sql, 'yearGroup', body.name, id);
    const { position } = await this.commands.run(
      yearGroupAggregate,
      { type: 'UpdateYearGroup', yearGroupId: id, name: body.name, keyStage: body.key_stage },
      metadataFor(req),
    );
    return { id, position };
  }
}
