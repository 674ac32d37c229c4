import { addSeconds } from '../../clock.ts';
import { freeLikesPerDay } from '../swipes/index.ts';
import { hasOpenFlag, insertFlag } from '../admin/index.ts';
import type { JobContext, JobCounts } from './job.ts';
import { countFreeLikesSince, listLiveDeviceSessions } from './repository.ts';
import type { UserId } from '../../../db/schema.ts';

/**
 * Several free accounts signed in from one device (the sessions' device hash) whose likes of the last day
 * add up to more than one free account may give: each of them is flagged for an admin to look at. The
 * limit is per account, so this is how getting around it shows.
 */
export async function flagSharedDeviceLikes({ db, clock, signal }: JobContext): Promise<JobCounts> {
  const now = clock.now();
  const since = addSeconds(now, -86_400).toISOString();
  const sessions = await listLiveDeviceSessions(db, now.toISOString());
  const devices = new Map<string, Set<UserId>>();
  for (const s of sessions) {
    if (!s.device_hash) continue;
    const users = devices.get(s.device_hash) ?? new Set<UserId>();
    users.add(s.user_id);
    devices.set(s.device_hash, users);
  }
  const shared = [...devices.values()].filter((users) => users.size > 1);
  if (shared.length === 0) return { sharedDevices: 0, flagged: 0 };
  const likes = await countFreeLikesSince(
    db,
    [...new Set(shared.flatMap((users) => [...users]))],
    since,
    now.toISOString(),
  );
  let flagged = 0;
  for (const users of shared) {
    signal?.throwIfAborted();
    const liking = [...users].filter((id) => (likes.get(id) ?? 0) > 0);
    const total = liking.reduce((sum, id) => sum + (likes.get(id) ?? 0), 0);
    if (liking.length < 2 || total <= freeLikesPerDay) continue;
    for (const userId of liking) {
      if (await hasOpenFlag(db, userId, 'shared_device_likes')) continue;
      await insertFlag(db, {
        user_id: userId,
        reason: 'shared_device_likes',
        details: JSON.stringify({ accounts: liking, likes: total }),
        created_at: now.toISOString(),
      });
      flagged += 1;
    }
  }
  return { sharedDevices: shared.length, flagged };
}
