import { apiRequest } from '../../shared/api/client';
import type { Page, Written } from '../../shared/api/types';

export interface Customer {
  id: string;
  name: string;
  network_id: string | null;
  created_at: string;
  updated_at: string;
}

export interface CustomerUser {
  id: string;
  full_name: string;
  email: string;
  type_label: string;
  status: string;
  customer_profile: { type: string | null; type_label: string | null } | null;
}

export const customersApi = {
  list: (page: number, size: number, query: string) =>
    apiRequest<Page<Customer>>('/api/v1/customers/', {
      query: { page, size, query: query || undefined, name: query || undefined },
    }),
  get: (id: string) => apiRequest<Customer>(`/api/v1/customers/${encodeURIComponent(id)}`),
  create: (name: string) => apiRequest<Written>('/api/v1/customers/', { method: 'POST', json: { name } }),
  rename: (id: string, name: string) =>
    apiRequest<Written>(`/api/v1/customers/${encodeURIComponent(id)}`, {
      method: 'PUT',
      json: { name },
    }),
  users: (id: string) =>
    apiRequest<Page<CustomerUser>>('/api/v1/users/', {
      query: { customer_id: id, size: 100, sort_by: 'full_name' },
    }),
};
