import { z } from 'zod/mini';
import { profileRowId } from './ids.ts';

/**
 * `GET /api/badges` and the `badges` live event: what the tab bar's badges count, always the server's truth
 * (a count is not private: free users get new_likers too, the faces stay blurred).
 */
export const badgeCounts = z.object({
  /** Conversations (live match, partner not blocked or deleted) holding at least one message to me I have not read. */
  unread_chats: z.number().check(z.int(), z.nonnegative()),
  /** Live matches I have not opened yet (their profile or chat: POST /api/matches/opened or /api/conversations/start). */
  new_matches: z.number().check(z.int(), z.nonnegative()),
  /** Pending likers (not swiped by me, no match, no block either way, visible) whose like is newer than my last POST /api/likes/seen. */
  new_likers: z.number().check(z.int(), z.nonnegative()),
});
export type BadgeCounts = z.infer<typeof badgeCounts>;

/** `POST /api/matches/seen` (the match overlay was shown) and `POST /api/matches/opened` (its profile or chat was opened). */
export const matchMarkBody = z.strictObject({ profile_id: profileRowId('profile_id') });

/** `POST /api/likes/seen`: the Likes screen was opened (new_likers becomes 0). */
export const likesSeenBody = z.strictObject({});

/** What every mark (and `POST /api/events/ack`) answers. */
export const markResponse = z.object({ ok: z.literal(true) });
export type MarkResponse = z.infer<typeof markResponse>;
