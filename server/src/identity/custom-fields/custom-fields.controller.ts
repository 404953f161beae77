import { randomUUID } from 'node:crypto';
import { Body, Controller, Get, Inject, Injectable, Put, Req } from '@nestjs/common';
import { ApiOkResponse, ApiProperty, ApiPropertyOptional, ApiTags } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsNotEmpty,
  IsOptional,
  IsString,
  IsUUID,
  MaxLength,
  ValidateNested,
} from 'class-validator';
import {
  CUSTOM_FIELD_TYPES,
  type CustomFieldDefinition,
  type CustomFieldType,
  customFieldDefinitions,
} from '@portal/projections';
import { RequirePermissions } from '../../platform/auth/public.decorator.js';
import { metadataFor, type AuthenticatedRequest } from '../../platform/auth/request-context.js';
import { Commands } from '../../platform/event-store/commands.js';
import type { SqlClient } from '../../platform/sql/sql-client.js';
import { SQL_CLIENT } from '../../platform/tokens.js';
import { MARKER_PERMISSIONS } from '../policy/policy.js';
import { PositionResponse } from '../users.dto.js';
import {
  MAX_CUSTOM_FIELDS,
  checkCustomFieldValues,
  type CustomFieldValue,
  type CustomFieldsState,
  customFieldsAggregate,
} from './custom-fields.decider.js';

export class CustomFieldItem {
  @ApiPropertyOptional({ format: 'uuid', description: 'Keep the id to keep the field (and its values)' })
  @IsOptional()
  @IsUUID()
  id?: string;

  @ApiProperty({ example: 'Dietary needs' }) @IsString() @IsNotEmpty() @MaxLength(100) name!: string;

  @ApiProperty({ enum: CUSTOM_FIELD_TYPES }) @IsIn(CUSTOM_FIELD_TYPES) type!: CustomFieldType;

  @ApiPropertyOptional({ type: [String], description: 'The choices of a select field' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(100)
  @IsString({ each: true })
  @MaxLength(200, { each: true })
  options?: string[];

  @ApiPropertyOptional({ default: false }) @IsOptional() @IsBoolean() required?: boolean;
}

export class CustomFieldsBody {
  @ApiProperty({ type: [CustomFieldItem], description: 'The complete list; it replaces the current one' })
  @IsArray()
  @ArrayMaxSize(MAX_CUSTOM_FIELDS)
  @ValidateNested({ each: true })
  @Type(() => CustomFieldItem)
  items!: CustomFieldItem[];
}

export class CustomFieldView {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ enum: CUSTOM_FIELD_TYPES }) type!: string;
  @ApiProperty({ type: [String] }) options!: string[];
  @ApiProperty() required!: boolean;
}

export class CustomFieldsView {
  @ApiProperty({ type: [CustomFieldView] }) items!: CustomFieldView[];
  @ApiProperty({ nullable: true, type: String }) updated_at!: string | null;
}

/** The custom field definitions as the read model has them, and value checks against them. */
@Injectable()
export class CustomFields {
  constructor(@Inject(SQL_CLIENT) private readonly sql: SqlClient) {}

  async read(): Promise<{ fields: CustomFieldsState; updatedAt: Date | null }> {
    const row = await customFieldDefinitions(this.sql);
    return { fields: row?.fields ?? [], updatedAt: row?.updated_at ?? null };
  }

  /** Validated values (422 naming `custom_fields.<id>`), or undefined when none were sent. */
  async check(
    values: Record<string, unknown> | undefined,
    mode: 'create' | 'update',
  ): Promise<Record<string, CustomFieldValue> | undefined> {
    // A request that sends no values (a CSV import, a partner adding a user: neither can know the
    // admin-only definitions) creates the user without them; the details page flags the missing
    // required ones. Values that are sent are checked, and on create they must include the required ones.
    if (values === undefined) return undefined;
    const { fields } = await this.read();
    return checkCustomFieldValues(fields, values, mode);
  }
}

/**
 * Custom user fields (spec §7 "GET and PUT /api/v1/users/custom_fields", §6 admin-only). Registered
 * before UsersController so that `users/custom_fields` is not taken for `users/:id`.
 */
@ApiTags('users')
@Controller('api/v1/users/custom_fields')
export class CustomFieldsController {
  constructor(
    private readonly customFields: CustomFields,
    private readonly commands: Commands,
  ) {}

  @Get()
  @RequirePermissions(MARKER_PERMISSIONS.admin)
  @ApiOkResponse({ type: CustomFieldsView })
  async list(): Promise<CustomFieldsView> {
    const { fields, updatedAt } = await this.customFields.read();
    return { items: fields, updated_at: updatedAt ? new Date(updatedAt).toISOString() : null };
  }

  @Put()
  @RequirePermissions(MARKER_PERMISSIONS.admin)
  @ApiOkResponse({ type: PositionResponse })
  async replace(@Req() req: AuthenticatedRequest, @Body() body: CustomFieldsBody): Promise<PositionResponse> {
    const fields: CustomFieldDefinition[] = body.items.map((f) => ({
      id: f.id?.toLowerCase() ?? randomUUID(),
      name: f.name,
      type: f.type,
      options: f.options ?? [],
      required: f.required ?? false,
    }));
    const { position } = await this.commands.run(
      customFieldsAggregate,
      { type: 'DefineCustomFields', fields },
      metadataFor(req),
    );
    return { position };
  }
}
