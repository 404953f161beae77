import { PermissionTemplateRules } from './permission-templates.policy.js';
import { Allow } from '../../platform/auth/allow.decorator.js';
import { randomUUID } from 'node:crypto';
import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  HttpStatus,
  Inject,
  Param,
  Post,
  Put,
  Query,
  Req,
} from '@nestjs/common';
import {
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiProperty,
  ApiPropertyOptional,
  ApiTags,
  ApiUnprocessableEntityResponse,
} from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import {
  listPermissionTemplates,
  permissionTemplateById,
  permissionTemplateIdsNamed,
  type PermissionTemplateRow,
} from '@portal/projections';
import { RequirePermissions } from '../../platform/auth/public.decorator.js';
import { type AuthenticatedRequest, metadataFor } from '../../platform/auth/request-context.js';
import { Commands } from '../../platform/event-store/commands.js';
import { Problem } from '../../platform/http/problem.js';
import type { SqlClient } from '../../platform/sql/sql-client.js';
import { SQL_CLIENT } from '../../platform/tokens.js';
import { INTERNAL_PERMISSIONS, MARKER_PERMISSIONS } from '../policy/policy.js';
import { isUuid } from '../user-access.js';
import { PARTNER_PERMISSION_INFOS, PermissionInfo } from '../permissions/permission-catalogue.js';
import { permissionTemplateAggregate } from './permission-template.decider.js';
import { SearchPageQuery, PageOf, searchTextOf } from '../../platform/http/paging.js';
import { UuidPipe } from '../../platform/http/validation.js';
import { Written } from '../../platform/http/written.js';

export class ListPermissionTemplatesQuery extends SearchPageQuery {}

export class CreatePermissionTemplateBody {
  @ApiProperty({ example: 'Link contact, attendance only' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  name!: string;
  @ApiProperty({ type: [String], description: 'Assignable partner permissions (GET .../permissions)' })
  @IsArray()
  @ArrayMaxSize(200)
  @IsString({ each: true })
  permissions!: string[];
}

export class UpdatePermissionTemplateBody {
  @ApiPropertyOptional() @IsOptional() @IsString() @IsNotEmpty() @MaxLength(200) name?: string;
  @ApiPropertyOptional({ type: [String] })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(200)
  @IsString({ each: true })
  permissions?: string[];
}

export class PermissionTemplateView {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ type: [String] }) permissions!: string[];
  @ApiProperty() created_at!: string;
  @ApiProperty() updated_at!: string;
}

export class PermissionTemplatePage extends PageOf(PermissionTemplateView) {}

export class AssignablePermissions {
  @ApiProperty({ type: [PermissionInfo], description: 'Every assignable permission, view ones first' })
  items!: PermissionInfo[];
  @ApiProperty({ type: [PermissionInfo], description: 'CAN_SEE_* and list-and-watch-recordings' })
  view!: PermissionInfo[];
  @ApiProperty({ type: [PermissionInfo] }) action!: PermissionInfo[];
}

export class PermissionTemplateWritten extends Written {}

const ADMIN = MARKER_PERMISSIONS.admin;
const TEMPLATES = INTERNAL_PERMISSIONS.TEMPLATES;
const notFound = () => new Problem(HttpStatus.NOT_FOUND, 'Permission template not found');

const view = (r: PermissionTemplateRow): PermissionTemplateView => ({
  id: r.id,
  name: r.name,
  permissions: r.permissions,
  created_at: new Date(r.created_at).toISOString(),
  updated_at: new Date(r.updated_at).toISOString(),
});

const VIEW = PARTNER_PERMISSION_INFOS.filter((p) => p.kind === 'view');
const ACTION = PARTNER_PERMISSION_INFOS.filter((p) => p.kind === 'action');

/**
 * Permission templates (spec §7): named sets of assignable partner permissions. Internal users with
 * the templates permission (administrators implicitly) manage them (docs/decisions/0013).
 */
@ApiTags('permission-templates')
@Controller('api/v1/permission-templates')
export class PermissionTemplatesController {
  constructor(
    private readonly commands: Commands,
    @Inject(SQL_CLIENT) private readonly sql: SqlClient,
  ) {}

