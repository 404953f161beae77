import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../shared/api/client';
import { useAreaCommand } from '../../shared/api/resource';
import type { ApiSchema, PositionAnswer } from '../../shared/api/types';

/** Shapes of server/src/identity/permissions (permission-catalogue.ts, permissions.controller.ts). */

export type PermissionKind = ApiSchema<'PermissionInfo'>['kind'];

/** A permission as GET /permissions lists it (generated from the API document). */
export type PermissionInfo = ApiSchema<'PermissionInfo'>;

export interface PermissionCatalogue {
  items: PermissionInfo[];
  total: number;
}

export type PermissionUserPage = ApiSchema<'PermissionUserPage'>;

export const KIND_TITLES: Record<PermissionKind, string> = {
  view: 'View',
  action: 'Actions',
  internal: 'Internal permissions',
};

/**
 * Holder queries live under `users`: every holder change is a `UserPermissionsChanged` in a `user-{id}`
 * stream, and the live connection invalidates `users` on those, so these screens refresh in place.
 */
export const permissionKeys = {
  catalogue: ['permission-catalogue'] as const,
  holders: (id: string, holding: boolean, page: number, size: number, search: string) =>
    ['users', 'permission-holders', id, holding ? 'assigned' : 'unassigned', page, size, search] as const,
};

/** GET /api/v1/permissions: every permission an administrator can assign, with label and kind. */
export function usePermissionCatalogue() {
  return useQuery({
    queryKey: permissionKeys.catalogue,
    queryFn: ({ signal }) => apiRequest<PermissionCatalogue>('/api/v1/permissions', { signal }),
    // The catalogue is the server's policy: it changes with a deployment, not while the tab is open.
    staleTime: Infinity,
    meta: { silentErrors: true },
  });
}

export function usePermissionUsers(
  id: string | null,
  holding: boolean,
  params: { page: number; size: number; search: string },
) {
  const search = params.search.trim();
  return useQuery({
    queryKey: permissionKeys.holders(id ?? '', holding, params.page, params.size, search),
    enabled: id !== null,
    queryFn: ({ signal }) =>
      apiRequest<PermissionUserPage>(
        `/api/v1/permissions/${encodeURIComponent(id!)}/${holding ? 'assigned' : 'unassigned'}`,
        {
          signal,
          query: {
            page: params.page,
            size: params.size,
            query: search || undefined,
            name: search || undefined,
          },
        },
      ),
    placeholderData: keepPreviousData,
    meta: { silentErrors: true },
  });
}

/** PUT /api/v1/permissions/{id}/assign|unassign with `{user_ids}`; then every users query refetches. */
export function useAssignPermission() {
  return useAreaCommand(
    'users',
    (vars: { id: string; give: boolean; userIds: string[] }) =>
      apiRequest<PositionAnswer>(
        `/api/v1/permissions/${encodeURIComponent(vars.id)}/${vars.give ? 'assign' : 'unassign'}`,
        { method: 'PUT', json: { user_ids: vars.userIds } },
      ),
    { silentErrors: true },
  );
}
