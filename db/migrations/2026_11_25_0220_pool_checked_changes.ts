import type { Kysely } from 'kysely';

// Frozen once merged: later changes go into new migration files.

/**
 * Two columns of `search_pools` (server/features/search/candidatePool.ts):
 * - `checked_changes`: the changes a pool has already re-checked that its next searches still read again
 *   (Pool.checked), as JSON `[[profile id, stamp], ...]`; null when there are none. The change query reads
 *   back a minute before the watermark (a stamp may become visible after a later one), so after a burst of
 *   changes every search in that minute re-checked the same hundreds of people.
 * - `scanned_at`: when the scan that the pool's knowledge goes back to read the neighbourhood whole (Pool.scannedAt);
 *   null for pools from before it. An expired pool's frontier is trusted only for so long after it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('search_pools').addColumn('checked_changes', 'text').execute();
  await db.schema.alterTable('search_pools').addColumn('scanned_at', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('search_pools').dropColumn('scanned_at').execute();
  await db.schema.alterTable('search_pools').dropColumn('checked_changes').execute();
}
