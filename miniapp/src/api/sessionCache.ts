import type { QueryClient } from '@tanstack/react-query';
import type { CurrentUserResponse } from '@contract/accounts.ts';
import { publicKeys, queryKeys } from './queries/keys.ts';

/**
 * What the session tells the query cache, without loading it (issue 41): TanStack Query comes with the
 * first screen that reads through it (api/QueryScope.tsx), not with the landing or the sign-in form. Until
 * then the current user is kept here and handed over when the cache starts; there is nothing to forget.
 */
let client: QueryClient | null = null;
let currentUser: CurrentUserResponse | null = null;

/** Called once, by api/queryClient.ts, when the cache is made. */
export function attachQueryClient(created: QueryClient): void {
  client = created;
  if (currentUser) created.setQueryData(queryKeys.currentUser(), currentUser);
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
