import { Body, Controller, Get, HttpStatus, Inject, Param, Put, Query, Req } from '@nestjs/common';
import {
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiProperty,
  ApiPropertyOptional,
  ApiTags,
  ApiUnprocessableEntityResponse,
} from '@nestjs/swagger';
import { MAX_SEARCH_LENGTH, SearchPageQuery } from '../../platform/http/paging.js';

import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsOptional,
  IsString,
  IsUUID,
  MaxLength,
} from 'class-validator';
import { listPermissionUsers, type UserRow } from '@portal/projections';
import { RequirePermissions } from '../../platform/auth/public.decorator.js';
import { CurrentActor, type Actor, type AuthenticatedRequest } from '../../platform/auth/request-context.js';
import { Problem } from '../../platform/http/problem.js';
import type { SqlClient } from '../../platform/sql/sql-client.js';
import { SQL_CLIENT } from '../../platform/tokens.js';
import { INTERNAL_PERMISSIONS, MARKER_PERMISSIONS, internalMay } from '../policy/policy.js';
import { UserAccess, forbidden } from '../user-access.js';
import { UserView } from '../users.dto.js';
import { userViewFor } from '../user.view.js';
import { ALL_PERMISSION_INFOS, PermissionInfo, permissionInfo } from './permission-catalogue.js';

