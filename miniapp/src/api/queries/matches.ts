import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod/mini';
import { likeResponse, personListItem, undoResponse, usersProfileResponse } from '@contract/discovery.ts';
import { ApiError, api } from '../client.ts';
import { forgetPerson, matchMade } from '../liveCache.ts';
import { startConversation } from './chat.ts';
import { queryKeys } from './keys.ts';

/**
 * Matches, likers, their profiles, liking and unmatching (spec sections 3, 4). A person's profile is not
 * kept once its screen closes (`gcTime: 0`): it can go away at any time (unmatch, block, deletion), so it
 * is never shown from an earlier visit.
 */
export function useMatches() {
  return useQuery({ queryKey: queryKeys.matches(), queryFn: () => api.get('/api/matches', z.array(personListItem)) });
}

export function useLikers() {
  return useQuery({ queryKey: queryKeys.likers(), queryFn: () => api.get('/api/likes', z.array(personListItem)) });
}

export function useMatchProfile(profileId: number, enabled = true) {
  return useQuery({
    queryKey: queryKeys.matchProfile(profileId),
    queryFn: () =>
      api.get(`/api/users_profile?profile_id=${profileId}`, usersProfileResponse).then((r) => r.users_profile),
    gcTime: 0,
    enabled,
  });
}

export function useLikerProfile(profileId: number) {
  return useQuery({
    queryKey: queryKeys.likerProfile(profileId),
    queryFn: () =>
      api.get(`/api/users_profile_liker?profile_id=${profileId}`, usersProfileResponse).then((r) => r.users_profile),
    gcTime: 0,
  });
}

export function useUnmatch() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (profileId: number) =>
      api.post('/api/unmatch', z.object({ message: z.string() }), { profile_id: profileId }),
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
        likeResponse,
        liked && message ? { profile_id: profileId, message } : { profile_id: profileId },
      ),
    onSuccess: (result, { profileId }) => {
      if (result.match) matchMade(client);
      client.setQueryData<z.infer<typeof personListItem>[]>(queryKeys.likers(), (list) =>
        list?.filter((p) => p.id !== profileId),
      );
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
    mutationFn: () => api.post('/api/undo', undoResponse, {}),
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
      const liked = await api.post('/api/like', likeResponse, { profile_id: profileId });
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
