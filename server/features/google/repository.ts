import type { Kysely } from 'kysely';
import type { Database, NewUser, UserId } from '../../../db/schema.ts';

const accountColumns = ['id', 'email', 'verified_at', 'banned_at', 'google_sub'] as const;

export async function findUserByGoogleSub(db: Kysely<Database>, sub: string) {
  return db.selectFrom('users').select(accountColumns).where('google_sub', '=', sub).executeTakeFirst();
}

export async function findUserByEmailForGoogle(db: Kysely<Database>, email: string) {
  return db.selectFrom('users').select(accountColumns).where('email', '=', email).executeTakeFirst();
}

export async function insertGoogleUser(db: Kysely<Database>, user: NewUser): Promise<UserId> {
  const row = await db.insertInto('users').values(user).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

/** Links only an account that has no Google subject yet: the condition makes a lost race a no-op. */
export async function linkGoogleSub(db: Kysely<Database>, userId: UserId, sub: string): Promise<boolean> {
  const result = await db
    .updateTable('users')
    .set({ google_sub: sub })
    .where('id', '=', userId)
    .where('google_sub', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}
