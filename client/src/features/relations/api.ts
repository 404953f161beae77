import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../shared/api/client';
import type { PositionAnswer } from '../../shared/api/types';
import { useUserMutation } from '../users/api';

/** Spec §3 "Simple user" (server/src/identity/lists/user-lists.controller.ts SimpleUser). */
export interface SimpleUser {
  id: string;
  login: string;
  first_name: string;
  last_name: string;
  display_name: string;
  email: string;
  has_access: boolean;
  is_blocked: boolean;
  customer_name: string | null;
  /** A student's year group (one-page profile). */
  year_group: string | null;
}

interface SimpleUserList {
  items: SimpleUser[];
}

// Every key starts with 'users': a `user-*` live event (a link change is one, on the partner's stream)
// refetches them, so a partner's lists update in place when an administrator changes their links.
export const relationKeys = {
  linkedStudents: (partnerId: string) => ['users', 'relations', 'students', partnerId] as const,
  linkedPartners: (studentId: string) => ['users', 'relations', 'partners', studentId] as const,
  mine: ['users', 'relations', 'mine'] as const,
  customerStudents: (customerId: string) => ['users', 'relations', 'customer-students', customerId] as const,
};

const path = (id: string, rest: string) => `/api/v1/users/${encodeURIComponent(id)}${rest}`;

/** GET /api/v1/users/{id}/linked-students: a partner user's "selected students". */
export function useLinkedStudents(partnerId: string, enabled = true) {
  return useQuery({
    queryKey: relationKeys.linkedStudents(partnerId),
    enabled,
    queryFn: ({ signal }) => apiRequest<SimpleUserList>(path(partnerId, '/linked-students'), { signal }),
    meta: { silentErrors: true },
  });
}

/** GET /api/v1/users/{id}/linked-partners: the partner users a student is linked to. */
export function useLinkedPartners(studentId: string, enabled = true) {
  return useQuery({
    queryKey: relationKeys.linkedPartners(studentId),
    enabled,
    queryFn: ({ signal }) => apiRequest<SimpleUserList>(path(studentId, '/linked-partners'), { signal }),
    meta: { silentErrors: true },
  });
}

/** GET /api/v1/users/linked-users/simple: the signed-in user's own relations. */
export function useMyLinkedUsers() {
  return useQuery({
    queryKey: relationKeys.mine,
    queryFn: ({ signal }) => apiRequest<SimpleUserList>('/api/v1/users/linked-users/simple', { signal }),
    meta: { silentErrors: true },
  });
}

/** The customer's students to choose from (GET /api/v1/users/students/simple?customer_id=). */
export function useCustomerStudents(customerId: string | null, enabled: boolean) {
  return useQuery({
    queryKey: relationKeys.customerStudents(customerId ?? ''),
    enabled: enabled && customerId !== null,
    queryFn: ({ signal }) =>
      apiRequest<SimpleUserList>('/api/v1/users/students/simple', {
        signal,
        query: { customer_id: customerId ?? undefined },
      }),
    meta: { silentErrors: true },
  });
}

/** PUT /api/v1/users/{id}/linked-students `{ student_ids }`: the whole new list. */
export function useSetLinkedStudents(partnerId: string) {
  return useUserMutation(
    (studentIds: string[]) =>
      apiRequest<PositionAnswer>(path(partnerId, '/linked-students'), {
        method: 'PUT',
        json: { student_ids: studentIds },
      }),
    { silentErrors: true },
  );
}
