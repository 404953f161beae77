import type { QueryClient } from '@tanstack/react-query';

/**
 * What a `live` message does to the cache: every query under `root` refetches. A fetch already in
 * flight started before the change the message announces, so it is cancelled first. Otherwise a
 * query's first fetch would absorb the invalidation (TanStack Query hands the refetch the running
 * request when the query has no data yet), and a list the user had just opened kept the older answer.
 */
export async function refreshOnLive(queryClient: QueryClient, root: string): Promise<void> {
  await queryClient.cancelQueries({ queryKey: [root] });
  await queryClient.invalidateQueries({ queryKey: [root] });
}
