import type { Kysely } from 'kysely';

// Frozen once merged: later changes go into new migration files.

/**
 * `rate_counters.previous`: the count of the key's previous window, read when a call counts in the current
 * one (server/features/rateLimits/rateCounter.ts). A limit is then held over a sliding window, estimated from
 * the previous window's count weighted by how much of it the sliding window still covers (as Cloudflare and
 * nginx do): fixed windows let twice the limit through across a window boundary (120 searches in 2.3 s
 * against 60 a minute).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('rate_counters')
    .addColumn('previous', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('rate_counters').dropColumn('previous').execute();
}
