import { z } from 'zod/mini';

/**
 * The @username swap between two matched people (issue 39): each side agrees on its own; only when both
 * have does each see the other's Telegram @username. `can_share`: the caller has a Telegram username to
 * share (a web account without Telegram, or a Telegram account without a username, is told how to get one).
 */
export const usernameShareState = z.object({
  mine: z.boolean(),
  theirs: z.boolean(),
  can_share: z.boolean(),
});
export type UsernameShareState = z.infer<typeof usernameShareState>;

/** `POST /api/share_username` and `/api/share_username/revoke`: the swap as it now stands. */
export const usernameShareResponse = z.object({
  username_share: usernameShareState,
  /** The other's @username (without the @), only once both have shared; null otherwise. */
  telegram_username: z.nullable(z.string()),
});
export type UsernameShareResponse = z.infer<typeof usernameShareResponse>;
