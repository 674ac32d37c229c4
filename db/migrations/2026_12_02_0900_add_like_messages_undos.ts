import { sql, type Kysely } from 'kysely';

// Frozen once merged: later changes go into new migration files.

/**
 * Issue 38: a like may carry a message (`swipes.message`, 1 to 200 characters, null for a plain like or a
 * dislike), and a swipe may be taken back (`swipe_undos`: one row per undo, what the free once-a-day
 * allowance counts in a rolling day, and what the swipe was, since an undone like keeps counting against the
 * free like allowances; they go with the profile).
 *
 * `swipes_messages`: the recipient's pending likes with a message, newest first (the likers list puts them on
 * top, the deck shows them next), read by target without touching the plain likes. Partial on both databases.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('swipes').addColumn('message', 'text').execute();
  await db.schema
    .createIndex('swipes_messages')
    .on('swipes')
    .columns(['target_id', 'created_at'])
    .where(sql.ref('message'), 'is not', null)
    .execute();
  await db.schema
    .createTable('swipe_undos')
    .addColumn('profile_id', 'integer', (c) => c.notNull().references('profiles.id').onDelete('cascade'))
    .addColumn('target_id', 'integer', (c) => c.notNull().references('profiles.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    // What the undone swipe was: an undone like still counts against the free like allowances.
    .addColumn('liked', 'integer', (c) => c.notNull())
    .addColumn('had_message', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createIndex('swipe_undos_profile_created')
    .on('swipe_undos')
    .columns(['profile_id', 'created_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('swipe_undos').execute();
  await db.schema.dropIndex('swipes_messages').execute();
  await db.schema.alterTable('swipes').dropColumn('message').execute();
}
