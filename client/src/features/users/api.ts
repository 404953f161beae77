import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { ApiError, apiRequest } from '../../shared/api/client';
import { useAreaCommand } from '../../shared/api/resource';
import type { ApiSchema, Page, PositionAnswer } from '../../shared/api/types';

/** Shapes of server/src/identity/users.dto.ts (UserView, UserPage → Page<UserView>, ...). */

export type UserStatus = ApiSchema<'UserView'>['status'];
export type UserTypeName = ApiSchema<'UserView'>['user_type'];
export type CustomerRole = NonNullable<ApiSchema<'CustomerProfileView'>['type']>;

export type Contact = ApiSchema<'ContactView'>;

/** The whole record as the reader may see it (the server's `userViewFor`). */
export type UserView = ApiSchema<'UserView'>;

/** The list route's type segment (spec §2 users/:type) → the API's `type` filter. */
export type ListType = 'students' | 'teachers' | 'partners' | 'admins';

export interface UserListParams {
  type?: ListType;
  /** Customer users of this role only (my-users tabs). */
  customerType?: CustomerRole;
  page: number;
  size: number;
  search: string;
  status: UserStatus | null;
  sortBy: string | null;
  /** Count every user even past the server's bound (decision 0069). */
  exactTotal?: boolean;
}

export const CUSTOMER_ROLE_LABELS: Record<CustomerRole, string> = {
  'super-admin': 'Super System Administrator',
  admin: 'System Administrator',
  parent: 'Parent / Carer',
  'link-contact': 'Link Contact',
};

export const USER_TYPE_OPTIONS: { value: UserTypeName; label: string }[] = [
  { value: 'student', label: 'Student' },
  { value: 'teacher', label: 'Teacher' },
  { value: 'partner', label: 'Customer' },
  { value: 'super_admin', label: 'Administrator' },
];

export const LIST_TYPE_TO_USER_TYPE: Record<ListType, UserTypeName> = {
  students: 'student',
  teachers: 'teacher',
  partners: 'partner',
  admins: 'super_admin',
};

// ---- query keys: everything under 'users', which the live connection invalidates on user-* events ----

export const userKeys = {
  all: ['users'] as const,
  list: (params: UserListParams) => ['users', 'list', params] as const,
  detail: (id: string) => ['users', 'detail', id] as const,
  history: (id: string) => ['users', 'detail', id, 'audit', 'history'] as const,
  stateAt: (id: string, at: string) => ['users', 'detail', id, 'audit', 'state', at] as const,
};

// ---- reads ----

export function listUsers(params: UserListParams, signal?: AbortSignal): Promise<Page<UserView>> {
  const search = params.search.trim();
  return apiRequest<Page<UserView>>('/api/v1/users/', {
    signal,
    query: {
      page: params.page,
      size: params.size,
      // Spec §7: list calls send query and name (the same text).
      query: search || undefined,
      name: search || undefined,
      sort_by: params.sortBy ?? undefined,
      status: params.status ?? undefined,
      type: params.type,
      customer_type: params.customerType,
      exact_total: params.exactTotal || undefined,
    },
  });
}

export function useUserList(params: UserListParams) {
  return useQuery({
    queryKey: userKeys.list(params),
    queryFn: ({ signal }) => listUsers(params, signal),
    placeholderData: keepPreviousData,
  });
}

export function useUser(id: string) {
  return useQuery({
    queryKey: userKeys.detail(id),
    queryFn: ({ signal }) => apiRequest<UserView>(`/api/v1/users/${encodeURIComponent(id)}`, { signal }),
    meta: { silentErrors: true },
  });
}

// ---- writes ----

export interface CreateUserInput {
  email: string;
  first_name: string;
  last_name: string;
  user_type: UserTypeName;
  customer_id?: string;
  customer_type?: CustomerRole;
  timezone?: string;
  notes?: string;
  password?: string;
}

export type UpdateUserInput = Partial<{
  first_name: string;
  last_name: string;
  email: string;
  timezone: string | null;
  notes: string | null;
  customer_id: string | null;
  customer_type: CustomerRole | null;
  password: string;
  /** By field id; null clears a value. */
  custom_fields: Record<string, string | number | null>;
}>;

export interface ContactInput {
  name: string;
  email: string | null;
  phone: string | null;
  relationship: string | null;
  notes: string | null;
}

export const createUser = (body: CreateUserInput) =>
  apiRequest<PositionAnswer & { id: string }>('/api/v1/users/', { method: 'POST', json: body });

const userPath = (id: string, rest = '') => `/api/v1/users/${encodeURIComponent(id)}${rest}`;

