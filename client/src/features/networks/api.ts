import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../shared/api/client';
import { createResource } from '../../shared/api/resource';
import { fetchCurrentUser } from '../auth/api';
import { useSession } from '../../shared/session';
import type { ApiSchema } from '../../shared/api/types';

/** Shapes of server/src/networks/networks.controller.ts. */

/** The server's NetworkView (generated from the API document). */
export type Network = ApiSchema<'NetworkView'>;

export interface NetworkInput {
  name: string;
  timezone: string;
  primary_colour: string;
}

/** Spec §1 default primary colour (the theme's dark teal, shade 7). */
export const DEFAULT_NETWORK_COLOUR = '#0f716c';

/** Networks under the `networks` query root (live: `network-{id}` streams). */
export const networks = createResource<Network, NetworkInput>({ root: 'networks', path: '/api/v1/networks' });

/** Re-reads /users/me into the session, so the header, theme colour and timezone banner follow at once. */
export async function refreshCurrentUser(): Promise<void> {
  const me = await fetchCurrentUser();
  useSession.getState().updateUser(me);
}

/**
 * A network write; the form shows its errors. Networks are also part of /users/me (names, colours, time
 * zones), so the signed-in user's details are re-read too.
 */
export const useNetworkMutation = <TVars, TResult>(fn: (vars: TVars) => Promise<TResult>) =>
  networks.useCommand(fn, { silentErrors: true, also: () => refreshCurrentUser().catch(() => undefined) });

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
