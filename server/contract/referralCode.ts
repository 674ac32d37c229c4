/**
 * A referral code as links carry it (`?ref=` on the web, `startapp=ref_<code>` in Telegram). Anything else
 * is not a code: sign-ups ignore it rather than fail, since a mangled invitation link is the inviter's problem.
 * Apart from `referrals.ts` and free of zod: the app's entry checks a landing's `?ref=` before the first
 * paint, and importing the schemas beside it would put zod in the first load.
 */
export const referralCodePattern = /^[a-z0-9]{8,32}$/;

/** The Telegram start parameter that carries a code. */
export const referralStartPrefix = 'ref_';
