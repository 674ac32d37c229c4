import { useMutation } from '@tanstack/react-query';
import { messageResponse } from '@contract/accounts.ts';
import { api } from '../client.ts';

/** The e-mail code (spec section 4): checking it, and asking for another. */
export function useVerifyCode() {
  return useMutation({ mutationFn: (code: string) => api.post('/api/verify', messageResponse, { code }) });
}

export function useResendCode() {
  return useMutation({ mutationFn: () => api.get('/api/send_verification_code', messageResponse) });
}
