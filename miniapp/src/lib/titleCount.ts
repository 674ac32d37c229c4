import { useEffect } from 'react';
import type { BadgeCounts } from '@contract/badges.ts';

/** "(3) Искра · Iskra": a background tab says something waits, as the app badge does for an installed app. */
const countPrefix = /^\(\d+\+?\) /;

/** What waits for the person: unread chats, new matches, new likers (the tab bar's counts, summed). */
export function attentionCount(counts: BadgeCounts | undefined): number {
  return counts ? counts.unread_chats + counts.new_matches + counts.new_likers : 0;
}

/**
 * Keeps the tab title's count and the installed app's badge (Badging API, where the browser has it) in step
 * with the badges, which the live stream keeps true.
 */
export function useTitleCount(counts: BadgeCounts | undefined): void {
  const count = attentionCount(counts);
  useEffect(() => {
    const base = document.title.replace(countPrefix, '');
    document.title = count > 0 ? `(${count > 99 ? '99+' : count}) ${base}` : base;
    const badging = navigator as Navigator & {
      setAppBadge?: (count: number) => Promise<void>;
      clearAppBadge?: () => Promise<void>;
    };
    if (count > 0) void badging.setAppBadge?.(count).catch(() => undefined);
    else void badging.clearAppBadge?.().catch(() => undefined);
    // Signed out (the tab bar gone): nothing waits any more.
    return () => {
      document.title = document.title.replace(countPrefix, '');
      void badging.clearAppBadge?.().catch(() => undefined);
    };
  }, [count]);
}
