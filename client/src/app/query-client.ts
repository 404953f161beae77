import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { ApiError } from '../shared/api/client';
import { notifyError } from '../shared/notify';

/** Per-query or per-mutation opt-out: `meta: { silentErrors: true }` when the screen shows the error itself. */
declare module '@tanstack/react-query' {
  interface Register {
    queryMeta: { silentErrors?: boolean };
    mutationMeta: { silentErrors?: boolean };
  }
}

/** Statuses a retry may cure: the portal starting or restarting behind its proxy. */
const TRANSIENT_STATUSES = new Set([0, 502, 503, 504]);

/**
 * Whether a failed read is tried again (issue 18: a failure shows its error with Retry within about 2 s).
 * Only what a retry may cure is retried (no answer, 502/503/504), at most twice, 300 then 600 ms apart;
 * a 4xx or a 500 is shown at once: asking again gets the same answer.
 */
export function retryRead(failureCount: number, error: unknown): boolean {
  if (failureCount >= 2) return false;
  if (error instanceof ApiError) return TRANSIENT_STATUSES.has(error.status);
  return false;
}

export const retryReadDelay = (attempt: number): number => 300 * 2 ** attempt;

/**
 * Errors the API client's session rules do not handle are shown as notifications (spec §8, §9).
 * A background refetch failure of data already on screen is shown too: the screen keeps the old data.
 */
export const queryClient = new QueryClient({
  queryCache: new QueryCache({
    onError: (error, query) => {
      if (query.meta?.silentErrors) return;
      notifyError(error);
    },
  }),
  mutationCache: new MutationCache({
    onError: (error, _variables, _context, mutation) => {
      if (mutation.meta?.silentErrors) return;
      notifyError(error);
    },
  }),
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      refetchOnWindowFocus: false,
      retry: retryRead,
      retryDelay: retryReadDelay,
    },
    mutations: { retry: false },
  },
});
