import type { SearchResult } from '@contract/discovery.ts';
import { releaseBootCard } from '../../lib/bootCard.ts';
import { filterParams, type DeckFilters } from '../../lib/filters.ts';
import { readStored, storageKeys } from '../../lib/storage.ts';
import { ApiError, api, isRecord, lazySchema } from '../client.ts';
import { earlyResponsePassedBy } from '../earlyResponses.ts';
import { sessionGeneration } from '../sessionGeneration.ts';

const discovery = () => import('@contract/discovery.ts');

/**
 * Every field the card and the deck read (contract `searchResult`), without zod: a field of another type
 * makes React throw or a prompt's `p.prompt_id` fail while the card renders, which would blank the screen,
 * so such an answer is refused here as the full check refused it (`bad_response`, the deck's Retry).
 */
export function isCard(answer: Record<string, unknown>): boolean {
  const { distance, message, active_recently: active, prompts } = answer;
  return (
    typeof answer.user_id === 'number' &&
    typeof answer.profile_id === 'number' &&
    typeof answer.age === 'number' &&
    typeof answer.verified === 'boolean' &&
    ['name', 'city', 'gender', 'bio', 'photo'].every((field) => typeof answer[field] === 'string') &&
    (distance === null || typeof distance === 'number') &&
    (message === undefined || typeof message === 'string') &&
    (active === null || active === 'today' || active === 'week') &&
    Array.isArray(prompts) &&
    prompts.every(
      (p) =>
        isRecord(p) &&
        typeof p.prompt_id === 'number' &&
        typeof p.question === 'string' &&
        typeof p.answer === 'string',
    )
  );
}

/**
 * `GET /api/search`: the next person, `null` when nobody is left (404), or `'no_profile'` (the spec's flag).
 * Checked in full after the first load (issue 41: the deck's first card without zod); at once, every field
 * the card reads (`isCard`).
 */
const searchAnswer = lazySchema(
  () => discovery().then((m) => m.searchResponse),
  (answer) => answer.userprofile === false || isCard(answer),
);
export type Card = SearchResult;

/** The spec's flag, by its value (the contract's `userprofile: false`), not by the key's presence. */
function isNoProfile(answer: Card | { userprofile: false }): answer is { userprofile: false } {
  return (answer as { userprofile?: unknown }).userprofile === false;
}

/**
 * The next card's requests under way, by session (api/sessionGeneration.ts) and address: two identical calls
 * share one, never across a sign-in, since the answer is for whoever asked (the query cache, which shared
 * them before, is emptied for someone else).
 */
const underWay = new Map<string, Promise<Card | null | 'no_profile'>>();

/**
 * The deck's next person (see screens/Search/useSwipeDeck.ts for why not a query hook), kept nowhere
 * afterwards: every call is counted against the search limit and answers someone else. Not through the
 * query cache either (issue 41: the deck's first card comes before TanStack Query); two identical calls
 * under way share one request, as they did there.
 */
export function fetchDeckCard(filters: DeckFilters, exclude: number[]): Promise<Card | null | 'no_profile'> {
  const query = filterParams(filters);
  if (exclude.length) query.set('exclude', exclude.join(','));
  const path = `/api/search?${query.toString()}`;
  const key = `${sessionGeneration()} ${path}`;
  const shared = underWay.get(key);
  if (shared) return shared;
  // boot.js's first card (its photo perhaps painted already, lib/bootCard.ts) is not the one this asks for
  // (stored filters read otherwise, another token): the photo goes now, or the member would see one person's
  // photo and then another's card in the same box.
  if (earlyResponsePassedBy('/api/search', path, readStored(storageKeys.jwtToken))) releaseBootCard();
  const request = fetchNextCard(path).finally(() => underWay.delete(key));
  underWay.set(key, request);
  return request;
}

async function fetchNextCard(path: string): Promise<Card | null | 'no_profile'> {
  try {
    const answer = await api.get(path, searchAnswer);
    return isNoProfile(answer) ? 'no_profile' : answer;
  } catch (error) {
    if (error instanceof ApiError && (error.status === 404 || error.status === 204)) return null;
    throw error;
  }
}
