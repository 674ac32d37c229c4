import { useEffect, useSyncExternalStore } from 'react';
import type { BadgeCounts } from '@contract/badges.ts';

/**
 * The tab bar's counts outside the query cache (issue 41): the tab bar is drawn with the deck's first card,
 * before TanStack Query has come, so it reads them here, and the live connection (LiveShell's `BadgeFeed`)
 * writes here what the cache holds. No counts until then, as before the first `GET /api/badges` answered.
 */
let counts: BadgeCounts | undefined;
/** How many tab bars are on screen: the counts are fetched only while one is (as when it read the cache). */
let readers = 0;
const listeners = new Set<() => void>();

function notify(): void {
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The cache's counts, written by the live connection; `undefined` when it has none (signed out, not read yet). */
export function publishBadgeCounts(next: BadgeCounts | undefined): void {
  if (next === counts) return;
  counts = next;
  notify();
}

/** The counts, for the tab bar: while it is mounted, the live connection fetches them. */
export function useBadgeCounts(): BadgeCounts | undefined {
  useEffect(() => {
    readers += 1;
    notify();
    return () => {
      readers -= 1;
      notify();
    };
  }, []);
  return useSyncExternalStore(subscribe, () => counts);
}

/** True while a tab bar shows the counts. */
export function useBadgesRead(): boolean {
  return useSyncExternalStore(subscribe, () => readers > 0);
}
