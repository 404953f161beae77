import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../shared/api/client';
import { createResource } from '../../shared/api/resource';
import type { ApiSchema } from '../../shared/api/types';

/** Views of server/src/identity/permission-templates/ (generated from the API document). */

export type PermissionTemplate = ApiSchema<'PermissionTemplateView'>;

export type AssignablePermissions = ApiSchema<'AssignablePermissions'>;

export interface TemplateInput {
  name: string;
  permissions: string[];
}

/** Templates under the `permission-templates` query root (live: `permission-template-{id}` streams). */
export const templates = createResource<PermissionTemplate, TemplateInput>({
  root: 'permission-templates',
  path: '/api/v1/permission-templates/',
});

/** GET /api/v1/permission-templates/permissions: the assignable partner permissions, view / action. */
export function useAssignablePermissions() {
  return useQuery({
    queryKey: templates.keys.other('assignable'),
    queryFn: ({ signal }) =>
      apiRequest<AssignablePermissions>('/api/v1/permission-templates/permissions', { signal }),
    staleTime: Infinity,
    meta: { silentErrors: true },
  });
}

/** A template write; the page shows its errors. Every template query refetches afterwards. */
export const useTemplateMutation = <TVars, TResult>(fn: (vars: TVars) => Promise<TResult>) =>
  templates.useCommand(fn, { silentErrors: true });
