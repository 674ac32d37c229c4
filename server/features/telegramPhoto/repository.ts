import type { Kysely } from 'kysely';
import type { Database, UserId } from '../../../db/schema.ts';

/** The account's Telegram user id, when it has one (stored as decimal text). */
export async function findTelegramId(db: Kysely<Database>, userId: UserId): Promise<number | null> {
  const row = await db.selectFrom('users').select('telegram_id').where('id', '=', userId).executeTakeFirst();
  return row?.telegram_id ? Number(row.telegram_id) : null;
}
