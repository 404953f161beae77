import { filters, listPage, type Page, type Queryable } from '../list-query.js';
import type { CustomerRow } from './customers.projection.js';

/** Queries on `rm_customers` (projection `customers`). */

export interface CustomerListFilter {
  page?: number;
  size?: number;
  /** Text searched in the name (literal, case-insensitive). */
  text?: string;
  /** Only this customer (a partner's own). */
  onlyId?: string;
}

/** Customers by name (case-insensitive), ties by id. */
export const listCustomers = (db: Queryable, f: CustomerListFilter): Promise<Page<CustomerRow>> =>
  listPage<CustomerRow>(db, {
    from: 'rm_customers',
    where: filters().eq('id', f.onlyId).contains('name', f.text),
    orderBy: 'lower(name), id',
    page: f.page,
    size: f.size,
  });

export async function customerById(db: Queryable, id: string): Promise<CustomerRow | null> {
  const { rows } = await db.query<CustomerRow>('SELECT * FROM rm_customers WHERE id = $1', [id]);
  return rows[0] ?? null;
}
