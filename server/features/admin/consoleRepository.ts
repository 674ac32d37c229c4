import { type Kysely, sql } from 'kysely';
import type { Database, PhotoModeration, ProfileId, UserId } from '../../../db/schema.ts';

/**
 * The moderation console's reads and decisions (SQL only here). Every decision is one conditional
 * statement on the current state, so two admins pressing at once act once.
 */

export interface CardRow {
  user_id: UserId;
  profile_id: ProfileId | null;
  name: string | null;
  age: number | null;
  city: string | null;
  bio: string | null;
  verified: number | null;
  banned_at: string | null;
  held_at: string | null;
}

export interface PhotoRow {
  id: number;
  profile_id: ProfileId;
  file_name: string;
  moderation: PhotoModeration;
  screen_score: number | null;
}

/** People as the console shows them (accounts without a profile too), by account id. */
export async function findCardsByUser(db: Kysely<Database>, userIds: readonly UserId[]): Promise<CardRow[]> {
  if (userIds.length === 0) return [];
  return db
    .selectFrom('users as u')
    .leftJoin('profiles as p', 'p.user_id', 'u.id')
    .select([
      'u.id as user_id',
      'p.id as profile_id',
      'p.name',
      'p.age',
      'p.city',
      'p.bio',
      'p.verified',
      'u.banned_at',
      'p.held_at',
    ])
    .where('u.id', 'in', [...new Set(userIds)])
    .execute();
}

/** Every photo of these profiles, held ones included (the console sees what members do not), in order. */
export async function findPhotosOf(db: Kysely<Database>, profileIds: readonly ProfileId[]): Promise<PhotoRow[]> {
  if (profileIds.length === 0) return [];
  return db
    .selectFrom('photos')
    .select(['id', 'profile_id', 'file_name', 'moderation', 'screen_score'])
    .where('profile_id', 'in', [...new Set(profileIds)])
    .orderBy('profile_id')
    .orderBy('position')
    .orderBy('id')
    .execute();
}

export async function findProfileOwners(
  db: Kysely<Database>,
  profileIds: readonly ProfileId[],
): Promise<{ id: ProfileId; user_id: UserId; name: string }[]> {
  if (profileIds.length === 0) return [];
  return db
    .selectFrom('profiles')
    .select(['id', 'user_id', 'name'])
    .where('id', 'in', [...new Set(profileIds)])
    .execute();
}

/** Who filed each report (the admins' queue reads reports through findOpenReports, which leaves them out). */
export async function findReporters(
  db: Kysely<Database>,
  reportIds: readonly number[],
): Promise<{ id: number; reporter_id: ProfileId }[]> {
  if (reportIds.length === 0) return [];
  return db.selectFrom('reports').select(['id', 'reporter_id']).where('id', 'in', reportIds).execute();
}

/** The last `limit` messages between two profiles, newest first; none when they never had a chat. */
export async function findLastMessagesBetween(db: Kysely<Database>, a: ProfileId, b: ProfileId, limit: number) {
  const [low, high] = a < b ? [a, b] : [b, a];
  return db
    .selectFrom('messages as msg')
    .innerJoin('conversations as c', 'c.id', 'msg.conversation_id')
    .innerJoin('matches as m', 'm.id', 'c.match_id')
    .select(['msg.id', 'msg.sender_id', 'msg.content', 'msg.created_at'])
    .where('m.profile_low', '=', low)
    .where('m.profile_high', '=', high)
    .orderBy('msg.id', 'desc')
    .limit(limit)
    .execute();
}

export async function findPendingVerifications(db: Kysely<Database>, limit: number) {
  return db
    .selectFrom('photo_verifications as v')
    .innerJoin('profiles as p', 'p.id', 'v.profile_id')
    .select([
      'v.id',
      'v.profile_id',
      'p.user_id',
      'v.pose_id',
      'v.selfie_name',
      'v.similarity',
      'v.pose_ok',
      'v.faces',
      'v.reason',
      'v.created_at',
    ])
    .where('v.status', '=', 'pending')
    .orderBy('v.id')
    .limit(limit)
    .execute();
}

export async function findVerification(db: Kysely<Database>, id: number) {
  return db
    .selectFrom('photo_verifications as v')
    .innerJoin('profiles as p', 'p.id', 'v.profile_id')
    .select(['v.id', 'v.status', 'v.selfie_name', 'v.profile_id', 'p.user_id'])
    .where('v.id', '=', id)
    .executeTakeFirst();
}

/**
 * Decides a pending check: its status, who and when, the reason on a rejection; the selfie's name is
 * cleared (its file goes once this commits). Undefined when it was not pending.
 */
export async function decidePendingVerification(
  db: Kysely<Database>,
  id: number,
  decision: { status: 'verified' | 'rejected'; by: string; now: string },
): Promise<{ profile_id: ProfileId; selfie_name: string | null } | undefined> {
  return db
    .updateTable('photo_verifications')
    .set({
      status: decision.status,
      decided_at: decision.now,
      decided_by: decision.by,
      selfie_name: null,
      ...(decision.status === 'rejected' ? { reason: 'moderator' } : {}),
    })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .returning(['profile_id', 'selfie_name'])
    .executeTakeFirst();
}

export async function findHeldPhotos(db: Kysely<Database>, limit: number) {
  return db
    .selectFrom('photos as ph')
    .innerJoin('profiles as p', 'p.id', 'ph.profile_id')
    .select(['ph.id', 'ph.profile_id', 'p.user_id', 'ph.file_name', 'ph.screen_score', 'ph.created_at'])
    .where('ph.moderation', '=', 'held')
    .orderBy('ph.screen_score', 'desc')
    .orderBy('ph.id')
    .limit(limit)
    .execute();
}

