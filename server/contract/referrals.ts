import { z } from 'zod/mini';

export { referralCodePattern, referralStartPrefix } from './referralCode.ts';

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
