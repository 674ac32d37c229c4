import { z } from 'zod/mini';
import { userProfileSummary } from './profiles.ts';

/** Spec section 5: letters, digits and @$!%*#?& only, at least 8, with a letter and a digit. */
export const passwordRule = /^(?=.*[A-Za-z])(?=.*\d)[A-Za-z\d@$!%*#?&]{8,}$/;
export const passwordMessage = 'Password must contain at least 8 characters, including a letter, a number.';

export const email = z.pipe(
  z.string({ error: 'Email is required' }).check(z.trim(), z.toLowerCase(), z.maxLength(254, 'Email is too long')),
  z.email('Invalid email address'),
);

export const registerRequest = z.strictObject({
  email,
  // Capped so a megabyte "password" cannot make one hash expensive.
  password: z.string({ error: 'Password is required' }).check(z.maxLength(128, passwordMessage), z.regex(passwordRule, passwordMessage)),
  csrf_token: z.optional(z.string()),
});
export type RegisterRequest = z.infer<typeof registerRequest>;

export const loginRequest = z.strictObject({
  email,
  password: z.string({ error: 'Password is required' }).check(z.minLength(1, 'Password is required'), z.maxLength(128)),
  csrf_token: z.optional(z.string()),
  /**
   * `token` answers with a jwtToken instead of setting the cookie, for clients that keep the
   * token themselves (the same session either way).
   */
  session: z._default(z.enum(['cookie', 'token']), 'cookie'),
});
export type LoginRequest = z.infer<typeof loginRequest>;

export const verifyRequest = z.strictObject({
  code: z.string({ error: 'Code is required' }).check(z.trim(), z.regex(/^\d{6}$/, 'Invalid verification code. Please try again.')),
});

export const csrfTokenResponse = z.object({ csrf_token: z.string() });

export const currentUserResponse = z.object({
  authorized: z.boolean(),
  user_verified: z.boolean(),
  /** The own profile once the profiles feature exists; null until the user has one. */
  userprofile: z.nullable(userProfileSummary),
  user_id: z.nullable(z.number().check(z.int())),
  /**
   * The account's interface language, signed in only: it wins over what this device stored, so the app,
   * the bot and every device speak one language.
   */
  language: z.optional(z.enum(['ru', 'en'])),
});
export type CurrentUserResponse = z.infer<typeof currentUserResponse>;

/**
 * What a sign-in answers (register, login, Google, the Telegram widget): the spec's fields, plus the
 * signed-in user exactly as `GET /api/current_user` gives it next, so the app need not ask again.
 */
export const sessionResponse = z.object({
  message: z.string(),
  user_id: z.number().check(z.int()),
  token: z.optional(z.string()),
  current_user: currentUserResponse,
});
export type SessionResponse = z.infer<typeof sessionResponse>;

/** `POST /api/language`: the account's interface language (the bot's messages follow it too). */
export const languageRequest = z.strictObject({ language: z.enum(['ru', 'en']), csrf_token: z.optional(z.string()) });
export const languageResponse = z.object({ language: z.enum(['ru', 'en']) });

export const messageResponse = z.object({ message: z.string() });
