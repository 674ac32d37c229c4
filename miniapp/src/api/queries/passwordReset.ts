import { useMutation } from '@tanstack/react-query';
import { messageResponse, sessionResponse } from '@contract/accounts.ts';
import { api } from '../client.ts';

/** A forgotten password (server/features/passwordReset): a code (or a link) by e-mail, then the new password with it. */
export function useForgotPassword() {
  return useMutation({ mutationFn: (email: string) => api.post('/api/password/forgot', messageResponse, { email }) });
}

export function useResetPassword() {
  return useMutation({
    mutationFn: (input: { email: string; password: string } & ({ code: string } | { token: string })) =>
      api.post('/api/password/reset', sessionResponse, input),
  });
}
