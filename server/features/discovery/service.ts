import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import { addSeconds, type Clock } from '../../clock.ts';
import type { LikeResponse, PersonListItem, SearchQuery, SearchResult, UsersProfileResponse } from '../../contract/discovery.ts';
import { AppError, badRequest, forbidden, notFound } from '../../errors.ts';
import type { EventBus } from '../events/eventBus.ts';
import { insertEvents } from '../events/repository.ts';
import { enqueueMatchNotification } from '../notifications/queue.ts';
import type { RateCounter } from '../rateLimits/rateCounter.ts';
import { CandidatePools, type PooledCandidate } from './candidatePool.ts';
import { findCandidates, type CandidateRow } from './candidates.ts';
import { haversineKm, pointOf, shownDistanceKm, type Point } from './distance.ts';
import {
  countLikesSince,
  endMatch,
  findLiveMatch,
  findMyProfile,
  findSwipe,
  findVisibleProfile,
  insertBlock,
  insertMatch,
  insertReport,
  isBlockedEitherWay,
  listLikers,
  listMatches,
  lockPair,
  photoNamesOf,
  upsertSwipe,
} from './repository.ts';
import {
  freeLikesPerDay,
  likedYouBoostKm,
  likeWindowSeconds,
  premiumBoostKm,
  rankingPoolSize,
  recheckBatch,
  searchBoxSteps,
  searchPerDay,
  searchPerMinute,
} from './rules.ts';

type Me = NonNullable<Awaited<ReturnType<typeof findMyProfile>>>;

export const profileRequired = () => new AppError(409, 'profile_required', 'Create your profile first');
const personNotFound = () => notFound('profile_not_found', 'Profile not found');
export const noSubscribe = () => forbidden('no_subscribe', 'no subscribe');

