import { z } from 'zod';
import { api } from '../client.ts';

export const dataRightsQueries = {
  /** Everything the server holds about the user, as JSON (`GET /api/export`). */
  export: () => api.get('/api/export', z.record(z.string(), z.unknown())),
  deleteAccount: (password: string) => api.post('/api/delete_account', z.object({ message: z.string() }), password ? { password } : {}),
};
