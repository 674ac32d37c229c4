import type { ActiveRecently } from '../../contract/discovery.ts';

/**
 * How recently someone used the app, as others may learn it: coarse on purpose. `profiles.active_at` is
 * written at most once an hour (sessions/service.ts), and nothing finer than these two words leaves the
 * server; the deck's ranking reads the same buckets (search/ranking.ts), so its order cannot be used to
 * learn the hour either.
 */
export const activityBuckets = {
  /** Within the last day. */
  today: 86_400_000,
  /** Within the last week. */
  week: 7 * 86_400_000,
  /** Within the last month: no word for it, but the ranking still tells it from older. */
  month: 30 * 86_400_000,
} as const;

export type ActivityBucket = 'today' | 'week' | 'month' | 'older';

/** Which bucket `activeAt` (ISO, null: never seen since activity was kept) falls in at `now`. */
export function activityBucket(activeAt: string | null, now: Date): ActivityBucket {
  if (activeAt === null) return 'older';
  const ago = now.getTime() - Date.parse(activeAt);
  if (ago < activityBuckets.today) return 'today';
  if (ago < activityBuckets.week) return 'week';
  if (ago < activityBuckets.month) return 'month';
  return 'older';
}

/** What another person is told: null when longer than a week ago, in private mode, or hidden by the person (`show_activity`). */
export function activeRecentlyOf(
  person: { active_at: string | null; private_mode: number; show_activity: number },
  now: Date,
): ActiveRecently {
  if (person.private_mode !== 0 || person.show_activity === 0) return null;
  const bucket = activityBucket(person.active_at, now);
  return bucket === 'today' || bucket === 'week' ? bucket : null;
}
