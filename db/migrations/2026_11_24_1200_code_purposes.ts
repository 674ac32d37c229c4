import type { Kysely } from 'kysely';

// Frozen once merged: later changes go into new migration files.

/**
 * `verification_codes.purpose`: the e-mail codes of every kind share one table and one machinery
 * (hashing, expiry, wrong tries, cooldown, hourly cap; features/verification/codes.ts), and each kind
 * counts only its own codes: `verify` (the address at sign-up) and `reset` (a forgotten password).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('verification_codes')
    .addColumn('purpose', 'text', (c) => c.notNull().defaultTo('verify'))
    .execute();
  await db.schema
    .createIndex('verification_codes_purpose_user')
    .on('verification_codes')
    .columns(['purpose', 'user_id', 'id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('verification_codes_purpose_user').execute();
  await db.schema.alterTable('verification_codes').dropColumn('purpose').execute();
}
