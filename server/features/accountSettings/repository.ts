import type { Kysely } from 'kysely';
import type { Database, UserId } from '../../../db/schema.ts';
import type { SignInMethod } from '../../contract/accounts.ts';

export async function findAccountCredentials(db: Kysely<Database>, userId: UserId) {
  return db
    .selectFrom('users')
    .select(['email', 'password_hash', 'language', 'telegram_id', 'google_sub', 'verified_at'])
    .where('id', '=', userId)
    .executeTakeFirst();
}

/** Removes one way into the account (the password with its hash; Telegram with the username kept for support). */
export async function removeSignInMethod(db: Kysely<Database>, userId: UserId, method: SignInMethod): Promise<void> {
  const cleared =
    method === 'password'
      ? { password_hash: null }
      : method === 'telegram'
        ? { telegram_id: null, telegram_username: null }
        : { google_sub: null };
  await db.updateTable('users').set(cleared).where('id', '=', userId).execute();
}

/** The new address, proven by its code: verified from now on. */
export async function setEmail(db: Kysely<Database>, userId: UserId, email: string, at: Date): Promise<void> {
  await db
    .updateTable('users')
    .set((eb) => ({ email, verified_at: eb.fn.coalesce('verified_at', eb.val(at.toISOString())) }))
    .where('id', '=', userId)
    .execute();
}
