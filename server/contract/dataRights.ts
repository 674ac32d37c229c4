import { z } from 'zod/mini';

/** `POST /api/delete_account`: password accounts confirm with their password; others need a fresh sign-in. */
export const deleteAccountBody = z.strictObject({
  password: z.optional(z.string().check(z.maxLength(200))),
});
export type DeleteAccountBody = z.infer<typeof deleteAccountBody>;

/** Accounts without a password must have signed in this recently to delete themselves. */
export const reauthWindowMinutes = 10;
