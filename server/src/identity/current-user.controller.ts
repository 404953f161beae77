import { Body, Controller, Get, HttpStatus, Inject, Put, Query, Req } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiOkResponse,
  ApiProperty,
  ApiPropertyOptional,
  ApiTags,
} from '@nestjs/swagger';
import {
  IsBoolean,
  IsEmail,
  IsInt,
  IsNotEmpty,
  IsString,
  IsTimeZone,
  Length,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateIf,
} from 'class-validator';
import { AnyAuthenticatedUser } from '../platform/auth/public.decorator.js';
import {
  actorOf,
  CurrentActor,
  type Actor,
  type AuthenticatedRequest,
} from '../platform/auth/request-context.js';
import { Problem } from '../platform/http/problem.js';
import { EVENT_STORE, type EventStore } from '../platform/event-store/event-store.js';
import { userStream, type NotificationEmailData, type UserSettingsChanges } from './user.events.js';
import type { CommandResult } from './commands/user-command.handler.js';
import { Credentials } from './credentials.js';
import {
  MIN_PASSWORD_LENGTH,
  TokenLinkFlow,
  TokenParam,
  humanMinutes,
  invalidLink,
} from './token-link-flow.js';
import { UserAccess } from './user-access.js';
import { PositionResponse } from './users.dto.js';
import { isDomainError } from '../platform/domain/domain-error.js';

/** Notification e-mail verification links work for 24 hours (docs/decisions/0016). */
export const NOTIFICATION_EMAIL_MINUTES = 24 * 60;
export const INVALID_VERIFICATION_LINK =
  'This verification link is invalid, has already been used or has expired. Change the address again to get a new one.';
export const MAX_LESSONS_PER_WEEK = 50;

const defined = (key: string) => (o: Record<string, unknown>) => o[key] !== undefined;
const notNull = (key: string) => (o: Record<string, unknown>) => o[key] !== null;

export class OwnPasswordBody {
  @ApiProperty({ format: 'password', description: 'The password the user signs in with now' })
  @IsString()
  @IsNotEmpty({ message: 'current_password should not be empty' })
  @MaxLength(1024)
  current_password!: string;

  @ApiProperty({ minLength: MIN_PASSWORD_LENGTH, format: 'password' })
  @IsString()
  @Length(MIN_PASSWORD_LENGTH, 1024, {
    message: `password must be at least ${MIN_PASSWORD_LENGTH} characters long`,
  })
  password!: string;
}

export class OwnProfileBody {
  @ApiPropertyOptional()
  @ValidateIf(defined('first_name'))
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  first_name?: string;

  @ApiPropertyOptional()
  @ValidateIf(defined('last_name'))
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  last_name?: string;
}

export class TimezoneBody {
  @ApiProperty({ example: 'Europe/London', description: 'An IANA time zone name' })
  @IsString()
  @IsTimeZone({ message: 'timezone must be an IANA time zone name such as Europe/London' })
  timezone!: string;
}

export class BirthDateBody {
  @ApiProperty({
    nullable: true,
    type: String,
    example: '2011-03-14',
    description: 'yyyy-MM-dd; null clears it',
  })
  @ValidateIf(notNull('birth_date'))
  @IsString()
  @Matches(/^\d{4}-\d{2}-\d{2}$/, { message: 'birth_date must be a date in the format yyyy-MM-dd' })
  birth_date!: string | null;
}

export class WeeklySummaryBody {
  @ApiProperty({ description: 'Whether to receive the weekly summary reports' })
  @IsBoolean()
  value!: boolean;
}

export class RequestedLessonsBody {
  @ApiProperty({ nullable: true, type: Number, minimum: 0, maximum: MAX_LESSONS_PER_WEEK })
  @ValidateIf(notNull('requested_number_of_lessons_per_week'))
  @IsInt()
  @Min(0)
  @Max(MAX_LESSONS_PER_WEEK)
  requested_number_of_lessons_per_week!: number | null;
}

export class NotificationEmailBody {
  @ApiProperty({ example: 'me@home.example.com' })
  @IsEmail()
  @MaxLength(320)
  email!: string;
}

export class NotificationEmailVerified extends PositionResponse {
  @ApiProperty() notification_email!: string;
}

/** A real calendar date, not in the future and not before 1900. */
function checkBirthDate(value: string): void {
  const date = new Date(`${value}T00:00:00Z`);
  if (Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== value)
    throw new Problem(HttpStatus.UNPROCESSABLE_ENTITY, 'birth_date: is not a calendar date');
  if (value > new Date().toISOString().slice(0, 10))
    throw new Problem(HttpStatus.UNPROCESSABLE_ENTITY, 'birth_date: cannot be in the future');
  if (value < '1900-01-01')
    throw new Problem(HttpStatus.UNPROCESSABLE_ENTITY, 'birth_date: must be 1900-01-01 or later');
}

/**
 * The signed-in user's own profile and settings (spec §7 "Auth and current user"). Registered before
 * UsersController so that `PUT users/me` is not taken for `PUT users/:id`.
 */
@ApiTags('auth')
@Controller('api/v1/users/me')
export class CurrentUserController {
  constructor(
    private readonly access: UserAccess,
    private readonly links: TokenLinkFlow,
    private readonly credentials: Credentials,
    @Inject(EVENT_STORE) private readonly store: EventStore,
  ) {}

