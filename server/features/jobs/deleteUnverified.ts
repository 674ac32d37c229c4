import { addSeconds } from '../../clock.ts';
import { eraseAccount } from '../dataRights/index.ts';
import type { JobContext, JobCounts } from './job.ts';
import { listUnverifiedUserIdsBefore } from './repository.ts';

export const unverifiedGraceDays = 7;

/**
 * E-mail accounts never confirmed within a week: nobody can sign in to them, and the address may not even
 * belong to whoever typed it. Deleted one by one with everything of theirs, like a requested deletion.
 */
export async function deleteUnverified({ db, clock, photos, logger, signal }: JobContext): Promise<JobCounts> {
  const cutoff = addSeconds(clock.now(), -unverifiedGraceDays * 24 * 3600).toISOString();
  const stale = await listUnverifiedUserIdsBefore(db, cutoff);
  let deleted = 0;
  // A profile needs a verified account, so these had none: nobody had a match with them to be told of.
  const bus = { publish: () => Promise.resolve() };
  for (const id of stale) {
    // Between accounts, each erased in its own transaction: a stopping process ends here, the rest next run.
    signal?.throwIfAborted();
    if (await eraseAccount({ db, photos, clock, bus, logger }, id)) deleted += 1;
  }
  return { deleted };
}
