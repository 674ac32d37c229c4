import { useMutation } from '@tanstack/react-query';
import { z } from 'zod/mini';
import { api } from '../client.ts';

/** Everything the server holds about the user, as JSON (`GET /api/export`), fetched when asked for. */
export function useExportData() {
  return useMutation({ mutationFn: () => api.get('/api/export', z.record(z.string(), z.unknown())) });
}

/** Deletes the account; the caller then ends the session (which empties the cache). */
export function useDeleteAccount() {
  return useMutation({
    mutationFn: (password: string) =>
      api.post('/api/delete_account', z.object({ message: z.string() }), password ? { password } : {}),
  });
}
