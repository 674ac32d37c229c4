import { z } from 'zod/mini';
import { signUpLanguage } from './signUpLanguage.ts';
import { referralField } from './referrals.ts';

/** `POST /api/googlelogin`: the ID token (a JWT) from Google Identity Services. */
export const googleLoginRequest = z.strictObject({
  id_token: z.string({ error: 'id_token is required' }).check(
    z.minLength(1, 'id_token is required'),
    // Google ID tokens are about 1 KB; a JWT is three base64url parts.
    z.maxLength(8192, 'id_token is too long'),
    z.regex(/^[\w-]*\.[\w-]*\.[\w-]*$/, 'id_token is not a JWT'),
  ),
  csrf_token: z.optional(z.string()),
  /** `token` answers with a jwtToken instead of setting the cookie, as `POST /api/login` does. */
  session: z._default(z.enum(['cookie', 'token']), 'cookie'),
  /** The invitation's code the visitor arrived with (`?ref=`): counted if this creates the account. */
  ref: referralField,
  /** The language chosen in the app: a new account takes it (an existing one keeps its own). */
  language: signUpLanguage,
});
export type GoogleLoginRequest = z.infer<typeof googleLoginRequest>;
