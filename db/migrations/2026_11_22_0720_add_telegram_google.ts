import type { Kysely } from 'kysely';

// Frozen once merged: later changes go into new migration files.

/**
 * Telegram and Google identities on users. Telegram user ids exceed 32 bits (up to 52), and the two drivers
 * disagree on 64-bit integers (pg returns strings, better-sqlite3 numbers), so the id is stored as its
 * decimal text: the same type, the same comparisons and the same unique index on both databases.
 * SQLite adds one column per ALTER TABLE, hence one statement each.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const column of ['telegram_id', 'telegram_username', 'google_sub', 'bot_started_at', 'bot_unreachable_at']) {
    await db.schema.alterTable('users').addColumn(column, 'text').execute();
  }
  await db.schema.createIndex('users_telegram_id_unique').on('users').column('telegram_id').unique().execute();
  await db.schema.createIndex('users_google_sub_unique').on('users').column('google_sub').unique().execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('users_google_sub_unique').execute();
  await db.schema.dropIndex('users_telegram_id_unique').execute();
  for (const column of ['bot_unreachable_at', 'bot_started_at', 'google_sub', 'telegram_username', 'telegram_id']) {
    await db.schema.alterTable('users').dropColumn(column).execute();
  }
}