  /**
   * The signed-in user changes their own password, proving the current one. Like every password
   * change it ends all of the user's sessions, this one included: the client signs in again. Not from
   * an impersonation session (the administrator does not know, and must not set, the user's password).
   */
  @Put('password')
  @AnyAuthenticatedUser()
  @ApiOkResponse({ type: PositionResponse })
  async changePassword(
    @Req() req: AuthenticatedRequest,
    @CurrentActor() actor: Actor,
    @Body() body: OwnPasswordBody,
  ): Promise<CommandResult> {
    if (actor.impersonatorId)
      throw new Problem(HttpStatus.FORBIDDEN, 'A password cannot be changed while impersonating');
    if (!(await this.credentials.check(actor.userId, body.current_password)))
      throw new Problem(HttpStatus.UNPROCESSABLE_ENTITY, 'current_password: is not your current password');
    if (body.current_password === body.password)
      throw new Problem(HttpStatus.UNPROCESSABLE_ENTITY, 'password: must differ from the current password');
    await this.credentials.setPassword(actor.userId, body.password);
    return this.access.run(req, { type: 'ChangePassword', userId: actor.userId });
  }

  @Put()
  @AnyAuthenticatedUser()
  @ApiOkResponse({ type: PositionResponse })
  updateProfile(
    @Req() req: AuthenticatedRequest,
    @CurrentActor() actor: Actor,
    @Body() body: OwnProfileBody,
  ): Promise<CommandResult> {
    return this.access.run(req, {
      type: 'UpdateUserProfile',
      userId: actor.userId,
      changes: { firstName: body.first_name?.trim(), lastName: body.last_name?.trim() },
    });
  }

  @Put('timezone')
  @AnyAuthenticatedUser()
  @ApiOkResponse({ type: PositionResponse })
  timezone(
    @Req() req: AuthenticatedRequest,
    @CurrentActor() actor: Actor,
    @Body() body: TimezoneBody,
  ): Promise<CommandResult> {
    return this.access.run(req, {
      type: 'UpdateUserProfile',
      userId: actor.userId,
      changes: { timezone: body.timezone },
    });
  }

  @Put('birth_date')
  @AnyAuthenticatedUser()
  @ApiOkResponse({ type: PositionResponse })
  birthDate(@Req() req: AuthenticatedRequest, @Body() body: BirthDateBody): Promise<CommandResult> {
    if (body.birth_date !== null) checkBirthDate(body.birth_date);
    return this.settings(req, { birthDate: body.birth_date });
  }

  @Put('receive_weekly_summary_reports')
  @AnyAuthenticatedUser()
  @ApiOkResponse({ type: PositionResponse })
  weeklySummary(@Req() req: AuthenticatedRequest, @Body() body: WeeklySummaryBody): Promise<CommandResult> {
    return this.settings(req, { receiveWeeklySummaryReports: body.value });
  }

  @Put('requested_number_of_lessons')
  @AnyAuthenticatedUser()
  @ApiOkResponse({ type: PositionResponse })
  requestedLessons(
    @Req() req: AuthenticatedRequest,
    @Body() body: RequestedLessonsBody,
  ): Promise<CommandResult> {
    return this.settings(req, { requestedLessonsPerWeek: body.requested_number_of_lessons_per_week });
  }

  @Put('notification_email')
  @AnyAuthenticatedUser()
  @ApiOkResponse({ type: PositionResponse })
  async notificationEmail(
    @Req() req: AuthenticatedRequest,
    @Body() body: NotificationEmailBody,
  ): Promise<CommandResult> {
    const me = actorOf(req);
    const email = body.email.trim();
    const result = await this.access.run(req, {
      type: 'RequestNotificationEmailChange',
      userId: me.userId,
      email,
    });
    await this.links.mail({
      purpose: 'notification-email',
      subjectId: me.userId,
      minutes: NOTIFICATION_EMAIL_MINUTES,
      to: email,
      subject: 'Confirm your Tutoring Portal notification address',
      route: '/profile',
      text: (link) => [
        `Hello ${me.firstName},`,
        '',
        'You asked for Tutoring Portal notifications to be sent to this address.',
        `Open this link within ${humanMinutes(NOTIFICATION_EMAIL_MINUTES)} while signed in to confirm it:`,
        link,
        '',
        'Until then notifications keep going to your current address.',
      ],
    });
    return result;
  }

  @Get('notification_email/verify')
  @AnyAuthenticatedUser()
  @ApiOkResponse({ type: NotificationEmailVerified })
  @ApiBadRequestResponse({ description: 'Invalid, used or expired link (code INVALID_TOKEN)' })
  async verifyNotificationEmail(
    @Req() req: AuthenticatedRequest,
    @CurrentActor() actor: Actor,
    @Query() query: TokenParam,
  ): Promise<NotificationEmailVerified> {
    const userId = actor.userId;
    // Checked first, so that someone else's session cannot use up the link.
    const owner = await this.links.check('notification-email', query.token, INVALID_VERIFICATION_LINK);
    if (owner !== userId) throw invalidLink(INVALID_VERIFICATION_LINK);
    await this.links.use('notification-email', query.token, INVALID_VERIFICATION_LINK);
    const result = await this.access
      .run(req, { type: 'VerifyNotificationEmail', userId })
      .catch((e: unknown) => {
        if (isDomainError(e, 'conflict')) throw invalidLink(INVALID_VERIFICATION_LINK);
        throw e;
      });
    const verified = (await this.store.readStream(userStream(userId)))
      .filter((e) => e.type === 'NotificationEmailVerified')
      .at(-1);
    return { position: result.position, notification_email: (verified?.data as NotificationEmailData).email };
  }

  private settings(req: AuthenticatedRequest, changes: UserSettingsChanges): Promise<CommandResult> {
    return this.access.run(req, { type: 'ChangeSettings', userId: actorOf(req).userId, changes });
  }
}
