import { randomUUID } from 'node:crypto';
import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  HttpStatus,
  Param,
  Post,
  Put,
  Query,
  Req,
} from '@nestjs/common';
import {
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiTags,
  ApiUnprocessableEntityResponse,
} from '@nestjs/swagger';
import { AnyAuthenticatedUser, RequirePermissions } from '../platform/auth/public.decorator.js';
import {
  type Actor,
  type AuthenticatedRequest,
  CurrentActor,
  actorOf,
} from '../platform/auth/request-context.js';
import { Problem } from '../platform/http/problem.js';
import { Credentials } from './credentials.js';
import { PersonalDataVault } from '../platform/personal-data/personal-data-vault.js';
import { AccountActivation } from './activation.controller.js';
import { CustomFields } from './custom-fields/custom-fields.controller.js';
import type { UserProfileChanges } from './user.events.js';
import { INTERNAL_PERMISSIONS, MARKER_PERMISSIONS, isAdmin } from './policy/policy.js';
import {
  ContactBody,
  ContactCreatedResponse,
  CreateUserBody,
  ListUsersQuery,
  PermissionsBody,
  PositionResponse,
  QualityIssueBody,
  ScheduleDeactivationBody,
  UpdateUserBody,
  UserCreatedResponse,
  UserPage,
  UserView,
} from './users.dto.js';
import { UsersReadModel } from './users.read.js';
import { pagedUsers } from './lists/user-list-query.js';
import { userViewFor } from './user.view.js';
import { NetworksReadModel } from '../networks/networks.read.js';
import { UserCreation } from './user-creation.js';
import { UserAccess, forbidden, isUuid } from './user-access.js';
import type { CommandResult } from './commands/user-command.handler.js';
import { UuidPipe } from '../platform/http/validation.js';

const ADMIN = MARKER_PERMISSIONS.admin;
const PARTNER_MARKER = MARKER_PERMISSIONS.partner;

/**
 * Users (spec §7 "Users"). Admin-only area; partners manage users of their own customer with the
 * matching PARTNER_CAN_* permission; blocking and quality issues need the internal named permission.
 */
@ApiTags('users')
@Controller('api/v1/users')
export class UsersController {
  constructor(
    private readonly access: UserAccess,
    private readonly users: UsersReadModel,
    private readonly credentials: Credentials,
    private readonly activation: AccountActivation,
    private readonly customFields: CustomFields,
    private readonly networks: NetworksReadModel,
    private readonly vault: PersonalDataVault,
    private readonly creation: UserCreation,
  ) {}

  // ---- reads ----

  @Get()
  @RequirePermissions(ADMIN, PARTNER_MARKER)
  @ApiOkResponse({ type: UserPage })
  async list(@Req() req: AuthenticatedRequest, @Query() q: ListUsersQuery): Promise<UserPage> {
    const actor = actorOf(req);
    const { rows, ...page } = await pagedUsers(this.users, actor, q);
    return { items: rows.map((r) => userViewFor(actor, r)), ...page };
  }

  @Get(':id')
  @RequirePermissions(ADMIN, PARTNER_MARKER)
  @ApiOkResponse({ type: UserView })
  @ApiNotFoundResponse({ description: 'User not found' })
  async get(@Req() req: AuthenticatedRequest, @Param('id', UuidPipe) id: string): Promise<UserView> {
    const actor = actorOf(req);
    const target = await this.access.visibleTarget(actor, id);
    return userViewFor(actor, target);
  }

  // ---- create and edit ----

  @Post()
  @RequirePermissions(ADMIN, PARTNER_MARKER)
  @ApiCreatedResponse({ type: UserCreatedResponse })
  @ApiConflictResponse({ description: 'A user with this login already exists' })
  @ApiUnprocessableEntityResponse({ description: 'Invalid field' })
  async create(@Req() req: AuthenticatedRequest, @Body() body: CreateUserBody): Promise<UserCreatedResponse> {
    const actor = actorOf(req);
    return this.creation.create(req, actor, body);
  }