export class DiscoveryService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    private readonly rates: RateCounter,
    private readonly bus: EventBus,
    private readonly notificationsQueued: () => void = () => undefined,
    /** Called with a new report's id after it is committed (main.ts tells the admins in the bot). */
    private readonly reportFiled: (reportId: number) => void = () => undefined,
    private readonly pools = new CandidatePools(() => clock.now().getTime()),
  ) {}

  private isPremium(premiumUntil: string | null): boolean {
    return premiumUntil !== null && premiumUntil > this.clock.now().toISOString();
  }

  private async me(userId: number): Promise<Me> {
    const me = await findMyProfile(this.db, userId);
    if (!me) throw profileRequired();
    return me;
  }

  /**
   * The next person to show, or null when nobody is left. `gender` given explicitly also becomes the
   * caller's stored preference, because the reciprocal rule reads the other side's preference.
   */
  async next(userId: number, query: SearchQuery, genderGiven: boolean): Promise<SearchResult | null | 'no_profile'> {
    await this.rates.hit(`search:${userId}`, [{ seconds: 60, limit: searchPerMinute }, { seconds: 86_400, limit: searchPerDay }], 'search_rate_limited', 'Too many searches. Please slow down.');
    const me = await findMyProfile(this.db, userId);
    if (!me) return 'no_profile';
    if (genderGiven && query.gender !== me.preferred_gender) {
      await this.db.updateTable('profiles').set({ preferred_gender: query.gender }).where('id', '=', me.id).execute();
    }
    const point = pointOf(me);
    const filter = { me: { id: me.id, gender: me.gender, point }, ageMin: query.ageMin, ageMax: query.ageMax, gender: query.gender };
    // Everything the pool's ranking depends on: other filters or another position make it stale.
    const poolKey = JSON.stringify([query.ageMin, query.ageMax, query.gender, me.gender, point?.latitude, point?.longitude]);
    const pooled = this.pools.take(me.id, poolKey);
    if (pooled) {
      const held = new Set(query.exclude);
      const next = pooled.filter((c) => !held.has(c.row.id)).slice(0, recheckBatch);
      if (next.length) {
        const still = await findCandidates(this.db, { ...filter, exclude: [], box: null, limit: next.length, only: next.map((c) => c.row.id) });
        const fresh = new Map(still.map((row) => [row.id, row]));
        for (const c of next) if (!fresh.has(c.row.id)) this.pools.forget(me.id, c.row.id);
        const first = next.find((c) => fresh.has(c.row.id));
        const row = first && fresh.get(first.row.id);
        if (row) return this.presentCandidate(row, point);
      }
    }
    for (const box of point ? searchBoxSteps : [null]) {
      const rows = await findCandidates(this.db, { ...filter, exclude: query.exclude, box: box === 180 ? null : box, limit: rankingPoolSize });
      // Someone outside a box may be nearer than a corner of it: accept only within the inscribed circle.
      const bounded = point !== null && box !== null && box !== 180;
      const ranked = this.rank(rows, point).filter((c) => !bounded || c.km <= box * 111);
      const best = ranked[0];
      if (!best) continue;
      this.pools.keep(me.id, poolKey, ranked);
      return this.presentCandidate(best.row, point);
    }
    this.pools.drop(me.id);
    return null;
  }

  /** Bounded boosts: premium and "liked you" move a person ahead of others about as near, never further. */
  private rank(rows: CandidateRow[], point: Point | null): PooledCandidate[] {
    return rows
      .map((row) => {
        const there = pointOf(row);
        const km = point && there ? haversineKm(point, there) : Number.POSITIVE_INFINITY;
        const boost = (this.isPremium(row.premium_until) ? premiumBoostKm : 0) + (row.liked_me ? likedYouBoostKm : 0);
        const score = Number.isFinite(km) ? km - Math.min(boost, km / 2) : Number.POSITIVE_INFINITY;
        return { row, km, score };
      })
      // Stable: equal scores keep the query's order (nearest, then id). Infinity - Infinity would be NaN.
      .sort((a, b) => (a.score === b.score ? 0 : a.score < b.score ? -1 : 1));
  }

  private async presentCandidate(row: CandidateRow, point: Point | null): Promise<SearchResult> {
    const photos = await photoNamesOf(this.db, row.id);
    return {
      user_id: row.id,
      profile_id: row.id,
      name: row.name,
      age: row.age,
      city: row.city,
      gender: row.gender,
      bio: row.bio,
      distance: shownDistanceKm(point, pointOf(row)),
      photo: photos.join(','),
    };
  }

  async swipe(userId: number, targetId: number, liked: boolean): Promise<LikeResponse> {
    const me = await this.me(userId);
    if (targetId === me.id) throw badRequest('cannot_swipe_self', 'You cannot like or dislike yourself');
    const target = await findVisibleProfile(this.db, targetId);
    if (!target || (await isBlockedEitherWay(this.db, me.id, targetId))) throw personNotFound();
    const now = this.clock.now();
    const existing = await findSwipe(this.db, me.id, targetId);
    const newLike = liked && existing?.liked !== 1;
    if (newLike && !this.isPremium(me.premium_until)) await this.assertLikeAllowance(me.id, now);

    const photos = await photoNamesOf(this.db, targetId);
    const myPhotos = await photoNamesOf(this.db, me.id);
    const { match, created } = await this.db.transaction().execute(async (trx) => {
      await lockPair(trx, me.id, targetId);
      const current = await findSwipe(trx, me.id, targetId);
      // A dislike never undoes a like; a like may follow a dislike (from the likers list).
      if (!current || (liked && current.liked === 0)) await upsertSwipe(trx, me.id, targetId, liked, now.toISOString());
      let created = false;
      if (liked) {
        const theirs = await findSwipe(trx, targetId, me.id);
        if (theirs?.liked === 1) created = await insertMatch(trx, me.id, targetId, now.toISOString());
      }
      if (created) {
        // Both sides hear of the match on their open tabs (and later through the bot).
        await insertEvents(
          trx,
          [
            { userId: userId, type: 'match', payload: { profile: { id: target.id, name: target.name, photo: photos[0] ?? null } } },
            { userId: target.user_id, type: 'match', payload: { profile: { id: me.id, name: me.name, photo: myPhotos[0] ?? null } } },
          ],
          now.toISOString(),
        );
        await enqueueMatchNotification(trx, userId, target.name, now);
        await enqueueMatchNotification(trx, target.user_id, me.name, now);
      }
      return { match: (await findLiveMatch(trx, me.id, targetId)) !== undefined, created };
    });
    this.pools.forget(me.id, targetId);
    if (created) {
      await this.bus.publish([userId, target.user_id]);
      this.notificationsQueued();
    }
    return { match, profile: { id: target.id, name: target.name, photo: photos[0] ?? null } };
  }

  private async assertLikeAllowance(profileId: number, now: Date): Promise<void> {
    const { count, oldest } = await countLikesSince(this.db, profileId, addSeconds(now, -likeWindowSeconds).toISOString());
    if (count < freeLikesPerDay) return;
    const resetsAt = addSeconds(new Date(oldest ?? now.toISOString()), likeWindowSeconds);
    throw new AppError(429, 'like_limit', `You have used your ${freeLikesPerDay} free likes for today. Get premium for unlimited likes.`, {
      retryAfterSeconds: Math.max(1, Math.ceil((resetsAt.getTime() - now.getTime()) / 1000)),
      extra: { resets_at: resetsAt.toISOString(), limit: freeLikesPerDay },
    });
  }

  async matches(userId: number): Promise<PersonListItem[]> {
    const me = await this.me(userId);
    const rows = await listMatches(this.db, me.id);
    return rows.map((r) => ({ id: r.id, name: r.name, age: r.age, latest_photo: r.latest_photo }));
  }

  /** Premium sees who liked them; free users see how many, as blurred photos without names. */
  async likers(userId: number): Promise<PersonListItem[]> {
    const me = await this.me(userId);
    const rows = await listLikers(this.db, me.id);
    if (this.isPremium(me.premium_until)) return rows.map((r) => ({ id: r.id, name: r.name, age: r.age, latest_photo: r.latest_photo }));
    return rows.map((r) => ({ id: null, name: null, age: null, latest_photo: r.blurred_photo, blurred: true }));
  }

  /** A match's profile; anyone else is "not found", whether they exist or not. */
  async matchProfile(userId: number, profileId: number): Promise<UsersProfileResponse> {
    const me = await this.me(userId);
    if (!(await findLiveMatch(this.db, me.id, profileId)) || (await isBlockedEitherWay(this.db, me.id, profileId))) throw personNotFound();
    return this.presentProfile(me, profileId);
  }

  async likerProfile(userId: number, profileId: number): Promise<UsersProfileResponse> {
    const me = await this.me(userId);
    if (!this.isPremium(me.premium_until)) throw noSubscribe();
    const theirs = await findSwipe(this.db, profileId, me.id);
    const mine = await findSwipe(this.db, me.id, profileId);
    if (theirs?.liked !== 1 || mine || (await isBlockedEitherWay(this.db, me.id, profileId))) throw personNotFound();
    return this.presentProfile(me, profileId);
  }

  private async presentProfile(me: Me, profileId: number): Promise<UsersProfileResponse> {
    const other = await findVisibleProfile(this.db, profileId);
    if (!other) throw personNotFound();
    return {
      users_profile: {
        id: other.id,
        name: other.name,
        age: other.age,
        city: other.city,
        gender: other.gender,
        bio: other.bio,
        photos: await photoNamesOf(this.db, other.id),
        distance: shownDistanceKm(pointOf(me), pointOf(other)),
      },
    };
  }

  async unmatch(userId: number, profileId: number): Promise<void> {
    const me = await this.me(userId);
    const ended = await endMatch(this.db, me.id, profileId, this.clock.now().toISOString());
    if (ended === 0) throw notFound('match_not_found', 'Failed to unmatch.');
  }

  /** Blocks (and a report also blocks): neither sees, likes or messages the other again; a match ends. */
  async block(userId: number, profileId: number, report?: { reason: Database['reports']['reason']; comment: string }): Promise<void> {
    const me = await this.me(userId);
    if (profileId === me.id) throw badRequest('cannot_block_self', 'You cannot block or report yourself');
    const exists = await this.db.selectFrom('profiles').select('id').where('id', '=', profileId).executeTakeFirst();
    if (!exists) throw personNotFound();
    const now = this.clock.now().toISOString();
    const reportId = await this.db.transaction().execute(async (trx) => {
      await insertBlock(trx, me.id, profileId, now);
      await endMatch(trx, me.id, profileId, now);
      return report ? insertReport(trx, { reporter_id: me.id, reported_id: profileId, reason: report.reason, comment: report.comment, created_at: now }) : null;
    });
    this.pools.forget(me.id, profileId);
    if (reportId !== null) this.reportFiled(reportId);
  }

  async settings(userId: number): Promise<{ private_mode: boolean; notifications: boolean }> {
    const row = await this.db.selectFrom('profiles').select(['private_mode', 'notifications']).where('user_id', '=', userId).executeTakeFirst();
    if (!row) throw profileRequired();
    return { private_mode: row.private_mode === 1, notifications: row.notifications === 1 };
  }

  async updateSettings(userId: number, changes: { private_mode?: boolean | undefined; notifications?: boolean | undefined }) {
    const me = await this.me(userId);
    if (changes.private_mode === undefined && changes.notifications === undefined) throw badRequest('nothing_to_change', 'Nothing to change');
    await this.db
      .updateTable('profiles')
      .set({
        ...(changes.private_mode !== undefined ? { private_mode: changes.private_mode ? 1 : 0 } : {}),
        ...(changes.notifications !== undefined ? { notifications: changes.notifications ? 1 : 0 } : {}),
      })
      .where('id', '=', me.id)
      .execute();
    return this.settings(userId);
  }
}
