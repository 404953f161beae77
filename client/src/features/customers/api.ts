import { apiRequest } from '../../shared/api/client';
import { createResource } from '../../shared/api/resource';
import type { ApiSchema, Page } from '../../shared/api/types';

/** The server's CustomerView (generated from the API document). */
export type Customer = ApiSchema<'CustomerView'>;

export interface CustomerUser {
  id: string;
  full_name: string;
  email: string;
  type_label: string;
  status: string;
  customer_profile: { type: string | null; type_label: string | null } | null;
}

/** Customers under the `customers` query root (live: `customer-{id}` streams). */
export const customers = createResource<Customer, { name: string }>({
  root: 'customers',
  path: '/api/v1/customers/',
});

/** A customer's users, under the `users` root so `user-*` live messages refresh them. */
export const customerUsersKey = (id: string) => ['users', 'customer', id] as const;
export const customerUsers = (id: string) =>
  apiRequest<Page<CustomerUser>>('/api/v1/users/', {
    query: { customer_id: id, size: 100, sort_by: 'full_name' },
  });
