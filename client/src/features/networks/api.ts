import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../shared/api/client';
import type { Page, Written } from '../../shared/api/types';
import { fetchCurrentUser } from '../auth/api';
import { useSession } from '../../shared/session';

/** Shapes of server/src/identity/networks/networks.controller.ts. */

export interface Network {
  id: string;
  name: string;
  timezone: string;
  primary_colour: string;
  created_at: string;
  updated_at: string;
}

export interface NetworkInput {
  name: string;
  timezone: string;
  primary_colour: string;
}

/** Spec §1 default primary colour (the theme's dark teal, shade 7). */
export const DEFAULT_NETWORK_COLOUR = '#0f716c';

export const networkKeys = {
  all: ['networks'] as const,
  list: (page: number, size: number, search: string) => ['networks', 'list', page, size, search] as const,
  detail: (id: string) => ['networks', 'detail', id] as const,
};

export function useNetworkList(params: { page: number; size: number; search: string }) {
  const search = params.search.trim();
  return useQuery({
    queryKey: networkKeys.list(params.page, params.size, search),
    queryFn: ({ signal }) =>
      apiRequest<Page<Network>>('/api/v1/networks', {
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

export function useNetwork(id: string | null) {
  return useQuery({
    queryKey: networkKeys.detail(id ?? ''),
    enabled: id !== null,
    queryFn: ({ signal }) => apiRequest<Network>(`/api/v1/networks/${encodeURIComponent(id!)}`, { signal }),
    meta: { silentErrors: true },
  });
}

export const networkCommands = {
  create: (body: NetworkInput) => apiRequest<Written>('/api/v1/networks', { method: 'POST', json: body }),
  update: (id: string, body: Partial<NetworkInput>) =>
    apiRequest<Written>(`/api/v1/networks/${encodeURIComponent(id)}`, {
      method: 'PUT',
      json: body,
    }),
};

/** Re-reads /users/me into the session, so the header, theme colour and timezone banner follow at once. */
export async function refreshCurrentUser(): Promise<void> {
  const me = await fetchCurrentUser();
  useSession.getState().updateUser(me);
}

/**
 * A network write. Networks are also part of /users/me (names, colours, time zones), so the signed-in
 * user's details are re-read too.
 */
export function useNetworkMutation<TVars, TResult>(fn: (vars: TVars) => Promise<TResult>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    meta: { silentErrors: true },
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: networkKeys.all });
      await refreshCurrentUser().catch(() => undefined);
    },
  });
}

/**
 * PUT /api/v1/users/{myId}/active_network/{networkId}, then GET /users/me (with X-Min-Position, so it
 * already names the new network) stored in the session: the primary colour and the timezone banner
 * change at once; every other query refetches for the new network.
 */
export function useSwitchNetwork() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (networkId: string) => {
      const me = useSession.getState().user;
      if (!me) throw new Error('Not signed in');
      await apiRequest<{ position: string }>(
        `/api/v1/users/${encodeURIComponent(String(me.id))}/active_network/${encodeURIComponent(networkId)}`,
        { method: 'PUT' },
      );
      const fresh = await fetchCurrentUser();
      useSession.getState().updateUser(fresh);
      queryClient.setQueryData(['users', 'me'], fresh);
      return fresh;
    },
    onSuccess: () => queryClient.invalidateQueries({ predicate: (q) => q.queryKey[1] !== 'me' }),
  });
}
