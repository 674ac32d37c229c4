import type { QueryClient } from '@tanstack/react-query';
import type { BadgeCounts } from '@contract/badges.ts';
import { sessionGeneration } from '../sessionGeneration.ts';
import { queryKeys } from './keys.ts';

/**
 * The marks that lower the tab bar's counts (issue 19; the counts themselves: badgeCounts.ts). The deck's
 * match announcements use them, so this file keeps the API client, the contract (zod) and TanStack Query
 * out of it (issue 41: the deck's first card carries none of them): the client is loaded on first use.
 */
const client = () => import('../client.ts');

/** One of the marks: `{ ok: true }`, or an ApiError thrown. */
async function mark(path: string, body: object): Promise<void> {
  const [{ api }, { markResponse }] = await Promise.all([client(), import('@contract/badges.ts')]);
  await api.post(path, markResponse, body);
}

/** Changes one count at once, before the server's `badges` event confirms it. */
function lower(queryClient: QueryClient, change: (counts: BadgeCounts) => BadgeCounts): void {
  queryClient.setQueryData<BadgeCounts>(queryKeys.badges(), (counts) => counts && change(counts));
}

/** The Likes screen opened: nobody new among the likers any more. */
export function markLikesSeen(queryClient: QueryClient): Promise<void> {
  lower(queryClient, (counts) => ({ ...counts, new_likers: 0 }));
  return mark('/api/likes/seen', {});
}

/**
 * A match's profile or chat opened: no longer new. Once per person and session: the mark is idempotent,
 * so opening someone again and again need not send it again and again.
 */
const opened = new Set<string>();
export function markMatchOpened(profileId: number): Promise<void> {
  const key = `${sessionGeneration()}:${profileId}`;
  if (opened.has(key)) return Promise.resolve();
  opened.add(key);
  return mark('/api/matches/opened', { profile_id: profileId }).catch((error: unknown) => {
    opened.delete(key);
    throw error;
  });
}

/** The match overlay for this person was shown: other devices close theirs, a reload does not show it again. */
export function markMatchSeen(profileId: number): Promise<void> {
  return mark('/api/matches/seen', { profile_id: profileId });
}

/** Acknowledgements wait this long for more (a burst of messages in the open conversation): one request. */
const ackDelayMs = 100;
/** `POST /api/events/ack` takes at most this many ids. */
const acksPerRequest = 100;
let unsentAcks: number[] = [];
let ackTimer: number | undefined;

function sendAcks(): void {
  ackTimer = undefined;
  const ids = unsentAcks;
  unsentAcks = [];
  // A lost acknowledgement costs a bot message the user did not need, nothing more: not retried.
  for (let i = 0; i < ids.length; i += acksPerRequest)
    void mark('/api/events/ack', { ids: ids.slice(i, i + acksPerRequest) }).catch(() => undefined);
}

/**
 * Live events the user was shown (the match overlay, a message in the open conversation, the tab visible):
 * the bot need not tell them (issue 19: "online" alone is not delivery).
 */
export function acknowledgeEvents(ids: number[]): void {
  if (!ids.length) return;
  unsentAcks.push(...ids);
  ackTimer ??= window.setTimeout(sendAcks, ackDelayMs);
}
