import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import { addSeconds } from '../../clock.ts';

/**
 * Takes the job's lock unless someone else holds an unexpired one. One statement, so two processes racing
 * for it cannot both win: on PostgreSQL the second insert waits for the first and then sees its row; SQLite
 * has one writer. The lease lets the lock of a process that died mid-run lapse instead of blocking forever.
 */
export async function acquireJobLock(db: Kysely<Database>, name: string, holder: string, now: Date, leaseSeconds: number): Promise<boolean> {
  const expires = addSeconds(now, leaseSeconds).toISOString();
  const result = await db
    .insertInto('job_locks')
    .values({ name, holder, expires_at: expires })
    .onConflict((oc) => oc.column('name').doUpdateSet({ holder, expires_at: expires }).where('job_locks.expires_at', '<', now.toISOString()))
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n) === 1;
}

export async function releaseJobLock(db: Kysely<Database>, name: string, holder: string): Promise<void> {
  await db.deleteFrom('job_locks').where('name', '=', name).where('holder', '=', holder).execute();
}
