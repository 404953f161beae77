import { Controller, Delete, HttpCode, HttpStatus, Param, Req } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { UserRow } from '@portal/projections';
import { RequirePermissions } from '../platform/auth/public.decorator.js';
import { type AuthenticatedRequest, actorOf } from '../platform/auth/request-context.js';
import { Problem } from '../platform/http/problem.js';
import { StorageService } from '../platform/storage/storage.service.js';
import { MailOutbox } from '../platform/mail/mail-outbox.js';
import { Credentials } from './credentials.js';
import { TokenLinks } from './token-links.js';
import { MARKER_PERMISSIONS, isAdmin } from './policy/policy.js';
import { PositionResponse } from './users.dto.js';
import { UsersReadModel } from './users.read.js';
import { UserAccess, isUuid } from './user-access.js';
import type { CommandResult } from './commands/user-command.handler.js';
import { UuidPipe } from '../platform/http/validation.js';

const notFound = () => new Problem(HttpStatus.NOT_FOUND, 'User not found');

/**
 * Deleting users (decision 0015) and erasing their personal data by crypto-shredding (decision 0014).
 * Administrators; partners for users of their own customer they can see, with PARTNER_CAN_DELETE_{kind}.
 */
@ApiTags('users')
@Controller('api/v1/users')
export class UserDeletionController {
  constructor(
    private readonly access: UserAccess,
    private readonly users: UsersReadModel,
    private readonly storage: StorageService,
    private readonly credentials: Credentials,
    private readonly tokenLinks: TokenLinks,
    private readonly outbox: MailOutbox,
  ) {}

  @Delete(':id/user_profile')
  @HttpCode(HttpStatus.OK)
  @RequirePermissions(MARKER_PERMISSIONS.admin, MARKER_PERMISSIONS.partner)
  @ApiOkResponse({
    type: PositionResponse,
    description: 'Personal data erased (names, e-mail, notes, contacts, files)',
  })
  @ApiNotFoundResponse({ description: 'User not found' })
  async erase(@Req() req: AuthenticatedRequest, @Param('id', UuidPipe) id: string): Promise<CommandResult> {
    // A deleted user's record can still be erased: that is how retention ends (decision 0015).
    const target = await this.target(req, id, { includeDeleted: true });
    const result = await this.access.run(req, { type: 'ErasePersonalData', userId: target.id });
    // State outside the event store that holds the same personal data or lets the person in.
    await this.credentials.remove(target.id);
    await this.tokenLinks.removeAll(target.id);
    await this.outbox.forget(target.email, target.login);
    if (target.user_type === 'student') await this.storage.removePrefix(`students/${target.id}/`);
    return result;
  }

  @Delete(':id')
  @HttpCode(HttpStatus.OK)
  @RequirePermissions(MARKER_PERMISSIONS.admin, MARKER_PERMISSIONS.partner)
  @ApiOkResponse({
    type: PositionResponse,
    description: 'User deleted (kept for the record, see decision 0015)',
  })
  @ApiNotFoundResponse({ description: 'User not found' })
  async delete(@Req() req: AuthenticatedRequest, @Param('id', UuidPipe) id: string): Promise<CommandResult> {
    const target = await this.target(req, id, { includeDeleted: false });
    return this.access.run(req, { type: 'DeleteUser', userId: target.id });
  }

  private async target(
    req: AuthenticatedRequest,
    id: string,
    o: { includeDeleted: boolean },
  ): Promise<UserRow> {
    const actor = actorOf(req);
    if (!isUuid(id)) throw notFound();
    const target = o.includeDeleted
      ? await this.users.byIdIncludingDeleted(id.toLowerCase())
      : await this.users.byId(id.toLowerCase());
    if (!target) throw notFound();
    if (target.id === actor.userId)
      throw new Problem(HttpStatus.UNPROCESSABLE_ENTITY, 'id: you cannot delete your own account');
    if (isAdmin(actor.permissions)) return target;
    // Partners: only users of their own customer that they can see (others are not found), and only
    // with the delete permission for that kind of user.
    const visible = await this.access.maySee(actor, target);
    if (!visible) throw notFound();
    this.access.authorize(actor, target, 'delete');
    return target;
  }
}
