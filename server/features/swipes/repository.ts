import { PostgresAdapter, sql, type Kysely, type QueryCreator } from 'kysely';
import { prepared, preparedByShape } from '../../../db/prepared.ts';
import type { Database, Gender, ProfileId, UserId } from '../../../db/schema.ts';
import { badgeMarkerRow, insertBadgeMarkers } from '../events/index.ts';
import { findMyProfile, type MyProfile, notBlockedWith, pair } from '../relationships/index.ts';
import type { CheckedSession, SessionCheck } from '../sessions/index.ts';

/** Another person's profile, only if their account is in good standing (verified, not banned). */
const visibleProfile = prepared((db, profileId: ProfileId) =>
  db
    .selectFrom('profiles as p')
    .innerJoin('users as u', 'u.id', 'p.user_id')
    .select([
      'p.id',
      'p.user_id',
      'p.name',
      'p.age',
      'p.city',
      'p.place_id',
      'p.gender',
      'p.bio',
      'p.latitude',
      'p.longitude',
      'p.prompts',
      'p.active_at',
      'p.private_mode',
      'p.show_activity',
      'p.verified',
    ])
    .where('p.id', '=', profileId)
    .where('u.verified_at', 'is not', null)
    .where('u.banned_at', 'is', null),
);
export async function findVisibleProfile(db: Kysely<Database>, profileId: ProfileId) {
  return visibleProfile.first(db, profileId);
}

/**
 * Everything a like decides on, read in one statement under the pair's locks (lockCallerAndTarget): the person if
 * the caller may swipe them (the rule below), both people's swipes on each other, whether they are
 * matched, both main photos (for a match's answer and events), the person's premium (a like notification
 * names the liker only to premium), and, when `counting`, the caller's likes in the allowance window.
 */
/** What a like's read counts besides: the free likes of the window, the free likes with a message of the window. */
interface LikeCounting {
  likes: boolean;
  messages: boolean;
}

/**
 * The caller's likes (with a message, when `withMessage`) since `since`, and the likes of the window they took
 * back (swipe_undos): an undo must not give back what the like used of an allowance.
 */
const likeTimes = (me: unknown, since: unknown, withMessage: boolean) =>
  sql`select c.created_at from swipes c where c.swiper_id = ${me} and c.liked = 1 and c.created_at > ${since}${withMessage ? sql` and c.message is not null` : sql``}
    union all select un.created_at from swipe_undos un where un.profile_id = ${me} and un.liked = 1${withMessage ? sql` and un.had_message = 1` : sql``} and un.created_at > ${since}`;
/** How many, and the oldest's time. */
const likesUsed = (me: unknown, since: unknown, withMessage: boolean) =>
  [
    sql<number | string>`(select count(*) from (${likeTimes(me, since, withMessage)}) x)`,
    sql<string | null>`(select min(x.created_at) from (${likeTimes(me, since, withMessage)}) x)`,
  ] as const;

/**
 * The read of everything a like decides on (findLikeState), for likeState and for likeStateAndSwipe's WITH.
 * The same rules are written again in iskra_plain_swipe (db/migrations/2026_12_05_0900_plain_swipe_whole_read.ts):
 * change both, the function through a new migration (CREATE OR REPLACE FUNCTION).
 */