  @Get()
  @RequirePermissions(ADMIN, TEMPLATES)
  @Allow(PermissionTemplateRules.manage)
  @ApiOkResponse({ type: PermissionTemplatePage })
  async list(@Query() q: ListPermissionTemplatesQuery): Promise<PermissionTemplatePage> {
    const found = await listPermissionTemplates(this.sql, { ...q, text: searchTextOf(q) });
    return { ...found, items: found.items.map(view) };
  }

  @Get('permissions')
  @RequirePermissions(ADMIN, TEMPLATES)
  @Allow(PermissionTemplateRules.manage)
  @ApiOkResponse({ type: AssignablePermissions })
  permissions(): AssignablePermissions {
    return { items: [...VIEW, ...ACTION], view: [...VIEW], action: [...ACTION] };
  }

  @Get(':id')
  @RequirePermissions(ADMIN, TEMPLATES)
  @Allow(PermissionTemplateRules.manage)
  @ApiOkResponse({ type: PermissionTemplateView })
  @ApiNotFoundResponse({ description: 'Permission template not found' })
  async get(@Param('id', UuidPipe) id: string): Promise<PermissionTemplateView> {
    const row = await this.byId(id);
    if (!row) throw notFound();
    return view(row);
  }

  @Post()
  @RequirePermissions(ADMIN, TEMPLATES)
  @Allow(PermissionTemplateRules.manage)
  @ApiCreatedResponse({ type: PermissionTemplateWritten })
  @ApiConflictResponse({ description: 'A permission template with this name already exists' })
  @ApiUnprocessableEntityResponse({ description: 'A permission is not assignable' })
  async create(
    @Req() req: AuthenticatedRequest,
    @Body() body: CreatePermissionTemplateBody,
  ): Promise<PermissionTemplateWritten> {
    const name = body.name.trim();
    await this.nameIsFree(name);
    const id = randomUUID();
    const { position } = await this.commands.run(
      permissionTemplateAggregate,
      {
        type: 'CreatePermissionTemplate',
        templateId: id,
        name,
        permissions: body.permissions,
      },
      metadataFor(req),
    );
    return { id, position };
  }

  @Put(':id')
  @RequirePermissions(ADMIN, TEMPLATES)
  @Allow(PermissionTemplateRules.manage)
  @ApiOkResponse({ type: PermissionTemplateWritten })
  @ApiNotFoundResponse({ description: 'Permission template not found' })
  @ApiUnprocessableEntityResponse({ description: 'A permission is not assignable' })
  async update(
    @Req() req: AuthenticatedRequest,
    @Param('id', UuidPipe) id: string,
    @Body() body: UpdatePermissionTemplateBody,
  ): Promise<PermissionTemplateWritten> {
    if (!isUuid(id)) throw notFound();
    const name = body.name?.trim();
    if (name !== undefined) await this.nameIsFree(name, id.toLowerCase());
    const { position } = await this.commands.run(
      permissionTemplateAggregate,
      {
        type: 'UpdatePermissionTemplate',
        templateId: id.toLowerCase(),
        name,
        permissions: body.permissions,
      },
      metadataFor(req),
    );
    return { id: id.toLowerCase(), position };
  }

  @Delete(':id')
  @HttpCode(HttpStatus.OK)
  @RequirePermissions(ADMIN, TEMPLATES)
  @Allow(PermissionTemplateRules.manage)
  @ApiOkResponse({ type: PermissionTemplateWritten })
  @ApiNotFoundResponse({ description: 'Permission template not found' })
  async remove(
    @Req() req: AuthenticatedRequest,
    @Param('id', UuidPipe) id: string,
  ): Promise<PermissionTemplateWritten> {
    if (!isUuid(id)) throw notFound();
    const { position } = await this.commands.run(
      permissionTemplateAggregate,
      { type: 'DeletePermissionTemplate', templateId: id.toLowerCase() },
      metadataFor(req),
    );
    return { id: id.toLowerCase(), position };
  }

  private async byId(id: string): Promise<PermissionTemplateRow | null> {
    if (!isUuid(id)) return null;
    return permissionTemplateById(this.sql, id.toLowerCase());
  }

  /** Names are unique, case-insensitively (checked on the read model: best effort, see ADR 0013). */
  private async nameIsFree(name: string, exceptId?: string): Promise<void> {
    const ids = await permissionTemplateIdsNamed(this.sql, name);
    if (ids.some((id) => id !== exceptId))
      throw new Problem(HttpStatus.CONFLICT, 'A permission template with this name already exists');
  }
}
