import { filters, listPage, type Page, type Queryable } from '../list-query.js';
import type { CustomerInvitationRow } from './customer-invitations.projection.js';

/** Queries on `rm_customer_invitations` (projection `customer-invitations`). */

export type CustomerInvitationWithName = CustomerInvitationRow & { customer_name: string | null };

/**
 * Invitations, newest first, with their customer's name. `scope` limits them to one customer (a
 * partner's own; null when the partner has none, which matches nothing), `customerId` filters.
 */
export const listCustomerInvitations = (
  db: Queryable,
  f: { page?: number; size?: number; scope?: string | null; customerId?: string },
): Promise<Page<CustomerInvitationWithName>> =>
  listPage<CustomerInvitationWithName>(db, {
    select: 'i.*, (SELECT c.name FROM rm_customers c WHERE c.id = i.customer_id) AS customer_name',
    from: 'rm_customer_invitations i',
    where: filters()
      .rawIf(
        f.scope !== undefined,
        (p) => `i.customer_id = ${p(f.scope ?? '00000000-0000-0000-0000-000000000000')}`,
      )
      .eq('i.customer_id', f.customerId),
    orderBy: 'i.created_at DESC, i.id',
    page: f.page,
    size: f.size,
  });
