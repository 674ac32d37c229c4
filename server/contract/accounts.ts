import { z } from 'zod/mini';
import { googleLoginRequest } from './googleAuth.ts';
import { signUpLanguage } from './signUpLanguage.ts';
import { referralField } from './referrals.ts';
import { passwordRule } from './passwordRule.ts';
import { userProfileSummary } from './profiles.ts';

export { passwordRule };

export const passwordMessage = 'Password must contain at least 8 characters, including a letter, a number.';

export const email = z.pipe(
  z.string({ error: 'Email is required' }).check(z.trim(), z.toLowerCase(), z.maxLength(254, 'Email is too long')),
  z.email('Invalid email address'),
);

// Capped so a megabyte "password" cannot make one hash expensive.
const newPassword = z
  .string({ error: 'Password is required' })
  .check(z.maxLength(128, passwordMessage), z.regex(passwordRule, passwordMessage));

/** Six digits, as every mailed code. */
const mailedCode = z
  .string({ error: 'Code is required' })
  .check(z.trim(), z.regex(/^\d{6}$/, 'Invalid verification code. Please try again.'));

/**
 * `token` answers with a jwtToken instead of setting the cookie, for clients that keep the token
 * themselves (the same session either way).
 */
const sessionKind = z._default(z.enum(['cookie', 'token']), 'cookie');

export const registerRequest = z.strictObject({
  email,
  password: newPassword,
  csrf_token: z.optional(z.string()),
  /** The invitation's code the visitor arrived with (`?ref=`), if any. */
  ref: referralField,
  language: signUpLanguage,
});
export type RegisterRequest = z.infer<typeof registerRequest>;

export const loginRequest = z.strictObject({
  email,
  password: z.string({ error: 'Password is required' }).check(z.minLength(1, 'Password is required'), z.maxLength(128)),
  csrf_token: z.optional(z.string()),
  session: sessionKind,
});
export type LoginRequest = z.infer<typeof loginRequest>;

export const verifyRequest = z.strictObject({ code: mailedCode });

/** `POST /api/password/forgot`: mails a reset code when the address belongs to a verified account. */
export const forgotPasswordRequest = z.strictObject({ email, csrf_token: z.optional(z.string()) });

/** `POST /api/password/reset`: the mailed code and the new password; answers as a sign-in. */
/** The reset mail's link carries this instead of the code (`#email=…&token=…`): 32 bytes in base64url. */
export const resetLinkToken = z
  .string()
  .check(z.regex(/^[A-Za-z0-9_-]{43}$/, 'The link is wrong or no longer valid. Request a new one.'));

/** `POST /api/password/reset`: the mailed code, or the mailed link's token, with the new password. */
export const resetPasswordRequest = z
  .strictObject({
    email,
    code: z.optional(mailedCode),
    token: z.optional(resetLinkToken),
    password: newPassword,
    csrf_token: z.optional(z.string()),
    session: sessionKind,
  })
  .check(
    z.refine((body) => (body.code === undefined) !== (body.token === undefined), {
      message: 'Code is required',
      path: ['code'],
    }),
  );
export type ResetPasswordRequest = z.infer<typeof resetPasswordRequest>;

/** `GET /api/account`: the own sign-in details and live sessions (Menu → Account). */
export const accountSession = z.object({
  /** Opaque to the app; what `POST /api/account/sessions/end` takes. */
  id: z.string(),
  /** "Chrome · Android", or null when the browser was not recognised. The place is not shown: no IP lookup exists. */
  device: z.nullable(z.string()),
  signed_in_at: z.string(),
  last_seen_at: z.nullable(z.string()),
  current: z.boolean(),
});
/** The ways into an account: e-mail and password, Telegram, Google. */
export const signInMethod = z.enum(['password', 'telegram', 'google']);
export type SignInMethod = z.infer<typeof signInMethod>;

export const accountResponse = z.object({
  email: z.nullable(z.string()),
  has_password: z.boolean(),
  sign_in_methods: z.array(signInMethod),
  sessions: z.array(accountSession),
});
export type AccountResponse = z.infer<typeof accountResponse>;

const currentPassword = z
  .string({ error: 'Password is required' })
  .check(z.minLength(1, 'Password is required'), z.maxLength(128));

export const changePasswordRequest = z.strictObject({
  current_password: currentPassword,
  password: newPassword,
  csrf_token: z.optional(z.string()),
});

/** The new address gets a code; the account's password is asked when it has one. */
export const changeEmailRequest = z.strictObject({
  email,
  current_password: z.optional(currentPassword),
  csrf_token: z.optional(z.string()),
});
export const confirmEmailRequest = z.strictObject({ code: mailedCode, csrf_token: z.optional(z.string()) });

/**
 * Adding a way in (Google, Telegram) asks for the account's password when it has one, else for a sign-in in
 * the last minutes (server: Reauthentication): a stolen session cannot plant its own way back in.
 */
const reauthPassword = z.optional(currentPassword);

/** `POST /api/account/google`: the Google ID token to link, and the re-authentication. */
export const linkGoogleRequest = z.strictObject({
  id_token: googleLoginRequest.shape.id_token,
  current_password: reauthPassword,
  csrf_token: z.optional(z.string()),
});

/** `POST /api/account/telegram`: the Login Widget's signed fields (telegramWidgetRequest) plus this, kept out of the signed data. */
export const telegramLinkFields = z.looseObject({ current_password: reauthPassword });

/** `POST /api/account/telegram/bot-link`: the re-authentication only. */
export const botLinkRequest = z.strictObject({ current_password: reauthPassword, csrf_token: z.optional(z.string()) });

/** A password for an account that has none yet (a Telegram or Google account that added its e-mail). */
export const addPasswordRequest = z.strictObject({ password: newPassword, csrf_token: z.optional(z.string()) });

/** Removes a way into the account; the last one cannot go. */
export const unlinkRequest = z.strictObject({ method: signInMethod, csrf_token: z.optional(z.string()) });

export const endSessionRequest = z.strictObject({
  id: z.string().check(z.minLength(1, 'Session is required'), z.maxLength(100)),
  csrf_token: z.optional(z.string()),
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

/** `POST /api/account/telegram/bot-link`: the one-time `https://t.me/<bot>?start=link_<token>` (10 minutes). */
export const telegramBotLinkResponse = z.object({ url: z.string(), expires_at: z.string() });
export type TelegramBotLinkResponse = z.infer<typeof telegramBotLinkResponse>;