function likeStateQuery(db: QueryCreator<Database>, counting: LikeCounting, slot: (name: string) => never) {
  const me = slot('me') as ProfileId;
  return db
    .selectFrom('profiles as p')
    .innerJoin('users as u', 'u.id', 'p.user_id')
    .select((eb) => [
      'p.id',
      'p.user_id',
      'p.name',
      'u.premium_until',
      eb
        .selectFrom('swipes as s')
        .select('s.liked')
        .where('s.swiper_id', '=', me)
        .whereRef('s.target_id', '=', 'p.id')
        .as('mine'),
      eb
        .selectFrom('swipes as s')
        .select('s.message')
        .where('s.swiper_id', '=', me)
        .whereRef('s.target_id', '=', 'p.id')
        .as('my_message'),
      eb
        .selectFrom('swipes as s')
        .select('s.liked')
        .whereRef('s.swiper_id', '=', 'p.id')
        .where('s.target_id', '=', me)
        .as('theirs'),
      eb
        .selectFrom('swipes as s')
        .select('s.message')
        .whereRef('s.swiper_id', '=', 'p.id')
        .where('s.target_id', '=', me)
        .as('their_message'),
      eb
        .selectFrom('swipes as s')
        .select('s.created_at')
        .whereRef('s.swiper_id', '=', 'p.id')
        .where('s.target_id', '=', me)
        .as('their_at'),
      eb
        .selectFrom('matches as m')
        .select('m.id')
        .where('m.profile_low', '=', slot('low'))
        .where('m.profile_high', '=', slot('high'))
        .where('m.unmatched_at', 'is', null)
        .as('match_id'),
      mainPhotoOf(sql.ref('p.id')).as('photo'),
      mainPhotoOf(me).as('my_photo'),
      ...(counting.likes
        ? [
            likesUsed(me, slot('since'), false)[0].as('likes_used'),
            likesUsed(me, slot('since'), false)[1].as('oldest_like'),
          ]
        : []),
      ...(counting.messages
        ? [
            likesUsed(me, slot('since'), true)[0].as('messages_used'),
            likesUsed(me, slot('since'), true)[1].as('oldest_message'),
          ]
        : []),
    ])
    .where('p.id', '=', slot('target'))
    .where('u.verified_at', 'is not', null)
    .where('u.banned_at', 'is', null)
    .where(notBlockedWith(me, sql.ref('p.id')))
    .where((eb) =>
      eb.or([
        eb.and([
          eb('p.held_at', 'is', null),
          eb('p.private_mode', '=', 0),
          eb('p.preferred_gender', 'in', [slot('acceptsA'), slot('acceptsB')]),
        ]),
        eb.exists(
          eb
            .selectFrom('swipes as l')
            .select('l.liked')
            .whereRef('l.swiper_id', '=', 'p.id')
            .where('l.target_id', '=', me)
            .where('l.liked', '=', 1),
        ),
      ]),
    );
}

const countingKey = (counting: LikeCounting) =>
  `${counting.likes ? 'likes' : 'plain'}/${counting.messages ? 'messages' : 'plain'}`;

const likeState = preparedByShape(
  (db, counting: LikeCounting, slot) => likeStateQuery(db, counting, slot),
  countingKey,
);
type LikeStateRow = Awaited<ReturnType<typeof likeState>>[number];

/** What likeStateAndSwipe's statement decides besides what it reads: a like or a dislike, and which allowances it counts. */
interface SwipeShape extends LikeCounting {
  liked: boolean;
}

/**
 * PostgreSQL: the like's read and, when the read shows the plain case, its write, in one statement (a round
 * trip fewer; each statement is one). The plain case: a swipe the person may get (the read found them), new
 * (or a like after a dislike), making no match, within the allowances counted; then the swipe is upserted and
 * the `badges` marker of whom it tells (the person liked; for a dislike, the caller when it answered a liker)
 * inserted, as recordSwipe does. Data-modifying WITHs read the statement's snapshot, taken after the pair's
 * locks (lockCallerAndTarget, the statement before), so the read is what the write is decided on. Anything
 * else (a match, a refusal, a repeat) writes nothing here and goes the service's way. The answer is the read
 * (as before the write) and `swiped`, 1 when this statement wrote the swipe. The service decides again from
 * the read and checks it agrees.
 */
