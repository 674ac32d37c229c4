import type { Kysely } from 'kysely';
import type { Database, NewUser } from '../../../db/schema.ts';
import type { Language } from '../../../locales/index.ts';

/** Telegram ids are stored as decimal text (see the migration); this is the one place that converts. */
export const telegramIdText = (id: number): string => String(id);

export async function findUserByTelegramId(db: Kysely<Database>, telegramId: number) {
  return db
    .selectFrom('users')
    .select(['id', 'language', 'banned_at', 'telegram_username', 'bot_started_at', 'bot_unreachable_at'])
    .where('telegram_id', '=', telegramIdText(telegramId))
    .executeTakeFirst();
}

export async function insertTelegramUser(db: Kysely<Database>, user: NewUser): Promise<number> {
  const row = await db.insertInto('users').values(user).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export async function updateTelegramUsername(db: Kysely<Database>, userId: number, username: string | null) {
  await db.updateTable('users').set({ telegram_username: username }).where('id', '=', userId).execute();
}

export async function setBotStarted(db: Kysely<Database>, telegramId: number, at: Date): Promise<void> {
  await db
    .updateTable('users')
    .set({ bot_started_at: at.toISOString(), bot_unreachable_at: null })
    .where('telegram_id', '=', telegramIdText(telegramId))
    .execute();
}

export async function setBotUnreachable(db: Kysely<Database>, telegramId: number, at: Date): Promise<void> {
  await db
    .updateTable('users')
    .set({ bot_unreachable_at: at.toISOString() })
    .where('telegram_id', '=', telegramIdText(telegramId))
    .execute();
}

export async function setLanguageByTelegramId(db: Kysely<Database>, telegramId: number, language: Language) {
  await db.updateTable('users').set({ language }).where('telegram_id', '=', telegramIdText(telegramId)).execute();
}
