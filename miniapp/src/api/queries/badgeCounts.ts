import { useQuery } from '@tanstack/react-query';
import type { BadgeCounts } from '@contract/badges.ts';
import { afterLiveOpen } from '../liveGate.ts';
import { queryKeys } from './keys.ts';

/**
 * The tab bar's counts (issue 19), read through the cache the live stream keeps true (api/liveCache.ts).
 * The client and the contract are loaded on first use, and the counts are checked against the contract
 * after the first load (issue 41), their numbers at once.
 */
async function fetchBadges(): Promise<BadgeCounts> {
  const [{ api, lazySchema }] = await Promise.all([import('../client.ts'), afterLiveOpen()]);
  const counts = lazySchema(
    () => import('@contract/badges.ts').then((m) => m.badgeCounts),
    (answer) => [answer.unread_chats, answer.new_matches, answer.new_likers].every((n) => typeof n === 'number'),
  );
  return api.get('/api/badges', counts);
}

/**
 * `GET /api/badges`, once per signed-in session: the live stream's `badges` events keep it true after.
 * `enabled: false` reads what the cache holds and fetches nothing (no tab bar on screen).
 */
export function useBadges(enabled = true) {
  return useQuery({
    queryKey: queryKeys.badges(),
    queryFn: fetchBadges,
    staleTime: Number.POSITIVE_INFINITY,
    enabled,
  });
}
