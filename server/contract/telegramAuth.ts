import { z } from 'zod/mini';
import { currentUserResponse } from './accounts.ts';
import { signUpLanguage } from './signUpLanguage.ts';
import { referralField } from './referrals.ts';

/** `POST /api/auth/telegram`: the Mini App's `Telegram.WebApp.initData`, exactly as Telegram gave it. */
export const telegramInitDataRequest = z.strictObject({
  // Real init data is well under 2 KB; the cap keeps a huge string from being hashed.
  initData: z
    .string({ error: 'initData is required' })
    .check(z.minLength(1, 'initData is required'), z.maxLength(8192, 'initData is too long')),
});
export type TelegramInitDataRequest = z.infer<typeof telegramInitDataRequest>;

/** The Mini App's sign-in: the token, and the user as `GET /api/current_user` gives it with that token. */
export const telegramTokenResponse = z.object({
  token: z.string(),
  user_id: z.number().check(z.int()),
  current_user: currentUserResponse,
});
export type TelegramTokenResponse = z.infer<typeof telegramTokenResponse>;

/** One field of the login widget's user object: Telegram sends ids and dates as numbers, names as strings. */
const widgetValue = z.union([
  z.string().check(z.maxLength(1024)),
  z.number().check(z.int(), z.nonnegative(), z.lte(Number.MAX_SAFE_INTEGER)),
]);

/**
 * `POST /api/auth`: the object the Telegram Login Widget hands to its `onauth` callback, posted as is.
 * Unknown fields are kept, because Telegram signs every field it sends and may add new ones. `csrf_token`,
 * `session`, `ref` and `language` are ours (Telegram never sends them) and stay out of the signed data.
 */
export const telegramWidgetRequest = z
  .looseObject({
    id: z.union([
      z.number().check(z.int(), z.positive(), z.lte(Number.MAX_SAFE_INTEGER)),
      z.string().check(z.regex(/^\d{1,15}$/)),
    ]),
    auth_date: z.union([z.number().check(z.int(), z.nonnegative()), z.string().check(z.regex(/^\d{1,12}$/))]),
    hash: z.string().check(z.regex(/^[0-9a-fA-F]{64}$/, 'hash must be 64 hex digits')),
    first_name: z.optional(z.string().check(z.maxLength(1024))),
    last_name: z.optional(z.string().check(z.maxLength(1024))),
    username: z.optional(z.string().check(z.maxLength(64))),
    photo_url: z.optional(z.string().check(z.maxLength(1024))),
    csrf_token: z.optional(z.string().check(z.maxLength(256))),
    /** `token` answers with a jwtToken (the spec's token-only session) instead of setting the cookie. */
    session: z.optional(z.enum(['cookie', 'token'])),
    /** Ours too: the invitation's code the visitor arrived with (`?ref=`). */
    ref: referralField,
    /** Ours too: the language chosen in the app, which a new account takes (an existing one keeps its own). */
    language: signUpLanguage,
  })
  .check(
    z.superRefine((value, ctx) => {
      const entries = Object.entries(value);
      if (entries.length > 20) ctx.addIssue({ code: 'custom', message: 'Too many fields' });
      for (const [key, field] of entries) {
        if (!/^[a-z_]{1,32}$/.test(key) || !widgetValue.safeParse(field).success) {
          ctx.addIssue({ code: 'custom', message: `Invalid field ${key.slice(0, 32)}`, path: [key.slice(0, 32)] });
        }
      }
    }),
  );
export type TelegramWidgetRequest = z.infer<typeof telegramWidgetRequest>;

/** Fields of ours that ride beside the widget's (sign-in and account linking): never part of the signed data. */
const ourWidgetFields = new Set(['csrf_token', 'session', 'ref', 'language', 'current_password']);

/** The fields Telegram signed, exactly as sent: everything but ours. */
export function signedWidgetFields(input: TelegramWidgetRequest): Record<string, string | number> {
  return Object.fromEntries(Object.entries(input).filter(([key]) => !ourWidgetFields.has(key))) as Record<
    string,
    string | number
  >;
}

/** The names the app's client uses for the same contract. */
export const telegramAuthRequest = telegramInitDataRequest;
export const telegramAuthResponse = telegramTokenResponse;
