import { useQuery, type QueryClient } from '@tanstack/react-query';
import type { SearchResult } from '@contract/discovery.ts';
import { filterParams, type DeckFilters } from '../../lib/filters.ts';
import { ApiError, api, lazySchema } from '../client.ts';
import { queryKeys } from './keys.ts';

const discovery = () => import('@contract/discovery.ts');

/**
 * `GET /api/search`: the next person, `null` when nobody is left (404), or `'no_profile'` (the spec's flag).
 * Checked in full after the first load (issue 41: the deck's first card without zod); at once, what the
 * card cannot be drawn without.
 */
const searchAnswer = lazySchema(
  () => discovery().then((m) => m.searchResponse),
  (answer) =>
    answer.userprofile === false ||
    (typeof answer.profile_id === 'number' && typeof answer.photo === 'string' && Array.isArray(answer.prompts)),
);
export type Card = SearchResult;

async function fetchNextCard(filters: DeckFilters, exclude: number[]): Promise<Card | null | 'no_profile'> {
  const query = filterParams(filters);
  if (exclude.length) query.set('exclude', exclude.join(','));
  try {
    const answer = await api.get(`/api/search?${query.toString()}`, searchAnswer);
    return 'userprofile' in answer ? 'no_profile' : answer;
  } catch (error) {
    if (error instanceof ApiError && (error.status === 404 || error.status === 204)) return null;
    throw error;
  }
}

/**
 * The deck's next person, fetched imperatively through the cache (see screens/Search/useSwipeDeck.ts for
 * why not a query hook): kept nowhere afterwards (`gcTime: 0`), since every call is counted against the
 * search limit and answers someone else. Two identical calls under way share one request.
 */
export function fetchDeckCard(
  client: QueryClient,
  filters: DeckFilters,
  exclude: number[],
): Promise<Card | null | 'no_profile'> {
  return client.query({
    queryKey: queryKeys.searchCard(filters, exclude),
    queryFn: () => fetchNextCard(filters, exclude),
    staleTime: 0,
    gcTime: 0,
  });
}

const trainingAnswer = lazySchema(
  () => discovery().then((m) => m.searchResult),
  (answer) => typeof answer.photo === 'string' && Array.isArray(answer.prompts),
);

/** `/training`'s sample card: nobody real, the same for everyone. */
export function useTrainingCard() {
  return useQuery({
    queryKey: queryKeys.trainingCard(),
    queryFn: () => api.get('/api/training', trainingAnswer),
    staleTime: Infinity,
  });
}
