import type { Kysely } from 'kysely';
import type { Database, ProfileId } from '../../../db/schema.ts';
import { addSeconds } from '../../clock.ts';

/**
 * For tests: `count` likes of `profileId`, made and undone in the last minutes before `now`, written as undo
 * rows (an undone like still counts against the free allowance), so the next like meets the allowance used.
 */
export async function spendFreeLikes(
  db: Kysely<Database>,
  profileId: ProfileId,
  targetId: ProfileId,
  count: number,
  now: Date,
): Promise<void> {
  await db
    .insertInto('swipe_undos')
    .values(
      Array.from({ length: count }, (_, i) => ({
        profile_id: profileId,
        target_id: targetId,
        created_at: addSeconds(now, -60 - i).toISOString(),
        liked: 1,
      })),
    )
    .execute();
}
