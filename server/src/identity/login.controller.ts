import { Body, Controller, Get, HttpCode, HttpStatus, Inject, Post, Req, Res } from '@nestjs/common';
import {
  ApiConsumes,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiProperty,
  ApiTags,
  ApiTooManyRequestsResponse,
  ApiUnauthorizedResponse,
  OmitType,
} from '@nestjs/swagger';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { AnyAuthenticatedUser, Public } from '../platform/auth/public.decorator.js';
import { SessionService } from '../platform/auth/session.service.js';
import { type Actor, type AuthenticatedRequest, CurrentActor } from '../platform/auth/request-context.js';
import { Problem } from '../platform/http/problem.js';
import { LiveSessions } from '../platform/live/live-sessions.js';
import { CollaborationServer } from '../platform/collaboration/collaboration.server.js';
import type { Log } from '../platform/logging/logger.js';
import { LOGGER } from '../platform/tokens.js';
import { Credentials } from './credentials.js';
import { LoginThrottle } from './login-throttle.js';
import type { Response } from 'express';
import { UsersReadModel } from './users.read.js';
import { UserView } from './users.dto.js';
import { userViewFor } from './user.view.js';
import { isAdmin } from './policy/policy.js';
import { NetworksReadModel } from '../networks/networks.read.js';
import { NetworkView, networkView } from '../networks/networks.controller.js';
import { TimezoneInfo, timezoneInfo } from '../networks/timezone-info.js';

export class LoginForm {
  @ApiProperty({ description: 'Login (e-mail address)', example: 'admin@example.com' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(320)
  username!: string;

  @ApiProperty({ description: 'Password', format: 'password' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(1024)
  password!: string;
}

export class AccessToken {
  @ApiProperty() access_token!: string;
  @ApiProperty({ example: 'bearer' }) token_type!: 'bearer';
  @ApiProperty({
    example: 43200,
    description:
      'Seconds until the session ends at the latest (SESSION_MAX_HOURS); it ends sooner after ' +
      'SESSION_IDLE_MINUTES without a request, at logout, or when the account is blocked or its password changes',
  })
  expires_in!: number;
}

/**
 * The signed-in user: every field of a user (timezone defaulted when unset) plus the impersonator, the
 * networks they can work in, the active one as an object, and the time zone comparison (spec §3, §4).
 */
export class CurrentUser extends OmitType(UserView, ['active_network'] as const) {
  @ApiProperty({ nullable: true, type: String }) impersonator_id!: string | null;
  @ApiProperty({ nullable: true, type: String, description: 'Notification e-mail waiting for verification' })
  pending_notification_email!: string | null;
  @ApiProperty({ type: [NetworkView], description: 'Administrators: every network; others: their own' })
  networks!: NetworkView[];
  @ApiProperty({ type: NetworkView, nullable: true, description: 'The active network, else the home one' })
  active_network!: NetworkView | null;
  @ApiProperty({ nullable: true, type: String }) active_network_id!: string | null;
  @ApiProperty({ type: TimezoneInfo }) timezone_info!: TimezoneInfo;
}

@ApiTags('auth')
@Controller('api/v1')
export class LoginController {
  constructor(
    private readonly users: UsersReadModel,
    private readonly credentials: Credentials,
    private readonly sessions: SessionService,
    private readonly throttle: LoginThrottle,
    private readonly networks: NetworksReadModel,
    private readonly live: LiveSessions,
    private readonly collaboration: CollaborationServer,
    @Inject(LOGGER) private readonly log: Log,
  ) {}

  @Post('login/access-token')
  @Public()
  @HttpCode(HttpStatus.OK)
  @ApiConsumes('application/x-www-form-urlencoded')
  @ApiOkResponse({ type: AccessToken })
  @ApiTooManyRequestsResponse({ description: 'Too many failed attempts for the account or address' })
  async login(
    @Body() form: LoginForm,
    @Req() req: AuthenticatedRequest,
    @Res({ passthrough: true }) res: Response,
  ): Promise<AccessToken> {
    const login = form.username.trim();
    const ip = req.ip ?? 'unknown';
    const verdict = await this.throttle.check(login, ip);
    if (!verdict.allowed) {
      res.setHeader('Retry-After', String(verdict.retryAfterSeconds));
      const minutes = Math.max(1, Math.ceil(verdict.retryAfterSeconds / 60));
      throw new Problem(
        HttpStatus.TOO_MANY_REQUESTS,
        verdict.scope === 'account'
          ? `Too many failed sign-in attempts for this account. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`
          : `Too many failed sign-in attempts from your network. Try again in ${minutes} minutes.`,
      );
    }
    const user = await this.users.byLogin(login);
    const ok = await this.credentials.check(user?.id ?? null, form.password);
    if (!user || !ok) {
      await this.throttle.failed(login, ip);
      throw new Problem(HttpStatus.UNAUTHORIZED, 'Incorrect email or password');
    }
    await this.throttle.succeeded(login);
    if (user.is_blocked) throw new Problem(HttpStatus.FORBIDDEN, 'This account has been blocked');
    if (!user.has_access) throw new Problem(HttpStatus.FORBIDDEN, 'This account has no access to the portal');
    const { token, expiresIn } = await this.sessions.create(user.id);
    return { access_token: token, token_type: 'bearer', expires_in: expiresIn };
  }

  /**
   * Ends the presented session (decision 0039): the token answers 401 from now on, and the session's
   * live sockets and collaboration connections are dropped on every process; the user's other sessions
   * live on. An impersonation session ends alone (the client ends the administrator's own as well).
   */
  @Post('logout')
  @AnyAuthenticatedUser()
  @HttpCode(HttpStatus.NO_CONTENT)
  @ApiNoContentResponse({ description: 'The session has ended' })
  @ApiUnauthorizedResponse({ description: 'No token, or the session had already ended' })
  async logout(@CurrentActor() actor: Actor): Promise<void> {
    const { sessionId, userId } = actor;
    await this.sessions.revoke(sessionId);
    // Both drop exactly the connections whose session is no longer alive (this one), as after a
    // revocation without an event; done in the background so a slow process does not hold the answer.
    this.live
      .refreshUser(userId)
      .catch((e: unknown) => this.log.error({ err: e, userId }, 'logout: could not drop live sockets'));
    this.collaboration.recheckUser(userId);
  }

  @Get('users/me')
  @AnyAuthenticatedUser()
  @ApiOkResponse({ type: CurrentUser })
  async me(@CurrentActor() actor: Actor): Promise<CurrentUser> {
    const user = await this.users.byId(actor.userId);
    if (!user) throw new Problem(HttpStatus.NOT_FOUND, 'User not found');
    // Their own record as they may read it: no staff notes for students, teachers or parents (0037).
    const view = userViewFor(actor, user);
    const activeId = user.active_network_id ?? user.network_id;
    const own = [...new Set([user.network_id, user.active_network_id].filter((id) => id !== null))];
    const networks = isAdmin(user.permissions)
      ? (await this.networks.page(1, 500)).rows
      : await this.networks.byIds(own);
    const active = (activeId && networks.find((n) => n.id === activeId)) || null;
    return {
      ...view,
      impersonator_id: actor.impersonatorId,
      networks: networks.map(networkView),
      active_network: active ? networkView(active) : null,
      active_network_id: activeId,
      timezone_info: timezoneInfo(view.timezone, active, new Date()),
      pending_notification_email: user.pending_notification_email,
    };
  }
}
