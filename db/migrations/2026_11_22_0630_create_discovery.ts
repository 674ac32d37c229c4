import type { Kysely } from 'kysely';
import { PostgresAdapter } from 'kysely';

// Frozen once merged: later changes go into new migration files.

export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  const id = postgres ? 'serial' : 'integer';

  await db.schema
    .alterTable('profiles')
    .addColumn('private_mode', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('profiles')
    .addColumn('notifications', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  // The blurred copy free users see in their likes list, under its own random name so it cannot be
  // turned back into the name of the sharp photo.
  await db.schema.alterTable('photos').addColumn('blur_name', 'text').execute();
  // Discovery scans a latitude band around the caller first.
  await db.schema
    .createIndex('profiles_latitude_longitude')
    .on('profiles')
    .columns(['latitude', 'longitude'])
    .execute();

  await db.schema
    .createTable('swipes')
    .addColumn('swiper_id', 'integer', (c) => c.notNull().references('profiles.id').onDelete('cascade'))
    .addColumn('target_id', 'integer', (c) => c.notNull().references('profiles.id').onDelete('cascade'))
    .addColumn('liked', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('swipes_pk', ['swiper_id', 'target_id'])
    .execute();
  await db.schema
    .createIndex('swipes_target_liked')
    .on('swipes')
    .columns(['target_id', 'liked', 'swiper_id'])
    .execute();
  await db.schema.createIndex('swipes_swiper_created').on('swipes').columns(['swiper_id', 'created_at']).execute();

  await db.schema
    .createTable('matches')
    .addColumn('id', id, (c) => (postgres ? c.primaryKey() : c.primaryKey().autoIncrement()))
    // The pair is stored ordered (low id, high id), so one unique index makes a second match impossible.
    .addColumn('profile_low', 'integer', (c) => c.notNull().references('profiles.id').onDelete('cascade'))
    .addColumn('profile_high', 'integer', (c) => c.notNull().references('profiles.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('unmatched_at', 'text')
    .addUniqueConstraint('matches_pair_unique', ['profile_low', 'profile_high'])
    .execute();
  await db.schema.createIndex('matches_high').on('matches').column('profile_high').execute();

  await db.schema
    .createTable('blocks')
    .addColumn('blocker_id', 'integer', (c) => c.notNull().references('profiles.id').onDelete('cascade'))
    .addColumn('blocked_id', 'integer', (c) => c.notNull().references('profiles.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('blocks_pk', ['blocker_id', 'blocked_id'])
    .execute();
  await db.schema.createIndex('blocks_blocked').on('blocks').columns(['blocked_id', 'blocker_id']).execute();

  await db.schema
    .createTable('reports')
    .addColumn('id', id, (c) => (postgres ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('reporter_id', 'integer', (c) => c.notNull().references('profiles.id').onDelete('cascade'))
    .addColumn('reported_id', 'integer', (c) => c.notNull().references('profiles.id').onDelete('cascade'))
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('comment', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('resolved_at', 'text')
    .addColumn('resolution', 'text')
    .execute();
  await db.schema.createIndex('reports_reported').on('reports').columns(['reported_id', 'resolved_at']).execute();

  // Fixed-window counters for rate limits that must hold across restarts and server processes.
  await db.schema
    .createTable('rate_counters')
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('window_start', 'text', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('rate_counters_pk', ['key', 'window_start'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['rate_counters', 'reports', 'blocks', 'matches', 'swipes'])
    await db.schema.dropTable(table).execute();
  await db.schema.dropIndex('profiles_latitude_longitude').execute();
  await db.schema.alterTable('photos').dropColumn('blur_name').execute();
  await db.schema.alterTable('profiles').dropColumn('notifications').execute();
  await db.schema.alterTable('profiles').dropColumn('private_mode').execute();
}
