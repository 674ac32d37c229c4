import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, api } from '../client.ts';
import { forgetPerson } from '../liveCache.ts';
import { startConversation } from './chat.ts';
import { queryKeys } from './keys.ts';
import { likeAnswer, matchMade, postSwipe, swipeMade } from './swipes.ts';

const discovery = () => import('@contract/discovery.ts');

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

/** A like or a dislike from a liker's profile: the deck's call (swipes.ts), as a mutation. */
export function useSwipe() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: postSwipe,
    onSuccess: (result, { profileId }) => swipeMade(client, result, profileId),
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