const likeStateAndSwipe = preparedByShape(
  (db, shape: SwipeShape, slot) => {
    const plain = sql.join(
      [
        shape.liked ? sql`(s.mine is null or s.mine = 0) and coalesce(s.theirs, 0) <> 1` : sql`s.mine is null`,
        ...(shape.likes ? [sql`s.likes_used < ${slot('likeLimit')}`] : []),
        ...(shape.messages ? [sql`s.messages_used < ${slot('messageLimit')}`] : []),
      ],
      sql` and `,
    );
    const toldUser = shape.liked ? sql`s.user_id` : sql`cast(${slot('userId')} as integer)`;
    const toldWhen = shape.liked ? sql`` : sql` where s.theirs = 1`;
    const statement = sql<
      LikeStateRow & { swiped: number | string }
    >`with state as (${likeStateQuery(db, shape, slot)}),
  swiped as (insert into swipes (swiper_id, target_id, liked, created_at, target_seen, message)
    select cast(${slot('me')} as integer), s.id, ${shape.liked ? sql`1` : sql`0`}, cast(${slot('at')} as text), 0, cast(${slot('message')} as text)
    from state s where ${plain}
    on conflict (swiper_id, target_id) do update set liked = excluded.liked, created_at = excluded.created_at, target_seen = 0, message = excluded.message
    returning swiper_id),
  told as (insert into events (user_id, type, payload, created_at)
    select ${toldUser}, 'badges', '{}', cast(${slot('at')} as text) from swiped, state s${toldWhen})
select state.*, (select count(*) from swiped) as swiped from state`;
    return { compile: () => statement.compile(db) };
  },
  (shape) => `${countingKey(shape)}/${shape.liked ? 'like' : 'dislike'}`,
);

const mainPhotoOf = (profile: unknown) =>
  sql<
    string | null
  >`(select ph.file_name from photos ph where ph.profile_id = ${profile} and ph.moderation = 'clear' order by ph.position, ph.id limit 1)`;

export interface LikeState {
  id: ProfileId;
  user_id: UserId;
  name: string;
  premium_until: string | null;
  /** The caller's swipe on them (1 like, 0 dislike), theirs on the caller. */
  mine: number | null;
  theirs: number | null;
  /** The messages of those likes, if any; when theirs was made (their message's time in a conversation). */
  my_message: string | null;
  their_message: string | null;
  their_at: string | null;
  match_id: number | null;
  photo: string | null;
  my_photo: string | null;
  /** Only when counted. */
  likes?: { count: number; oldest: string | null } | null;
  /** The caller's likes with a message in the window; only when counted. */
  messages?: { count: number; oldest: string | null };
  /** Whether the read also wrote the swipe and its badge markers (findLikeState with a PlainSwipe, PostgreSQL). */
  swiped: boolean;
}

/**
 * The swipe findLikeState may write with its read, on PostgreSQL, when the read shows the plain case (see
 * likeStateAndSwipe): the caller's account, a like or a dislike, its time and message, and the allowances'
 * limits the counts must stay under.
 */
export interface PlainSwipe {
  userId: UserId;
  liked: boolean;
  at: string;
  message: string | null;
  likeLimit: number;
  messageLimit: number;
}

/**
 * A person the caller may swipe: someone search could show them (verified, not banned, not held for
 * review, not blocked either way, not hiding in private mode, and open to the caller's gender: the
 * reciprocal rule, so nobody lands in the likers of someone who does not want their gender) or someone who
 * already liked them (the likers list). Profile ids are sequential, so anything else must look exactly
 * like a missing profile. `accepted`: the preferences that accept the caller's gender (Any and the caller's
 * own gender, Other included). Undefined for anyone else; the rest: see likeState. With `swipe`, on
 * PostgreSQL, the same read also writes that swipe when it is the plain case (`swiped`; likeStateAndSwipe).
 */
