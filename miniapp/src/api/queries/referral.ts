import { useMutation } from '@tanstack/react-query';
import { referralResponse } from '@contract/referrals.ts';
import { api } from '../client.ts';

/** The account's invitation links (`POST /api/referral`: the first call makes its code). */
export function useInvitation() {
  return useMutation({ mutationFn: () => api.post('/api/referral', referralResponse, {}) });
}
