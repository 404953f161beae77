import { randomUUID } from 'node:crypto';
import { Body, Controller, Get, HttpCode, HttpStatus, Inject, Param, Post, Query, Req } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiOkResponse,
  ApiProperty,
  ApiPropertyOptional,
  ApiTags,
} from '@nestjs/swagger';
import { PageQuery } from '../platform/http/paging.js';
import { IsEmail, IsIn, IsNotEmpty, IsOptional, IsString, IsUUID, Length, MaxLength } from 'class-validator';
import { customerById, listCustomerInvitations, type CustomerInvitationWithName } from '@portal/projections';
import { Public, RequirePermissions } from '../platform/auth/public.decorator.js';
import {
  CurrentActor,
  metadataFor,
  type Actor,
  type AuthenticatedRequest,
} from '../platform/auth/request-context.js';
import type { EventMetadata } from '../platform/event-store/event-store.js';
import { Commands } from '../platform/event-store/commands.js';
import { Problem } from '../platform/http/problem.js';
import type { SqlClient } from '../platform/sql/sql-client.js';
import { SQL_CLIENT } from '../platform/tokens.js';
import { PORTAL_NAMESPACE, uuidV5 } from '../platform/uuid.js';
import { UserCommands } from '../identity/commands/user-command.handler.js';
import { Credentials } from '../identity/credentials.js';
import {
  CUSTOMER_ROLES,
  CUSTOMER_ROLE_LABELS,
  MARKER_PERMISSIONS,
  NAMED_PERMISSIONS,
  hasAny,
  initialPermissions,
  isAdmin,
  mayUseNamed,
  type CustomerRole,
} from '../identity/policy/policy.js';
import {
  MIN_PASSWORD_LENGTH,
  TokenLinkFlow,
  humanMinutes,
  invalidLink,
} from '../identity/token-link-flow.js';
import { forbidden, partnerPermissionsFor } from '../identity/user-access.js';
import { UsersReadModel } from '../identity/users.read.js';
import { type InvitationState, invitationAggregate } from './customer-invitation.decider.js';
import { isDomainError } from '../platform/domain/domain-error.js';
import { PageOf } from '../platform/http/paging.js';
import { Written } from '../platform/http/written.js';

/** Invitation links work for 14 days (docs/decisions/0016). */
export const INVITATION_MINUTES = 14 * 24 * 60;
export const INVALID_INVITATION_LINK =
  'This invitation link is invalid, has already been used or has expired. Ask for a new invitation.';

const INVITE = NAMED_PERMISSIONS.PARTNER_INVITATIONS;

export class InviteBody {
  @ApiProperty({ example: 'new.head@school.example.com' }) @IsEmail() @MaxLength(320) email!: string;
  @ApiPropertyOptional({ format: 'uuid', description: 'Required for administrators; partners: their own' })
  @IsOptional()
  @IsUUID()
  customer_id?: string;
  @ApiProperty({ enum: CUSTOMER_ROLES }) @IsIn(CUSTOMER_ROLES) customer_type!: CustomerRole;
}

export class InvitationsQuery extends PageQuery {
  @ApiPropertyOptional({ format: 'uuid' }) @IsOptional() @IsUUID() customer_id?: string;
}

export class InvitationView {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ format: 'uuid' }) customer_id!: string;
  @ApiProperty({ nullable: true, type: String }) customer_name!: string | null;
  @ApiProperty() email!: string;
  @ApiProperty({ enum: CUSTOMER_ROLES }) customer_type!: string;
  @ApiProperty() customer_type_label!: string;
  @ApiProperty({ enum: ['pending', 'accepted'] }) status!: string;
  @ApiProperty({ nullable: true, type: String }) user_id!: string | null;
  @ApiProperty({ nullable: true, type: String }) invited_by!: string | null;
  @ApiProperty() created_at!: string;
  @ApiProperty({ nullable: true, type: String }) accepted_at!: string | null;
}

export class InvitationPage extends PageOf(InvitationView) {}

export class InvitationLinkView {
  @ApiProperty() valid!: true;
  @ApiProperty() email!: string;
  @ApiProperty({ nullable: true, type: String }) customer_name!: string | null;
  @ApiProperty({ enum: CUSTOMER_ROLES }) customer_type!: string;
  @ApiProperty() customer_type_label!: string;
}