  @Put(':id')
  @RequirePermissions(ADMIN, PARTNER_MARKER)
  @ApiOkResponse({ type: PositionResponse })
  async update(
    @Req() req: AuthenticatedRequest,
    @Param('id', UuidPipe) id: string,
    @Body() body: UpdateUserBody,
  ): Promise<CommandResult> {
    const { password, ...profile } = body;
    const hasProfileChanges = Object.values(profile).some((v) => v !== undefined);
    const actor = actorOf(req);
    const target = await this.access.visibleTarget(actor, id);
    if (hasProfileChanges || password === undefined) this.access.authorize(actor, target, 'edit');
    if (password !== undefined) this.access.authorize(actor, target, 'password');
    if (
      !isAdmin(actor.permissions) &&
      (profile.customer_id !== undefined || profile.customer_type !== undefined)
    )
      throw forbidden('Partners cannot move users between customers or change their role');
    await this.networks.requireKnown(profile.network_id);
    const changes: UserProfileChanges = {
      firstName: profile.first_name,
      lastName: profile.last_name,
      email: profile.email,
      timezone: profile.timezone,
      notes: profile.notes,
      customerId: profile.customer_id,
      customerType: profile.customer_type,
      networkId: profile.network_id,
      position: profile.position,
      customFields: await this.customFields.check(profile.custom_fields, 'update'),
    };
    let result = await this.access.run(req, { type: 'UpdateUserProfile', userId: target.id, changes });
    if (password !== undefined) {
      await this.credentials.setPassword(target.id, password);
      result = await this.access.run(req, { type: 'ChangePassword', userId: target.id });
    }
    return result;
  }

  // ---- account state ----

  @Put(':id/activate')
  @RequirePermissions(ADMIN, PARTNER_MARKER)
  @ApiOkResponse({ type: PositionResponse })
  @ApiConflictResponse({ description: 'User is already active' })
  async activate(
    @Req() req: AuthenticatedRequest,
    @Param('id', UuidPipe) id: string,
  ): Promise<CommandResult> {
    const target = await this.access.authorizedTarget(req, id, 'disable');
    return this.access.run(req, { type: 'ActivateUser', userId: target.id });
  }

  @Put(':id/deactivate')
  @RequirePermissions(ADMIN, PARTNER_MARKER)
  @ApiOkResponse({ type: PositionResponse })
  @ApiConflictResponse({ description: 'User is already deactivated' })
  async deactivate(
    @Req() req: AuthenticatedRequest,
    @Param('id', UuidPipe) id: string,
  ): Promise<CommandResult> {
    const target = await this.access.authorizedTarget(req, id, 'disable');
    return this.access.run(req, { type: 'DeactivateUser', userId: target.id });
  }

  @Put(':id/deactivate/schedule')
  @RequirePermissions(ADMIN, PARTNER_MARKER)
  @ApiOkResponse({ type: PositionResponse })
  async scheduleDeactivation(
    @Req() req: AuthenticatedRequest,
    @Param('id', UuidPipe) id: string,
    @Body() body: ScheduleDeactivationBody,
  ): Promise<CommandResult> {
    const target = await this.access.authorizedTarget(req, id, 'disable');
    return this.access.run(req, {
      type: 'ScheduleDeactivation',
      userId: target.id,
      at: body.date,
      now: new Date().toISOString(),
    });
  }

  @Put(':id/block')
  @RequirePermissions(ADMIN, INTERNAL_PERMISSIONS.BLOCK_USERS)
  @ApiOkResponse({ type: PositionResponse })
  @ApiConflictResponse({ description: 'User is already blocked' })
  async block(@Req() req: AuthenticatedRequest, @Param('id', UuidPipe) id: string): Promise<CommandResult> {
    const target = await this.access.internalTarget(req, id, INTERNAL_PERMISSIONS.BLOCK_USERS);
    return this.access.run(req, { type: 'BlockUser', userId: target.id });
  }

  @Put(':id/unblock')
  @RequirePermissions(ADMIN, INTERNAL_PERMISSIONS.BLOCK_USERS)
  @ApiOkResponse({ type: PositionResponse })
  @ApiConflictResponse({ description: 'User is not blocked' })
  async unblock(@Req() req: AuthenticatedRequest, @Param('id', UuidPipe) id: string): Promise<CommandResult> {
    const target = await this.access.internalTarget(req, id, INTERNAL_PERMISSIONS.BLOCK_USERS);
    return this.access.run(req, { type: 'UnblockUser', userId: target.id });
  }

  @Put(':id/set-quality-issue')
  @RequirePermissions(ADMIN, INTERNAL_PERMISSIONS.QUALITY_ISSUE)
  @ApiOkResponse({ type: PositionResponse })
  async setQualityIssue(
    @Req() req: AuthenticatedRequest,
    @Param('id', UuidPipe) id: string,
    @Body() body: QualityIssueBody,
  ): Promise<CommandResult> {
    const target = await this.access.internalTarget(req, id, INTERNAL_PERMISSIONS.QUALITY_ISSUE);
    return this.access.run(req, { type: 'SetQualityIssue', userId: target.id, reason: body.reason.trim() });
  }

