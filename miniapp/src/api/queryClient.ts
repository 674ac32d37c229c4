import { QueryClient } from '@tanstack/react-query';
import { attachQueryClient } from './sessionCache.ts';

/**
 * The one cache of server state (DESIGN rule 10). Defaults keep the app's behaviour from before the cache:
 * a screen loads its data when it opens (stale at once, so a cached copy shows while the fresh one loads),
 * a failed load is shown at once with a Retry button rather than retried behind a spinner, and nothing is
 * refetched just because the window regained focus (GETs such as the conversation's mark messages read, so
 * a query opts in where that is wanted).
 */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { staleTime: 0, retry: false, refetchOnWindowFocus: false },
    mutations: { retry: false },
  },
});

// The session may have answered before the first screen that reads through the cache loaded it.
attachQueryClient(queryClient);
