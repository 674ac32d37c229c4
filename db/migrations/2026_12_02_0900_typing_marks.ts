import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen once merged: later changes go into new migration files.

/**
 * typing_marks: when each user last had a "typing…" signal sent to a partner (POST
 * /api/conversations/{id}/typing), so that signal goes out at most once every few seconds per sender across
 * every server process (a conditional upsert claims the slot). The signal itself is never stored (the event
 * bus carries it). Unlogged on PostgreSQL like rate_counters: written while people type, and a crash that
 * empties it only lets one extra signal through.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('typing_marks')
    .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('sent_at', 'text', (c) => c.notNull())
    .execute();
  if (db.getExecutor().adapter instanceof PostgresAdapter) await sql`alter table typing_marks set unlogged`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('typing_marks').execute();
}