export class ListPermissionsQuery {
  @ApiPropertyOptional({ description: 'Text searched in the name and the label' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  query?: string;
}

export class PermissionUsersQuery extends SearchPageQuery {
  @ApiPropertyOptional({
    description: 'Text searched in name, login and e-mail',
    maxLength: MAX_SEARCH_LENGTH,
  })
  override query?: string;
}

export class AssignBody {
  @ApiProperty({ type: [String], format: 'uuid', description: 'The users to give or take the permission' })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(500)
  @IsUUID('all', { each: true })
  user_ids!: string[];
}

export class PermissionList {
  @ApiProperty({ type: [PermissionInfo] }) items!: PermissionInfo[];
  @ApiProperty() total!: number;
}

export class PermissionUserPage {
  @ApiProperty({ type: PermissionInfo }) permission!: PermissionInfo;
  @ApiProperty({ type: [UserView] }) items!: UserView[];
  @ApiProperty() total!: number;
  @ApiProperty() page!: number;
  @ApiProperty() size!: number;
}

export class AssignResult {
  @ApiProperty({ description: 'Highest event position written; send it as X-Min-Position' })
  position!: string;
}

const ADMIN = MARKER_PERMISSIONS.admin;

/** Which users may hold a permission: partner permissions partners, internal ones teachers (ADR 0013). */
const eligibleType = (p: PermissionInfo) => (p.kind === 'internal' ? 'teacher' : 'partner');

/**
 * Permissions (spec §7): the assignable catalogue, who holds a permission, and giving or taking it
 * from several users at once. Admin-only; changing permissions needs modify-user as
 * `PUT /users/{id}/permissions` does. Each user's change is a `UserPermissionsChanged` in that user's
 * stream, written through the user command path.
 */
@ApiTags('permissions')
@Controller('api/v1/permissions')
export class PermissionsController {
  constructor(
    @Inject(SQL_CLIENT) private readonly sql: SqlClient,
    private readonly access: UserAccess,
  ) {}

  @Get()
  @RequirePermissions(ADMIN)
  @ApiOkResponse({ type: PermissionList })
  list(@Query() q: ListPermissionsQuery): PermissionList {
    const text = q.query?.trim().toLowerCase();
    const items = text
      ? ALL_PERMISSION_INFOS.filter(
          (p) => p.name.toLowerCase().includes(text) || p.label.toLowerCase().includes(text),
        )
      : [...ALL_PERMISSION_INFOS];
    return { items, total: items.length };
  }

  @Get(':id/assigned')
  @RequirePermissions(ADMIN)
  @ApiOkResponse({ type: PermissionUserPage })
  @ApiNotFoundResponse({ description: 'Permission not found' })
  assigned(
    @CurrentActor() actor: Actor,
    @Param('id') id: string,
    @Query() q: PermissionUsersQuery,
  ): Promise<PermissionUserPage> {
    return this.users(actor, id, q, true);
  }

  @Get(':id/unassigned')
  @RequirePermissions(ADMIN)
  @ApiOkResponse({ type: PermissionUserPage })
  @ApiNotFoundResponse({ description: 'Permission not found' })
  unassigned(
    @CurrentActor() actor: Actor,
    @Param('id') id: string,
    @Query() q: PermissionUsersQuery,
  ): Promise<PermissionUserPage> {
    return this.users(actor, id, q, false);
  }

  @Put(':id/assign')
  @RequirePermissions(ADMIN)
  @ApiOkResponse({ type: AssignResult })
  @ApiNotFoundResponse({ description: 'Permission not found, or User not found' })
  @ApiUnprocessableEntityResponse({ description: 'A user cannot hold this permission' })
  assign(
    @Req() req: AuthenticatedRequest,
    @CurrentActor() actor: Actor,
    @Param('id') id: string,
    @Body() body: AssignBody,
  ) {
    return this.change(req, actor, id, body, true);
  }

  @Put(':id/unassign')
  @RequirePermissions(ADMIN)
  @ApiOkResponse({ type: AssignResult })
  @ApiNotFoundResponse({ description: 'Permission not found, or User not found' })
  unassign(
    @Req() req: AuthenticatedRequest,
    @CurrentActor() actor: Actor,
    @Param('id') id: string,
    @Body() body: AssignBody,
  ) {
    return this.change(req, actor, id, body, false);
  }

  private permission(id: string): PermissionInfo {
    const found = permissionInfo(id);
    if (!found) throw new Problem(HttpStatus.NOT_FOUND, 'Permission not found');
    return found;
  }

  private async users(
    actor: Actor,
    id: string,
    q: PermissionUsersQuery,
    holding: boolean,
  ): Promise<PermissionUserPage> {
    const permission = this.permission(id);
    const { items, total, page, size } = await listPermissionUsers(this.sql, {
      permission: permission.name,
      holding,
      eligibleType: eligibleType(permission),
      text: (q.query ?? q.name)?.trim(),
      page: q.page,
      size: q.size,
    });
    return { permission, items: items.map((r) => userViewFor(actor, r)), total, page, size };
  }

  /** All users are checked before any is changed; each change is its own event in its own stream. */
  private async change(
    req: AuthenticatedRequest,
    actor: Actor,
    id: string,
    body: AssignBody,
    give: boolean,
  ): Promise<AssignResult> {
    if (!internalMay(actor.permissions, INTERNAL_PERMISSIONS.MODIFY_USER)) throw forbidden();
    const permission = this.permission(id);
    const userIds = [...new Set(body.user_ids.map((u) => u.toLowerCase()))];
    const targets: UserRow[] = [];
    for (const userId of userIds) {
      const target = await this.access.targetRow(userId);
      if (give && target.user_type !== eligibleType(permission))
        throw new Problem(
          HttpStatus.UNPROCESSABLE_ENTITY,
          `user_ids: ${target.login} cannot hold ${permission.name} (only ${eligibleType(permission)} users)`,
        );
      targets.push(target);
    }
    let position = 0n;
    for (const target of targets) {
      // Always through the decider: it reads the stream, so a stale read model cannot lose a change,
      // and it writes nothing when the user already has (or lacks) the permission.
      const result = await this.access.run(req, {
        type: 'AdjustPermissions',
        userId: target.id,
        grant: give ? [permission.name] : [],
        revoke: give ? [] : [permission.name],
      });
      if (BigInt(result.position) > position) position = BigInt(result.position);
    }
    return { position: position.toString() };
  }
}
