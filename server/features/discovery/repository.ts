import { sql, type Kysely, type RawBuilder } from 'kysely';
import { prepared } from '../../../db/prepared.ts';
import type { Database, PreferredGender } from '../../../db/schema.ts';

/** The caller's own profile with what discovery needs about them. */
const myProfile = prepared((db, userId: number) =>
  db
    .selectFrom('profiles as p')
    .innerJoin('users as u', 'u.id', 'p.user_id')
    .select(['p.id', 'p.name', 'p.gender', 'p.preferred_gender', 'p.latitude', 'p.longitude', 'u.premium_until'])
    .where('p.user_id', '=', userId),
);
export async function findMyProfile(db: Kysely<Database>, userId: number) {
  return myProfile.first(db, userId);
}

/** Another person's profile, only if their account is in good standing (verified, not banned). */
const visibleProfile = prepared((db, profileId: number) =>
  db
    .selectFrom('profiles as p')
    .innerJoin('users as u', 'u.id', 'p.user_id')
    .select(['p.id', 'p.user_id', 'p.name', 'p.age', 'p.city', 'p.gender', 'p.bio', 'p.latitude', 'p.longitude'])
    .where('p.id', '=', profileId)
    .where('u.verified_at', 'is not', null)
    .where('u.banned_at', 'is', null),
);
export async function findVisibleProfile(db: Kysely<Database>, profileId: number) {
  return visibleProfile.first(db, profileId);
}

/**
 * A person the caller may swipe: someone search could show them (verified, not banned, not held for
 * review, not blocked either way, not hiding in private mode) or someone who already liked them (the
 * likers list). Profile ids are sequential, so anything else must look exactly like a missing profile.
 */
const swipeableProfile = prepared((db, me: number, profileId: number) =>
  db
    .selectFrom('profiles as p')
    .innerJoin('users as u', 'u.id', 'p.user_id')
    .select(['p.id', 'p.user_id', 'p.name'])
    .where('p.id', '=', profileId)
    .where('u.verified_at', 'is not', null)
    .where('u.banned_at', 'is', null)
    .where(notBlockedWith(me, sql.ref('p.id')))
    .where((eb) =>
      eb.or([
        eb.and([eb('p.held_at', 'is', null), eb('p.private_mode', '=', 0)]),
        eb.exists(eb.selectFrom('swipes as l').select('l.liked').whereRef('l.swiper_id', '=', 'p.id').where('l.target_id', '=', me).where('l.liked', '=', 1)),
      ]),
    ),
);
export async function findSwipeableProfile(db: Kysely<Database>, me: number, profileId: number) {
  return swipeableProfile.first(db, me, profileId);
}

const photoNames = prepared((db, profileId: number) =>
  db.selectFrom('photos').select('file_name').where('profile_id', '=', profileId).orderBy('position').orderBy('id'),
);
export async function photoNamesOf(db: Kysely<Database>, profileId: number): Promise<string[]> {
  return (await photoNames.all(db, profileId)).map((r) => r.file_name);
}

const blockEitherWay = prepared((db, a: number, b: number) =>
  db
    .selectFrom('blocks')
    .select('blocker_id')
    .where((eb) => eb.or([eb.and([eb('blocker_id', '=', a), eb('blocked_id', '=', b)]), eb.and([eb('blocker_id', '=', b), eb('blocked_id', '=', a)])])),
);
export async function isBlockedEitherWay(db: Kysely<Database>, a: number, b: number): Promise<boolean> {
  return (await blockEitherWay.first(db, a, b)) !== undefined;
}

const swipe = prepared((db, swiperId: number, targetId: number) =>
  db.selectFrom('swipes').select(['liked', 'created_at']).where('swiper_id', '=', swiperId).where('target_id', '=', targetId),
);
export async function findSwipe(db: Kysely<Database>, swiperId: number, targetId: number) {
  return swipe.first(db, swiperId, targetId);
}

