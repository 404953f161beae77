import { Body, Controller, Get, HttpCode, HttpStatus, Inject, Param, Post, Query, Req } from '@nestjs/common';
import { ApiOkResponse, ApiProperty, ApiPropertyOptional, ApiTags } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsInt,
  IsOptional,
  IsString,
  Matches,
  Max,
  Min,
  ValidateNested,
} from 'class-validator';
import { availabilityFor, type AvailabilitySlot } from '@portal/projections';
import { AnyAuthenticatedUser } from '../platform/auth/public.decorator.js';
import {
  actorOf,
  type Actor,
  type AuthenticatedRequest,
  CurrentActor,
  metadataFor,
} from '../platform/auth/request-context.js';
import { Commands } from '../platform/event-store/commands.js';
import { Problem } from '../platform/http/problem.js';
import { IsCalendarDate, isCalendarDate } from '../platform/http/dates.js';
import type { SqlClient } from '../platform/sql/sql-client.js';
import { SQL_CLIENT } from '../platform/tokens.js';
import { isAdmin } from '../identity/policy/policy.js';
import { UserAccess, forbidden } from '../identity/user-access.js';
import { PositionResponse } from '../identity/users.dto.js';
import {
  MAX_SLOTS,
  WORKING_DAY_END,
  WORKING_DAY_START,
  availabilityAggregate,
} from './availability.decider.js';
import { UuidPipe } from '../platform/http/validation.js';

export const DEFAULT_AVAILABILITY_TYPE = 'default';

export class AvailabilityItem {
  @ApiProperty({ minimum: 0, maximum: 6, description: '0 = Monday … 6 = Sunday' })
  @IsInt()
  @Min(0)
  @Max(6)
  day_of_week!: number;

  @ApiProperty({
    minimum: WORKING_DAY_START,
    maximum: WORKING_DAY_END - 1,
    description: 'Minutes after midnight',
  })
  @IsInt()
  start_minute!: number;

  @ApiProperty({
    minimum: WORKING_DAY_START + 1,
    maximum: WORKING_DAY_END,
    description: 'Minutes after midnight',
  })
  @IsInt()
  end_minute!: number;
}

export class AvailabilityBody {
  @ApiProperty({ type: [AvailabilityItem], maxItems: MAX_SLOTS, description: 'Replaces the whole list' })
  @IsArray()
  @ArrayMaxSize(MAX_SLOTS)
  @ValidateNested({ each: true })
  @Type(() => AvailabilityItem)
  availabilities!: AvailabilityItem[];
}

export class AvailabilityQuery {
  @ApiPropertyOptional({ default: DEFAULT_AVAILABILITY_TYPE, description: 'Which availability list' })
  @IsOptional()
  @IsString()
  @Matches(/^[a-z][a-z0-9_-]{0,39}$/, { message: 'type must be a lower-case name such as "default"' })
  type?: string;

  @ApiPropertyOptional({
    example: '2030-01-07',
    description: 'Monday (yyyy-MM-dd) of one week; absent: the recurring week',
  })
  @IsOptional()
  @IsCalendarDate()
  week?: string;
}

export class AvailabilityView {
  @ApiProperty({ format: 'uuid' }) user_id!: string;
  @ApiProperty() type!: string;
  @ApiProperty({ nullable: true, type: String, description: 'The week asked for (null: the recurring week)' })
  requested_week!: string | null;
  @ApiProperty({
    nullable: true,
    type: String,
    description:
      'The week this list was set for; null when it is the recurring list (also used for weeks without their own)',
  })
  week!: string | null;
  @ApiProperty({ type: [AvailabilityItem] }) availabilities!: AvailabilityItem[];
  @ApiProperty({ nullable: true, type: String }) updated_at!: string | null;
}

const toItem = (s: AvailabilitySlot): AvailabilityItem => ({
  day_of_week: s.dayOfWeek,
  start_minute: s.startMinute,
  end_minute: s.endMinute,
});

