import type { Type as Class } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { Page } from '@portal/projections';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';

/**
 * The list-call parameters of spec §7 shared by every paged list: `page`, `size` (default 50) and the
 * search text sent as both `query` and `name`. Lists extend it with their own filters.
 */
export class SearchPageQuery {
  @ApiPropertyOptional({ default: 1 }) @IsOptional() @Type(() => Number) @IsInt() @Min(1) page?: number;
  @ApiPropertyOptional({ default: 50 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(500)
  size?: number;
  @ApiPropertyOptional({ description: 'Text searched in the name' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  query?: string;
  @ApiPropertyOptional({ description: 'Same text as query' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  name?: string;
}

/** The search text of a list call (`query`, else `name`), trimmed; undefined when empty. */
export const searchTextOf = (q: { query?: string; name?: string }): string | undefined =>
  (q.query ?? q.name)?.trim() || undefined;

/** An ILIKE pattern matching `text` anywhere, with LIKE's wildcards in it taken literally. */
export { containsPattern } from '@portal/projections';

/**
 * The answer of a paged list (spec §7): `class CustomerPage extends PageOf(CustomerView) {}` gives the
 * OpenAPI schema `CustomerPage` with `items: CustomerView[]`, `total`, `page` and `size`.
 */
export function PageOf<T>(item: Class<T>) {
  abstract class PageOfItems implements Page<T> {
    @ApiProperty({ type: [item] }) items!: T[];
    @ApiProperty() total!: number;
    @ApiProperty() page!: number;
    @ApiProperty() size!: number;
  }
  return PageOfItems;
}
