import type { Kysely } from 'kysely';
import { PostgresAdapter } from 'kysely';

// Frozen once merged: later changes go into new migration files.

/**
 * Web Push (RFC 8030/8291/8292):
 * - push_keys: the server's VAPID key pair, made on first start and kept, so every process signs alike and a
 *   restart does not orphan the browsers' subscriptions (they are bound to the public key). One row.
 * - push_subscriptions: a browser's PushSubscription for a signed-in user; the endpoint is unique (a browser
 *   that re-subscribes as another account moves to it).
 * - profiles.push_notifications: the menu's switch for this channel (on by default; nothing is sent before
 *   the person subscribes a browser).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  const id = postgres ? 'serial' : 'integer';
  await db.schema
    .createTable('push_keys')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('public_key', 'text', (c) => c.notNull())
    .addColumn('private_key', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('push_subscriptions')
    .addColumn('id', id, (c) => (postgres ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('endpoint', 'text', (c) => c.notNull().unique())
    .addColumn('p256dh', 'text', (c) => c.notNull())
    .addColumn('auth', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('push_subscriptions_user').on('push_subscriptions').column('user_id').execute();
  await db.schema
    .alterTable('profiles')
    .addColumn('push_notifications', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('profiles').dropColumn('push_notifications').execute();
  await db.schema.dropTable('push_subscriptions').execute();
  await db.schema.dropTable('push_keys').execute();
}
