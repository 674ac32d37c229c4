import type { Kysely } from 'kysely';
import type { Database, ProfileId, UserId } from '../../../db/schema.ts';
import type { Language } from '../../../locales/index.ts';
import { addSeconds, type Clock } from '../../clock.ts';
import type { Logger } from '../../logger.ts';
import type { LikeResponse, PersonListItem, UndoResponse, UsersProfileResponse } from '../../contract/discovery.ts';
import { badRequest, conflict, forbidden, notFound, unauthorized } from '../../errors.ts';
import { openConversationWithLikeMessages } from '../chat/index.ts';
import { type EventBus, insertBadgeMarkers, insertEventsAndMarkers, writeMatchEnded } from '../events/index.ts';
import type { NotificationQueue } from '../notifications/index.ts';
import { cityForReader } from '../location/index.ts';
import { isPremium } from '../premium/index.ts';
import { activeRecentlyOf, listShownPhotoNames } from '../profiles/index.ts';
import { presentPrompts } from '../prompts/index.ts';
import { type Allowance, assertAllowance } from '../rateLimits/index.ts';
import {
  endMatch,
  findLiveMatch,
  findSwipe,
  findUserOfProfile,
  isBlockedEitherWay,
  type MyProfile,
  profileRequired,
  requireMyProfile,
} from '../relationships/index.ts';
import { pointOf, shownDistanceKm } from '../search/index.ts';
import type { DeferredSession } from '../sessions/index.ts';
import { usernameSwapFor } from '../usernameShares/index.ts';
import {
  countUndosSince,
  deleteSwipe,
  findLastSwipe,
  findLikeState,
  findVisibleProfile,
  insertMatch,
  listLikers,
  listMatches,
  lockCallerAndTarget,
  type LikeState,
  type PlainSwipeOutcome,
  type PlainSwipeRequest,
  recordSwipe,
  swipePlainly,
  swipePlainlyInSession,
  wereMatched,
} from './repository.ts';
import {
  freeLikeMessagesPerDay,
  freeLikesPerDay,
  freeUndosPerDay,
  likeWindowSeconds,
  undoWithinSeconds,
} from './rules.ts';

const likeAllowance: Allowance = {
  limit: freeLikesPerDay,
  windowSeconds: likeWindowSeconds,
  code: 'like_limit',
  message: `You have used your ${freeLikesPerDay} free likes for today. Get premium for unlimited likes.`,
};

const likeMessageAllowance: Allowance = {
  limit: freeLikeMessagesPerDay,
  windowSeconds: likeWindowSeconds,
  code: 'like_message_limit',
  message: `You have written with ${freeLikeMessagesPerDay} likes today. Get premium to write with every like.`,
};

const undoAllowance: Allowance = {
  limit: freeUndosPerDay,
  windowSeconds: likeWindowSeconds,
  code: 'undo_limit',
  message: 'You have used your free undo for today. Get premium to undo any time.',
};

/** What a like reads of the caller (MyProfile's columns; iskra_plain_swipe answers these). */
type SwipingProfile = NonNullable<PlainSwipeOutcome['me']>;

const personNotFound = () => notFound('profile_not_found', 'Profile not found');
export const noSubscribe = () => forbidden('no_subscribe', 'no subscribe');
const nothingToUndo = () => conflict('nothing_to_undo', 'There is no swipe to undo');

