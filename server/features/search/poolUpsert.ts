import type { Insertable, QueryCreator } from 'kysely';
import type { Database, SearchPoolsTable } from '../../../db/schema.ts';

/** A stored pool's row as written (CandidatePools.put): the whole row, every column given. */
export type SearchPoolRow = Required<Insertable<SearchPoolsTable>>;

/** The columns of a pool's row, in the order its values are bound. */
export const searchPoolColumns = [
  'profile_id',
  'pool_key',
  'expires_at',
  'bound_km',
  'watermark',
  'candidates',
  'checked_changes',
  'scanned_at',
] as const satisfies readonly (keyof SearchPoolRow)[];

/**
 * The profile's pool, replacing whatever was stored. One atomic statement: two searches of one user at once
 * (two tabs, two processes) never fail on the key, the last one written wins. From `qc`: the database (the
 * upsert alone, repository.ts) or a WITH of the card's read that carries it (candidates.ts). `row` holds the
 * values or their stand-ins (db/prepared.ts).
 */
export function poolUpsertInto(qc: QueryCreator<Database>, row: { [K in keyof SearchPoolRow]: unknown }) {
  return qc
    .insertInto('search_pools')
    .values(row as SearchPoolRow)
    .onConflict((oc) =>
      oc.column('profile_id').doUpdateSet((eb) => ({
        pool_key: eb.ref('excluded.pool_key'),
        expires_at: eb.ref('excluded.expires_at'),
        bound_km: eb.ref('excluded.bound_km'),
        watermark: eb.ref('excluded.watermark'),
        candidates: eb.ref('excluded.candidates'),
        checked_changes: eb.ref('excluded.checked_changes'),
        scanned_at: eb.ref('excluded.scanned_at'),
      })),
    );
}
