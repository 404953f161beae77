import { randomUUID } from 'node:crypto';
import { Body, Controller, Get, HttpStatus, Inject, Param, Post, Put, Query, Req } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiProperty,
  ApiPropertyOptional,
  ApiTags,
} from '@nestjs/swagger';
import { IsNotEmpty, IsOptional, IsString, IsUUID, MaxLength, ValidateIf } from 'class-validator';
import { customerById, listCustomers, type CustomerRow } from '@portal/projections';
import { RequirePermissions } from '../platform/auth/public.decorator.js';
import { metadataFor, type AuthenticatedRequest } from '../platform/auth/request-context.js';
import { Commands } from '../platform/event-store/commands.js';
import { Problem } from '../platform/http/problem.js';
import type { SqlClient } from '../platform/sql/sql-client.js';
import { SQL_CLIENT } from '../platform/tokens.js';
import {
  INTERNAL_PERMISSIONS,
  MARKER_PERMISSIONS,
  internalMay,
  isPartner,
} from '../identity/policy/policy.js';
import { UsersReadModel } from '../identity/users.read.js';
import { NetworksReadModel } from '../identity/networks/networks.read.js';
import { customerAggregate } from './customer.decider.js';
import { SearchPageQuery, PageOf, searchTextOf } from '../platform/http/paging.js';
import { UuidPipe } from '../platform/http/validation.js';
import { Written } from '../platform/http/written.js';

export class ListCustomersQuery extends SearchPageQuery {}

export class CreateCustomerBody {
  @ApiProperty({ example: 'Oakfield Academy' }) @IsString() @IsNotEmpty() @MaxLength(200) name!: string;
  @ApiPropertyOptional({ format: 'uuid', nullable: true })
  @IsOptional()
  @ValidateIf((o: { network_id?: unknown }) => o.network_id !== null)
  @IsUUID()
  network_id?: string | null;
}

export class UpdateCustomerBody {
  @ApiPropertyOptional() @IsOptional() @IsString() @IsNotEmpty() @MaxLength(200) name?: string;
  @ApiPropertyOptional({ format: 'uuid', nullable: true })
  @IsOptional()
  @ValidateIf((o: { network_id?: unknown }) => o.network_id !== null)
  @IsUUID()
  network_id?: string | null;
}

export class CustomerView {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) network_id!: string | null;
  @ApiProperty() created_at!: string;
  @ApiProperty() updated_at!: string;
}

export class CustomerPage extends PageOf(CustomerView) {}

export class CustomerWritten extends Written {}

const ADMIN = MARKER_PERMISSIONS.admin;
/** Matches no customer: a partner without a customer sees none. */
const NO_CUSTOMER = '00000000-0000-0000-0000-000000000000';
const EDIT = INTERNAL_PERMISSIONS.CUSTOMER_EDITS;

const view = (r: CustomerRow): CustomerView => ({
  id: r.id,
  name: r.name,
  network_id: r.network_id,
  created_at: new Date(r.created_at).toISOString(),
  updated_at: new Date(r.updated_at).toISOString(),
});

/**
 * Customers: the partner schools and organisations users belong to. Internal users with customer
 * edits (administrators implicitly) list and change them; a partner sees only their own customer.
 */
@ApiTags('customers')
@Controller('api/v1/customers')
export class CustomersController {
  constructor(
    private readonly commands: Commands,
    @Inject(SQL_CLIENT) private readonly sql: SqlClient,
    private readonly users: UsersReadModel,
    private readonly networks: NetworksReadModel,
  ) {}

  @Get()
  @RequirePermissions(ADMIN, EDIT, MARKER_PERMISSIONS.partner)
  @ApiOkResponse({ type: CustomerPage })
  async list(@Req() req: AuthenticatedRequest, @Query() q: ListCustomersQuery): Promise<CustomerPage> {
    const found = await listCustomers(this.sql, {
      ...q,
      text: searchTextOf(q),
      onlyId: await this.partnerScope(req),
    });
    return { ...found, items: found.items.map(view) };
  }

  @Get(':id')
  @RequirePermissions(ADMIN, EDIT, MARKER_PERMISSIONS.partner)
  @ApiOkResponse({ type: CustomerView })
  @ApiNotFoundResponse({ description: 'Customer not found' })
  async get(@Req() req: AuthenticatedRequest, @Param('id', UuidPipe) id: string): Promise<CustomerView> {
    const scope = await this.partnerScope(req);
    const row = await customerById(this.sql, id);
    if (!row || (scope !== undefined && scope !== id))
      throw new Problem(HttpStatus.NOT_FOUND, 'Customer not found');
    return view(row);
  }

  @Post()
  @RequirePermissions(ADMIN, EDIT)
  @ApiCreatedResponse({ type: CustomerWritten })
  async create(@Req() req: AuthenticatedRequest, @Body() body: CreateCustomerBody): Promise<CustomerWritten> {
    this.mayEdit(req);
    await this.networks.requireKnown(body.network_id);
    const id = randomUUID();
    const { position } = await this.commands.run(
      customerAggregate,
      {
        type: 'CreateCustomer',
        customerId: id,
        name: body.name.trim(),
        networkId: body.network_id ?? null,
      },
      metadataFor(req),
    );
    return { id, position };
  }

  @Put(':id')
  @RequirePermissions(ADMIN, EDIT)
  @ApiOkResponse({ type: CustomerWritten })
  @ApiNotFoundResponse({ description: 'Customer not found' })
  async update(
    @Req() req: AuthenticatedRequest,
    @Param('id', UuidPipe) id: string,
    @Body() body: UpdateCustomerBody,
  ): Promise<CustomerWritten> {
    this.mayEdit(req);
    await this.networks.requireKnown(body.network_id);
    const { position } = await this.commands.run(
      customerAggregate,
      {
        type: 'UpdateCustomer',
        customerId: id,
        name: body.name?.trim(),
        networkId: body.network_id,
      },
      metadataFor(req),
    );
    return { id, position };
  }

  /** Undefined for internal users (all customers); the partner's own customer id otherwise. */
  private async partnerScope(req: AuthenticatedRequest): Promise<string | undefined> {
    const actor = req.actor!;
    if (internalMay(actor.permissions, EDIT)) return undefined;
    if (isPartner(actor.permissions)) {
      const me = await this.users.byId(actor.userId);
      return me?.customer_id ?? NO_CUSTOMER;
    }
    throw new Problem(HttpStatus.FORBIDDEN, 'You do not have permission to do this');
  }

  private mayEdit(req: AuthenticatedRequest) {
    if (!internalMay(req.actor!.permissions, EDIT))
      throw new Problem(HttpStatus.FORBIDDEN, 'You do not have permission to do this');
  }
}
