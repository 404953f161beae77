import { NetworkRules } from './networks.policy.js';
import { Allow } from '../platform/auth/allow.decorator.js';
import { randomUUID } from 'node:crypto';
import { Body, Controller, Get, HttpStatus, Param, Post, Put, Query, Req } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiProperty,
  ApiPropertyOptional,
  ApiTags,
  ApiUnprocessableEntityResponse,
} from '@nestjs/swagger';
import { IsNotEmpty, IsOptional, IsString, IsTimeZone, Matches, MaxLength } from 'class-validator';
import { DEFAULT_NETWORK_COLOUR, type NetworkRow } from '@portal/projections';
import { RequirePermissions } from '../platform/auth/public.decorator.js';
import { type AuthenticatedRequest, metadataFor } from '../platform/auth/request-context.js';
import { Commands } from '../platform/event-store/commands.js';
import { Problem } from '../platform/http/problem.js';
import { INTERNAL_PERMISSIONS, MARKER_PERMISSIONS } from '../identity/policy/policy.js';
import { isUuid } from '../identity/user-access.js';
import { networkAggregate } from './network.decider.js';
import { NetworksReadModel } from './networks.read.js';
import { SearchPageQuery, PageOf } from '../platform/http/paging.js';
import { UuidPipe } from '../platform/http/validation.js';
import { Written } from '../platform/http/written.js';

const HEX = /^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;
const HEX_MESSAGE = 'primary_colour must be a hex colour like #0f716c';

export class ListNetworksQuery extends SearchPageQuery {}

export class CreateNetworkBody {
  @ApiProperty({ example: 'North' }) @IsString() @IsNotEmpty() @MaxLength(200) name!: string;
  @ApiProperty({ example: 'Europe/London' }) @IsTimeZone() timezone!: string;
  @ApiPropertyOptional({ example: DEFAULT_NETWORK_COLOUR, description: 'Defaults to the dark teal' })
  @IsOptional()
  @Matches(HEX, { message: HEX_MESSAGE })
  primary_colour?: string;
}

export class UpdateNetworkBody {
  @ApiPropertyOptional() @IsOptional() @IsString() @IsNotEmpty() @MaxLength(200) name?: string;
  @ApiPropertyOptional() @IsOptional() @IsTimeZone() timezone?: string;
  @ApiPropertyOptional() @IsOptional() @Matches(HEX, { message: HEX_MESSAGE }) primary_colour?: string;
}

export class NetworkView {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty() timezone!: string;
  @ApiProperty({ example: DEFAULT_NETWORK_COLOUR }) primary_colour!: string;
  @ApiProperty() created_at!: string;
  @ApiProperty() updated_at!: string;
}

export class NetworkPage extends PageOf(NetworkView) {}

export class NetworkWritten extends Written {}

export const networkView = (r: NetworkRow): NetworkView => ({
  id: r.id,
  name: r.name,
  timezone: r.timezone,
  primary_colour: r.primary_colour,
  created_at: new Date(r.created_at).toISOString(),
  updated_at: new Date(r.updated_at).toISOString(),
});

const ADMIN = MARKER_PERMISSIONS.admin;
const NETWORK = INTERNAL_PERMISSIONS.NETWORK;
const notFound = () => new Problem(HttpStatus.NOT_FOUND, 'Network not found');

/**
 * Networks (spec §3; API decided in docs/decisions/0013). Administrators and holders of the network
 * permission read them; changing one needs both (spec §6 "Network modify needs admin plus the network
 * permission").
 */
@ApiTags('networks')
@Controller('api/v1/networks')
export class NetworksController {
  constructor(
    private readonly commands: Commands,
    private readonly networks: NetworksReadModel,
  ) {}

  @Get()
  @RequirePermissions(ADMIN, NETWORK)
  @ApiOkResponse({ type: NetworkPage })
  async list(@Query() q: ListNetworksQuery): Promise<NetworkPage> {
    const page = q.page ?? 1;
    const size = q.size ?? 50;
    const { rows, total } = await this.networks.page(page, size, (q.query ?? q.name)?.trim() || undefined);
    return { items: rows.map(networkView), total, page, size };
  }

  @Get(':id')
  @RequirePermissions(ADMIN, NETWORK)
  @ApiOkResponse({ type: NetworkView })
  @ApiNotFoundResponse({ description: 'Network not found' })
  async get(@Param('id', UuidPipe) id: string): Promise<NetworkView> {
    const row = isUuid(id) ? await this.networks.byId(id.toLowerCase()) : null;
    if (!row) throw notFound();
    return networkView(row);
  }

  @Post()
  @RequirePermissions(NETWORK)
  @Allow(NetworkRules.modify)
  @ApiCreatedResponse({ type: NetworkWritten })
  @ApiUnprocessableEntityResponse({ description: 'Invalid field' })
  async create(@Req() req: AuthenticatedRequest, @Body() body: CreateNetworkBody): Promise<NetworkWritten> {
    const id = randomUUID();
    const { position } = await this.commands.run(
      networkAggregate,
      {
        type: 'CreateNetwork',
        networkId: id,
        name: body.name.trim(),
        timezone: body.timezone,
        primaryColour: body.primary_colour ?? DEFAULT_NETWORK_COLOUR,
      },
      metadataFor(req),
    );
    return { id, position };
  }

  @Put(':id')
  @RequirePermissions(NETWORK)
  @Allow(NetworkRules.modify)
  @ApiOkResponse({ type: NetworkWritten })
  @ApiNotFoundResponse({ description: 'Network not found' })
  async update(
    @Req() req: AuthenticatedRequest,
    @Param('id', UuidPipe) id: string,
    @Body() body: UpdateNetworkBody,
  ): Promise<NetworkWritten> {
    if (!isUuid(id)) throw notFound();
    const networkId = id.toLowerCase();
    const { position } = await this.commands.run(
      networkAggregate,
      {
        type: 'UpdateNetwork',
        networkId,
        name: body.name?.trim(),
        timezone: body.timezone,
        primaryColour: body.primary_colour,
      },
      metadataFor(req),
    );
    return { id: networkId, position };
  }
}
