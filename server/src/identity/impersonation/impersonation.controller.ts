import { Controller, HttpCode, HttpStatus, Param, Post, Req } from '@nestjs/common';
import {
  ApiConflictResponse,
  ApiForbiddenResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiTags,
} from '@nestjs/swagger';
import { RequirePermissions } from '../../platform/auth/public.decorator.js';
import { actorOf, metadataFor, type AuthenticatedRequest } from '../../platform/auth/request-context.js';
import { SessionService } from '../../platform/auth/session.service.js';
import { Commands } from '../../platform/event-store/commands.js';
import { Problem } from '../../platform/http/problem.js';
import { AccessToken } from '../login.controller.js';
import { INTERNAL_PERMISSIONS, MARKER_PERMISSIONS, internalMay, isAdmin } from '../policy/policy.js';
import type { UserImpersonatedData } from '../user.events.js';
import { forbidden, isUuid } from '../user-access.js';
import { impersonationAggregate } from './impersonation.decider.js';
import { UuidPipe } from '../../platform/http/validation.js';

const IMPERSONATE = INTERNAL_PERMISSIONS.IMPERSONATE;

/**
 * Impersonation (spec §4, §7; docs/decisions/0012): an administrator, or an internal user holding
 * CAN_IMPERSONATE, gets a session of another user. The session remembers the impersonator, so every
 * event written in it carries `impersonatorId`, and `UserImpersonated` is recorded in the target's
 * stream. Not available from a session that is itself an impersonation.
 */
@ApiTags('auth')
@Controller('api/v1')
export class ImpersonationController {
  constructor(
    private readonly commands: Commands,
    private readonly sessions: SessionService,
  ) {}

  @Post('login/:id/access-token')
  @HttpCode(HttpStatus.OK)
  @RequirePermissions(MARKER_PERMISSIONS.admin, IMPERSONATE)
  @ApiOkResponse({ type: AccessToken, description: 'A session of user {id}, impersonated by the caller' })
  @ApiForbiddenResponse({ description: 'No impersonation permission, or the target is an administrator' })
  @ApiNotFoundResponse({ description: 'User not found' })
  @ApiConflictResponse({ description: 'Already impersonating, or the target is blocked or deactivated' })
  impersonate(@Req() req: AuthenticatedRequest, @Param('id', UuidPipe) id: string): Promise<AccessToken> {
    return this.start(req, id, 'access-token');
  }

  @Post('users/:id/student-impersonification-token')
  @HttpCode(HttpStatus.OK)
  @RequirePermissions(MARKER_PERMISSIONS.admin, IMPERSONATE)
  @ApiOkResponse({ type: AccessToken, description: 'A session of student {id}, impersonated by the caller' })
  @ApiNotFoundResponse({ description: 'User not found' })
  @ApiConflictResponse({ description: 'Not a student, already impersonating, blocked or deactivated' })
  impersonateStudent(
    @Req() req: AuthenticatedRequest,
    @Param('id', UuidPipe) id: string,
  ): Promise<AccessToken> {
    return this.start(req, id, 'student-token');
  }

  private async start(
    req: AuthenticatedRequest,
    id: string,
    via: UserImpersonatedData['via'],
  ): Promise<AccessToken> {
    const actor = actorOf(req);
    if (!internalMay(actor.permissions, IMPERSONATE)) throw forbidden();
    if (actor.impersonatorId)
      throw new Problem(
        HttpStatus.CONFLICT,
        'You are already impersonating a user; return to your own account first',
      );
    if (!isUuid(id)) throw new Problem(HttpStatus.NOT_FOUND, 'User not found');
    const userId = id.toLowerCase();
    await this.commands.run(
      impersonationAggregate,
      {
        type: 'ImpersonateUser',
        userId,
        impersonatorId: actor.userId,
        impersonatorIsAdmin: isAdmin(actor.permissions),
        via,
      },
      metadataFor(req),
    );
    const { token, expiresIn } = await this.sessions.create(userId, actor.userId);
    return { access_token: token, token_type: 'bearer', expires_in: expiresIn };
  }
}
