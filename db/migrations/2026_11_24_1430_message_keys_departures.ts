import type { Kysely } from 'kysely';

// Frozen once merged: later changes go into new migration files.

/**
 * Issue #20 (no dead ends in the chat):
 *
 * - `messages.client_key`: the sender's app names each message it sends, and sends it again under the same
 *   name when the answer was lost (a dropped connection): one per sender, so a repeat finds the message
 *   already written instead of writing it twice. Null for messages sent without one.
 * - `departed_conversations`: a conversation that ended because the other person deleted their profile (or
 *   account). The conversation itself goes with them (cascades); this row only lets the one who stays be
 *   told so, instead of "not found". It names no one: the conversation id and the profile who stays.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('messages').addColumn('client_key', 'text').execute();
  // Several NULLs are allowed by a unique index on both SQLite and PostgreSQL.
  await db.schema
    .createIndex('messages_sender_client_key')
    .on('messages')
    .columns(['sender_id', 'client_key'])
    .unique()
    .execute();

  await db.schema
    .createTable('departed_conversations')
    .addColumn('conversation_id', 'integer', (c) => c.notNull())
    .addColumn('profile_id', 'integer', (c) => c.notNull().references('profiles.id').onDelete('cascade'))
    .addColumn('departed_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('departed_conversations_pk', ['conversation_id', 'profile_id'])
    .execute();
  await db.schema
    .createIndex('departed_conversations_profile')
    .on('departed_conversations')
    .columns(['profile_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('departed_conversations').execute();
  await db.schema.dropIndex('messages_sender_client_key').execute();
  await db.schema.alterTable('messages').dropColumn('client_key').execute();
}
