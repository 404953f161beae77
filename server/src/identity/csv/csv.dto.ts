import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsInstant } from '../../platform/http/dates.js';
import { Transform } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsBoolean, IsOptional, IsUUID } from 'class-validator';
import { ListUsersQuery } from '../users.dto.js';

export const asBoolean = ({ value }: { value: unknown }) =>
  value === 'true' || value === '1' ? true : value === 'false' || value === '0' ? false : value;

/** The user list's filters (query, name, status, customer_id, ...) plus the file format. */
export class ExportUsersQuery extends ListUsersQuery {
  @ApiPropertyOptional({ type: Boolean, description: 'true: an .xlsx workbook instead of CSV' })
  @IsOptional()
  @Transform(asBoolean)
  @IsBoolean()
  as_excel?: boolean;
}

export class ActiveStudentsReportQuery {
  @ApiPropertyOptional({
    example: '2026-09-01',
    description: 'First day (UTC); default 30 days before date_to',
  })
  @IsOptional()
  @IsInstant()
  date_from?: string;

  @ApiPropertyOptional({ example: '2026-09-30', description: 'Last day (UTC), included; default today' })
  @IsOptional()
  @IsInstant()
  date_to?: string;

  @ApiPropertyOptional({ format: 'uuid' }) @IsOptional() @IsUUID() customer_id?: string;

  @ApiPropertyOptional({ type: Boolean })
  @IsOptional()
  @Transform(asBoolean)
  @IsBoolean()
  as_excel?: boolean;
}

export class ImportQuery {
  @ApiPropertyOptional({
    type: Boolean,
    description: 'true: rows whose login already exists (or repeats an earlier row) are skipped, not refused',
  })
  @IsOptional()
  @Transform(asBoolean)
  @IsBoolean()
  skip_duplicates?: boolean;

  @ApiPropertyOptional({
    format: 'uuid',
    description: 'Id for the progress messages (`import-progress` on the live channel); generated if absent',
  })
  @IsOptional()
  @IsUUID()
  import_id?: string;
}

export class ImportResult {
  @ApiProperty() imported!: number;
  @ApiProperty() skipped!: number;
  @ApiProperty({ format: 'uuid' }) import_id!: string;
  @ApiProperty({
    type: [String],
    format: 'uuid',
    description: 'The created users, in file order (e.g. for POST /users/generate_passwords)',
  })
  user_ids!: string[];
}

export class GeneratePasswordsBody {
  @ApiProperty({ type: [String], format: 'uuid' })
  @IsArray()
  @ArrayMaxSize(10_000)
  @IsUUID('all', { each: true })
  user_ids!: string[];
}
