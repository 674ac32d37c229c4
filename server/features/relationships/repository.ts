import { sql, type Kysely, type RawBuilder } from 'kysely';
import { prepared } from '../../../db/prepared.ts';
import type { Database, ProfileId, UserId } from '../../../db/schema.ts';

/**
 * What search, swipes, safety and chat all ask about two people: who the caller is, whether either has
 * blocked the other, whether they are matched. One place, so the rules cannot drift between features.
 */

/** The caller's own profile with what discovery needs about them. */
const myProfile = prepared((db, userId: UserId) =>
  db
    .selectFrom('profiles as p')
    .innerJoin('users as u', 'u.id', 'p.user_id')
    .select(['p.id', 'p.name', 'p.gender', 'p.preferred_gender', 'p.latitude', 'p.longitude', 'u.premium_until'])
    .where('p.user_id', '=', userId),
);
export async function findMyProfile(db: Kysely<Database>, userId: UserId) {
  return myProfile.first(db, userId);
}

const blockEitherWay = prepared((db, a: ProfileId, b: ProfileId) =>
  db
    .selectFrom('blocks')
    .select('blocker_id')
    .where((eb) =>
      eb.or([
        eb.and([eb('blocker_id', '=', a), eb('blocked_id', '=', b)]),
        eb.and([eb('blocker_id', '=', b), eb('blocked_id', '=', a)]),
      ]),
    ),
);
export async function isBlockedEitherWay(db: Kysely<Database>, a: ProfileId, b: ProfileId): Promise<boolean> {
  return (await blockEitherWay.first(db, a, b)) !== undefined;
}

/**
 * "Neither has blocked the other", for lists: `other` is the outer query's profile column. One place for the
 * rule that a block hides both people from each other everywhere.
 */
export const notBlockedWith = (me: ProfileId, other: RawBuilder<unknown>) =>
  sql<boolean>`not exists (select 1 from blocks bl where (bl.blocker_id = ${me} and bl.blocked_id = ${other}) or (bl.blocked_id = ${me} and bl.blocker_id = ${other}))`;

const swipe = prepared((db, swiperId: ProfileId, targetId: ProfileId) =>
  db
    .selectFrom('swipes')
    .select(['liked', 'created_at', 'message'])
    .where('swiper_id', '=', swiperId)
    .where('target_id', '=', targetId),
);
export async function findSwipe(db: Kysely<Database>, swiperId: ProfileId, targetId: ProfileId) {
  return swipe.first(db, swiperId, targetId);
}

export const pair = (a: ProfileId, b: ProfileId) => (a < b ? { low: a, high: b } : { low: b, high: a });

const liveMatch = prepared((db, low: ProfileId, high: ProfileId) =>
  db
    .selectFrom('matches')
    .select(['id', 'created_at'])
    .where('profile_low', '=', low)
    .where('profile_high', '=', high)
    .where('unmatched_at', 'is', null),
);
export async function findLiveMatch(db: Kysely<Database>, a: ProfileId, b: ProfileId) {
  const { low, high } = pair(a, b);
  return liveMatch.first(db, low, high);
}

export async function endMatch(db: Kysely<Database>, a: ProfileId, b: ProfileId, now: string): Promise<number> {
  const { low, high } = pair(a, b);
  const result = await db
    .updateTable('matches')
    // A match's end takes back any @username either side shared in it (issue 39).
    .set({ unmatched_at: now, low_shared_username_at: null, high_shared_username_at: null })
    .where('profile_low', '=', low)
    .where('profile_high', '=', high)
    .where('unmatched_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/**
 * Takes both profiles' row locks in id order, so whatever two people do to each other at the same moment
 * (liking each other, a like and a block) is serialised and the second sees the first's work (no lost
 * match, no match made after a block, no deadlock).
 */
export async function lockPair(db: Kysely<Database>, a: ProfileId, b: ProfileId): Promise<void> {
  const { low, high } = pair(a, b);
  for (const id of [low, high]) {
    await db
      .updateTable('profiles')
      .set((eb) => ({ private_mode: eb.ref('private_mode') }))
      .where('id', '=', id)
      .execute();
  }
}

/** The account of a profile (any standing), for telling its owner's streams. */
export async function findUserOfProfile(db: Kysely<Database>, profileId: ProfileId): Promise<UserId | undefined> {
  return (await db.selectFrom('profiles').select('user_id').where('id', '=', profileId).executeTakeFirst())?.user_id;
}

/** The other people of a profile's live matches, with their accounts. */
export async function listLiveMatchPartners(db: Kysely<Database>, profileId: ProfileId) {
  return db
    .selectFrom('matches as m')
    .innerJoin('profiles as p', (join) =>
      join.on(sql<boolean>`p.id = (case when m.profile_low = ${profileId} then m.profile_high else m.profile_low end)`),
    )
    .select(['p.id as profile_id', 'p.user_id'])
    .where('m.unmatched_at', 'is', null)
    .where((eb) => eb.or([eb('m.profile_low', '=', profileId), eb('m.profile_high', '=', profileId)]))
    .execute();
}

/** The accounts of people this profile liked who have not seen that like yet (it counts on their Likes badge). */
export async function listUnseenLikeTargets(db: Kysely<Database>, profileId: ProfileId): Promise<UserId[]> {
  const rows = await db
    .selectFrom('swipes as l')
    .innerJoin('profiles as p', 'p.id', 'l.target_id')
    .select('p.user_id')
    .where('l.swiper_id', '=', profileId)
    .where('l.liked', '=', 1)
    .where('l.target_seen', '=', 0)
    .execute();
  return rows.map((r) => r.user_id);
}
