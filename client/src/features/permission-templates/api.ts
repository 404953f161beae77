import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../shared/api/client';
import type { Page, Written } from '../../shared/api/types';
import type { PermissionInfo } from '../permissions/api';

/** Shapes of server/src/identity/permission-templates/permission-templates.controller.ts. */

export interface PermissionTemplate {
  id: string;
  name: string;
  permissions: string[];
  created_at: string;
  updated_at: string;
}

export interface AssignablePermissions {
  items: PermissionInfo[];
  view: PermissionInfo[];
  action: PermissionInfo[];
}

export interface TemplateInput {
  name: string;
  permissions: string[];
}

export const templateKeys = {
  all: ['permission-templates'] as const,
  list: (page: number, size: number, search: string) =>
    ['permission-templates', 'list', page, size, search] as const,
  detail: (id: string) => ['permission-templates', 'detail', id] as const,
  assignable: ['permission-templates', 'assignable'] as const,
};

export function useTemplateList(params: { page: number; size: number; search: string }) {
  const search = params.search.trim();
  return useQuery({
    queryKey: templateKeys.list(params.page, params.size, search),
    queryFn: ({ signal }) =>
      apiRequest<Page<PermissionTemplate>>('/api/v1/permission-templates/', {
        signal,
        query: {
          page: params.page,
          size: params.size,
          query: search || undefined,
          name: search || undefined,
        },
      }),
    placeholderData: keepPreviousData,
    meta: { silentErrors: true },
  });
}

export function useTemplate(id: string | null) {
  return useQuery({
    queryKey: templateKeys.detail(id ?? ''),
    enabled: id !== null,
    queryFn: ({ signal }) =>
      apiRequest<PermissionTemplate>(`/api/v1/permission-templates/${encodeURIComponent(id!)}`, { signal }),
    meta: { silentErrors: true },
  });
}

/** GET /api/v1/permission-templates/permissions: the assignable partner permissions, view / action. */
export function useAssignablePermissions() {
  return useQuery({
    queryKey: templateKeys.assignable,
    queryFn: ({ signal }) =>
      apiRequest<AssignablePermissions>('/api/v1/permission-templates/permissions', { signal }),
    staleTime: Infinity,
    meta: { silentErrors: true },
  });
}

const templatePath = (id: string) => `/api/v1/permission-templates/${encodeURIComponent(id)}`;

export const templateCommands = {
  create: (body: TemplateInput) =>
    apiRequest<Written>('/api/v1/permission-templates/', {
      method: 'POST',
      json: body,
    }),
  update: (id: string, body: Partial<TemplateInput>) =>
    apiRequest<Written>(templatePath(id), { method: 'PUT', json: body }),
  remove: (id: string) => apiRequest<Written>(templatePath(id), { method: 'DELETE' }),
};

/** A template write; afterwards every template query refetches (with X-Min-Position, so it shows). */
export function useTemplateMutation<TVars, TResult>(fn: (vars: TVars) => Promise<TResult>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    meta: { silentErrors: true },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: templateKeys.all }),
  });
}
