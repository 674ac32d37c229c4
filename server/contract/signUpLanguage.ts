import { z } from 'zod/mini';

/**
 * The language the visitor chose in the app before signing up (the landing's switch), sent with a sign-up:
 * a new account takes it rather than the browser's Accept-Language. Absent: Accept-Language (or Telegram's).
 */
export const signUpLanguage = z.optional(z.enum(['ru', 'en']));
