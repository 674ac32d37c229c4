import type { Insertable, Kysely } from 'kysely';
import type { Database, ProfileId, SearchPoolsTable } from '../../../db/schema.ts';

/** The stored discovery pool of a profile (expired or not: the caller decides), by primary key. */
export async function findSearchPool(db: Kysely<Database>, profileId: ProfileId) {
  return db
    .selectFrom('search_pools')
    .select(['pool_key', 'expires_at', 'bound_km', 'watermark', 'candidates'])
    .where('profile_id', '=', profileId)
    .executeTakeFirst();
}

/**
 * The profile's pool, replacing whatever was stored. One atomic statement: two searches of one user at once
 * (two tabs, two processes) never fail on the key, the last one written wins.
 */
export async function upsertSearchPool(db: Kysely<Database>, row: Insertable<SearchPoolsTable>): Promise<void> {
  await db
    .insertInto('search_pools')
    .values(row)
    .onConflict((oc) =>
      oc.column('profile_id').doUpdateSet((eb) => ({
        pool_key: eb.ref('excluded.pool_key'),
        expires_at: eb.ref('excluded.expires_at'),
        bound_km: eb.ref('excluded.bound_km'),
        watermark: eb.ref('excluded.watermark'),
        candidates: eb.ref('excluded.candidates'),
      })),
    )
    .execute();
}

export async function deleteSearchPool(db: Kysely<Database>, profileId: ProfileId): Promise<void> {
  await db.deleteFrom('search_pools').where('profile_id', '=', profileId).execute();
}
