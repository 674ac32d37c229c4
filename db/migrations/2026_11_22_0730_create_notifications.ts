import type { Kysely } from 'kysely';
import { PostgresAdapter } from 'kysely';

// Frozen once merged: later changes go into new migration files.

export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  const id = postgres ? 'serial' : 'integer';

  // Refreshed by the open event streams' heartbeats: "online in the app" for every server process.
  await db.schema.alterTable('users').addColumn('online_until', 'text').execute();

  // Bot notifications waiting to be sent: written in the same transaction as the like or message, sent by
  // a worker, so Telegram being slow or down never slows or fails the request, and a restart loses nothing.
  await db.schema
    .createTable('notification_jobs')
    .addColumn('id', id, (c) => (postgres ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('conversation_id', 'integer', (c) => c.references('conversations.id').onDelete('cascade'))
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('next_attempt_at', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('done_at', 'text')
    .addColumn('outcome', 'text')
    .execute();
  await db.schema
    .createIndex('notification_jobs_due')
    .on('notification_jobs')
    .columns(['done_at', 'next_attempt_at'])
    .execute();
  await db.schema
    .createIndex('notification_jobs_throttle')
    .on('notification_jobs')
    .columns(['user_id', 'conversation_id', 'created_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('notification_jobs').execute();
  await db.schema.alterTable('users').dropColumn('online_until').execute();
}
