import { filters, listPage, sortOf, type Page, type Queryable } from '../list-query.js';
import type { ProductRow, SubjectRow, YearGroupRow } from './reference.projection.js';

/** Queries on `rm_subjects`, `rm_year_groups` and `rm_products` (projection `reference`). */

export interface ReferenceListFilter {
  page?: number;
  size?: number;
  /** Text searched in the name (literal, case-insensitive). */
  text?: string;
  sortBy?: string;
  descending?: boolean;
}

export const SUBJECT_SORTS = ['name', 'created_at'] as const;
export const YEAR_GROUP_SORTS = ['name', 'key_stage', 'created_at'] as const;
export const PRODUCT_SORTS = [
  'name',
  'delivery_mode',
  'default_duration_minutes',
  'max_group_size',
  'created_at',
] as const;

const byName = { name: 'lower(name)' } as const;

export const listSubjects = (db: Queryable, f: ReferenceListFilter): Promise<Page<SubjectRow>> =>
  listPage<SubjectRow>(db, {
    from: 'rm_subjects',
    where: filters().contains('name', f.text),
    orderBy: sortOf(f.sortBy, SUBJECT_SORTS, 'name', { descending: f.descending, expressions: byName }),
    page: f.page,
    size: f.size,
  });

/** Year groups; by key stage, the default order, they read Reception..Year 13 when names sort so. */
export const listYearGroups = (db: Queryable, f: ReferenceListFilter): Promise<Page<YearGroupRow>> =>
  listPage<YearGroupRow>(db, {
    from: 'rm_year_groups',
    where: filters().contains('name', f.text),
    orderBy: sortOf(f.sortBy, YEAR_GROUP_SORTS, 'name', {
      descending: f.descending,
      expressions: byName,
    }),
    page: f.page,
    size: f.size,
  });

export const listProducts = (db: Queryable, f: ReferenceListFilter): Promise<Page<ProductRow>> =>
  listPage<ProductRow>(db, {
    from: 'rm_products',
    where: filters().contains('name', f.text),
    orderBy: sortOf(f.sortBy, PRODUCT_SORTS, 'name', { descending: f.descending, expressions: byName }),
    page: f.page,
    size: f.size,
  });

const one =
  <Row>(table: string) =>
  async (db: Queryable, id: string): Promise<Row | null> => {
    const { rows } = await db.query<Row>(`SELECT * FROM ${table} WHERE id = $1`, [id]);
    return rows[0] ?? null;
  };

export const subjectById = one<SubjectRow>('rm_subjects');
export const yearGroupById = one<YearGroupRow>('rm_year_groups');
export const productById = one<ProductRow>('rm_products');

/** Which reference table a name must be unique in. */
export type ReferenceKind = 'subject' | 'yearGroup' | 'product';
const TABLE: Record<ReferenceKind, string> = {
  subject: 'rm_subjects',
  yearGroup: 'rm_year_groups',
  product: 'rm_products',
};

/** The ids of the rows of a kind with this name, compared case-insensitively and trimmed. */
export async function referenceIdsNamed(db: Queryable, kind: ReferenceKind, name: string): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>(
    `SELECT id FROM ${TABLE[kind]} WHERE lower(name) = lower($1)`,
    [name.trim()],
  );
  return rows.map((r) => r.id);
}
