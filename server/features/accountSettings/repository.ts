import type { Kysely } from 'kysely';
import type { Database, UserId } from '../../../db/schema.ts';

export async function findAccountCredentials(db: Kysely<Database>, userId: UserId) {
  return db.selectFrom('users').select(['email', 'password_hash', 'language']).where('id', '=', userId).executeTakeFirst();
}

/** The new address, proven by its code: verified from now on. */
export async function setEmail(db: Kysely<Database>, userId: UserId, email: string, at: Date): Promise<void> {
  await db
    .updateTable('users')
    .set((eb) => ({ email, verified_at: eb.fn.coalesce('verified_at', eb.val(at.toISOString())) }))
    .where('id', '=', userId)
    .execute();
}
