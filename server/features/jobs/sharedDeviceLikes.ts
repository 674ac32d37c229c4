import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import { addSeconds } from '../../clock.ts';
import { freeLikesPerDay } from '../swipes/rules.ts';
import type { JobContext, JobCounts } from './job.ts';

const batchSize = 500;

async function likesToday(db: Kysely<Database>, userIds: number[], since: string, now: string): Promise<Map<number, number>> {
  const counts = new Map<number, number>();
  for (let i = 0; i < userIds.length; i += batchSize) {
    const rows = await db
      .selectFrom('swipes as w')
      .innerJoin('profiles as p', 'p.id', 'w.swiper_id')
      .innerJoin('users as u', 'u.id', 'p.user_id')
      .select((eb) => ['p.user_id', eb.fn.countAll<string | number>().as('likes')])
      .where('p.user_id', 'in', userIds.slice(i, i + batchSize))
      .where('w.liked', '=', 1)
      .where('w.created_at', '>=', since)
      // Premium accounts have no limit to get around.
      .where((eb) => eb.or([eb('u.premium_until', 'is', null), eb('u.premium_until', '<=', now)]))
      .groupBy('p.user_id')
      .execute();
    for (const r of rows) counts.set(r.user_id, Number(r.likes));
  }
  return counts;
}

/**
 * Several free accounts signed in from one device (the sessions' device hash) whose likes of the last day
 * add up to more than one free account may give: each of them is flagged for an admin to look at. The
 * limit is per account, so this is how getting around it shows.
 */
export async function flagSharedDeviceLikes({ db, clock }: JobContext): Promise<JobCounts> {
  const now = clock.now();
  const since = addSeconds(now, -86_400).toISOString();
  const sessions = await db.selectFrom('sessions').select(['device_hash', 'user_id']).distinct().where('device_hash', 'is not', null).where('expires_at', '>', now.toISOString()).execute();
  const devices = new Map<string, Set<number>>();
  for (const s of sessions) {
    if (!s.device_hash) continue;
    const users = devices.get(s.device_hash) ?? new Set<number>();
    users.add(s.user_id);
    devices.set(s.device_hash, users);
  }
  const shared = [...devices.values()].filter((users) => users.size > 1);
  if (shared.length === 0) return { sharedDevices: 0, flagged: 0 };
  const likes = await likesToday(db, [...new Set(shared.flatMap((users) => [...users]))], since, now.toISOString());
  let flagged = 0;
  for (const users of shared) {
    const liking = [...users].filter((id) => (likes.get(id) ?? 0) > 0);
    const total = liking.reduce((sum, id) => sum + (likes.get(id) ?? 0), 0);
    if (liking.length < 2 || total <= freeLikesPerDay) continue;
    for (const userId of liking) {
      const open = await db.selectFrom('moderation_flags').select('id').where('user_id', '=', userId).where('reason', '=', 'shared_device_likes').where('resolved_at', 'is', null).executeTakeFirst();
      if (open) continue;
      await db
        .insertInto('moderation_flags')
        .values({ user_id: userId, reason: 'shared_device_likes', details: JSON.stringify({ accounts: liking, likes: total }), created_at: now.toISOString(), resolved_at: null })
        .execute();
      flagged += 1;
    }
  }
  return { sharedDevices: shared.length, flagged };
}
