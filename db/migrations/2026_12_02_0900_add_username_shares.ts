import type { Kysely } from 'kysely';

// Frozen once merged: later changes go into new migration files.

/**
 * `matches.low_shared_username_at`, `matches.high_shared_username_at`: when each side of a match agreed to
 * show the other their Telegram @username (POST /api/share_username). On the match row, so a share exists
 * only inside a live match: unmatching or blocking clears both (endMatch), and account deletion removes the
 * row with the profile (the cascade). The pair cannot match again (the unique index), so a share never
 * survives into a second match.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('matches').addColumn('low_shared_username_at', 'text').execute();
  await db.schema.alterTable('matches').addColumn('high_shared_username_at', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('matches').dropColumn('high_shared_username_at').execute();
  await db.schema.alterTable('matches').dropColumn('low_shared_username_at').execute();
}
