import { z } from 'zod';
import { userProfileSummary } from './profiles.ts';

/** Spec section 5: letters, digits and @$!%*#?& only, at least 8, with a letter and a digit. */
export const passwordRule = /^(?=.*[A-Za-z])(?=.*\d)[A-Za-z\d@$!%*#?&]{8,}$/;
export const passwordMessage = 'Password must contain at least 8 characters, including a letter, a number.';

export const email = z.string({ error: 'Email is required' }).trim().toLowerCase().max(254, 'Email is too long').pipe(z.email('Invalid email address'));

export const registerRequest = z.strictObject({
  email,
  // Capped so a megabyte "password" cannot make one hash expensive.
  password: z.string({ error: 'Password is required' }).max(128, passwordMessage).regex(passwordRule, passwordMessage),
  csrf_token: z.string().optional(),
});
export type RegisterRequest = z.infer<typeof registerRequest>;

export const loginRequest = z.strictObject({
  email,
  password: z.string({ error: 'Password is required' }).min(1, 'Password is required').max(128),
  csrf_token: z.string().optional(),
  /**
   * `token` answers with a jwtToken instead of setting the cookie, for clients that keep the
   * token themselves (the same session either way).
   */
  session: z.enum(['cookie', 'token']).default('cookie'),
});
export type LoginRequest = z.infer<typeof loginRequest>;

export const verifyRequest = z.strictObject({
  code: z
    .string({ error: 'Code is required' })
    .trim()
    .regex(/^\d{6}$/, 'Invalid verification code. Please try again.'),
});

export const csrfTokenResponse = z.object({ csrf_token: z.string() });

export const currentUserResponse = z.object({
  authorized: z.boolean(),
  user_verified: z.boolean(),
  /** The own profile once the profiles feature exists; null until the user has one. */
  userprofile: userProfileSummary.nullable(),
  user_id: z.number().int().nullable(),
});
export type CurrentUserResponse = z.infer<typeof currentUserResponse>;

/**
 * What a sign-in answers (register, login, Google, the Telegram widget): the spec's fields, plus the
 * signed-in user exactly as `GET /api/current_user` gives it next, so the app need not ask again.
 */
export const sessionResponse = z.object({
  message: z.string(),
  user_id: z.number().int(),
  token: z.string().optional(),
  current_user: currentUserResponse,
});
export type SessionResponse = z.infer<typeof sessionResponse>;

export const messageResponse = z.object({ message: z.string() });