  @Put(':id/unset-quality-issue')
  @RequirePermissions(ADMIN, INTERNAL_PERMISSIONS.QUALITY_ISSUE)
  @ApiOkResponse({ type: PositionResponse })
  async unsetQualityIssue(
    @Req() req: AuthenticatedRequest,
    @Param('id', UuidPipe) id: string,
  ): Promise<CommandResult> {
    const target = await this.access.internalTarget(req, id, INTERNAL_PERMISSIONS.QUALITY_ISSUE);
    return this.access.run(req, { type: 'UnsetQualityIssue', userId: target.id });
  }

  @Put(':id/permissions')
  @RequirePermissions(ADMIN)
  @ApiOkResponse({ type: PositionResponse })
  @ApiUnprocessableEntityResponse({ description: 'The type marker cannot change' })
  async setPermissions(
    @Req() req: AuthenticatedRequest,
    @Param('id', UuidPipe) id: string,
    @Body() body: PermissionsBody,
  ): Promise<CommandResult> {
    const target = await this.access.internalTarget(req, id, INTERNAL_PERMISSIONS.MODIFY_USER);
    return this.access.run(req, {
      type: 'ChangePermissions',
      userId: target.id,
      permissions: body.permissions,
    });
  }

  @Put(':id/active_network/:networkId')
  @AnyAuthenticatedUser()
  @ApiOkResponse({ type: PositionResponse })
  async changeActiveNetwork(
    @Req() req: AuthenticatedRequest,
    @CurrentActor() actor: Actor,
    @Param('id', UuidPipe) id: string,
    @Param('networkId', UuidPipe) networkId: string,
  ): Promise<CommandResult> {
    const self = actor.userId === id;
    const admin = isAdmin(actor.permissions);
    if (!self && !admin) throw forbidden();
    const target = await this.access.targetRow(id);
    if (!isUuid(networkId)) throw new Problem(HttpStatus.UNPROCESSABLE_ENTITY, 'networkId: must be a UUID');
    const network = await this.networks.byId(networkId.toLowerCase());
    if (!network) throw new Problem(HttpStatus.NOT_FOUND, 'Network not found');
    // Administrators may pick any network; others one of theirs (home or current), as /users/me lists.
    if (!admin && network.id !== target.network_id && network.id !== target.active_network_id)
      throw forbidden('You can only switch to one of your networks');
    return this.access.run(req, { type: 'ChangeActiveNetwork', userId: target.id, networkId: network.id });
  }

  // ---- contacts ----

  @Post(':id/contacts')
  @RequirePermissions(ADMIN, PARTNER_MARKER)
  @ApiCreatedResponse({ type: ContactCreatedResponse })
  async addContact(
    @Req() req: AuthenticatedRequest,
    @Param('id', UuidPipe) id: string,
    @Body() body: ContactBody,
  ): Promise<ContactCreatedResponse> {
    const target = await this.access.authorizedTarget(req, id, 'edit');
    const contactId = randomUUID();
    const result = await this.access.run(req, {
      type: 'AddContact',
      userId: target.id,
      contactId,
      contact: contactFields(body),
    });
    return { id: contactId, position: result.position };
  }

  @Put(':id/contacts/:contactId')
  @RequirePermissions(ADMIN, PARTNER_MARKER)
  @ApiOkResponse({ type: PositionResponse })
  @ApiNotFoundResponse({ description: 'Contact not found' })
  async updateContact(
    @Req() req: AuthenticatedRequest,
    @Param('id', UuidPipe) id: string,
    @Param('contactId', UuidPipe) contactId: string,
    @Body() body: ContactBody,
  ): Promise<CommandResult> {
    const target = await this.access.authorizedTarget(req, id, 'edit');
    return this.access.run(req, {
      type: 'UpdateContact',
      userId: target.id,
      contactId,
      contact: contactFields(body),
    });
  }

  @Delete(':id/contacts/:contactId')
  @HttpCode(HttpStatus.OK)
  @RequirePermissions(ADMIN, PARTNER_MARKER)
  @ApiOkResponse({ type: PositionResponse })
  @ApiNotFoundResponse({ description: 'Contact not found' })
  async removeContact(
    @Req() req: AuthenticatedRequest,
    @Param('id', UuidPipe) id: string,
    @Param('contactId', UuidPipe) contactId: string,
  ): Promise<CommandResult> {
    const target = await this.access.authorizedTarget(req, id, 'edit');
    return this.access.run(req, { type: 'RemoveContact', userId: target.id, contactId });
  }
}

function contactFields(body: ContactBody) {
  return {
    name: body.name.trim(),
    email: body.email ?? null,
    phone: body.phone ?? null,
    relationship: body.relationship ?? null,
    notes: body.notes ?? null,
  };
}
