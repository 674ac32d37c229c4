import { sql, type Kysely } from 'kysely';
import type { Database, ProfileId } from '../../../db/schema.ts';
import { pair } from '../relationships/index.ts';

/** The match row's column that holds `me`'s consent: the pair is stored ordered (low id, high id). */
const consentColumn = (me: ProfileId, other: ProfileId) =>
  pair(me, other).low === me ? 'low_shared_username_at' : 'high_shared_username_at';

/**
 * The swap between `me` and `other` inside their live match: when each agreed, and both Telegram usernames
 * (the caller's own decides whether they can share; the other's is shown only once both agreed).
 * Undefined when there is no live match.
 */
export async function findUsernameSwap(db: Kysely<Database>, me: ProfileId, other: ProfileId) {
  const { low, high } = pair(me, other);
  const row = await db
    .selectFrom('matches as m')
    .innerJoin('profiles as pl', 'pl.id', 'm.profile_low')
    .innerJoin('users as ul', 'ul.id', 'pl.user_id')
    .innerJoin('profiles as ph', 'ph.id', 'm.profile_high')
    .innerJoin('users as uh', 'uh.id', 'ph.user_id')
    .select([
      'm.low_shared_username_at',
      'm.high_shared_username_at',
      'ul.telegram_username as low_username',
      'uh.telegram_username as high_username',
    ])
    .where('m.profile_low', '=', low)
    .where('m.profile_high', '=', high)
    .where('m.unmatched_at', 'is', null)
    .executeTakeFirst();
  if (!row) return undefined;
  const meLow = low === me;
  return {
    mineAt: meLow ? row.low_shared_username_at : row.high_shared_username_at,
    theirsAt: meLow ? row.high_shared_username_at : row.low_shared_username_at,
    myUsername: meLow ? row.low_username : row.high_username,
    theirUsername: meLow ? row.high_username : row.low_username,
  };
}

/**
 * Records (`at`) or takes back (null) `me`'s consent in the live match with `other`; 0 when there is no live
 * match. A first consent keeps its time: sharing twice changes nothing.
 */
export async function setUsernameConsent(
  db: Kysely<Database>,
  me: ProfileId,
  other: ProfileId,
  at: string | null,
): Promise<number> {
  const { low, high } = pair(me, other);
  const column = consentColumn(me, other);
  const value = at === null ? null : sql<string>`coalesce(${sql.ref(column)}, ${at})`;
  const result = await db
    .updateTable('matches')
    .set(column === 'low_shared_username_at' ? { low_shared_username_at: value } : { high_shared_username_at: value })
    .where('profile_low', '=', low)
    .where('profile_high', '=', high)
    .where('unmatched_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
