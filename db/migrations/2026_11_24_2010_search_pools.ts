import { PostgresAdapter, type Kysely } from 'kysely';

// Frozen once merged: later changes go into new migration files.

/**
 * `search_pools`: each profile's discovery pool and frontier (server/features/search/candidatePool.ts),
 * kept in the database so that every web process continues the same frontier and a restart forgets
 * nothing. One row per profile, overwritten by each new pool; expired rows are ignored on read and
 * removed by the cleanup job; the row goes with its profile. `candidates`: the ranked people packed
 * (ids, then flat distances, then scores, little-endian), 20 bytes each, at most 200 of them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable('search_pools')
    .addColumn('profile_id', 'integer', (c) => c.primaryKey().references('profiles.id').onDelete('cascade'))
    .addColumn('pool_key', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('bound_km', postgres ? 'double precision' : 'real', (c) => c.notNull())
    .addColumn('watermark', 'text')
    .addColumn('candidates', postgres ? 'bytea' : 'blob', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('search_pools_expires').on('search_pools').column('expires_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('search_pools').execute();
}
