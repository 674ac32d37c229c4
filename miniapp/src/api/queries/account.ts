import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod/mini';
import { accountResponse, messageResponse, telegramBotLinkResponse, type SignInMethod } from '@contract/accounts.ts';
import { api } from '../client.ts';
import { queryKeys } from './keys.ts';

/** Menu → Account (server/features/accountSettings): sign-in details and the signed-in devices. */
export function useAccount(enabled = true) {
  return useQuery({ queryKey: queryKeys.account(), queryFn: () => api.get('/api/account', accountResponse), enabled });
}

/** A change that alters the account's details or its devices: the list is read again after it. */
function useAccountChange<T>(mutationFn: (input: T) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn, onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.account() }) });
}

export function useChangePassword() {
  return useAccountChange((input: { current_password: string; password: string }) =>
    api.post('/api/account/password', messageResponse, input),
  );
}

export function useRequestEmailChange() {
  return useMutation({
    mutationFn: (input: { email: string; current_password?: string }) =>
      api.post('/api/account/email', messageResponse, input),
  });
}

export function useConfirmEmailChange() {
  return useAccountChange((code: string) =>
    api.post('/api/account/email/confirm', z.object({ message: z.string(), email: z.string() }), { code }),
  );
}

export function useEndSession() {
  return useAccountChange((id: string) => api.post('/api/account/sessions/end', messageResponse, { id }));
}

export function useEndOtherSessions() {
  return useAccountChange(() => api.post('/api/account/sessions/end_others', messageResponse));
}

export function useAddPassword() {
  return useAccountChange((password: string) => api.post('/api/account/password/add', messageResponse, { password }));
}

export function useUnlink() {
  return useAccountChange((method: SignInMethod) => api.post('/api/account/unlink', messageResponse, { method }));
}

/** A fresh one-time `t.me/<bot>?start=link_<token>` (each call ends the previous one); the bot links on Start. */
export function useTelegramBotLink() {
  return useMutation({
    mutationFn: (input: { current_password?: string }) =>
      api.post('/api/account/telegram/bot-link', telegramBotLinkResponse, input),
  });
}
