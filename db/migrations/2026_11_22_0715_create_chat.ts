import type { Kysely } from 'kysely';
import { PostgresAdapter } from 'kysely';

// Frozen once merged: later changes go into new migration files.

export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  const id = postgres ? 'serial' : 'integer';

  await db.schema
    .createTable('conversations')
    .addColumn('id', id, (c) => (postgres ? c.primaryKey() : c.primaryKey().autoIncrement()))
    // One conversation per match; it lives and dies with the match (unmatch hides it, deletion removes it).
    .addColumn('match_id', 'integer', (c) => c.notNull().unique().references('matches.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_message_at', 'text')
    .execute();

  await db.schema
    .createTable('messages')
    .addColumn('id', id, (c) => (postgres ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('conversation_id', 'integer', (c) => c.notNull().references('conversations.id').onDelete('cascade'))
    .addColumn('sender_id', 'integer', (c) => c.notNull().references('profiles.id').onDelete('cascade'))
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('read_at', 'text')
    .execute();
  await db.schema.createIndex('messages_conversation_id').on('messages').columns(['conversation_id', 'id']).execute();
  await db.schema.createIndex('messages_sender_created').on('messages').columns(['sender_id', 'created_at']).execute();

  // What each user's open tabs are told (message, match, read), kept so a reconnecting tab can resume
  // from its Last-Event-ID without missing anything.
  await db.schema
    .createTable('events')
    .addColumn('id', id, (c) => (postgres ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('events_user_id').on('events').columns(['user_id', 'id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['events', 'messages', 'conversations']) await db.schema.dropTable(table).execute();
}
