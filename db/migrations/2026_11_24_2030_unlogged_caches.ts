import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen once merged: later changes go into new migration files.

/**
 * PostgreSQL only: `rate_counters` and `search_pools` become unlogged tables. Both are written on hot read
 * paths (every search counts itself and may store its pool; every message and settings change counts
 * itself), and a commit that wrote to a logged table waits for the WAL to reach the disk: about 2 ms per
 * upsert on these machines against 0.11 ms unlogged (pgbench, one client, same upsert). What an unlogged
 * table gives up is fine for both: after a crash of the database server (not a clean restart) they are
 * emptied, so rate windows start afresh and every pool is rebuilt by its owner's next search (a pool is
 * only a hint, re-checked before anything is shown); and a streaming replica does not hold them. Nothing
 * references them. SQLite has no such thing: its writes are cheap in process (synchronous = NORMAL).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`alter table rate_counters set unlogged`.execute(db);
  await sql`alter table search_pools set unlogged`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`alter table search_pools set logged`.execute(db);
  await sql`alter table rate_counters set logged`.execute(db);
}