export async function countLikesSince(db: Kysely<Database>, swiperId: number, since: string): Promise<{ count: number; oldest: string | null }> {
  const row = await db
    .selectFrom('swipes')
    .select((eb) => [eb.fn.countAll().as('n'), eb.fn.min('created_at').as('oldest')])
    .where('swiper_id', '=', swiperId)
    .where('liked', '=', 1)
    .where('created_at', '>', since)
    .executeTakeFirstOrThrow();
  return { count: Number(row.n), oldest: row.oldest };
}

/**
 * Takes both profiles' row locks in id order, so two people liking each other at the same moment are
 * serialised and the second sees the first's like (no lost match, no deadlock).
 */
export async function lockPair(db: Kysely<Database>, a: number, b: number): Promise<void> {
  for (const id of [Math.min(a, b), Math.max(a, b)]) {
    await db.updateTable('profiles').set((eb) => ({ private_mode: eb.ref('private_mode') })).where('id', '=', id).execute();
  }
}

export async function upsertSwipe(db: Kysely<Database>, swiperId: number, targetId: number, liked: boolean, now: string): Promise<void> {
  await db
    .insertInto('swipes')
    .values({ swiper_id: swiperId, target_id: targetId, liked: liked ? 1 : 0, created_at: now })
    .onConflict((oc) => oc.columns(['swiper_id', 'target_id']).doUpdateSet({ liked: liked ? 1 : 0, created_at: now }))
    .execute();
}

/**
 * "Neither has blocked the other", for lists: `other` is the outer query's profile column. One place for the
 * rule that a block hides both people from each other everywhere.
 */
export const notBlockedWith = (me: number, other: RawBuilder<unknown>) =>
  sql<boolean>`not exists (select 1 from blocks bl where (bl.blocker_id = ${me} and bl.blocked_id = ${other}) or (bl.blocked_id = ${me} and bl.blocker_id = ${other}))`;

const pair = (a: number, b: number) => ({ low: Math.min(a, b), high: Math.max(a, b) });

