import { Body, Controller, Get, HttpCode, HttpStatus, Injectable, Param, Post, Req } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiOkResponse,
  ApiProperty,
  ApiTags,
} from '@nestjs/swagger';
import { Public, RequirePermissions } from '../platform/auth/public.decorator.js';
import type { AuthenticatedRequest } from '../platform/auth/request-context.js';
import { MARKER_PERMISSIONS } from './policy/policy.js';
import { UserAccess } from './user-access.js';
import { Problem } from '../platform/http/problem.js';
import { UserCommands } from './commands/user-command.handler.js';
import { Credentials } from './credentials.js';
import { TokenLinkFlow, TokenPasswordBody, humanMinutes, invalidLink } from './token-link-flow.js';
import { UsersReadModel } from './users.read.js';
import { isDomainError } from '../platform/domain/domain-error.js';
import { UuidPipe } from '../platform/http/validation.js';

/** Activation links work for 7 days (docs/decisions/0016). */
export const ACTIVATION_MINUTES = 7 * 24 * 60;
export const INVALID_ACTIVATION_LINK =
  'This activation link is invalid, has already been used or has expired. Ask an administrator for a new one.';

export class ActivationLinkView {
  @ApiProperty() valid!: true;
  @ApiProperty() login!: string;
  @ApiProperty() first_name!: string;
  @ApiProperty() last_name!: string;
}

export class ActivatedView {
  @ApiProperty() msg!: string;
  @ApiProperty({ description: 'Event position; send it as X-Min-Position on the next read' })
  position!: string;
}

/** Mails activation links to users created without a password. */
@Injectable()
export class AccountActivation {
  constructor(private readonly links: TokenLinkFlow) {}

  async mailLink(user: { id: string; email: string; firstName: string }): Promise<void> {
    await this.links.mail({
      purpose: 'activation',
      subjectId: user.id,
      minutes: ACTIVATION_MINUTES,
      to: user.email,
      subject: 'Activate your Tutoring Portal account',
      route: '/activate',
      text: (link) => [
        `Hello ${user.firstName},`,
        '',
        'An account has been created for you on the Tutoring Portal.',
        `Open this link within ${humanMinutes(ACTIVATION_MINUTES)} to choose your password and activate it:`,
        link,
        '',
        'The link works once.',
      ],
    });
  }
}

/**
 * Account activation (spec §2 /activate): a user created without a password gets a single-use,
 * expiring link; the page checks it (GET, does not use it up), then sets the password (POST).
 */
@ApiTags('auth')
@Controller('api/v1/activate')
export class ActivationController {
  constructor(
    private readonly links: TokenLinkFlow,
    private readonly users: UsersReadModel,
    private readonly credentials: Credentials,
    private readonly commands: UserCommands,
  ) {}

  @Get(':token')
  @Public()
  @ApiOkResponse({ type: ActivationLinkView })
  @ApiBadRequestResponse({ description: 'Invalid, used or expired link (code INVALID_TOKEN)' })
  async check(@Param('token') token: string): Promise<ActivationLinkView> {
    const userId = await this.links.check('activation', token, INVALID_ACTIVATION_LINK);
    const user = await this.users.byId(userId);
    if (!user || !user.awaiting_activation) throw invalidLink(INVALID_ACTIVATION_LINK);
    return { valid: true, login: user.login, first_name: user.first_name, last_name: user.last_name };
  }

  @Post()
  @Public()
  @HttpCode(HttpStatus.OK)
  @ApiOkResponse({ type: ActivatedView })
  @ApiBadRequestResponse({ description: 'Invalid, used or expired link (code INVALID_TOKEN)' })
  async activate(@Body() body: TokenPasswordBody): Promise<ActivatedView> {
    const userId = await this.links.use('activation', body.token, INVALID_ACTIVATION_LINK);
    const result = await this.commands
      // The mailed link's holder completes their own activation: no other user acts.
      .run({ type: 'CompleteActivation', userId }, { actorId: userId }, 'system')
      .catch((e: unknown) => {
        // Already activated (e.g. an administrator set a password meanwhile): the link is spent.
        if (isDomainError(e, 'conflict')) throw invalidLink(INVALID_ACTIVATION_LINK);
        throw e;
      });
    await this.credentials.setPassword(userId, body.password);
    return { msg: 'Your account is active. Sign in with your new password.', position: result.position };
  }
}

export class ActivationLinkSent {
  @ApiProperty() msg!: string;
}

/** A new activation link for a user who has not activated yet (the older link stops working). */
@ApiTags('users')
@Controller('api/v1/users')
export class ActivationLinksController {
  constructor(
    private readonly access: UserAccess,
    private readonly activation: AccountActivation,
  ) {}

  @Post(':id/activation-link')
  @RequirePermissions(MARKER_PERMISSIONS.admin, MARKER_PERMISSIONS.partner)
  @HttpCode(HttpStatus.OK)
  @ApiOkResponse({ type: ActivationLinkSent })
  @ApiConflictResponse({ description: 'Account is already activated' })
  async resend(
    @Req() req: AuthenticatedRequest,
    @Param('id', UuidPipe) id: string,
  ): Promise<ActivationLinkSent> {
    // Whoever may add a user of this kind may send them a new link.
    const target = await this.access.authorizedTarget(req, id, 'add');
    if (!target.awaiting_activation) throw new Problem(HttpStatus.CONFLICT, 'Account is already activated');
    await this.activation.mailLink({ id: target.id, email: target.email, firstName: target.first_name });
    return { msg: `A new activation link has been sent to ${target.email}.` };
  }
}
