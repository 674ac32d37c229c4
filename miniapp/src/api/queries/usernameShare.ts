import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { UsersProfileResponse } from '@contract/discovery.ts';
import { usernameShareResponse } from '@contract/usernameShares.ts';
import { api } from '../client.ts';
import { queryKeys } from './keys.ts';

type MatchProfile = UsersProfileResponse['users_profile'];

/**
 * "Share my Telegram" with a match, or take it back (issue 39). The answer is the swap as it now stands,
 * written straight into the match's profile, so the screen shows the other's @username the moment both agreed.
 */
export function useUsernameShare(profileId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (share: boolean) =>
      api.post(share ? '/api/share_username' : '/api/share_username/revoke', usernameShareResponse, {
        profile_id: profileId,
      }),
    onSuccess: (swap) => {
      client.setQueryData<MatchProfile>(
        queryKeys.matchProfile(profileId),
        (profile) => profile && { ...profile, ...swap },
      );
    },
  });
}
