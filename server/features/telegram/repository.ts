import type { Kysely } from 'kysely';
import type { Database, NewUser, UserId } from '../../../db/schema.ts';
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

/** Whether the account has a profile yet (the bot greets a newcomer and a member differently). */
export async function userHasProfile(db: Kysely<Database>, userId: UserId): Promise<boolean> {
  const row = await db.selectFrom('profiles').select('id').where('user_id', '=', userId).executeTakeFirst();
  return row !== undefined;
}

export async function insertTelegramUser(db: Kysely<Database>, user: NewUser): Promise<UserId> {
  const row = await db.insertInto('users').values(user).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export async function updateTelegramUsername(db: Kysely<Database>, userId: UserId, username: string | null) {
  await db.updateTable('users').set({ telegram_username: username }).where('id', '=', userId).execute();
}

export async function setBotStarted(db: Kysely<Database>, telegramId: number, at: Date): Promise<void> {
  await db
    .updateTable('users')
    .set({ bot_started_at: at.toISOString(), bot_unreachable_at: null })
    .where('telegram_id', '=', telegramIdText(telegramId))
    .execute();
}

/** Reachable from now (`bot_started_at` kept when set); a 403 recorded before `asOf` is over, a later one stands. */
export async function setBotWriteAllowed(
  db: Kysely<Database>,
  telegramId: number,
  at: Date,
  asOf: Date,
): Promise<void> {
  const asOfText = asOf.toISOString();
  await db
    .updateTable('users')
    .set((eb) => ({
      bot_started_at: eb.fn.coalesce('bot_started_at', eb.val(at.toISOString())),
      bot_unreachable_at: eb
        .case()
        .when('bot_unreachable_at', '<', asOfText)
        .then(null)
        .else(eb.ref('bot_unreachable_at'))
        .end(),
    }))
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

/** The account language of each of these Telegram users who has an account, keyed by Telegram id text. */
export async function findLanguagesByTelegramIds(
  db: Kysely<Database>,
  telegramIds: readonly number[],
): Promise<Map<string, Language>> {
  if (telegramIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('users')
    .select(['telegram_id', 'language'])
    .where('telegram_id', 'in', telegramIds.map(telegramIdText))
    .execute();
  return new Map(rows.flatMap((r) => (r.telegram_id ? [[r.telegram_id, r.language] as const] : [])));
}

/** Sets the Telegram id of an account that has none; false when it has one already. */
export async function linkTelegramId(
  db: Kysely<Database>,
  userId: UserId,
  telegramId: number,
  username: string | null,
): Promise<boolean> {
  const result = await db
    .updateTable('users')
    .set({ telegram_id: telegramIdText(telegramId), telegram_username: username })
    .where('id', '=', userId)
    .where('telegram_id', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}
