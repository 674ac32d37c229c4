import type { QueryClient } from '@tanstack/react-query';
import type { CurrentUserResponse } from '@contract/accounts.ts';
import { publicKeys, queryKeys } from './queries/keys.ts';

/**
 * What the session tells the query cache, without loading it (issue 41): TanStack Query comes with the
 * first screen that reads through it (api/QueryScope.tsx), not with the landing, the sign-in form or the
 * deck's first card. Until then the current user is kept here and handed over when the cache starts;
 * there is nothing to forget.
 */
let client: QueryClient | null = null;
let currentUser: CurrentUserResponse | null = null;

/**
 * Whether the cache has been asked for: by a screen that reads through it (components/lazyScreen.ts), or,
 * on a first screen that does not (the deck), once the page has settled or a match is to be announced.
 * The frame mounts the live connection (components/LiveShell.tsx, which applies its events to the cache)
 * from then on, so the deck's first load carries neither (issue 41: first-load JS on /search).
 */
let wanted = false;
/** How many times the cache has been asked for: a live connection whose chunk failed tries again at the next. */
let asks = 0;
const wantedListeners = new Set<() => void>();

/** Called once, by api/queryClient.ts, when the cache is made. */
export function attachQueryClient(created: QueryClient): void {
  client = created;
  if (currentUser) created.setQueryData(queryKeys.currentUser(), currentUser);
  wantCache();
}

/**
 * The cache is wanted from now on. Listeners hear it after the current task, never during a render (a lazy
 * screen asks for it while React renders it). Every ask is counted (`cacheAsks`), not only the first: the
 * frame loads the live connection again at a later ask when its chunk failed (components/Layout.tsx).
 */
export function wantCache(): void {
  wanted = true;
  asks += 1;
  queueMicrotask(() => {
    for (const notify of wantedListeners) notify();
  });
}

export function cacheWanted(): boolean {
  return wanted;
}

export function cacheAsks(): number {
  return asks;
}

/** For `useSyncExternalStore`: `notify` when the cache is asked for. */
export function onCacheWanted(notify: () => void): () => void {
  wantedListeners.add(notify);
  return () => wantedListeners.delete(notify);
}

/**
 * What a call changes in the cache (a like takes the person out of the likers), done only if the cache has
 * been made: before that nothing is cached, so nothing is out of date, and a screen that reads it later
 * reads it fresh. Keeps the deck's first card free of TanStack Query.
 */
export function whenCached(change: (cache: QueryClient) => void): void {
  if (client) change(client);
}

/** The session's current user, also for what reads it from the cache outside React (the live events). */
export function cacheCurrentUser(user: CurrentUserResponse): void {
  currentUser = user;
  client?.setQueryData(queryKeys.currentUser(), user);
}

/** Someone else now: everything cached but the public reads goes. */
export function forgetPrivateData(): void {
  client?.removeQueries({ predicate: (query) => !publicKeys.includes(String(query.queryKey[0])) });
}