export async function findLikeState(
  db: Kysely<Database>,
  me: { id: ProfileId; gender: Gender },
  targetId: ProfileId,
  likesSince: string | null,
  countMessages = false,
  swipe?: PlainSwipe,
): Promise<LikeState | undefined> {
  const { low, high } = pair(me.id, targetId);
  const values = { me: me.id, target: targetId, low, high, acceptsA: 'Any', acceptsB: me.gender, since: likesSince };
  const messages = countMessages && likesSince !== null;
  const counting = { likes: likesSince !== null, messages };
  const [row] =
    swipe && db.getExecutor().adapter instanceof PostgresAdapter
      ? await likeStateAndSwipe(
          db,
          { ...counting, liked: swipe.liked },
          {
            ...values,
            userId: swipe.userId,
            at: swipe.at,
            message: swipe.liked ? swipe.message : null,
            likeLimit: swipe.likeLimit,
            messageLimit: swipe.messageLimit,
          },
        )
      : await likeState(db, counting, values);
  if (!row) return undefined;
  const counted = row as typeof row & {
    likes_used?: number | string | null;
    oldest_like?: string | null;
    messages_used?: number | string | null;
    oldest_message?: string | null;
    swiped?: number | string;
  };
  return {
    id: row.id,
    user_id: row.user_id,
    name: row.name,
    premium_until: row.premium_until,
    mine: row.mine ?? null,
    theirs: row.theirs ?? null,
    my_message: row.my_message ?? null,
    their_message: row.their_message ?? null,
    their_at: row.their_at ?? null,
    match_id: row.match_id ?? null,
    photo: row.photo,
    my_photo: row.my_photo,
    swiped: Number(counted.swiped ?? 0) > 0,
    ...(likesSince !== null
      ? { likes: { count: Number(counted.likes_used), oldest: counted.oldest_like ?? null } }
      : {}),
    ...(messages ? { messages: { count: Number(counted.messages_used), oldest: counted.oldest_message ?? null } } : {}),
  };
}

/**
 * The caller's profile, found by their account, and the row locks of theirs and the target's, in id order:
 * one statement on PostgreSQL, the locking read of the pair being also the read of who likes (a like once
 * paid a round trip of its own for that before its transaction, one of its nine). Only the profiles' rows
 * are locked (`of p`), not the accounts'. ORDER BY under FOR NO KEY UPDATE (the lock an UPDATE takes) locks
 * the rows in the sorted order, so two people liking each other at once never wait on each other crosswise.
 * SQLite's write transactions start with `begin immediate`, which takes its one write lock first.
 */
const callerPairLock = prepared((db, userId: UserId, target: ProfileId) =>
  db
    .selectFrom('profiles as p')
    .innerJoin('users as u', 'u.id', 'p.user_id')
    .select([
      'p.id',
      'p.user_id',
      'p.name',
      'p.gender',
      'p.preferred_gender',
      'p.latitude',
      'p.longitude',
      'u.premium_until',
    ])
    .where((eb) => eb.or([eb('p.user_id', '=', userId), eb('p.id', '=', target)]))
    .orderBy('p.id')
    .forNoKeyUpdate('p'),
);
/**
 * Locks the caller's profile and the target's (see callerPairLock) and answers the caller's profile, read under
 * the lock; undefined when the caller has none. Inside a transaction, which a refusal then rolls back.
 */
export async function lockCallerAndTarget(
  db: Kysely<Database>,
  userId: UserId,
  target: ProfileId,
): Promise<MyProfile | undefined> {
  // SQLite: the transaction's `begin immediate` (db/retryingSqliteDriver.ts) took the file's one write lock,
  // and this process's transactions take turns on its one connection. A write to both rows to take the lock
  // cost a statement and an UPDATE of two profiles that the search triggers look at.
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return findMyProfile(db, userId);
  return (await callerPairLock.all(db, userId, target)).find((row) => row.user_id === userId);
}

/** What a plain swipe needs besides who and whom: a like or a dislike, its time, and the free like allowance. */
export interface PlainSwipeRequest {
  userId: UserId;
  targetId: ProfileId;
  liked: boolean;
  at: string;
  /** The start of the allowance's window; counted only for a free caller's like. */
  likesSince: string;
  likeLimit: number;
  /**
   * The caller notifies in the same transaction (notifications.like): a like a notification could reach is then
   * the plain case too. Only inside a transaction, whose commit the notification rides with.
   */
  notifies?: boolean;
}

/**
 * What iskra_plain_swipe answers (db/migrations/2026_12_05_0900_plain_swipe_whole_read.ts): the caller (the columns
 * of MyProfile a like uses), the whole read (likeStateQuery's rules; `likes` only when counted, as LikeState's) and
 * whether it wrote. Add a column here and there together.
 */
export interface PlainSwipeOutcome {
  me: Pick<MyProfile, 'id' | 'name' | 'gender' | 'premium_until'> | null;
  state: Omit<LikeState, 'messages' | 'swiped'> | null;
  swiped: boolean;
}

