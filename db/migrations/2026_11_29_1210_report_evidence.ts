import type { Kysely } from 'kysely';

// Frozen once merged: later changes go into new migration files.

/**
 * `reports.evidence`: what the server had recorded between reporter and reported when the report was
 * filed (new_account, unseen, shown, matched, chatted; server/features/safety/reportEvidence.ts weighs
 * them). Reports filed before read `unseen`: nothing was recorded for them, so they weigh nothing and
 * stay in the admins' queue below the weighed ones (a hold they already caused stays until an admin
 * decides). `reports_reporter`: the reports one person filed in the last day, counted on every report
 * for the daily cap.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('reports')
    .addColumn('evidence', 'text', (c) => c.notNull().defaultTo('unseen'))
    .execute();
  await db.schema.createIndex('reports_reporter').on('reports').columns(['reporter_id', 'created_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('reports_reporter').execute();
  await db.schema.alterTable('reports').dropColumn('evidence').execute();
}
