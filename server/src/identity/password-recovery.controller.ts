import { Body, Controller, HttpCode, HttpStatus, Inject, Param, Post, Req } from '@nestjs/common';
import { ApiOkResponse, ApiProperty, ApiTags } from '@nestjs/swagger';
import { IsEmail, MaxLength } from 'class-validator';
import { Public } from '../platform/auth/public.decorator.js';
import type { AuthenticatedRequest } from '../platform/auth/request-context.js';
import { APP_CONFIG, LOGGER } from '../platform/tokens.js';
import type { AppConfig } from '../platform/config/config.js';
import type { Log } from '../platform/logging/logger.js';
import { UserCommands } from './commands/user-command.handler.js';
import { Credentials } from './credentials.js';
import { MailThrottle } from './mail-throttle.js';
import { MIN_PASSWORD_LENGTH, TokenLinkFlow, TokenPasswordBody } from './token-link-flow.js';
import { UsersReadModel } from './users.read.js';

export { MIN_PASSWORD_LENGTH };

export class EmailParam {
  @IsEmail()
  @MaxLength(320)
  email!: string;
}

/** The body of POST /set-new-password: the recovery link's token and the new password. */
export class SetNewPasswordBody extends TokenPasswordBody {}

export class Message {
  @ApiProperty() msg!: string;
}

export const RECOVERY_ANSWER =
  'If an account exists for this e-mail address, a password recovery link has been sent.';
export const INVALID_LINK = 'This link is invalid or has expired. Ask for a new password recovery e-mail.';

/**
 * Password recovery by single-use, expiring token link (spec §7). The answer is the same whether or not
 * the address belongs to an account, or its mail was held back by the rate limit (`MailThrottle`: per
 * address and per client address, docs/decisions/0038), and the work is done after answering so
 * timing does not tell.
 */
@ApiTags('auth')
@Controller('api/v1')
export class PasswordRecoveryController {
  constructor(
    private readonly users: UsersReadModel,
    private readonly links: TokenLinkFlow,
    private readonly credentials: Credentials,
    private readonly commands: UserCommands,
    private readonly throttle: MailThrottle,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(LOGGER) private readonly log: Log,
  ) {}

  @Post('password-recovery/:email')
  @Public()
  @HttpCode(HttpStatus.OK)
  @ApiOkResponse({ type: Message })
  recover(@Param() params: EmailParam, @Req() req: AuthenticatedRequest): Message {
    const email = params.email.trim().toLowerCase();
    void this.throttle
      .allow('password-recovery', email, req.ip ?? 'unknown')
      .then((allowed) => (allowed ? this.sendRecoveryMail(email) : undefined))
      .catch((e: unknown) => this.log.error({ err: e }, 'password recovery mail failed'));
    return { msg: RECOVERY_ANSWER };
  }

  @Post('set-new-password')
  @Public()
  @HttpCode(HttpStatus.OK)
  @ApiOkResponse({ type: Message })
  async setNewPassword(@Body() body: SetNewPasswordBody): Promise<Message & { position: string }> {
    const userId = await this.links.use('password-reset', body.token, INVALID_LINK);
    await this.credentials.setPassword(userId, body.password);
    const result = await this.commands.run({ type: 'ChangePassword', userId }, { actorId: userId }, 'system');
    return {
      msg: 'Your password has been changed. Sign in with the new password.',
      position: result.position,
    };
  }

  /** Exposed for tests: resolves once the mail is in the outbox (or nothing was due). */
  async sendRecoveryMail(email: string): Promise<void> {
    const user = await this.users.byLogin(email);
    if (!user || !user.has_access || user.is_blocked) return;
    const minutes = this.config.passwordResetMinutes;
    await this.links.mail({
      purpose: 'password-reset',
      subjectId: user.id,
      minutes,
      to: user.email,
      subject: 'Reset your Tutoring Portal password',
      route: '/passwordreset',
      text: (link) => [
        `Hello ${user.first_name},`,
        '',
        'Someone (hopefully you) asked to reset the password of your Tutoring Portal account.',
        `Open this link within ${minutes} minutes to choose a new password:`,
        link,
        '',
        'The link works once. If you did not ask for this, ignore this e-mail: your password stays as it is.',
      ],
    });
  }
}
