import { createECDH } from 'node:crypto';
import type { Kysely } from 'kysely';
import { PostgresAdapter, sql } from 'kysely';

// Frozen once merged: later changes go into new migration files.

/**
 * Web Push (RFC 8030/8291/8292):
 * - push_keys: the server's VAPID key pair (a P-256 pair, base64url as the web-push package writes it), made
 *   here, at the first start's migration, and kept, so every process signs alike and a restart does not orphan
 *   the browsers' subscriptions (they are bound to the public key). One row.
 * - push_subscriptions: a browser's PushSubscription for a signed-in session; the endpoint is unique (a browser
 *   that re-subscribes as another account moves to it), and the row goes with the session that made it: a
 *   sign-out (here or "everywhere"), a password change or a ban stops the pushes to that browser.
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
    .addColumn('session_hash', 'text', (c) => c.notNull().references('sessions.id_hash').onDelete('cascade'))
    .addColumn('endpoint', 'text', (c) => c.notNull().unique())
    .addColumn('p256dh', 'text', (c) => c.notNull())
    .addColumn('auth', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('push_subscriptions_user').on('push_subscriptions').column('user_id').execute();
  await db.schema.createIndex('push_subscriptions_session').on('push_subscriptions').column('session_hash').execute();
  const pair = createECDH('prime256v1');
  pair.generateKeys();
  // 32 bytes always (a key with leading zero bytes comes back shorter), as RFC 8292 signers expect.
  const privateKey = Buffer.concat([Buffer.alloc(32), pair.getPrivateKey()]).subarray(-32);
  const [publicKey, secret, now] = [
    pair.getPublicKey().toString('base64url'),
    privateKey.toString('base64url'),
    new Date().toISOString(),
  ];
  await sql`insert into push_keys (id, public_key, private_key, created_at) values (1, ${publicKey}, ${secret}, ${now})`.execute(
    db,
  );
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