export const userCommands = {
  update: (id: string, body: UpdateUserInput) =>
    apiRequest<PositionAnswer>(userPath(id), { method: 'PUT', json: body }),
  activate: (id: string) => apiRequest<PositionAnswer>(userPath(id, '/activate'), { method: 'PUT' }),
  deactivate: (id: string) => apiRequest<PositionAnswer>(userPath(id, '/deactivate'), { method: 'PUT' }),
  scheduleDeactivation: (id: string, date: string) =>
    apiRequest<PositionAnswer>(userPath(id, '/deactivate/schedule'), { method: 'PUT', json: { date } }),
  block: (id: string) => apiRequest<PositionAnswer>(userPath(id, '/block'), { method: 'PUT' }),
  unblock: (id: string) => apiRequest<PositionAnswer>(userPath(id, '/unblock'), { method: 'PUT' }),
  setQualityIssue: (id: string, reason: string) =>
    apiRequest<PositionAnswer>(userPath(id, '/set-quality-issue'), { method: 'PUT', json: { reason } }),
  unsetQualityIssue: (id: string) =>
    apiRequest<PositionAnswer>(userPath(id, '/unset-quality-issue'), { method: 'PUT' }),
  setPermissions: (id: string, permissions: string[]) =>
    apiRequest<PositionAnswer>(userPath(id, '/permissions'), { method: 'PUT', json: { permissions } }),
  addContact: (id: string, contact: ContactInput) =>
    apiRequest<PositionAnswer & { id: string }>(userPath(id, '/contacts'), { method: 'POST', json: contact }),
  updateContact: (id: string, contactId: string, contact: ContactInput) =>
    apiRequest<PositionAnswer>(userPath(id, `/contacts/${encodeURIComponent(contactId)}`), {
      method: 'PUT',
      json: contact,
    }),
  removeContact: (id: string, contactId: string) =>
    apiRequest<PositionAnswer>(userPath(id, `/contacts/${encodeURIComponent(contactId)}`), {
      method: 'DELETE',
    }),
};

/**
 * A mutation whose success refetches every users query. The API client sends the command's position
 * as X-Min-Position on those reads, so they include the change.
 */
export function useUserMutation<TVars, TResult>(
  fn: (vars: TVars) => Promise<TResult>,
  options: { silentErrors?: boolean } = {},
) {
  return useAreaCommand('users', fn, options);
}

// ---- audit (server/src/identity/audit/audit.controller.ts) ----

export type AuditEntry = ApiSchema<'AuditEntry'>;

export type AuditHistory = ApiSchema<'AuditHistory'>;

export interface AccountState {
  at: string;
  as_of_position: string;
  as_of_revision: string;
  events_applied: number;
  account: {
    userId: string;
    userType: UserTypeName;
    customerId: string | null;
    customerType: CustomerRole | null;
    hasAccess: boolean;
    isBlocked: boolean;
    scheduledDeactivationAt: string | null;
    qualityIssue: string | null;
    permissions: string[];
    login: string;
    email: string;
    firstName: string;
    lastName: string;
    timezone: string | null;
    notes: string | null;
  };
  permission_list: string[];
  type_label: string;
}

export function useAuditHistory(id: string) {
  return useQuery({
    queryKey: userKeys.history(id),
    queryFn: ({ signal }) =>
      apiRequest<AuditHistory>(`/api/v1/audit/users/${encodeURIComponent(id)}/history`, { signal }),
    meta: { silentErrors: true },
  });
}

export function useAccountState(id: string, at: string | null) {
  return useQuery({
    queryKey: userKeys.stateAt(id, at ?? ''),
    enabled: at !== null,
    queryFn: ({ signal }) =>
      apiRequest<AccountState>(`/api/v1/audit/users/${encodeURIComponent(id)}/state`, {
        signal,
        query: { at },
      }),
    placeholderData: keepPreviousData,
    // A past state never changes.
    staleTime: Infinity,
    meta: { silentErrors: true },
  });
}

/** Users named in the audit (actors, impersonators), looked up once each. */
export function useUserName(id: string | null) {
  return useQuery({
    queryKey: ['users', 'name', id],
    enabled: id !== null,
    staleTime: 5 * 60_000,
    queryFn: async ({ signal }) => {
      try {
        const user = await apiRequest<UserView>(`/api/v1/users/${encodeURIComponent(id!)}`, {
          signal,
          handleSessionErrors: false,
        });
        return user.full_name || user.login;
      } catch (error) {
        if (error instanceof ApiError && (error.status === 404 || error.status === 403)) return null;
        throw error;
      }
    },
    meta: { silentErrors: true },
  });
}

// ---- CSV import (server/src/identity/csv/user-imports.controller.ts) ----

export interface ImportAnswer extends PositionAnswer {
  imported: number;
  skipped: number;
  import_id: string;
  user_ids: string[];
}

export function importUsers(file: File, options: { skipDuplicates: boolean; importId: string }) {
  const multipart = new FormData();
  multipart.append('file', file, file.name);
  return apiRequest<ImportAnswer>('/api/v1/users/import', {
    method: 'POST',
    multipart,
    query: { skip_duplicates: options.skipDuplicates, import_id: options.importId },
  });
}

/** New passwords for these users as passwords.csv (id, login, email, full_name, password): shown once. */
export const generatePasswords = (userIds: string[]) =>
  apiRequest<Blob>('/api/v1/users/generate_passwords', {
    method: 'POST',
    json: { user_ids: userIds },
    responseType: 'blob',
  });
