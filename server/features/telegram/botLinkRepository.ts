import type { Kysely } from 'kysely';
import type { Database, UserId } from '../../../db/schema.ts';

/** A new link token (its hash); earlier unused ones of the user end, so only the newest link works. */
export async function insertLinkToken(
  db: Kysely<Database>,
  userId: UserId,
  tokenHash: string,
  now: string,
  expiresAt: string,
): Promise<void> {
  await db.deleteFrom('telegram_link_tokens').where('user_id', '=', userId).where('used_at', 'is', null).execute();
  await db
    .insertInto('telegram_link_tokens')
    .values({ token_hash: tokenHash, user_id: userId, created_at: now, expires_at: expiresAt, used_at: null })
    .execute();
}

/**
 * Uses up a live token: the one conditional update decides, so two /start taps with the same link cannot
 * both pass. Answers the account the token was made for, or undefined (unknown, expired or used).
 */
export async function consumeLinkToken(
  db: Kysely<Database>,
  tokenHash: string,
  now: string,
): Promise<UserId | undefined> {
  const row = await db
    .updateTable('telegram_link_tokens')
    .set({ used_at: now })
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returning('user_id')
    .executeTakeFirst();
  return row?.user_id;
}

export async function findLanguage(db: Kysely<Database>, userId: UserId) {
  return db.selectFrom('users').select('language').where('id', '=', userId).executeTakeFirst();
}

/** The account a live token was made for (unused, unexpired), without using it up: the bot asks first. */
export async function findLiveLinkToken(db: Kysely<Database>, tokenHash: string, now: string) {
  return db
    .selectFrom('telegram_link_tokens as t')
    .innerJoin('users as u', 'u.id', 't.user_id')
    .select(['u.email', 'u.language'])
    .where('t.token_hash', '=', tokenHash)
    .where('t.used_at', 'is', null)
    .where('t.expires_at', '>', now)
    .executeTakeFirst();
}
