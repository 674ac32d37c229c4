import { useMutation } from '@tanstack/react-query';
import { sessionResponse } from '@contract/accounts.ts';
import { handoverPreviewResponse } from '@contract/handover.ts';
import { api } from '../client.ts';

/** Whose account a handover link's one-time code opens (uses nothing up): the token page asks before redeeming. */
export function useHandoverPreview() {
  return useMutation({
    mutationFn: (code: string) => api.post('/api/session/handover/preview', handoverPreviewResponse, { code }),
  });
}

/** Redeems the code (once, with the CSRF token): this browser gets a cookie session of that account. */
export function useRedeemHandover() {
  return useMutation({
    mutationFn: (code: string) => api.post('/api/session/handover/redeem', sessionResponse, { code }),
  });
}
