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
import {
  type Actor,
  type AuthenticatedRequest,
  CurrentActor,
  metadataFor,
} from '../platform/auth/request-context.js';
import { Allow } from '../platform/auth/allow.decorator.js';
import { CustomerRules, customerScope } from './customers.policy.js';
import { Commands } from '../platform/event-store/commands.js';
import { Problem } from '../platform/http/problem.js';
import type { SqlClient } from '../platform/sql/sql-client.js';
import { SQL_CLIENT } from '../platform/tokens.js';
import { INTERNAL_PERMISSIONS, MARKER_PERMISSIONS } from '../identity/policy/policy.js';
import { NetworksReadModel } from '../networks/networks.read.js';
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
    private readonly networks: NetworksReadModel,
  ) {}

  @Get()
  @RequirePermissions(ADMIN, EDIT, MARKER_PERMISSIONS.partner)
  @Allow(CustomerRules.read)
  @ApiOkResponse({ type: CustomerPage })
  async list(@CurrentActor() actor: Actor, @Query() q: ListCustomersQuery): Promise<CustomerPage> {
    const found = await listCustomers(this.sql, {
      ...q,
      text: searchTextOf(q),
      onlyId: customerScope(actor),
    });
    return { ...found, items: found.items.map(view) };
  }

  @Get(':id')
  @RequirePermissions(ADMIN, EDIT, MARKER_PERMISSIONS.partner)
  @Allow(CustomerRules.read)
  @ApiOkResponse({ type: CustomerView })
  @ApiNotFoundResponse({ description: 'Customer not found' })
  async get(@CurrentActor() actor: Actor, @Param('id', UuidPipe) id: string): Promise<CustomerView> {
    const scope = customerScope(actor);
    const row = await customerById(this.sql, id);
    if (!row || (scope !== undefined && scope !== id))
      throw new Problem(HttpStatus.NOT_FOUND, 'Customer not found');
    return view(row);
  }

  @Post()
  @RequirePermissions(ADMIN, EDIT)
  @Allow(CustomerRules.edit)
  @ApiCreatedResponse({ type: CustomerWritten })
  async create(@Req() req: AuthenticatedRequest, @Body() body: CreateCustomerBody): Promise<CustomerWritten> {
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
  @Allow(CustomerRules.edit)
  @ApiOkResponse({ type: CustomerWritten })
  @ApiNotFoundResponse({ description: 'Customer not found' })
  async update(
    @Req() req: AuthenticatedRequest,
    @Param('id', UuidPipe) id: string,
    @Body() body: UpdateCustomerBody,
  ): Promise<CustomerWritten> {
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
}
