import type { Kysely } from 'kysely';
import type { Database, MatchSeen } from '../../../db/schema.ts';
import type { BadgeCounts } from '../../contract/badges.ts';
import { countUnreadChats } from '../chat/repository.ts';
import { findMyProfile } from '../relationships/repository.ts';
import { countNewLikers, countNewMatches } from '../swipes/repository.ts';

const noBadges: BadgeCounts = { unread_chats: 0, new_matches: 0, new_likers: 0 };

/**
 * The user's three badge counts in one statement, by the same rules as the chat, matches and likers lists
 * (each count is built from its list's query); all zero without a profile.
 */
export async function badgeCountsOf(db: Kysely<Database>, userId: number): Promise<BadgeCounts> {
  const me = await findMyProfile(db, userId);
  if (!me) return noBadges;
  const row = await db
    .selectNoFrom([countUnreadChats(db, me.id).as('unread_chats'), countNewMatches(db, me.id).as('new_matches'), countNewLikers(db, me.id).as('new_likers')])
    .executeTakeFirstOrThrow();
  return { unread_chats: Number(row.unread_chats), new_matches: Number(row.new_matches), new_likers: Number(row.new_likers) };
}

/** Of these people, those whose live match with the user has not been shown to the user yet (its overlay is still due). */
export async function matchesStillToAnnounce(db: Kysely<Database>, userId: number, partners: readonly number[]): Promise<Set<number>> {
  const me = await findMyProfile(db, userId);
  const others = [...new Set(partners)];
  if (!me || others.length === 0) return new Set();
  const rows = await db
    .selectFrom('matches')
    .select(['profile_low', 'profile_high'])
    .where('unmatched_at', 'is', null)
    .where((eb) =>
      eb.or([
        eb.and([eb('profile_low', '=', me.id), eb('profile_high', 'in', others), eb('low_seen', '=', 0)]),
        eb.and([eb('profile_high', '=', me.id), eb('profile_low', 'in', others), eb('high_seen', '=', 0)]),
      ]),
    )
    .execute();
  return new Set(rows.map((r) => (r.profile_low === me.id ? r.profile_high : r.profile_low)));
}

/**
 * Moves one side's mark of a match from `from` to `to`, only if it is at `from` now: one conditional write,
 * so of parallel marks exactly one sees the change. Answers whether it changed.
 */
export async function raiseMatchSeen(db: Kysely<Database>, matchId: number, side: 'low' | 'high', from: MatchSeen, to: MatchSeen): Promise<boolean> {
  const column = side === 'low' ? 'low_seen' : 'high_seen';
  const result = await db
    .updateTable('matches')
    .set(side === 'low' ? { low_seen: to } : { high_seen: to })
    .where('id', '=', matchId)
    .where(column, '=', from)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