const plainSwipeCall = prepared(
  (
    db,
    userId: UserId,
    target: ProfileId,
    liked: number,
    at: string,
    since: string,
    limit: number,
    notifies: boolean,
  ) => {
    const statement = sql<{
      outcome: PlainSwipeOutcome;
    }>`select iskra_plain_swipe(${userId}, ${target}, ${liked}, ${at}, ${since}, ${limit}, ${notifies}) as outcome`;
    return { compile: () => statement.compile(db) };
  },
);

/**
 * PostgreSQL: a like or dislike without a message in one statement, the pair's locks, the read and, when it is
 * the plain case (new, no match, within the free allowance, nobody to notify; or, with `notifies` inside the
 * like's transaction, one to notify), the swipe and its badge marker
 * (db/migrations/2026_12_05_0900_plain_swipe_whole_read.ts). Outside a transaction the statement commits and
 * the locks go with it; inside one (the like's transaction path) they last until its commit. Undefined on SQLite,
 * whose statements are local: the caller takes the transaction path.
 */
export async function swipePlainly(
  db: Kysely<Database>,
  request: PlainSwipeRequest,
): Promise<PlainSwipeOutcome | undefined> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return undefined;
  const row = await plainSwipeCall.first(
    db,
    request.userId,
    request.targetId,
    request.liked ? 1 : 0,
    request.at,
    request.likesSince,
    request.likeLimit,
    request.notifies ?? false,
  );
  if (!row) throw new Error('iskra_plain_swipe answered nothing');
  return row.outcome;
}

const sessionSwipeCall = prepared(
  (
    db,
    session: string,
    now: string,
    seenBefore: string,
    activeBefore: string,
    target: ProfileId,
    liked: number,
    at: string,
    since: string,
    limit: number,
  ) => {
    const statement = sql<{
      outcome: Partial<PlainSwipeOutcome> & { session: CheckedSession | null };
    }>`select iskra_session_swipe(${session}, ${now}, ${seenBefore}, ${activeBefore}, ${target}, ${liked}, ${at}, ${since}, ${limit}) as outcome`;
    return { compile: () => statement.compile(db) };
  },
);

/**
 * PostgreSQL: swipePlainly with the check of the session that asks for it in the same statement
 * (db/migrations/2026_12_06_0900_session_swipe_function.ts): the session read fresh (live, its account not
 * banned), then iskra_plain_swipe for its account, then the session's bookkeeping when due. `session` is null
 * for a session that has ended, and then nothing was read or written for the like (`outcome` undefined).
 * `request.userId` is not used: the session says whose like it is.
 */
export async function swipePlainlyInSession(
  db: Kysely<Database>,
  check: SessionCheck,
  request: Omit<PlainSwipeRequest, 'userId' | 'notifies'>,
): Promise<{ session: CheckedSession | null; outcome?: PlainSwipeOutcome }> {
  const row = await sessionSwipeCall.first(
    db,
    check.sessionHash,
    check.now,
    check.seenBefore,
    check.activeBefore,
    request.targetId,
    request.liked ? 1 : 0,
    request.at,
    request.likesSince,
    request.likeLimit,
  );
  if (!row) throw new Error('iskra_session_swipe answered nothing');
  const { session, me, state, swiped } = row.outcome;
  if (!session) return { session: null };
  if (me === undefined || state === undefined || swiped === undefined)
    throw new Error('iskra_session_swipe answered no swipe for a live session');
  return { session, outcome: { me, state, swiped } };
}

/** A swipe as written: a like may carry a message (null otherwise). */
export interface SwipeWrite {
  swiper: ProfileId;
  target: ProfileId;
  liked: boolean;
  at: string;
  message?: string | null;
}

/** A swipe that becomes a like is new to the person liked: unseen on their Likes badge. */
export async function upsertSwipe(db: Kysely<Database>, swipe: SwipeWrite): Promise<void> {
  await swipeUpsertStatement.all(db, swipe.swiper, swipe.target, swipe.liked ? 1 : 0, swipe.at, swipe.message ?? null);
}