export async function findPhotoOwner(db: Kysely<Database>, photoId: number) {
  return db
    .selectFrom('photos as ph')
    .innerJoin('profiles as p', 'p.id', 'ph.profile_id')
    .select(['ph.profile_id', 'p.user_id'])
    .where('ph.id', '=', photoId)
    .executeTakeFirst();
}

/** Lets a held photo be shown; false when it was not held (decided already, or removed). */
export async function clearHeldPhoto(db: Kysely<Database>, photoId: number): Promise<boolean> {
  const result = await db
    .updateTable('photos')
    .set({ moderation: 'clear' })
    .where('id', '=', photoId)
    .where('moderation', '=', 'held')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Deletes a held photo's row (its face descriptor cascades); its files go once this commits. */
export async function deleteHeldPhoto(db: Kysely<Database>, photoId: number) {
  return db
    .deleteFrom('photos')
    .where('id', '=', photoId)
    .where('moderation', '=', 'held')
    .returning(['file_name', 'blur_name', 'profile_id'])
    .executeTakeFirst();
}

/** Accounts an admin's search names: an e-mail, a Telegram id, a profile id or an account id. */
export async function findUserIdsForLookup(db: Kysely<Database>, query: string): Promise<UserId[]> {
  const q = query.trim();
  if (/^\d{1,15}$/.test(q)) {
    const n = Number(q);
    const small = n <= 2_147_483_647;
    const rows = await db
      .selectFrom('users as u')
      .leftJoin('profiles as p', 'p.user_id', 'u.id')
      .select('u.id')
      .where((eb) =>
        eb.or([
          eb('u.telegram_id', '=', q),
          ...(small ? [eb('p.id', '=', n as ProfileId), eb('u.id', '=', n as UserId)] : []),
        ]),
      )
      .orderBy('u.id')
      .limit(10)
      .execute();
    return rows.map((r) => r.id);
  }
  const rows = await db.selectFrom('users').select('id').where('email', '=', q.toLowerCase()).execute();
  return rows.map((r) => r.id);
}

export async function findAccount(db: Kysely<Database>, userId: UserId) {
  return db
    .selectFrom('users')
    .select([
      'id',
      'email',
      'verified_at',
      'telegram_id',
      'telegram_username',
      'created_at',
      'banned_at',
      'premium_until',
    ])
    .where('id', '=', userId)
    .executeTakeFirst();
}

export async function countSessionsOf(db: Kysely<Database>, userId: UserId): Promise<number> {
  const row = await db
    .selectFrom('sessions')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function findReportsAgainst(db: Kysely<Database>, profileId: ProfileId) {
  return db
    .selectFrom('reports')
    .select(['id', 'reason', 'comment', 'created_at', 'resolution'])
    .where('reported_id', '=', profileId)
    .orderBy('id', 'desc')
    .limit(50)
    .execute();
}

export async function findReportsBy(db: Kysely<Database>, profileId: ProfileId) {
  return db
    .selectFrom('reports')
    .select(['id', 'reason', 'created_at', 'resolution'])
    .where('reporter_id', '=', profileId)
    .orderBy('id', 'desc')
    .limit(50)
    .execute();
}

export async function findPaymentsOf(db: Kysely<Database>, userId: UserId) {
  return db
    .selectFrom('payments')
    .select(['id', 'provider', 'amount', 'currency', 'status', 'created_at', 'credited_at'])
    .where('user_id', '=', userId)
    .orderBy('id', 'desc')
    .limit(50)
    .execute();
}

/** The ISO day (`YYYY-MM-DD`) of an ISO-8601 text column, the same on SQLite and PostgreSQL. */
const dayOf = (column: string) => sql<string>`substr(${sql.ref(column)}, 1, 10)`;

type CountedTable = 'users' | 'matches' | 'messages';

/** How many rows of a table were made on each day since `from`: `{day, n}` for the days that had any. */
export async function countPerDay(db: Kysely<Database>, table: CountedTable, from: string) {
  const rows = await db
    .selectFrom(table)
    .select((eb) => [dayOf('created_at').as('day'), eb.fn.countAll<string | number>().as('n')])
    .where('created_at', '>=', from)
    .groupBy(dayOf('created_at'))
    .execute();
  return rows.map((r) => ({ day: r.day, n: Number(r.n) }));
}

/** Credited payments per day since `from`. */
export async function paymentsPerDay(db: Kysely<Database>, from: string) {
  const rows = await db
    .selectFrom('payments')
    .select((eb) => [dayOf('credited_at').as('day'), eb.fn.countAll<string | number>().as('n')])
    .where('status', '=', 'succeeded')
    .where('credited_at', '>=', from)
    .groupBy(dayOf('credited_at'))
    .execute();
  return rows.map((r) => ({ day: r.day, n: Number(r.n) }));
}

/**
 * Different people who did something on each day since `from` (swiped or wrote): the profile keeps only its
 * latest activity (`active_at`), so the day's activity is read from what people did.
 */
export async function activePeoplePerDay(db: Kysely<Database>, from: string) {
  const rows = await db
    .selectFrom((eb) =>
      eb
        .selectFrom('swipes')
        .select([dayOf('created_at').as('day'), 'swiper_id as who'])
        .where('created_at', '>=', from)
        .union(
          eb
            .selectFrom('messages')
            .select([dayOf('created_at').as('day'), 'sender_id as who'])
            .where('created_at', '>=', from),
        )
        .as('acts'),
    )
    .select((eb) => ['acts.day', eb.fn.count<string | number>('acts.who').distinct().as('n')])
    .groupBy('acts.day')
    .execute();
  return rows.map((r) => ({ day: r.day, n: Number(r.n) }));
}