/** A `week` parameter: absent (null), or a Monday as yyyy-MM-dd (else 422 naming `week`). */
export function checkWeek(week: string | undefined): string | null {
  if (week === undefined) return null;
  if (!isCalendarDate(week))
    throw new Problem(HttpStatus.UNPROCESSABLE_ENTITY, 'week: is not a calendar date');
  if (new Date(`${week}T00:00:00Z`).getUTCDay() !== 1)
    throw new Problem(HttpStatus.UNPROCESSABLE_ENTITY, 'week: must be a Monday');
  return week;
}

/**
 * Availability (spec §7): the signed-in user's own, or any user's for administrators. One list per
 * type for the recurring week, optionally replaced for single weeks (docs/decisions/0017).
 * Registered before UsersController.
 */
@ApiTags('users')
@Controller('api/v1/users')
export class AvailabilityController {
  constructor(
    private readonly access: UserAccess,
    private readonly commands: Commands,
    @Inject(SQL_CLIENT) private readonly sql: SqlClient,
  ) {}

  @Get('me/availability')
  @AnyAuthenticatedUser()
  @ApiOkResponse({ type: AvailabilityView })
  mine(@CurrentActor() actor: Actor, @Query() q: AvailabilityQuery): Promise<AvailabilityView> {
    return this.read(actor.userId, q);
  }

  @Post('me/availability')
  @AnyAuthenticatedUser()
  @HttpCode(HttpStatus.OK)
  @ApiOkResponse({ type: PositionResponse })
  setMine(
    @Req() req: AuthenticatedRequest,
    @CurrentActor() actor: Actor,
    @Query() q: AvailabilityQuery,
    @Body() body: AvailabilityBody,
  ): Promise<PositionResponse> {
    return this.write(req, actor.userId, q, body);
  }

  @Get(':id/availability')
  @AnyAuthenticatedUser()
  @ApiOkResponse({ type: AvailabilityView })
  async of(
    @Req() req: AuthenticatedRequest,
    @Param('id', UuidPipe) id: string,
    @Query() q: AvailabilityQuery,
  ): Promise<AvailabilityView> {
    return this.read(await this.target(req, id), q);
  }

  @Post(':id/availability')
  @AnyAuthenticatedUser()
  @HttpCode(HttpStatus.OK)
  @ApiOkResponse({ type: PositionResponse })
  async setOf(
    @Req() req: AuthenticatedRequest,
    @Param('id', UuidPipe) id: string,
    @Query() q: AvailabilityQuery,
    @Body() body: AvailabilityBody,
  ): Promise<PositionResponse> {
    return this.write(req, await this.target(req, id), q, body);
  }

  /** Administrators, or the user themselves. */
  private async target(req: AuthenticatedRequest, id: string): Promise<string> {
    if (actorOf(req).userId !== id.toLowerCase() && !isAdmin(actorOf(req).permissions)) throw forbidden();
    return (await this.access.targetRow(id)).id;
  }

  private async read(userId: string, q: AvailabilityQuery): Promise<AvailabilityView> {
    const type = q.type ?? DEFAULT_AVAILABILITY_TYPE;
    const week = checkWeek(q.week);
    // The week's own list if it has one, else the recurring list.
    const row = await availabilityFor(this.sql, userId, type, week);
    return {
      user_id: userId,
      type,
      requested_week: week,
      week: row && row.week !== '' ? row.week : null,
      availabilities: (row?.availabilities ?? []).map(toItem),
      updated_at: row ? new Date(row.updated_at).toISOString() : null,
    };
  }

  private async write(
    req: AuthenticatedRequest,
    userId: string,
    q: AvailabilityQuery,
    body: AvailabilityBody,
  ): Promise<PositionResponse> {
    const week = checkWeek(q.week);
    const { position } = await this.commands.run(
      availabilityAggregate,
      {
        type: 'SetAvailability',
        userId,
        availabilityType: q.type ?? DEFAULT_AVAILABILITY_TYPE,
        week,
        availabilities: body.availabilities.map((a) => ({
          dayOfWeek: a.day_of_week,
          startMinute: a.start_minute,
          endMinute: a.end_minute,
        })),
      },
      metadataFor(req),
    );
    return { position };
  }
}
