import { randomUUID } from 'node:crypto';
import { Body, Controller, Get, Inject, Param, Post, Put, Query, Req } from '@nestjs/common';
import {
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiProperty,
  ApiPropertyOptional,
  ApiTags,
} from '@nestjs/swagger';
import { IsIn, IsInt, IsNotEmpty, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import {
  DELIVERY_MODES,
  listProducts,
  productById,
  PRODUCT_LIMITS,
  PRODUCT_SORTS,
  type DeliveryMode,
  type ProductRow,
} from '@portal/projections';
import { RequirePermissions } from '../platform/auth/public.decorator.js';
import { type AuthenticatedRequest, metadataFor } from '../platform/auth/request-context.js';
import { Allow } from '../platform/auth/allow.decorator.js';
import { Commands } from '../platform/event-store/commands.js';
import type { SqlClient } from '../platform/sql/sql-client.js';
import { SQL_CLIENT } from '../platform/tokens.js';
import { INTERNAL_PERMISSIONS, MARKER_PERMISSIONS } from '../identity/policy/policy.js';
import { PageOf } from '../platform/http/paging.js';
import { UuidPipe } from '../platform/http/validation.js';
import { Written } from '../platform/http/written.js';
import { productAggregate } from './product.decider.js';
import { ReferenceRules } from './reference.policy.js';
import { found, listFilterOf, requireFreeName, SortByQuery } from './reference.http.js';

export class ListProductsQuery extends SortByQuery(PRODUCT_SORTS) {}

const { minDurationMinutes, maxDurationMinutes, minGroupSize, maxGroupSize } = PRODUCT_LIMITS;
const MODE_MESSAGE = { message: `delivery_mode: must be one of ${DELIVERY_MODES.join(', ')}` };

export class CreateProductBody {
  @ApiProperty({ example: 'Small group online' }) @IsString() @IsNotEmpty() @MaxLength(200) name!: string;
  @ApiProperty({ enum: DELIVERY_MODES, example: 'online-group' })
  @IsIn(DELIVERY_MODES, MODE_MESSAGE)
  delivery_mode!: DeliveryMode;
  @ApiProperty({ minimum: minDurationMinutes, maximum: maxDurationMinutes, example: 60 })
  @IsInt()
  @Min(minDurationMinutes)
  @Max(maxDurationMinutes)
  default_duration_minutes!: number;
  @ApiProperty({ minimum: minGroupSize, maximum: maxGroupSize, example: 6 })
  @IsInt()
  @Min(minGroupSize)
  @Max(maxGroupSize)
  max_group_size!: number;
}

export class UpdateProductBody {
  @ApiPropertyOptional() @IsOptional() @IsString() @IsNotEmpty() @MaxLength(200) name?: string;
  @ApiPropertyOptional({ enum: DELIVERY_MODES })
  @IsOptional()
  @IsIn(DELIVERY_MODES, MODE_MESSAGE)
  delivery_mode?: DeliveryMode;
  @ApiPropertyOptional({ minimum: minDurationMinutes, maximum: maxDurationMinutes })
  @IsOptional()
  @IsInt()
  @Min(minDurationMinutes)
  @Max(maxDurationMinutes)
  default_duration_minutes?: number;
  @ApiPropertyOptional({ minimum: minGroupSize, maximum: maxGroupSize })
  @IsOptional()
  @IsInt()
  @Min(minGroupSize)
  @Max(maxGroupSize)
  max_group_size?: number;
}

export class ProductView {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ enum: DELIVERY_MODES }) delivery_mode!: DeliveryMode;
  @ApiProperty() default_duration_minutes!: number;
  @ApiProperty() max_group_size!: number;
  @ApiProperty() created_at!: string;
  @ApiProperty() updated_at!: string;
}

export class ProductPage extends PageOf(ProductView) {}
export class ProductWritten extends Written {}

const { admin: ADMIN, teacher: TEACHER, partner: PARTNER } = MARKER_PERMISSIONS;
const EDIT = INTERNAL_PERMISSIONS.PRODUCT;

const view = (r: ProductRow): ProductView => ({
  id: r.id,
  name: r.name,
  delivery_mode: r.delivery_mode,
  default_duration_minutes: r.default_duration_minutes,
  max_group_size: r.max_group_size,
  created_at: new Date(r.created_at).toISOString(),
  updated_at: new Date(r.updated_at).toISOString(),
});

/** Products: what a programme sells (decision 0049). Prices come later with finance. */
@ApiTags('reference data')
@Controller('api/v1/products')
export class ProductsController {
  constructor(
    private readonly commands: Commands,
    @Inject(SQL_CLIENT) private readonly sql: SqlClient,
  ) {}

  @Get()
  @RequirePermissions(ADMIN, TEACHER, PARTNER)
  @Allow(ReferenceRules.read)
  @ApiOkResponse({ type: ProductPage })
  async list(@Query() q: ListProductsQuery): Promise<ProductPage> {
    const page = await listProducts(this.sql, listFilterOf(q));
    return { ...page, items: page.items.map(view) };
  }

  @Get(':id')
  @RequirePermissions(ADMIN, TEACHER, PARTNER)
  @Allow(ReferenceRules.read)
  @ApiOkResponse({ type: ProductView })
  @ApiNotFoundResponse({ description: 'Product not found' })
  async get(@Param('id', UuidPipe) id: string): Promise<ProductView> {
    return view(found(await productById(this.sql, id), 'Product'));
  }

  @Post()
  @RequirePermissions(ADMIN, EDIT)
  @Allow(ReferenceRules.editProducts)
  @ApiCreatedResponse({ type: ProductWritten })
  @ApiConflictResponse({ description: 'A product with this name already exists' })
  async create(@Req() req: AuthenticatedRequest, @Body() body: CreateProductBody): Promise<ProductWritten> {
    await requireFreeName(this.sql, 'product', body.name);
    const id = randomUUID();
    const { position } = await this.commands.run(
      productAggregate,
      {
        type: 'CreateProduct',
        productId: id,
        name: body.name,
        deliveryMode: body.delivery_mode,
        defaultDurationMinutes: body.default_duration_minutes,
        maxGroupSize: body.max_group_size,
      },
      metadataFor(req),
    );
    return { id, position };
  }

  @Put(':id')
  @RequirePermissions(ADMIN, EDIT)
  @Allow(ReferenceRules.editProducts)
  @ApiOkResponse({ type: ProductWritten })
  @ApiNotFoundResponse({ description: 'Product not found' })
  @ApiConflictResponse({ description: 'A product with this name already exists' })
  async update(
    @Req() req: AuthenticatedRequest,
    @Param('id', UuidPipe) id: string,
    @Body() body: UpdateProductBody,
  ): Promise<ProductWritten> {
    await requireFreeName(this.sql, 'product', body.name, id);
    const { position } = await this.commands.run(
      productAggregate,
      {
        type: 'UpdateProduct',
        productId: id,
        name: body.name,
        deliveryMode: body.delivery_mode,
        defaultDurationMinutes: body.default_duration_minutes,
        maxGroupSize: body.max_group_size,
      },
      metadataFor(req),
    );
    return { id, position };
  }
}
