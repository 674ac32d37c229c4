import type { Kysely } from 'kysely';

// Frozen once merged: later changes go into new migration files.

/**
 * session_handovers: one-time codes that hand a signed-in session over to another browser (the token page,
 * /token#code=…), redeemed by POST. Kept as SHA-256 only, short-lived, single use, and bound to the session
 * that made them: when that session ends, its codes go with it (the cascade).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('session_handovers')
    .addColumn('code_hash', 'text', (c) => c.primaryKey())
    .addColumn('session_hash', 'text', (c) => c.notNull().references('sessions.id_hash').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('session_handovers_session').on('session_handovers').column('session_hash').execute();
  await db.schema.createIndex('session_handovers_user').on('session_handovers').column('user_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('session_handovers').execute();
}
