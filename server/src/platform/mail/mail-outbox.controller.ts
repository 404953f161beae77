import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { RequirePermissions } from '../auth/public.decorator.js';
import { MailOutbox, type OutboxMail } from './mail-outbox.js';

/** Administrators can see what the portal sent (or, without SMTP_URL, logged instead of sending). */
@ApiTags('mail')
@Controller('api/v1/mail-outbox')
export class MailOutboxController {
  constructor(private readonly outbox: MailOutbox) {}

  @Get()
  @RequirePermissions('USER_IS_ADMIN')
  @ApiOkResponse({ description: 'The latest 100 mails, newest first' })
  async list(): Promise<{ items: OutboxMail[] }> {
    return { items: await this.outbox.list(100) };
  }
}
