import type { Kysely } from 'kysely';
import { PostgresAdapter } from 'kysely';

// Frozen once merged: later changes go into new migration files.

export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  const id = postgres ? 'serial' : 'integer';
  await db.schema
    .createTable('job_runs')
    .addColumn('id', id, (c) => (postgres ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('name', 'text', (c) => c.notNull())
    // Which process ran it (host and pid), to tell two servers' runs apart.
    .addColumn('runner', 'text', (c) => c.notNull())
    .addColumn('started_at', 'text', (c) => c.notNull())
    .addColumn('finished_at', 'text')
    // running | ok | failed | skipped (another process held the lock)
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('counts', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('error', 'text')
    .execute();
  await db.schema.createIndex('job_runs_name_started').on('job_runs').columns(['name', 'started_at']).execute();

  // One row per job while it runs; the lease lets a crashed holder's lock lapse instead of blocking forever.
  await db.schema
    .createTable('job_locks')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('holder', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();

  // Set when the third different user reports the profile: hidden from search until an admin decides.
  await db.schema.alterTable('profiles').addColumn('held_at', 'text').execute();
  // The premium end a reminder was sent for, so each renewal gets one reminder and no more.
  await db.schema.alterTable('users').addColumn('premium_reminded_for', 'text').execute();

  // Keyed hash of the address and browser a session signed in from (features/sessions/service.ts).
  await db.schema.alterTable('sessions').addColumn('device_hash', 'text').execute();
  await db.schema.createIndex('sessions_device').on('sessions').column('device_hash').execute();

  await db.schema
    .createTable('moderation_flags')
    .addColumn('id', id, (c) => (postgres ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    // repeated_first_message | ...
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('details', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('resolved_at', 'text')
    .execute();
  await db.schema
    .createIndex('moderation_flags_open')
    .on('moderation_flags')
    .columns(['resolved_at', 'created_at'])
    .execute();
  await db.schema
    .createIndex('moderation_flags_user_reason')
    .on('moderation_flags')
    .columns(['user_id', 'reason'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('moderation_flags').execute();
  await db.schema.dropIndex('sessions_device').execute();
  await db.schema.alterTable('sessions').dropColumn('device_hash').execute();
  await db.schema.alterTable('users').dropColumn('premium_reminded_for').execute();
  await db.schema.alterTable('profiles').dropColumn('held_at').execute();
  await db.schema.dropTable('job_locks').execute();
  await db.schema.dropTable('job_runs').execute();
}
