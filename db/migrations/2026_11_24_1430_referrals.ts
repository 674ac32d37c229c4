import type { Kysely } from 'kysely';

// Frozen once merged: later changes go into new migration files.

/**
 * Invite a friend. `referral_codes`: each account's code for its invitation links, made on first demand
 * (random, so it neither reveals nor lets anyone guess a user id). `referrals`: who an account signed up
 * through, at most once per account (the primary key), for the admins' sign-ups per code.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('referral_codes')
    .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('code', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('referrals')
    .addColumn('referred_user_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('referrer_user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('code', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('referrals_code_created').on('referrals').columns(['code', 'created_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('referrals').execute();
  await db.schema.dropTable('referral_codes').execute();
}
