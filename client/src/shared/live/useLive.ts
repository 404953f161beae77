import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useSession } from '../session';
import { connectLive, onLiveMessage } from './live-connection';

/** Query-cache root for a stream category (`user-{id}` → `users`). Areas add theirs here as they land. */
const QUERY_ROOTS: Record<string, string> = {
  user: 'users',
  customer: 'customers',
  // `one-page-profile-{userId}`: the category is the text before the first dash.
  one: 'one-page-profiles',
  // `safeguarding-*` streams are handled by useSafeguardingLive (views must not refetch the incident).
  network: 'networks',
  // `permission-template-{id}`.
  permission: 'permission-templates',
};

export function queryRootFor(stream: string): string | null {
  const category = stream.split('-', 1)[0] ?? '';
  return QUERY_ROOTS[category] ?? null;
}

/**
 * Keeps the tab's one live connection open while signed in, and turns `live` messages into cache
 * invalidations so lists and details refetch in place.
 */
export function useLive(onSessionRejected: () => void): void {
  const token = useSession((state) => state.token);
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!token) return undefined;
    const stop = connectLive({
      token,
      onSessionRejected,
      onResyncNeeded: () => void queryClient.invalidateQueries(),
    });
    const unsubscribe = onLiveMessage((message) => {
      const root = queryRootFor(message.stream);
      if (root) void queryClient.invalidateQueries({ queryKey: [root] });
    });
    return () => {
      unsubscribe();
      stop();
    };
  }, [token, queryClient, onSessionRejected]);
}
