import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
// The stream registry shared with the server (`STREAMS`, decision 0044): each stream kind names its
// query-cache root (`user-availability-{id}` → `users`); safeguarding handles its own.
import { queryRootFor } from '@portal/projections/streams';
import { useSession } from '../session';
import { connectLive, onLiveMessage } from './live-connection';
import { refreshOnLive } from './refresh-on-live';

/**
 * Keeps the tab's one live connection open while signed in, and turns `live` messages into cache
 * invalidations so lists and details refetch in place (`refreshOnLive`).
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
      if (root) void refreshOnLive(queryClient, root);
    });
    return () => {
      unsubscribe();
      stop();
    };
  }, [token, queryClient, onSessionRejected]);
}