/** The swipe's upsert, for upsertSwipe (prepared) and for recordSwipe's WITH. */
function swipeUpsert(
  qc: QueryCreator<Database>,
  swiper: ProfileId,
  target: ProfileId,
  liked: number,
  at: string,
  message: string | null,
) {
  return qc
    .insertInto('swipes')
    .values({ swiper_id: swiper, target_id: target, liked, created_at: at, target_seen: 0, message })
    .onConflict((oc) =>
      oc.columns(['swiper_id', 'target_id']).doUpdateSet({ liked, created_at: at, target_seen: 0, message }),
    );
}

/**
 * Built and compiled once: on SQLite, where a statement costs microseconds, building and compiling it with
 * Kysely's builder on every like cost more than running it.
 */
const swipeUpsertStatement = prepared(
  (db, swiper: ProfileId, target: ProfileId, liked: number, at: string, message: string | null) =>
    swipeUpsert(db, swiper, target, liked, at, message),
);
const swipeUpsertWithMarker = prepared(
  (db, swiper: ProfileId, target: ProfileId, liked: number, at: string, message: string | null, told: UserId) =>
    db
      .with('swiped', (w) => swipeUpsert(w, swiper, target, liked, at, message).returning('swiper_id'))
      .insertInto('events')
      .values(badgeMarkerRow(told, at)),
);
const badgeMarker = prepared((db, userId: UserId, at: string) =>
  db.insertInto('events').values(badgeMarkerRow(userId, at)),
);

/**
 * A swipe and the `badges` markers of the people it tells (events/repository.ts insertBadgeMarkers), in one
 * statement on PostgreSQL: the swipe's upsert rides in a WITH, which PostgreSQL runs to completion whether or
 * not the rest reads it, and a like that makes no match pays one round trip fewer. SQLite: the two, locally.
 */
export async function recordSwipe(db: Kysely<Database>, swipe: SwipeWrite, told: readonly UserId[]): Promise<void> {
  const users = [...new Set(told)];
  const values = [swipe.swiper, swipe.target, swipe.liked ? 1 : 0, swipe.at, swipe.message ?? null] as const;
  const [only] = users;
  if (users.length > 0 && db.getExecutor().adapter instanceof PostgresAdapter) {
    if (users.length === 1 && only !== undefined) await swipeUpsertWithMarker.all(db, ...values, only);
    else
      await db
        .with('swiped', (w) => swipeUpsert(w, ...values).returning('swiper_id'))
        .insertInto('events')
        .values(users.map((userId) => badgeMarkerRow(userId, swipe.at)))
        .execute();
    return;
  }
  await swipeUpsertStatement.all(db, ...values);
  if (users.length === 1 && only !== undefined) await badgeMarker.all(db, only, swipe.at);
  else await insertBadgeMarkers(db, users, swipe.at);
}

/**
 * The match's id when this call created it (null when it already existed). With `swipe`, the like that makes it
 * is upserted too: on PostgreSQL in a WITH of the same statement (a round trip fewer for a match), written
 * whether or not the match was new (the caller writes it again through recordSwipe then, the same row), on
 * SQLite, whose WITH cannot write, by a statement of its own after the match.
 */
export async function insertMatch(
  db: Kysely<Database>,
  a: ProfileId,
  b: ProfileId,
  now: string,
  swipe?: SwipeWrite,
): Promise<number | null> {
  const { low, high } = pair(a, b);
  const match = { profile_low: low, profile_high: high, created_at: now, unmatched_at: null };
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  const row =
    swipe && postgres
      ? await db
          .with('swiped', (w) =>
            swipeUpsert(w, swipe.swiper, swipe.target, swipe.liked ? 1 : 0, swipe.at, swipe.message ?? null).returning(
              'swiper_id',
            ),
          )
          .insertInto('matches')
          .values(match)
          .onConflict((oc) => oc.columns(['profile_low', 'profile_high']).doNothing())
          .returning('id')
          .executeTakeFirst()
      : await db
          .insertInto('matches')
          .values(match)
          .onConflict((oc) => oc.columns(['profile_low', 'profile_high']).doNothing())
          .returning('id')
          .executeTakeFirst();
  if (swipe && !postgres && row) await upsertSwipe(db, swipe);
  return row?.id ?? null;
}