/** True when this call created the match (false when it already existed). */
export async function insertMatch(db: Kysely<Database>, a: number, b: number, now: string): Promise<boolean> {
  const { low, high } = pair(a, b);
  const row = await db
    .insertInto('matches')
    .values({ profile_low: low, profile_high: high, created_at: now, unmatched_at: null })
    .onConflict((oc) => oc.columns(['profile_low', 'profile_high']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

const liveMatch = prepared((db, low: number, high: number) =>
  db.selectFrom('matches').select(['id', 'created_at']).where('profile_low', '=', low).where('profile_high', '=', high).where('unmatched_at', 'is', null),
);
export async function findLiveMatch(db: Kysely<Database>, a: number, b: number) {
  const { low, high } = pair(a, b);
  return liveMatch.first(db, low, high);
}

export async function endMatch(db: Kysely<Database>, a: number, b: number, now: string): Promise<number> {
  const { low, high } = pair(a, b);
  const result = await db
    .updateTable('matches')
    .set({ unmatched_at: now })
    .where('profile_low', '=', low)
    .where('profile_high', '=', high)
    .where('unmatched_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export async function insertBlock(db: Kysely<Database>, blocker: number, blocked: number, now: string): Promise<void> {
  await db
    .insertInto('blocks')
    .values({ blocker_id: blocker, blocked_id: blocked, created_at: now })
    .onConflict((oc) => oc.columns(['blocker_id', 'blocked_id']).doNothing())
    .execute();
}

/** The main photo of a profile as a correlated subquery, for lists (one query, not one per person). */
const mainPhoto = (column: 'file_name' | 'blur_name') =>
  sql<string | null>`(select ph.${sql.ref(column)} from photos ph where ph.profile_id = p.id order by ph.position, ph.id limit 1)`;

/** Current matches, newest first, in one query. */
export async function listMatches(db: Kysely<Database>, me: number) {
  return db
    .selectFrom('matches as m')
    .innerJoin('profiles as p', (join) =>
      join.on((eb) =>
        eb.or([
          eb.and([eb('m.profile_low', '=', me), eb('p.id', '=', eb.ref('m.profile_high'))]),
          eb.and([eb('m.profile_high', '=', me), eb('p.id', '=', eb.ref('m.profile_low'))]),
        ]),
      ),
    )
    .innerJoin('users as u', 'u.id', 'p.user_id')
    .select(['p.id', 'p.name', 'p.age', mainPhoto('file_name').as('latest_photo')])
    .where('m.unmatched_at', 'is', null)
    .where('u.banned_at', 'is', null)
    .orderBy('m.created_at', 'desc')
    .orderBy('m.id', 'desc')
    .execute();
}

/** People who liked me and whom I have not swiped, not blocked either way, newest first, in one query. */
export async function listLikers(db: Kysely<Database>, me: number) {
  return db
    .selectFrom('swipes as l')
    .innerJoin('profiles as p', 'p.id', 'l.swiper_id')
    .innerJoin('users as u', 'u.id', 'p.user_id')
    .select(['p.id', 'p.name', 'p.age', mainPhoto('file_name').as('latest_photo'), mainPhoto('blur_name').as('blurred_photo')])
    .where('l.target_id', '=', me)
    .where('l.liked', '=', 1)
    .where('u.banned_at', 'is', null)
    .where('u.verified_at', 'is not', null)
    .where((eb) => eb.not(eb.exists(eb.selectFrom('swipes as mine').select('mine.liked').where('mine.swiper_id', '=', me).whereRef('mine.target_id', '=', 'p.id'))))
    .where(notBlockedWith(me, sql.ref('p.id')))
    .orderBy('l.created_at', 'desc')
    .limit(500)
    .execute();
}

/** Different people whose reports against a profile wait for an admin before it is held from search. */
export const holdAfterReporters = 3;

/**
 * Files a report; the third different reporter with an open report holds the profile out of search until
 * an admin decides. Answers the report's id.
 */
export async function insertReport(
  db: Kysely<Database>,
  report: { reporter_id: number; reported_id: number; reason: Database['reports']['reason']; comment: string; created_at: string },
): Promise<number> {
  const { id } = await db.insertInto('reports').values({ ...report, resolved_at: null, resolution: null }).returning('id').executeTakeFirstOrThrow();
  const { reporters } = await db
    .selectFrom('reports')
    .select((eb) => eb.fn.count<string | number>('reporter_id').distinct().as('reporters'))
    .where('reported_id', '=', report.reported_id)
    .where('resolved_at', 'is', null)
    .executeTakeFirstOrThrow();
  if (Number(reporters) >= holdAfterReporters) {
    await db.updateTable('profiles').set({ held_at: report.created_at }).where('id', '=', report.reported_id).where('held_at', 'is', null).execute();
  }
  return id;
}

/** The menu's server-side switches and the stored gender preference, all kept on the profile. */
export async function findSettings(db: Kysely<Database>, userId: number) {
  return db.selectFrom('profiles').select(['private_mode', 'notifications', 'preferred_gender']).where('user_id', '=', userId).executeTakeFirst();
}

export async function updateSettings(
  db: Kysely<Database>,
  profileId: number,
  changes: { private_mode?: boolean | undefined; notifications?: boolean | undefined; preferred_gender?: PreferredGender | undefined },
): Promise<void> {
  await db
    .updateTable('profiles')
    .set({
      ...(changes.private_mode !== undefined ? { private_mode: changes.private_mode ? 1 : 0 } : {}),
      ...(changes.notifications !== undefined ? { notifications: changes.notifications ? 1 : 0 } : {}),
      ...(changes.preferred_gender !== undefined ? { preferred_gender: changes.preferred_gender } : {}),
    })
    .where('id', '=', profileId)
    .execute();
}
