import type { Kysely } from 'kysely';

// Frozen once merged: later changes go into new migration files.

export async function up(db: Kysely<unknown>): Promise<void> {
  // The search (features/discovery/candidates.ts) seeks this index once per (gender, age) pair of the
  // caller's filter and reads a latitude range inside each, so only people of that gender and age near
  // the caller's latitude are visited; longitude and the reciprocal preference are checked in the index
  // itself, before any table row is read. The latitude-only index made the search walk every profile
  // in the band (another city on the same parallel included): 3 ms before any exclusion, 150 ms for a
  // heavy swiper on the bench data set (scripts/bench-discovery.ts). private_mode stays out: the like
  // transaction's row lock rewrites that column, and every index holding it would be rewritten too.
  await db.schema
    .createIndex('profiles_search')
    .on('profiles')
    .columns(['gender', 'age', 'latitude', 'longitude', 'preferred_gender'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('profiles_search').execute();
}
