import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, Matches } from 'class-validator';
import { HttpStatus } from '@nestjs/common';
import { referenceIdsNamed, type Queryable, type ReferenceKind } from '@portal/projections';
import { Problem } from '../platform/http/problem.js';
import { SearchPageQuery, searchTextOf } from '../platform/http/paging.js';

/** `sort_by` as the lists take it: a column, `-column` for descending. */
export function SortByQuery(columns: readonly string[]) {
  class SortedSearchPageQuery extends SearchPageQuery {
    @ApiPropertyOptional({
      description: `One of ${columns.join(', ')}; prefix with - for descending`,
      example: columns[0],
    })
    @IsOptional()
    @IsString()
    @Matches(new RegExp(`^-?(${columns.join('|')})$`), {
      message: `sort_by: must be one of ${columns.join(', ')} (prefix - for descending)`,
    })
    sort_by?: string;
  }
  return SortedSearchPageQuery;
}

/** The list filter of a reference list call. */
export const listFilterOf = (q: {
  page?: number;
  size?: number;
  query?: string;
  name?: string;
  sort_by?: string;
}) => ({
  page: q.page,
  size: q.size,
  text: searchTextOf(q),
  sortBy: q.sort_by?.replace(/^-/, ''),
  descending: q.sort_by?.startsWith('-') ?? false,
});

const LABEL: Record<ReferenceKind, string> = {
  subject: 'subject',
  yearGroup: 'year group',
  product: 'product',
};

/** Names are unique per kind, case-insensitively (checked on the read model: best effort, decision 0049). */
export async function requireFreeName(
  db: Queryable,
  kind: ReferenceKind,
  name: string | undefined,
  exceptId?: string,
): Promise<void> {
  if (name === undefined) return;
  const ids = await referenceIdsNamed(db, kind, name);
  if (ids.some((id) => id !== exceptId))
    throw new Problem(HttpStatus.CONFLICT, `A ${LABEL[kind]} named "${name.trim()}" already exists`);
}

/** 404 for what is not there. */
export function found<T>(row: T | null, what: string): T {
  if (!row) throw new Problem(HttpStatus.NOT_FOUND, `${what} not found`);
  return row;
}
