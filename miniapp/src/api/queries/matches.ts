import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { PersonListItem } from '@contract/discovery.ts';
import { ApiError, api, isRecord, lazySchema } from '../client.ts';
import { forgetPerson, matchMade } from '../liveCache.ts';
import { startConversation } from './chat.ts';
import { queryKeys } from './keys.ts';

/**
 * The schemas, fetched with the call that needs them: this module travels with the deck, whose first card
 * comes without zod (issue 41). A like's and an undo's answers are checked in full after the first load
 * (their guards at once: what the deck branches on), so the first swipe waits for no schema either.
 */
const discovery = () => import('@contract/discovery.ts');
const likeAnswer = lazySchema(
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

/**
 * Matches, likers, their profiles, liking and unmatching (spec sections 3, 4). A person's profile is not
 * kept once its screen closes (`gcTime: 0`): it can go away at any time (unmatch, block, deletion), so it
 * is never shown from an earlier visit.
 */
export function useMatches() {
  return useQuery({
    queryKey: queryKeys.matches(),
    queryFn: async () => api.get('/api/matches', (await discovery()).personList),
  });
}

export function useLikers() {
  return useQuery({
    queryKey: queryKeys.likers(),
    queryFn: async () => api.get('/api/likes', (await discovery()).personList),
  });
}

export function useMatchProfile(profileId: number, enabled = true) {
  return useQuery({
    queryKey: queryKeys.matchProfile(profileId),
    queryFn: async () =>
      (await api.get(`/api/users_profile?profile_id=${profileId}`, (await discovery()).usersProfileResponse))
        .users_profile,
    gcTime: 0,
    enabled,
  });
}

export function useLikerProfile(profileId: number) {
  return useQuery({
    queryKey: queryKeys.likerProfile(profileId),
    queryFn: async () =>
      (await api.get(`/api/users_profile_liker?profile_id=${profileId}`, (await discovery()).usersProfileResponse))
        .users_profile,
    gcTime: 0,
  });
}

export function useUnmatch() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (profileId: number) =>
      api.post('/api/unmatch', (await import('@contract/accounts.ts')).messageResponse, { profile_id: profileId }),
    onSuccess: (_, profileId) => forgetPerson(client, profileId),
  });
}

/**
 * A like or a dislike, from the deck or a liker's profile. Either way that person leaves the likers; a
 * like that makes a match puts them among the matches.
 */
export function useSwipe() {
  const client = useQueryClient();
  return useMutation({
    /** `message`: a like's words to the person (1 to 200 characters), shown to them even on the free plan. */
    mutationFn: ({ profileId, liked, message }: { profileId: number; liked: boolean; message?: string }) =>
      api.post(
        liked ? '/api/like' : '/api/dislike',
        likeAnswer,
        liked && message ? { profile_id: profileId, message } : { profile_id: profileId },
      ),
    onSuccess: (result, { profileId }) => {
      if (result.match) matchMade(client);
      client.setQueryData<PersonListItem[]>(queryKeys.likers(), (list) => list?.filter((p) => p.id !== profileId));
    },
  });
}

/**
 * Takes back the user's last swipe (ten minutes at most, no match made; free users once a day): answers
 * whose card comes back. Someone who had liked the user and was answered is a liker again.
 */
export function useUndoSwipe() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api.post('/api/undo', undoAnswer, {}),
    onSuccess: () => void client.invalidateQueries({ queryKey: queryKeys.likers() }),
  });
}

/**
 * Straight from the likes list to a chat (spec section 2): liking back makes the match, and chats are
 * between matches. A like that makes no match (they took theirs back, or were blocked meanwhile) fails
 * as the server's refusal it is; the list was out of date, so it is read again.
 */
export function useChatWithLiker() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (profileId: number) => {
      const liked = await api.post('/api/like', likeAnswer, { profile_id: profileId });
      if (!liked.match) throw new ApiError(409, null, 'No match');
      return startConversation(profileId);
    },
    onSuccess: () => {
      matchMade(client);
      void client.invalidateQueries({ queryKey: queryKeys.chats() });
    },
    onError: () => void client.invalidateQueries({ queryKey: queryKeys.likers() }),
  });
}
