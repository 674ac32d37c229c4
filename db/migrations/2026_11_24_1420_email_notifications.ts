import type { Kysely } from 'kysely';

// Frozen once merged: later changes go into new migration files.

/**
 * E-mail notifications for web-only users and the bot's one-time link to a web account:
 * - profiles.email_notifications: the menu's second switch (the first, `notifications`, is the bot's);
 * - notification_jobs.channel ('bot' | 'email'): e-mails share the outbox and its worker with bot messages;
 * - notification_jobs.sending_at: set just before the mail leaves, so a worker killed between sending and
 *   settling never sends it again (the job is settled as `interrupted` instead);
 * - telegram_link_tokens: `t.me/<bot>?start=link_<token>`, single use and short-lived, kept as SHA-256 only.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('profiles')
    .addColumn('email_notifications', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema
    .alterTable('notification_jobs')
    .addColumn('channel', 'text', (c) => c.notNull().defaultTo('bot'))
    .execute();
  await db.schema.alterTable('notification_jobs').addColumn('sending_at', 'text').execute();
  await db.schema
    .createIndex('notification_jobs_user_sent')
    .on('notification_jobs')
    .columns(['user_id', 'channel', 'done_at'])
    .execute();
  await db.schema
    .createTable('telegram_link_tokens')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .execute();
  await db.schema.createIndex('telegram_link_tokens_user').on('telegram_link_tokens').column('user_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('telegram_link_tokens').execute();
  await db.schema.dropIndex('notification_jobs_user_sent').execute();
  await db.schema.alterTable('notification_jobs').dropColumn('sending_at').execute();
  await db.schema.alterTable('notification_jobs').dropColumn('channel').execute();
  await db.schema.alterTable('profiles').dropColumn('email_notifications').execute();
}