/** Likes, dislikes and what they make: matches, the likers list, the profiles a match or a liker may open. */
export class SwipeService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    private readonly bus: EventBus,
    private readonly notifications: NotificationQueue,
    private readonly logger: Logger,
  ) {}

  private isPremium(premiumUntil: string | null): boolean {
    return isPremium(premiumUntil, this.clock.now());
  }

  private me(userId: UserId): Promise<MyProfile> {
    return requireMyProfile(this.db, userId);
  }

  /**
   * A like or dislike. Everything is decided inside one transaction holding both profiles' row locks: the
   * visibility check, the free like allowance (counted under the caller's lock, so parallel likes cannot
   * all pass a count taken before any of them wrote) and the match. The answer names the other person only
   * for a match: a swipe must not reveal anyone search would not show. Whose counts it may change hear
   * `badges`: the person newly liked, both people of a new match, and the caller when they answered a liker.
   */
  async swipe(
    userId: UserId,
    targetId: ProfileId,
    liked: boolean,
    message: string | null = null,
  ): Promise<LikeResponse> {
    const now = this.clock.now();
    const request = { ...this.plainRequest(targetId, liked, now), userId };
    // PostgreSQL, without a message: one autocommit statement takes the pair's locks, reads and, in the plain
    // case, writes (swipePlainly). It answers its whole read, decided under those locks: a refusal or a repeat
    // (nothing to write) is answered from it; a match or a like to notify goes to the transaction below, which
    // decides again under its own locks.
    if (message === null) {
      const plain = await swipePlainly(this.db, request);
      const answer = plain && (await this.answerPlain(userId, targetId, liked, plain, now));
      if (answer) return answer;
    }
    return this.swipeInTransaction(request, message, now);
  }

  /**
   * A like or dislike without a message whose session is checked by its own statement (PostgreSQL; the session
   * loader deferred it, server/http/auth.ts): iskra_session_swipe reads the session fresh and, if it is live,
   * does what swipePlainly does for its account, in one round trip where the session's read was one more. An
   * ended session is refused with 401 and nothing of the like is read or written. What follows is swipe's.
   */
  async swipeInSession(session: DeferredSession, targetId: ProfileId, liked: boolean): Promise<LikeResponse> {
    const now = this.clock.now();
    const request = this.plainRequest(targetId, liked, now);
    const { session: live, outcome } = await swipePlainlyInSession(this.db, session.check(), request);
    const auth = session.accept(live);
    if (!auth || !outcome) throw unauthorized();
    const answer = await this.answerPlain(auth.userId, targetId, liked, outcome, now);
    return answer ?? this.swipeInTransaction({ ...request, userId: auth.userId }, null, now);
  }

  /** What a like's statements are given, but whose it is. */
  private plainRequest(targetId: ProfileId, liked: boolean, now: Date): Omit<PlainSwipeRequest, 'userId'> {
    return {
      targetId,
      liked,
      at: now.toISOString(),
      likesSince: addSeconds(now, -likeAllowance.windowSeconds).toISOString(),
      likeLimit: likeAllowance.limit,
    };
  }

  /**
   * The answer to a like from iskra_plain_swipe's outcome alone: a plain swipe it wrote, a refusal or a repeat
   * (decided under its locks, nothing to write); undefined when the transaction path must decide (a match, a
   * like to notify).
   */
  private async answerPlain(
    userId: UserId,
    targetId: ProfileId,
    liked: boolean,
    plain: PlainSwipeOutcome,
    now: Date,
  ): Promise<LikeResponse | undefined> {
    const { target } = this.swipeable(plain, targetId);
    if (plain.swiped) return this.plainSwiped(userId, liked, target);
    if (!this.recordable(liked, null, target, now) && !this.mayMatch(liked, target))
      return target.match_id === null
        ? { match: false }
        : { match: true, profile: { id: target.id, name: target.name, photo: target.photo } };
    return undefined;
  }

  /** The like's transaction: the pair's locks, the read, and what the rules then write (a match, say). */
  private async swipeInTransaction(
    request: PlainSwipeRequest,
    message: string | null,
    now: Date,
  ): Promise<LikeResponse> {
    const { userId, targetId, liked, at } = request;
    const outcome = await this.db.transaction().execute(async (trx) => {
      const read = await this.lockAndRead(trx, request, message, now);
      if (!read) return null;
      const { me, target } = read;
      const recorded = this.recordable(liked, message, target, now);
      // The swipe is written below, with the badge markers when it makes no match: nothing reads it before.
      const swipe = { swiper: me.id, target: targetId, liked, at, message };
      const matchId =
        liked && target.theirs === 1 ? await insertMatch(trx, me.id, targetId, at, recorded ? swipe : undefined) : null;
      const created = matchId !== null;
      // Answering someone who liked me takes them off my likers.
      const told = recorded && target.theirs === 1 ? [userId] : [];
      if (recorded && liked && !created) {
        told.push(target.user_id);
        await this.notifications.like(
          trx,
          target.user_id,
          { profileId: me.id, name: me.name },
          now,
          this.isPremium(target.premium_until),
          message !== null,
        );
      }
      const match = created || target.match_id !== null;
      if (created) {
        // What the likes said opens the conversation, each as its sender's first message (theirs came first).
        const written = [
          ...(target.their_message !== null
            ? [{ sender: targetId, content: target.their_message, at: target.their_at ?? at }]
            : []),
          ...(recorded && message !== null ? [{ sender: me.id, content: message, at }] : []),
        ];
        await openConversationWithLikeMessages(trx, matchId, written, at);
        told.push(userId, target.user_id);
        // Both sides hear of the match on their open tabs (and later through the bot, unless the app showed it).
        const [mine, theirsEvent] = await insertEventsAndMarkers(
          trx,
          [
            {
              userId: userId,
              type: 'match',
              payload: { profile: { id: target.id, name: target.name, photo: target.photo } },
            },
            {
              userId: target.user_id,
              type: 'match',
              payload: { profile: { id: me.id, name: me.name, photo: target.my_photo } },
            },
          ],
          told,
          at,
        );
        if (mine !== undefined)
          await this.notifications.match(trx, userId, { profileId: target.id, name: target.name }, mine, now);
        if (theirsEvent !== undefined)
          await this.notifications.match(trx, target.user_id, { profileId: me.id, name: me.name }, theirsEvent, now);
      } else if (recorded && !target.swiped) {
        // Whom it tells (told is empty when nothing was recorded): one statement with the swipe on PostgreSQL.
        await recordSwipe(trx, { swiper: me.id, target: targetId, liked, at, message: liked ? message : null }, told);
      }
      // The read's write and these rules are two statements of one rule: should they ever disagree, nothing of
      // it is kept (the throw rolls the transaction back).
      if (target.swiped && (created || !recorded)) throw new Error('the like read wrote a swipe the rules refuse');
      return { target, match, photo: match ? target.photo : null, told };
    });
    if (!outcome) throw personNotFound();
    if (outcome.told.length > 0) await this.bus.publish(outcome.told);
    if (!outcome.match) return { match: false };
    return { match: true, profile: { id: outcome.target.id, name: outcome.target.name, photo: outcome.photo } };
  }

  /**
   * The like's transaction path up to its decision: the pair's locks and the read of everything the like decides
   * on, under them; null when the person is not one the caller may swipe. PostgreSQL without a message: one
   * statement, iskra_plain_swipe inside the transaction (its locks last until the commit; in the plain case,
   * reached meanwhile, it writes, and `swiped` says so). Otherwise the locking read of the caller, then the read
   * (on PostgreSQL the read also writes the plain case: findLikeState with a PlainSwipe).
   */
  private async lockAndRead(
    trx: Kysely<Database>,
    request: PlainSwipeRequest,
    message: string | null,
    now: Date,
  ): Promise<{ me: SwipingProfile; target: LikeState } | null> {
    const { userId, targetId, liked, at } = request;
    if (message === null) {
      // The notification, if any, is queued below in this transaction.
      const plain = await swipePlainly(trx, { ...request, notifies: true });
      if (plain) {
        const { me, target } = this.swipeable(plain, targetId);
        return { me, target: { ...target, swiped: plain.swiped } };
      }
    }
    // Who likes, read with both locks (one statement on PostgreSQL); a refusal here rolls back at once.
    const me = await lockCallerAndTarget(trx, userId, targetId);
    if (!me) throw profileRequired();
    if (targetId === me.id) throw badRequest('cannot_swipe_self', 'You cannot like or dislike yourself');
    const premium = this.isPremium(me.premium_until);
    // One read decides everything below; the locks keep it true until the commit.
    const since = liked && !premium ? addSeconds(now, -likeAllowance.windowSeconds).toISOString() : null;
    // On PostgreSQL the read writes the swipe too when it is the plain case (no match, nothing refused): the
    // rules below decide again from the same read, and `target.swiped` says it is done.
    const plain = {
      userId,
      liked,
      at,
      message,
      likeLimit: likeAllowance.limit,
      messageLimit: likeMessageAllowance.limit,
    };
    const target = await findLikeState(trx, me, targetId, since, message !== null, plain);
    return target ? { me, target } : null;
  }

  /** The caller and the person of iskra_plain_swipe's answer, or the refusal the transaction path answers. */
  private swipeable(plain: PlainSwipeOutcome, targetId: ProfileId) {
    const { me, state } = plain;
    if (!me) throw profileRequired();
    if (targetId === me.id) throw badRequest('cannot_swipe_self', 'You cannot like or dislike yourself');
    if (!state) throw personNotFound();
    return { me, target: state };
  }

  /**
   * The like's refusals (a repeat with other words; a free allowance used up) and whether the swipe is to be
   * written: new, or a like after a dislike (a dislike never undoes a like; a like may follow a dislike, from the
   * likers list). The one place of these rules, for the transaction path and for swipePlainly's answer.
   */
  private recordable(liked: boolean, message: string | null, target: Omit<LikeState, 'swiped'>, now: Date): boolean {
    if (message !== null && target.mine === 1) {
      // A repeat of the same like with the same words is the like already made (a retry); other words
      // would be a second message the person never sees, so they are refused.
      if (target.my_message !== message) throw conflict('already_liked', 'You already liked this person');
    }
    if (liked && target.mine !== 1 && target.likes) assertAllowance(target.likes, likeAllowance, now);
    if (message !== null && target.mine !== 1 && target.messages)
      assertAllowance(target.messages, likeMessageAllowance, now);
    return target.mine === null || (liked && target.mine === 0);
  }

  /**
   * Whether a like may make a match even when nothing is recorded (a repeat): their like with no live match, so
   * the transaction path's insertMatch decides (an ended match's row stays and makes none).
   */
  private mayMatch(liked: boolean, target: Pick<LikeState, 'theirs' | 'match_id'>): boolean {
    return liked && target.theirs === 1 && target.match_id === null;
  }

  /**
   * What a swipe written by swipePlainly answers and whom it tells: the person liked, or for a dislike the caller
   * when it answered a liker. The rules of the transaction path, checked against the function's decision.
   */
  private async plainSwiped(
    userId: UserId,
    liked: boolean,
    target: NonNullable<PlainSwipeOutcome['state']>,
  ): Promise<LikeResponse> {
    const recorded = target.mine === null || (liked && target.mine === 0);
    // The function's write committed with its statement: nothing would roll back on a throw, which would only
    // answer an error for a swipe made and leave the bus untold. So the disagreement is logged (the function
    // and these rules need mending) and the swipe answered as made.
    if (!recorded || (liked && target.theirs === 1))
      this.logger.error(
        { userId, target: target.id, liked, mine: target.mine, theirs: target.theirs },
        'iskra_plain_swipe wrote a swipe the rules refuse',
      );
    const told = liked ? [target.user_id] : target.theirs === 1 ? [userId] : [];
    if (told.length > 0) await this.bus.publish(told);
    if (target.match_id === null) return { match: false };
    return { match: true, profile: { id: target.id, name: target.name, photo: target.photo } };
  }

  async matches(userId: UserId): Promise<PersonListItem[]> {
    const me = await this.me(userId);
    const rows = await listMatches(this.db, me.id);
    return rows.map((r) => ({ id: r.id, name: r.name, age: r.age, latest_photo: r.latest_photo }));
  }

  /**
   * Premium sees who liked them; free users see how many, as blurred photos without names. Whoever wrote
   * with their like is shown whole to everyone, with the message, on top (listLikers' order).
   */
  async likers(userId: UserId): Promise<PersonListItem[]> {
    const me = await this.me(userId);
    const rows = await listLikers(this.db, me.id);
    const premium = this.isPremium(me.premium_until);
    return rows.map((r) => {
      if (r.message !== null)
        return { id: r.id, name: r.name, age: r.age, latest_photo: r.latest_photo, message: r.message };
      if (premium) return { id: r.id, name: r.name, age: r.age, latest_photo: r.latest_photo };
      return { id: null, name: null, age: null, latest_photo: r.blurred_photo, blurred: true };
    });
  }

  /** A match's profile; anyone else is "not found", whether they exist or not. */
  async matchProfile(userId: UserId, profileId: ProfileId, language: Language): Promise<UsersProfileResponse> {
    const me = await this.me(userId);
    if (!(await findLiveMatch(this.db, me.id, profileId)) || (await isBlockedEitherWay(this.db, me.id, profileId)))
      throw personNotFound();
    const presented = await this.presentProfile(me, profileId, language);
    // The @username swap: the other's username appears only once both agreed (usernameShares).
    const swap = await usernameSwapFor(this.db, me.id, profileId);
    return swap ? { users_profile: { ...presented.users_profile, ...swap } } : presented;
  }

  async likerProfile(userId: UserId, profileId: ProfileId, language: Language): Promise<UsersProfileResponse> {
    const me = await this.me(userId);
    const theirs = await findSwipe(this.db, profileId, me.id);
    // A liker who wrote may be opened on the free plan too (the likers list shows them whole).
    if (!this.isPremium(me.premium_until) && !(theirs?.liked === 1 && theirs.message !== null)) throw noSubscribe();
    const mine = await findSwipe(this.db, me.id, profileId);
    if (theirs?.liked !== 1 || mine || (await isBlockedEitherWay(this.db, me.id, profileId))) throw personNotFound();
    return this.presentProfile(me, profileId, language);
  }

  /** `language`: the reader's, in which the person's city is named. */
  private async presentProfile(me: MyProfile, profileId: ProfileId, language: Language): Promise<UsersProfileResponse> {
    const other = await findVisibleProfile(this.db, profileId);
    if (!other) throw personNotFound();
    return {
      users_profile: {
        id: other.id,
        name: other.name,
        age: other.age,
        city: cityForReader(other, language),
        gender: other.gender,
        bio: other.bio,
        // Held by the upload screen: its owner's only, until a moderator decides.
        photos: await listShownPhotoNames(this.db, other.id),
        distance: shownDistanceKm(pointOf(me), pointOf(other)),
        prompts: presentPrompts(other.prompts, language),
        active_recently: activeRecentlyOf(other, this.clock.now()),
        verified: other.verified === 1,
      },
    };
  }

  /**
   * Takes back the caller's newest swipe, if it is at most `undoWithinSeconds` old and made no match; answers
   * whose card comes back. Free users once in a rolling day, counted under the caller's lock in the writing
   * transaction (parallel undos cannot all pass one count). Both profiles are locked in id order as a like
   * locks them, so an undo and the other person's like back cannot both win: either the like finds the like
   * and makes a match (and the undo is refused), or it finds nothing. The other person's likers and badge
   * lose an undone like (`badges`); the caller's too, when the swipe answered someone who liked them.
   */
  async undo(userId: UserId): Promise<UndoResponse> {
    const me = await this.me(userId);
    // The newest swipe is read before the locks (they need to know whose), then again under them: a swipe
    // made meanwhile by another tab is the newest then, so it is tried again with that one.
    for (let attempt = 0; attempt < 3; attempt++) {
      const last = await findLastSwipe(this.db, me.id);
      if (!last) throw nothingToUndo();
      const now = this.clock.now();
      const at = now.toISOString();
      const outcome = await this.db.transaction().execute(async (trx) => {
        const locked = await lockCallerAndTarget(trx, userId, last.target_id);
        if (!locked) throw profileRequired();
        const current = await findLastSwipe(trx, me.id);
        if (!current) throw nothingToUndo();
        if (current.target_id !== last.target_id || current.created_at !== last.created_at) return 'again' as const;
        if (current.created_at <= addSeconds(now, -undoWithinSeconds).toISOString())
          throw conflict('undo_too_old', `Only a swipe of the last ${undoWithinSeconds / 60} minutes can be undone`);
        if (current.liked === 1 && (await wereMatched(trx, me.id, current.target_id)))
          throw conflict('undo_match', 'This swipe made a match');
        if (!this.isPremium(locked.premium_until))
          assertAllowance(
            await countUndosSince(trx, me.id, addSeconds(now, -undoAllowance.windowSeconds).toISOString()),
            undoAllowance,
            now,
          );
        const other = await findUserOfProfile(trx, current.target_id);
        const told = current.liked === 1 && other !== undefined ? [userId, other] : [userId];
        await deleteSwipe(trx, me.id, current.target_id, at);
        await insertBadgeMarkers(trx, told, at);
        return { profileId: current.target_id, told };
      });
      if (outcome === 'again') continue;
      await this.bus.publish(outcome.told);
      return { profile_id: outcome.profileId };
    }
    throw conflict('undo_busy', 'Swipes are changing; try again');
  }

  /** Ends a current match; both people's streams hear it (`unmatched`, `badges`). */
  async unmatch(userId: UserId, profileId: ProfileId): Promise<void> {
    const me = await this.me(userId);
    const now = this.clock.now().toISOString();
    const told = await this.db.transaction().execute(async (trx) => {
      if ((await endMatch(trx, me.id, profileId, now)) === 0) return null;
      const other = await findUserOfProfile(trx, profileId);
      return other === undefined
        ? []
        : writeMatchEnded(trx, { userId, profileId: me.id }, { userId: other, profileId }, now);
    });
    if (told === null) throw notFound('match_not_found', 'Failed to unmatch.');
    await this.bus.publish(told);
  }
}