export class RegisterPartnerBody {
  @ApiProperty({ description: 'The token from the invitation link' })
  @IsString()
  @Length(43, 43, { message: 'token is not a valid link token' })
  token!: string;
  @ApiProperty() @IsString() @IsNotEmpty() @MaxLength(100) first_name!: string;
  @ApiProperty() @IsString() @IsNotEmpty() @MaxLength(100) last_name!: string;
  @ApiProperty({ minLength: MIN_PASSWORD_LENGTH, format: 'password' })
  @IsString()
  @Length(MIN_PASSWORD_LENGTH, 1024, {
    message: `password must be at least ${MIN_PASSWORD_LENGTH} characters long`,
  })
  password!: string;
}

type InvitationRowWithName = CustomerInvitationWithName;

const view = (r: InvitationRowWithName): InvitationView => ({
  id: r.id,
  customer_id: r.customer_id,
  customer_name: r.customer_name,
  email: r.email,
  customer_type: r.customer_type,
  customer_type_label: CUSTOMER_ROLE_LABELS[r.customer_type],
  status: r.status,
  user_id: r.user_id,
  invited_by: r.invited_by,
  created_at: new Date(r.created_at).toISOString(),
  accepted_at: r.accepted_at ? new Date(r.accepted_at).toISOString() : null,
});

/** Shared by both controllers: the invitation stream's write side and the customers' names. */
abstract class InvitationBase {
  constructor(
    protected readonly commands: Commands,
    protected readonly sql: SqlClient,
  ) {}

  protected async state(invitationId: string): Promise<InvitationState> {
    return (await this.commands.load(invitationAggregate, invitationId)).state;
  }

  protected async customerName(customerId: string): Promise<string | null> {
    return (await customerById(this.sql, customerId))?.name ?? null;
  }
}

/**
 * Partner invitations (spec §2 customer-invitations, §6 "partner invitations" named permission):
 * administrators invite to any customer, holders of the permission (partners: to their own customer,
 * and only roles they may add).
 */
@ApiTags('customer-invitations')
@Controller('api/v1/customer-invitations')
export class CustomerInvitationsController extends InvitationBase {
  constructor(
    commands: Commands,
    @Inject(SQL_CLIENT) sql: SqlClient,
    private readonly users: UsersReadModel,
    private readonly links: TokenLinkFlow,
  ) {
    super(commands, sql);
  }

  @Post()
  @RequirePermissions(MARKER_PERMISSIONS.admin, INVITE)
  @ApiCreatedResponse({ type: Written })
  @ApiConflictResponse({ description: 'A user with this e-mail address already exists' })
  async invite(
    @Req() req: AuthenticatedRequest,
    @CurrentActor() actor: Actor,
    @Body() body: InviteBody,
  ): Promise<Written> {
    if (!mayUseNamed(actor.permissions, INVITE)) throw forbidden();
    let customerId = body.customer_id;
    if (!isAdmin(actor.permissions) && actor.userType === 'partner') {
      if (customerId && customerId !== actor.customerId)
        throw forbidden('Partners can only invite to their own customer');
      const allowed = partnerPermissionsFor('add', { userType: 'partner', customerType: body.customer_type });
      if (!hasAny(actor.permissions, ...allowed)) throw forbidden('You may not add users with this role');
      customerId = actor.customerId ?? undefined;
    }
    if (!customerId) throw new Problem(HttpStatus.UNPROCESSABLE_ENTITY, 'customer_id: is required');
    const customerName = await this.customerName(customerId);
    if (customerName === null)
      throw new Problem(HttpStatus.UNPROCESSABLE_ENTITY, 'customer_id: no such customer');
    const email = body.email.trim().toLowerCase();
    if (await this.users.byLogin(email))
      throw new Problem(HttpStatus.CONFLICT, 'A user with this e-mail address already exists');
    const invitationId = randomUUID();
    const { position } = await this.commands.run(
      invitationAggregate,
      {
        type: 'SendInvitation',
        data: { invitationId, customerId, email, customerType: body.customer_type, invitedBy: actor.userId },
      },
      metadataFor(req),
    );
    await this.links.mail({
      purpose: 'partner-invite',
      subjectId: invitationId,
      minutes: INVITATION_MINUTES,
      to: email,
      subject: `You are invited to the Tutoring Portal for ${customerName}`,
      route: '/register/partner/invite',
      text: (link) => [
        'Hello,',
        '',
        `${actor.displayName} invites you to the Tutoring Portal as ` +
          `${CUSTOMER_ROLE_LABELS[body.customer_type]} for ${customerName}.`,
        `Open this link within ${humanMinutes(INVITATION_MINUTES)} to create your account:`,
        link,
        '',
        'The link works once.',
      ],
    });
    return { id: invitationId, position };
  }

