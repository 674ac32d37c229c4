import type { Kysely } from 'kysely';

// Frozen once merged: later changes go into new migration files.

/**
 * `profiles.active_at`: when the person last used the app, written at most once an hour from their
 * sessions' bookkeeping (sessions/service.ts), for the deck's ranking and the coarse "active today / this
 * week" others see (search/activity.ts); null until they come back after this migration. Not stamped into
 * `search_changed_at`: it decides no one's eligibility, only their order (docs/discovery.md).
 * `profiles.show_activity`: 0 hides that line from everyone (settings).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('profiles').addColumn('active_at', 'text').execute();
  await db.schema
    .alterTable('profiles')
    .addColumn('show_activity', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('profiles').dropColumn('show_activity').execute();
  await db.schema.alterTable('profiles').dropColumn('active_at').execute();
}
