import type { Kysely } from 'kysely';
import type { Database, ProfileId, UserId } from '../../../db/schema.ts';
import { insertBadgeMarkers, insertEvents } from '../events/index.ts';
import { raiseMatchSeen } from './repository.ts';

/**
 * Raises the user's mark of a live match to `level` (1: its overlay was shown; 2: opened, which implies
 * shown) and writes what the user's streams hear of it: `match_seen` the first time it counts as shown (the
 * other devices close their overlay, and it is never replayed) and `badges`. Marks only rise, so repeating
 * one changes nothing. Answers whether anything changed: then the user's streams need waking after the
 * commit. Run it inside the caller's transaction.
 */
export async function markMatch(
  db: Kysely<Database>,
  me: { userId: UserId; profileId: ProfileId },
  match: { id: number; otherId: ProfileId },
  level: 1 | 2,
  now: string,
): Promise<boolean> {
  const side = me.profileId < match.otherId ? 'low' : 'high';
  const firstShown = await raiseMatchSeen(db, match.id, side, 0, level);
  const changed = firstShown || (level === 2 && (await raiseMatchSeen(db, match.id, side, 1, 2)));
  if (firstShown)
    await insertEvents(db, [{ userId: me.userId, type: 'match_seen', payload: { profile_id: match.otherId } }], now);
  if (changed) await insertBadgeMarkers(db, [me.userId], now);
  return changed;
}
