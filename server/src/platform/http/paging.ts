import type { Type as Class } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { Page } from '@portal/projections';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';

/**
 * The highest page number a list takes. With at most MAX_PAGE_SIZE rows a page, the row offset stays
 * below 2^31 (what any database offsets) and exact in a JavaScript number (docs/decisions/0038).
 */
export const MAX_PAGE = 1_000_000;
/** The largest page a list returns. */
export const MAX_PAGE_SIZE = 500;
/** The longest search text a list takes. */
export const MAX_SEARCH_LENGTH = 200;

/**
 * The paging parameters of spec §7 shared by every paged list: `page` (1 to MAX_PAGE) and `size`
 * (1 to MAX_PAGE_SIZE; default 50 unless the list says otherwise). Every paged query extends it, so
 * the bounds are the same everywhere.
 */
export class PageQuery {
  @ApiPropertyOptional({ default: 1, minimum: 1, maximum: MAX_PAGE })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(MAX_PAGE)
  page?: number;

  @ApiPropertyOptional({ default: 50, minimum: 1, maximum: MAX_PAGE_SIZE })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(MAX_PAGE_SIZE)
  size?: number;
}

/**
 * The list-call parameters of spec §7: paging plus the search text sent as both `query` and `name`.
 * Lists extend it with their own filters.
 */
export class SearchPageQuery extends PageQuery {
  @ApiPropertyOptional({ description: 'Text searched in the name', maxLength: MAX_SEARCH_LENGTH })
  @IsOptional()
  @IsString()
  @MaxLength(MAX_SEARCH_LENGTH)
  query?: string;
  @ApiPropertyOptional({ description: 'Same text as query', maxLength: MAX_SEARCH_LENGTH })
  @IsOptional()
  @IsString()
  @MaxLength(MAX_SEARCH_LENGTH)
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