  @Get()
  @RequirePermissions(MARKER_PERMISSIONS.admin, INVITE)
  @ApiOkResponse({ type: InvitationPage })
  async list(@CurrentActor() actor: Actor, @Query() q: InvitationsQuery): Promise<InvitationPage> {
    if (!mayUseNamed(actor.permissions, INVITE)) throw forbidden();
    // A partner sees their own customer's invitations only (none without a customer).
    const partner = actor.userType === 'partner' && !isAdmin(actor.permissions);
    const { items, total, page, size } = await listCustomerInvitations(this.sql, {
      page: q.page,
      size: q.size,
      ...(partner ? { scope: actor.customerId } : {}),
      customerId: q.customer_id,
    });
    return { items: items.map(view), total, page, size };
  }
}

/** Public registration from an invitation link (spec §2 /register/partner/invite). */
@ApiTags('auth')
@Controller('api/v1/register/partner')
export class PartnerRegistrationController extends InvitationBase {
  constructor(
    commands: Commands,
    @Inject(SQL_CLIENT) sql: SqlClient,
    private readonly links: TokenLinkFlow,
    private readonly credentials: Credentials,
    private readonly users: UserCommands,
  ) {
    super(commands, sql);
  }

  @Get('invite/:token')
  @Public()
  @ApiOkResponse({ type: InvitationLinkView })
  @ApiBadRequestResponse({ description: 'Invalid, used or expired link (code INVALID_TOKEN)' })
  async check(@Param('token') token: string): Promise<InvitationLinkView> {
    const invitationId = await this.links.check('partner-invite', token, INVALID_INVITATION_LINK);
    const state = await this.state(invitationId);
    if (state.status !== 'pending') throw invalidLink(INVALID_INVITATION_LINK);
    const { email, customerId, customerType } = state.invitation;
    return {
      valid: true,
      email,
      customer_name: await this.customerName(customerId),
      customer_type: customerType,
      customer_type_label: CUSTOMER_ROLE_LABELS[customerType],
    };
  }

  @Post()
  @Public()
  @HttpCode(HttpStatus.CREATED)
  @ApiCreatedResponse({ type: Written })
  @ApiBadRequestResponse({ description: 'Invalid, used or expired link (code INVALID_TOKEN)' })
  async register(@Body() body: RegisterPartnerBody): Promise<Written> {
    const invitationId = await this.links.use('partner-invite', body.token, INVALID_INVITATION_LINK);
    const state = await this.state(invitationId);
    if (state.status !== 'pending') throw invalidLink(INVALID_INVITATION_LINK);
    const { email, customerId, customerType } = state.invitation;
    const userId = uuidV5(`user:${email}`, PORTAL_NAMESPACE);
    const metadata: Partial<EventMetadata> = { actorId: userId, causationId: invitationId };
    await this.users
      .run(
        {
          type: 'CreateUser',
          data: {
            userId,
            login: email,
            email,
            firstName: body.first_name.trim(),
            lastName: body.last_name.trim(),
            userType: 'partner',
            permissions: initialPermissions('partner', customerType),
            customerId,
            customerType,
            networkId: null,
            timezone: null,
            notes: null,
            awaitingActivation: false,
          },
        },
        metadata,
        // The invitation (sent by someone allowed to) creates the partner user.
        'system',
      )
      .catch((e: unknown) => {
        if (isDomainError(e, 'conflict'))
          throw new Problem(HttpStatus.CONFLICT, 'An account with this e-mail address already exists');
        throw e;
      });
    await this.credentials.setPassword(userId, body.password);
    const { position } = await this.commands.run(
      invitationAggregate,
      { type: 'AcceptInvitation', invitationId, userId },
      metadata,
    );
    return { id: userId, position };
  }
}
