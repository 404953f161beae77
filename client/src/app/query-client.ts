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
      // Client errors (4xx) will not change on retry; network and server errors may.
      retry: (failureCount, error) =>
        !(error instanceof ApiError && error.status >= 400 && error.status < 500) && failureCount < 2,
    },
    mutations: { retry: false },
  },
});
