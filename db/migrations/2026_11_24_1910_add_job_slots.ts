import type { Kysely } from 'kysely';

// Frozen once merged: later changes go into new migration files.

/**
 * `job_locks.last_slot`: the cron slot (its scheduled time, ISO) a job last ran for. With several worker
 * processes, cron fires the same slot in each; a lock released at the end of a quick run would let a worker
 * firing a moment later run the job again. The slot makes the second one see that this slot was done.
 * `job_runs.slot`: which firing a run (or a skip) was for, so the record shows each slot ran once.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('job_locks').addColumn('last_slot', 'text').execute();
  await db.schema.alterTable('job_runs').addColumn('slot', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('job_runs').dropColumn('slot').execute();
  await db.schema.alterTable('job_locks').dropColumn('last_slot').execute();
}
