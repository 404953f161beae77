import { randomUUID } from 'node:crypto';
import { Body, Controller, Get, Inject, Param, Post, Put, Query, Req } from '@nestjs/common';
import {
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiProperty,
  ApiTags,
} from '@nestjs/swagger';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { listSubjects, subjectById, SUBJECT_SORTS, type SubjectRow } from '@portal/projections';
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
import { subjectAggregate } from './subject.decider.js';
import { ReferenceRules } from './reference.policy.js';
import { found, listFilterOf, requireFreeName, SortByQuery } from './reference.http.js';

export class ListSubjectsQuery extends SortByQuery(SUBJECT_SORTS) {}

export class SubjectBody {
  @ApiProperty({ example: 'Maths' }) @IsString() @IsNotEmpty() @MaxLength(100) name!: string;
}

export class SubjectView {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() name!: string;
}

export class SubjectPage extends PageOf(SubjectView) {}
export class SubjectWritten extends Written {}

const { admin: ADMIN, teacher: TEACHER, partner: PARTNER } = MARKER_PERMISSIONS;
const EDIT = INTERNAL_PERMISSIONS.SUBJECT;

const view = (r: SubjectRow): SubjectView => ({ id: r.id, name: r.name });

/** Subjects (teaching reference data, decision 0049): everyone internal and partners read; subject editors write. */
@ApiTags('reference data')
@Controller('api/v1/subjects')
export class SubjectsController {
  constructor(
    private readonly commands: Commands,
    @Inject(SQL_CLIENT) private readonly sql: SqlClient,
  ) {}

  @Get()
  @RequirePermissions(ADMIN, TEACHER, PARTNER)
  @Allow(ReferenceRules.read)
  @ApiOkResponse({ type: SubjectPage })
  async list(@Query() q: ListSubjectsQuery): Promise<SubjectPage> {
    const page = await listSubjects(this.sql, listFilterOf(q));
    return { ...page, items: page.items.map(view) };
  }

  @Get(':id')
  @RequirePermissions(ADMIN, TEACHER, PARTNER)
  @Allow(ReferenceRules.read)
  @ApiOkResponse({ type: SubjectView })
  @ApiNotFoundResponse({ description: 'Subject not found' })
  async get(@Param('id', UuidPipe) id: string): Promise<SubjectView> {
    return view(found(await subjectById(this.sql, id), 'Subject'));
  }

  @Post()
  @RequirePermissions(ADMIN, EDIT)
  @Allow(ReferenceRules.editSubjects)
  @ApiCreatedResponse({ type: SubjectWritten })
  @ApiConflictResponse({ description: 'A subject with this name already exists' })
  async create(@Req() req: AuthenticatedRequest, @Body() body: SubjectBody): Promise<SubjectWritten> {
    await requireFreeName(this.sql, 'subject', body.name);
    const id = randomUUID();
    const { position } = await this.commands.run(
      subjectAggregate,
      { type: 'CreateSubject', subjectId: id, name: body.name },
      metadataFor(req),
    );
    return { id, position };
  }

  @Put(':id')
  @RequirePermissions(ADMIN, EDIT)
  @Allow(ReferenceRules.editSubjects)
  @ApiOkResponse({ type: SubjectWritten })
  @ApiNotFoundResponse({ description: 'Subject not found' })
  @ApiConflictResponse({ description: 'A subject with this name already exists' })
  async update(
    @Req() req: AuthenticatedRequest,
    @Param('id', UuidPipe) id: string,
    @Body() body: SubjectBody,
  ): Promise<SubjectWritten> {
    await requireFreeName(this.sql, 'subject', body.name, id);
    const { position } = await this.commands.run(
      subjectAggregate,
      { type: 'RenameSubject', subjectId: id, name: body.name },
      metadataFor(req),
    );
    return { id, position };
  }
}
