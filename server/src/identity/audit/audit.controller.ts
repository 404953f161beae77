import { AuditRules } from './audit.policy.js';
import { Allow } from '../../platform/auth/allow.decorator.js';
import { Controller, Get, HttpStatus, Inject, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiProperty, ApiPropertyOptional, ApiTags } from '@nestjs/swagger';
import { IsInstant } from '../../platform/http/dates.js';
import { PageQuery } from '../../platform/http/paging.js';
import { Transform } from 'class-transformer';
import { IsArray, IsOptional, IsString, IsUUID, MaxLength } from 'class-validator';
import { listPermissionChanges, permissionHoldersAt } from '@portal/projections';
import { RequirePermissions } from '../../platform/auth/public.decorator.js';
import { EVENT_STORE, type EventStore, type RecordedEvent } from '../../platform/event-store/event-store.js';
import { Problem } from '../../platform/http/problem.js';
import { SQL_CLIENT } from '../../platform/tokens.js';
import type { SqlClient } from '../../platform/sql/sql-client.js';
import { INTERNAL_PERMISSIONS, MARKER_PERMISSIONS, typeLabel } from '../policy/policy.js';
import { userStream, type UserEvent } from '../user.events.js';
import { replayAccount } from './account-replay.js';
import { UuidPipe, asArray } from '../../platform/http/validation.js';

const AUDIT = INTERNAL_PERMISSIONS.AUDIT;

export class HistoryQuery {
  @ApiPropertyOptional({ type: [String], description: 'Only these event types (repeat the key)' })
  @IsOptional()
  @Transform(asArray)
  @IsArray()
  @IsString({ each: true })
  types?: string[];

  @ApiPropertyOptional({ description: 'Recorded at or after (ISO 8601)' })
  @IsOptional()
  @IsInstant()
  from?: string;

  @ApiPropertyOptional({ description: 'Recorded at or before (ISO 8601)' })
  @IsOptional()
  @IsInstant()
  to?: string;
}

export class StateQuery {
  @ApiProperty({ description: 'The instant to replay the account to (ISO 8601)' })
  @IsInstant()
  at!: string;
}

export class PermissionChangesQuery extends PageQuery {
  @ApiPropertyOptional() @IsOptional() @IsUUID() user_id?: string;
  @ApiPropertyOptional({ description: 'Only changes that granted or revoked this permission' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  permission?: string;
  @ApiPropertyOptional() @IsOptional() @IsInstant() from?: string;
  @ApiPropertyOptional() @IsOptional() @IsInstant() to?: string;
}

export class PermissionHoldersQuery {
  @ApiProperty() @IsString() @MaxLength(200) permission!: string;
  @ApiProperty({ description: 'ISO 8601 instant' }) @IsInstant() at!: string;
}

export class AuditEntry {
  @ApiProperty() position!: string;
  @ApiProperty() revision!: string;
  @ApiProperty() type!: string;
  @ApiProperty() recorded_at!: string;
  @ApiProperty() occurred_at!: string;
  @ApiProperty({ nullable: true, type: String }) actor_id!: string | null;
  @ApiProperty({ nullable: true, type: String }) impersonator_id!: string | null;
  @ApiProperty({ type: 'object', additionalProperties: true, description: "The event's data, as stored" })
  data!: unknown;
}

export class AuditHistory {
  @ApiProperty() user_id!: string;
  @ApiProperty({ type: [AuditEntry] }) items!: AuditEntry[];
  @ApiProperty() total!: number;
}

/**
 * Audit (design card: auditors replay account and permission history). Reads come from the event
 * store itself (history, state at an instant) or from the permission-change log projection.
 * Administrators, and internal users holding AUDIT, may read it.
 */
@ApiTags('audit')
@Controller('api/v1/audit')
export class AuditController {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(SQL_CLIENT) private readonly sql: SqlClient,
  ) {}

  @Get('users/:id/history')
  @RequirePermissions(MARKER_PERMISSIONS.admin, AUDIT)
  @Allow(AuditRules.audit)
  @ApiOkResponse({ type: AuditHistory })
  async history(@Param('id', UuidPipe) id: string, @Query() q: HistoryQuery): Promise<AuditHistory> {
    const events = await this.userEvents(id);
    const from = q.from ? Date.parse(q.from) : -Infinity;
    const to = q.to ? Date.parse(q.to) : Infinity;
    const items = events
      .filter((e) => !q.types || q.types.includes(e.type))
      .filter((e) => e.createdAt.getTime() >= from && e.createdAt.getTime() <= to)
      .map(toEntry);
    return { user_id: id, items, total: items.length };
  }

  @Get('users/:id/state')
  @RequirePermissions(MARKER_PERMISSIONS.admin, AUDIT)
  @Allow(AuditRules.audit)
  async state(@Param('id', UuidPipe) id: string, @Query() q: StateQuery): Promise<Record<string, unknown>> {
    const events = await this.userEvents(id);
    const at = Date.parse(q.at);
    const upTo = events.filter((e) => e.createdAt.getTime() <= at);
    if (upTo.length === 0) {
      throw new Problem(HttpStatus.NOT_FOUND, `The user did not exist yet at ${new Date(at).toISOString()}`);
    }
    const account = replayAccount(upTo.map((e) => ({ type: e.type, data: e.data }) as UserEvent));
    const last = upTo[upTo.length - 1]!;
    return {
      at: new Date(at).toISOString(),
      as_of_position: last.position.toString(),
      as_of_revision: last.revision.toString(),
      events_applied: upTo.length,
      account,
      permission_list: account.permissions,
      type_label: typeLabel(account.permissions),
    };
  }

  @Get('permission-changes')
  @RequirePermissions(MARKER_PERMISSIONS.admin, AUDIT)
  @Allow(AuditRules.audit)
  async permissionChanges(
    @Query() q: PermissionChangesQuery,
  ): Promise<{ items: Record<string, unknown>[]; total: number; page: number; size: number }> {
    return listPermissionChanges(this.sql, q);
  }

  @Get('permission-holders')
  @RequirePermissions(MARKER_PERMISSIONS.admin, AUDIT)
  @Allow(AuditRules.audit)
  async permissionHolders(
    @Query() q: PermissionHoldersQuery,
  ): Promise<{ permission: string; at: string; items: { user_id: string; since: string }[] }> {
    const items = await permissionHoldersAt(this.sql, q.permission, q.at);
    return { permission: q.permission, at: new Date(q.at).toISOString(), items };
  }

  private async userEvents(id: string): Promise<RecordedEvent[]> {
    const events = await this.store.readStream(userStream(id));
    if (events.length === 0) throw new Problem(HttpStatus.NOT_FOUND, 'User not found');
    return events;
  }
}

function toEntry(e: RecordedEvent): AuditEntry {
  return {
    position: e.position.toString(),
    revision: e.revision.toString(),
    type: e.type,
    recorded_at: e.createdAt.toISOString(),
    occurred_at: e.metadata.occurredAt,
    actor_id: e.metadata.actorId ?? null,
    impersonator_id: e.metadata.impersonatorId ?? null,
    data: e.data,
  };
}
