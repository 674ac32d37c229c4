import type { Kysely } from 'kysely';
import type { Database, ProfileId } from '../../../db/schema.ts';

export async function profileExists(db: Kysely<Database>, profileId: ProfileId): Promise<boolean> {
  return (await db.selectFrom('profiles').select('id').where('id', '=', profileId).executeTakeFirst()) !== undefined;
}

export async function insertBlock(db: Kysely<Database>, blocker: ProfileId, blocked: ProfileId, now: string): Promise<void> {
  await db
    .insertInto('blocks')
    .values({ blocker_id: blocker, blocked_id: blocked, created_at: now })
    .onConflict((oc) => oc.columns(['blocker_id', 'blocked_id']).doNothing())
    .execute();
}

/** Different people whose reports against a profile wait for an admin before it is held from search. */
export const holdAfterReporters = 3;

/**
 * Files a report; the third different reporter with an open report holds the profile out of search until
 * an admin decides. Answers the report's id.
 */
export async function insertReport(
  db: Kysely<Database>,
  report: { reporter_id: ProfileId; reported_id: ProfileId; reason: Database['reports']['reason']; comment: string; created_at: string },
): Promise<number> {
  const { id } = await db
    .insertInto('reports')
    .values({ ...report, resolved_at: null, resolution: null })
    .returning('id')
    .executeTakeFirstOrThrow();
  const { reporters } = await db
    .selectFrom('reports')
    .select((eb) => eb.fn.count<string | number>('reporter_id').distinct().as('reporters'))
    .where('reported_id', '=', report.reported_id)
    .where('resolved_at', 'is', null)
    .executeTakeFirstOrThrow();
  if (Number(reporters) >= holdAfterReporters) {
    await db.updateTable('profiles').set({ held_at: report.created_at }).where('id', '=', report.reported_id).where('held_at', 'is', null).execute();
  }
  return id;
}