/** The main photo of a profile as a correlated subquery, for lists (one query, not one per person). */
const mainPhoto = (column: 'file_name' | 'blur_name') =>
  sql<
    string | null
  >`(select ph.${sql.ref(column)} from photos ph where ph.profile_id = p.id and ph.moderation = 'clear' order by ph.position, ph.id limit 1)`;

/**
 * My current matches with the other person's profile and account (not banned): the rule of the matches list,
 * shared with the Matches badge so the two cannot drift apart.
 */
function liveMatchesOf(db: Kysely<Database>, me: ProfileId) {
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
    .where('m.unmatched_at', 'is', null)
    .where('u.banned_at', 'is', null);
}

/** Current matches, newest first, in one query. */
export async function listMatches(db: Kysely<Database>, me: ProfileId) {
  return liveMatchesOf(db, me)
    .select(['p.id', 'p.name', 'p.age', mainPhoto('file_name').as('latest_photo')])
    .orderBy('m.created_at', 'desc')
    .orderBy('m.id', 'desc')
    .execute();
}

/** How many of my current matches I have not opened yet, as a subquery (the Matches badge). */
export function countNewMatches(db: Kysely<Database>, me: ProfileId) {
  return liveMatchesOf(db, me)
    .where(sql<number>`(case when m.profile_low = ${me} then m.low_seen else m.high_seen end)`, '<', 2)
    .select((eb) => eb.fn.countAll().as('n'));
}

/**
 * People who liked me and whom I have not swiped, their account in good standing, not blocked either way
 * (no match either: a match needs my like): the rule of the likers list, shared with the Likes badge.
 */
function pendingLikersOf(db: Kysely<Database>, me: ProfileId) {
  return db
    .selectFrom('swipes as l')
    .innerJoin('profiles as p', 'p.id', 'l.swiper_id')
    .innerJoin('users as u', 'u.id', 'p.user_id')
    .where('l.target_id', '=', me)
    .where('l.liked', '=', 1)
    .where('u.banned_at', 'is', null)
    .where('u.verified_at', 'is not', null)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('swipes as mine')
            .select('mine.liked')
            .where('mine.swiper_id', '=', me)
            .whereRef('mine.target_id', '=', 'p.id'),
        ),
      ),
    )
    .where(notBlockedWith(me, sql.ref('p.id')));
}

/**
 * People who liked me and whom I have not swiped, not blocked either way, in one query: those who wrote
 * first (a message asks for an answer), then newest first.
 */
export async function listLikers(db: Kysely<Database>, me: ProfileId) {
  return pendingLikersOf(db, me)
    .select([
      'p.id',
      'p.name',
      'p.age',
      'l.message',
      mainPhoto('file_name').as('latest_photo'),
      mainPhoto('blur_name').as('blurred_photo'),
    ])
    .orderBy(sql`(case when l.message is null then 1 else 0 end)`)
    .orderBy('l.created_at', 'desc')
    .limit(500)
    .execute();
}

/** How many of them liked me since I last opened the Likes screen, as a subquery (the Likes badge). */
export function countNewLikers(db: Kysely<Database>, me: ProfileId) {
  return pendingLikersOf(db, me)
    .where('l.target_seen', '=', 0)
    .select((eb) => eb.fn.countAll().as('n'));
}

