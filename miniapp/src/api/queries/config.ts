import { useQuery } from '@tanstack/react-query';
import type { PublicConfig } from '@contract/config.ts';
import { queryKeys } from './keys.ts';

/**
 * `GET /api/config`, once per page. The landing's footer asks for it, so the API client and the contract
 * (zod) are imported when the call is made, after the first paint, not with the screen. An unreachable
 * config just hides the optional parts (null), and is asked for again by the next screen that wants it.
 */
export function usePublicConfig(enabled = true): PublicConfig | null {
  const { data } = useQuery({
    queryKey: queryKeys.config(),
    queryFn: async () => {
      const { api, lazySchema } = await import('../client.ts');
      return api.get(
        '/api/config',
        lazySchema(() => import('@contract/config.ts').then((m) => m.publicConfigResponse)),
      );
    },
    staleTime: Infinity,
    enabled,
  });
  return data ?? null;
}
