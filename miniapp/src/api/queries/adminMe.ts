import { useQuery } from '@tanstack/react-query';
import { z } from 'zod/mini';
import { ApiError } from '../ApiError.ts';
import { api } from '../client.ts';
import { queryKeys } from './keys.ts';

const adminMe = z.object({ admin: z.literal(true), name: z.string() });

/**
 * Whether the signed-in person is an admin (`GET /api/admin/me`): the menu shows the Moderation entry only
 * then. The server answers 404 to everyone else, which here simply means "no"; the console's own code is
 * loaded only when /admin opens.
 */
export function useAdminMe(signedIn: boolean) {
  return useQuery({
    queryKey: queryKeys.adminMe(),
    queryFn: async () => {
      try {
        return (await api.get('/api/admin/me', adminMe)).admin;
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) return false;
        throw error;
      }
    },
    enabled: signedIn,
    staleTime: 5 * 60_000,
    retry: false,
  });
}

export function useIsAdmin(signedIn: boolean): boolean {
  return useAdminMe(signedIn).data === true;
}
