import { z } from 'zod';

/** `POST /api/delete_account`: password accounts confirm with their password; others need a fresh sign-in. */
export const deleteAccountBody = z.strictObject({
  password: z.string().max(200).optional(),
});
export type DeleteAccountBody = z.infer<typeof deleteAccountBody>;

/** Accounts without a password must have signed in this recently to delete themselves. */
export const reauthWindowMinutes = 10;