/** Whether `other` is one of my current matches (the matches list's rule) whose overlay I have not been shown. */
export async function isUnannouncedMatch(db: Kysely<Database>, me: ProfileId, other: ProfileId): Promise<boolean> {
  const row = await liveMatchesOf(db, me)
    .select('p.id')
    .where('p.id', '=', other)
    .where(sql<number>`(case when m.profile_low = ${me} then m.low_seen else m.high_seen end)`, '=', 0)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Whether `liker` is one of my pending likers (the likers list's rule) who liked me since I last opened the
 * Likes screen: a like notification is still news only then, so it never names someone the list hides.
 */
export async function isNewLiker(db: Kysely<Database>, me: ProfileId, liker: ProfileId): Promise<boolean> {
  const row = await pendingLikersOf(db, me)
    .select('p.id')
    .where('p.id', '=', liker)
    .where('l.target_seen', '=', 0)
    .executeTakeFirst();
  return row !== undefined;
}

/** Whether `liker`'s like of `me` still carries a message (one undone and made again without it does not). */
export async function likeCarriesMessage(db: Kysely<Database>, liker: ProfileId, me: ProfileId): Promise<boolean> {
  const row = await db
    .selectFrom('swipes')
    .select('swiper_id')
    .where('swiper_id', '=', liker)
    .where('target_id', '=', me)
    .where('liked', '=', 1)
    .where('message', 'is not', null)
    .executeTakeFirst();
  return row !== undefined;
}

/** Everything that liked me so far counts as seen (the Likes screen was opened); answers how many changed. */
export async function markLikesSeen(db: Kysely<Database>, me: ProfileId): Promise<number> {
  const result = await db
    .updateTable('swipes')
    .set({ target_seen: 1 })
    .where('target_id', '=', me)
    .where('liked', '=', 1)
    .where('target_seen', '=', 0)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Whether the caller may swipe this person (findLikeState's rule), outside a like (the discovery bench). */
export async function findSwipeableProfile(
  db: Kysely<Database>,
  me: { id: ProfileId; gender: Gender },
  profileId: ProfileId,
) {
  const state = await findLikeState(db, me, profileId, null);
  return state && { id: state.id, user_id: state.user_id, name: state.name };
}

/** The caller's newest swipe (the one an undo takes back), read by the swiper's index on time. */
export async function findLastSwipe(db: Kysely<Database>, me: ProfileId) {
  return db
    .selectFrom('swipes')
    .select(['target_id', 'liked', 'created_at'])
    .where('swiper_id', '=', me)
    .orderBy('created_at', 'desc')
    .orderBy('target_id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** Whether the two were ever matched (an ended match too: the swipe that made it cannot be taken back). */
export async function wereMatched(db: Kysely<Database>, a: ProfileId, b: ProfileId): Promise<boolean> {
  const { low, high } = pair(a, b);
  const row = await db
    .selectFrom('matches')
    .select('id')
    .where('profile_low', '=', low)
    .where('profile_high', '=', high)
    .executeTakeFirst();
  return row !== undefined;
}

/** The caller's undos since `since`: how many, and the oldest's time (the free allowance). */
export async function countUndosSince(
  db: Kysely<Database>,
  me: ProfileId,
  since: string,
): Promise<{ count: number; oldest: string | null }> {
  const row = await db
    .selectFrom('swipe_undos')
    .select((eb) => [eb.fn.countAll<number | string>().as('n'), eb.fn.min('created_at').as('oldest')])
    .where('profile_id', '=', me)
    .where('created_at', '>', since)
    .executeTakeFirst();
  return { count: Number(row?.n ?? 0), oldest: row?.oldest ?? null };
}

/**
 * Takes a swipe back: the row goes, the undo is recorded, and the person is stamped as changed for search
 * (`profiles.search_changed_at`, by the database's clock as the triggers stamp it): pools and frontiers
 * learnt that swiped people never come back, so the change query must see them again (searchChanges.ts).
 */
export async function deleteSwipe(db: Kysely<Database>, me: ProfileId, target: ProfileId, now: string): Promise<void> {
  const gone = await db
    .deleteFrom('swipes')
    .where('swiper_id', '=', me)
    .where('target_id', '=', target)
    .returning(['liked', 'message'])
    .executeTakeFirst();
  // What the swipe used of the like allowances stays used (likeTimes).
  const undo = {
    profile_id: me,
    target_id: target,
    created_at: now,
    liked: gone?.liked ?? 0,
    had_message: gone?.message ? 1 : 0,
  };
  await db.insertInto('swipe_undos').values(undo).execute();
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  const databaseNow = postgres
    ? sql<string>`to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`
    : sql<string>`strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`;
  await db.updateTable('profiles').set({ search_changed_at: databaseNow }).where('id', '=', target).execute();
}
