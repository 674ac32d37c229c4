import { z } from 'zod/mini';

/**
 * A referral code as links carry it (`?ref=` on the web, `startapp=ref_<code>` in Telegram). Anything else
 * is not a code: sign-ups ignore it rather than fail, since a mangled invitation link is the inviter's problem.
 */
export const referralCodePattern = /^[a-z0-9]{8,32}$/;

/** The optional `ref` a sign-up carries (register, Google, Telegram Login Widget). */
export const referralField = z.optional(z.string().check(z.maxLength(64)));

/** `POST /api/referral`: the account's invitation (its code is made on the first call, then stays). */
export const referralRequest = z.strictObject({ csrf_token: z.optional(z.string()) });

export const referralResponse = z.object({
  code: z.string(),
  /** The web site with `?ref=<code>` (PUBLIC_URL). */
  web_link: z.string(),
  /** `https://t.me/<bot>?startapp=ref_<code>`; null when no bot is configured. */
  telegram_link: z.nullable(z.string()),
});
export type ReferralResponse = z.infer<typeof referralResponse>;

/** The Telegram start parameter that carries a code. */
export const referralStartPrefix = 'ref_';
