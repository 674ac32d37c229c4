import type { Kysely } from 'kysely';
import type { Database, UserId } from '../../../db/schema.ts';

/** Where a notice of an account change can reach its owner: the address (if proven) and the bot (if started). */
export async function findAlertRecipient(db: Kysely<Database>, userId: UserId) {
  return db
    .selectFrom('users')
    .select(['email', 'verified_at', 'telegram_id', 'bot_started_at', 'bot_unreachable_at', 'language'])
    .where('id', '=', userId)
    .executeTakeFirst();
}
