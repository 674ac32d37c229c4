import type { QueryClient } from '@tanstack/react-query';
import type { PersonListItem } from '@contract/discovery.ts';
import { api, isRecord, lazySchema } from '../client.ts';
import { whenCached } from '../sessionCache.ts';
import { queryKeys } from './keys.ts';

/**
 * Liking, disliking and taking a swipe back, without TanStack Query (issue 41): the deck's first card comes
 * before the query cache, so its swipes are plain calls that change the cache only once it exists
 * (`whenCached`: before that nothing is cached to go out of date). A liker's profile makes the same call as
 * a mutation (matches.ts `useSwipe`), with the same changes.
 *
 * The schemas are fetched with the call that needs them: the deck's first card comes without zod. A like's
 * and an undo's answers are checked in full after the first load (their guards at once: what the deck
 * branches on), so the first swipe waits for no schema either.
 */
const discovery = () => import('@contract/discovery.ts');
export const likeAnswer = lazySchema(
  () => discovery().then((m) => m.likeResponse),
  (answer) => answer.match === false || (answer.match === true && isMatchedProfile(answer.profile)),
);
const undoAnswer = lazySchema(
  () => discovery().then((m) => m.undoResponse),
  (answer) => typeof answer.profile_id === 'number',
);
/** What the match overlay reads of the other person (contract `matchedProfile`): anything else would break it. */
function isMatchedProfile(value: unknown): boolean {
  return (
    isRecord(value) &&
    typeof value.id === 'number' &&
    typeof value.name === 'string' &&
    (value.photo === null || typeof value.photo === 'string')
  );
}

/** A new match: the matches list has someone new, the likers list one fewer. */
export function matchMade(client: QueryClient): void {
  void client.invalidateQueries({ queryKey: queryKeys.matches() });
  void client.invalidateQueries({ queryKey: queryKeys.likers() });
}

export interface SwipeVariables {
  profileId: number;
  liked: boolean;
  /** A like's words to the person (1 to 200 characters), shown to them even on the free plan. */
  message?: string;
}

/** `POST /api/like` or `/api/dislike`. */
export function postSwipe({ profileId, liked, message }: SwipeVariables) {
  return api.post(
    liked ? '/api/like' : '/api/dislike',
    likeAnswer,
    liked && message ? { profile_id: profileId, message } : { profile_id: profileId },
  );
}

export type SwipeResult = Awaited<ReturnType<typeof postSwipe>>;

/**
 * What a like or a dislike changes in the cache: either way that person leaves the likers; a like that
 * makes a match puts them among the matches.
 */
export function swipeMade(client: QueryClient, result: SwipeResult, profileId: number): void {
  if (result.match) matchMade(client);
  client.setQueryData<PersonListItem[]>(queryKeys.likers(), (list) => list?.filter((p) => p.id !== profileId));
}

/** The deck's like or dislike. */
export async function swipe(variables: SwipeVariables): Promise<SwipeResult> {
  const result = await postSwipe(variables);
  whenCached((client) => swipeMade(client, result, variables.profileId));
  return result;
}

/**
 * Takes back the user's last swipe (ten minutes at most, no match made; free users once a day): answers
 * whose card comes back. Someone who had liked the user and was answered is a liker again.
 */
export async function undoSwipe() {
  const result = await api.post('/api/undo', undoAnswer, {});
  whenCached((client) => void client.invalidateQueries({ queryKey: queryKeys.likers() }));
  return result;
}
