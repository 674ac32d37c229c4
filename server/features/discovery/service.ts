import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import { addSeconds, type Clock } from '../../clock.ts';
import type { LikeResponse, PersonListItem, SearchQuery, SearchResult, SettingsChanges, SettingsResponse, UsersProfileResponse } from '../../contract/discovery.ts';
import { AppError, badRequest, forbidden, notFound } from '../../errors.ts';
import type { EventBus } from '../events/eventBus.ts';
import { insertEvents } from '../events/repository.ts';
import { enqueueMatchNotification } from '../notifications/queue.ts';
import { assertAllowance, type Allowance } from '../rateLimits/allowance.ts';
import type { RateCounter } from '../rateLimits/rateCounter.ts';
import { CandidatePools, capped, mergeRanked, poolTtlMs, unplacedPoolTtlMs, type Pool, type PooledCandidate } from './candidatePool.ts';
import { everywhereKm, findCandidates, type CandidateFilter, type CandidateRow } from './candidates.ts';
import { changedNear, changedRecheckMax, latestSearchChange } from './searchChanges.ts';
import { flatKm, haversineKm, kmPerDegree, pointOf, shownDistanceKm, type Point } from './distance.ts';
import {
  countLikesSince,
  endMatch,
  findLiveMatch,
  findMyProfile,
  findSwipe,
  findSwipeableProfile,
  findSettings,
  findVisibleProfile,
  insertBlock,
  insertMatch,
  insertReport,
  isBlockedEitherWay,
  listLikers,
  listMatches,
  lockPair,
  photoNamesOf,
  updateSettings,
  upsertSwipe,
} from './repository.ts';
import {
  freeLikesPerDay,
  likedYouBoostKm,
  likeWindowSeconds,
  premiumBoostKm,
  rankingPoolSize,
  recheckBatch,
  recheckBatches,
  searchBoxSteps,
  searchPerDay,
  searchPerMinute,
} from './rules.ts';

/** A search's own filters; each query adds its box, bound or list of people. */
type Search = Omit<CandidateFilter, 'box' | 'only' | 'beyondKm'>;

const likeAllowance: Allowance = {
  limit: freeLikesPerDay,
  windowSeconds: likeWindowSeconds,
  code: 'like_limit',
  message: `You have used your ${freeLikesPerDay} free likes for today. Get premium for unlimited likes.`,
};

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
   * The next person to show, or null when nobody is left. Read-only but for the rate counter and the
   * in-memory pool: the gender filter becomes the stored preference (which others' reciprocal rule reads)
   * only through `POST /api/settings`, since a GET is reachable by a cross-site link with the Lax cookie.
   */
  async next(userId: number, query: SearchQuery): Promise<SearchResult | null | 'no_profile'> {
    await this.rates.hit(`search:${userId}`, [{ seconds: 60, limit: searchPerMinute }, { seconds: 86_400, limit: searchPerDay }], 'search_rate_limited', 'Too many searches. Please slow down.');
    const me = await findMyProfile(this.db, userId);
    if (!me) return 'no_profile';
    const point = pointOf(me);
    const filter: Search = { me: { id: me.id, gender: me.gender, point }, ageMin: query.ageMin, ageMax: query.ageMax, gender: query.gender, exclude: [], limit: rankingPoolSize };
    // Everything the pool's ranking depends on: other filters or another position make it stale.
    const poolKey = JSON.stringify([query.ageMin, query.ageMax, query.gender, me.gender, point?.latitude, point?.longitude]);
    const held = new Set(query.exclude);
    // Read before anything else: whatever changes after it is asked about by the next search.
    const watermark = point ? await latestSearchChange(this.db) : null;
    const pool = this.pools.take(me.id, poolKey);
    let beyond: { km: number; held: PooledCandidate[] } | undefined;
    if (pool) {
      const shown = await this.fromPool(filter, pool, held, watermark);
      if (typeof shown === 'object') {
        this.pools.put(me.id, pool);
        return this.presentCandidate(shown, point);
      }
      // Used up: nobody nearer than the bound is left but the people the app holds (kept in the new pool,
      // since the app may drop them unswiped), so only the ring beyond the bound needs a scan.
      if (shown === 'used_up' && point) beyond = { km: pool.boundKm, held: pool.candidates };
    }
    const found = await this.scan(filter, held, watermark, poolKey, beyond);
    return found ? this.presentCandidate(found, point) : null;
  }

  /**
   * The next person from a pool: first whoever changed inside its bound since it was made (they join the
   * ranking), then the pooled people in order, each re-checked against every rule. 'used_up' when none is
   * left to show; 'stale' when the pool cannot be trusted (too many changes, or too many pooled people
   * failing their re-check) and a full scan must decide.
   */
  private async fromPool(filter: Search, pool: Pool, held: Set<number>, watermark: string | null): Promise<CandidateRow | 'used_up' | 'stale'> {
    const meId = filter.me.id;
    const point = filter.me.point;
    const fresh = new Map<number, CandidateRow>();
    if (point) {
      const changed = await changedNear(this.db, pool.watermark, point, pool.boundKm);
      if (changed === null) return 'stale';
      const nearest = changed.filter((c) => c.id !== meId);
      const leftOver = nearest[changedRecheckMax];
      if (leftOver) pool.boundKm = leftOver.km;
      const others = nearest.slice(0, changedRecheckMax).map((c) => c.id);
      if (others.length) {
        const rows = await findCandidates(this.db, { ...filter, box: null, limit: others.length, only: others });
        for (const row of rows) fresh.set(row.id, row);
        Object.assign(pool, capped({ ...pool, candidates: mergeRanked(pool.candidates, this.rank(rows, point)) }));
      }
      // Everyone changed since the old watermark is now in the pool or known to be out.
      pool.watermark = watermark;
    }
    for (let batch = 0; batch < recheckBatches; batch++) {
      const next = pool.candidates.filter((c) => !held.has(c.id)).slice(0, recheckBatch);
      if (!next.length) return 'used_up';
      const unchecked = next.filter((c) => !fresh.has(c.id)).map((c) => c.id);
      if (unchecked.length) {
        for (const row of await findCandidates(this.db, { ...filter, box: null, limit: unchecked.length, only: unchecked })) fresh.set(row.id, row);
      }
      // The pool in hand, not whatever is stored for the user now (another tab may search other filters).
      pool.candidates = pool.candidates.filter((c) => fresh.has(c.id) || !next.includes(c));
      const first = next.find((c) => fresh.has(c.id));
      if (first) return fresh.get(first.id) as CandidateRow;
    }
    return 'stale';
  }

  /**
   * A scan for the nearest people, in growing boxes, and a new pool of all it ranked. `beyondKm` skips the
   * disc a used-up pool proved empty. People the client holds are read too (and pooled, since they may
   * come back) but never answered.
   */
  private async scan(filter: Search, held: Set<number>, watermark: string | null, poolKey: string, beyond: { km: number; held: PooledCandidate[] } | undefined): Promise<CandidateRow | null> {
    const meId = filter.me.id;
    const point = filter.me.point;
    const beyondKm = beyond?.km;
    for (const step of point ? searchBoxSteps : [null]) {
      const box = step === 180 ? null : step;
      if (beyondKm !== undefined && box !== null && box * kmPerDegree <= beyondKm) continue;
      const limit = rankingPoolSize + held.size;
      const rows = await findCandidates(this.db, { ...filter, box, beyondKm, limit });
      const flatOf = (row: CandidateRow) => {
        const there = pointOf(row);
        return point && there ? flatKm(point, there) : Number.POSITIVE_INFINITY;
      };
      // Someone outside a box may be nearer than a corner of it: rank only those within the inscribed circle.
      const ranked = this.rank(box === null ? rows : rows.filter((row) => flatOf(row) <= box * kmPerDegree), point);
      const best = ranked.find((c) => !held.has(c.id));
      if (!best) continue;
      if (point) {
        // Everyone nearer than this was read by this scan (or proved out by the pool before it). Rows come
        // nearest first, people without a position last: when the limit cut the list, its last row is as
        // far as the scan saw (infinitely far when unlocated: every located person was read).
        const last = rows.length === limit ? rows[rows.length - 1] : undefined;
        const boundKm = Math.min(box === null ? everywhereKm : box * kmPerDegree, last ? flatOf(last) : Number.POSITIVE_INFINITY);
        this.pools.keep(meId, capped({ key: poolKey, candidates: mergeRanked(beyond?.held ?? [], ranked), boundKm, watermark }), poolTtlMs);
      } else {
        this.pools.keep(meId, { key: poolKey, candidates: ranked, boundKm: 0, watermark: null }, unplacedPoolTtlMs);
      }
      return rows.find((r) => r.id === best.id) ?? null;
    }
    // Nobody anywhere: remembered, so the next search only asks what changed (and about the unlocated).
    if (point) this.pools.keep(meId, { key: poolKey, candidates: beyond?.held ?? [], boundKm: everywhereKm, watermark }, poolTtlMs);
    else this.pools.drop(meId);
    return null;
  }

  /** Bounded boosts: premium and "liked you" move a person ahead of others about as near, never further. */
  private rank(rows: CandidateRow[], point: Point | null): PooledCandidate[] {
    return rows
      .map((row) => {
        const there = pointOf(row);
        const km = point && there ? haversineKm(point, there) : Number.POSITIVE_INFINITY;
        const flat = point && there ? flatKm(point, there) : Number.POSITIVE_INFINITY;
        const boost = (this.isPremium(row.premium_until) ? premiumBoostKm : 0) + (row.liked_me ? likedYouBoostKm : 0);
        const score = Number.isFinite(km) ? km - Math.min(boost, km / 2) : Number.POSITIVE_INFINITY;
        return { id: row.id, flat, score };
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

  /**
   * A like or dislike. Everything is decided inside one transaction holding both profiles' row locks: the
   * visibility check, the free like allowance (counted under the caller's lock, so parallel likes cannot
   * all pass a count taken before any of them wrote) and the match. The answer names the other person only
   * for a match: a swipe must not reveal anyone search would not show.
   */
  async swipe(userId: number, targetId: number, liked: boolean): Promise<LikeResponse> {
    const me = await this.me(userId);
    if (targetId === me.id) throw badRequest('cannot_swipe_self', 'You cannot like or dislike yourself');
    const now = this.clock.now();
    const premium = this.isPremium(me.premium_until);
    const outcome = await this.db.transaction().execute(async (trx) => {
      await lockPair(trx, me.id, targetId);
      const target = await findSwipeableProfile(trx, me.id, targetId);
      if (!target) return null;
      const current = await findSwipe(trx, me.id, targetId);
      if (liked && current?.liked !== 1 && !premium) {
        assertAllowance(await countLikesSince(trx, me.id, addSeconds(now, -likeAllowance.windowSeconds).toISOString()), likeAllowance, now);
      }
      // A dislike never undoes a like; a like may follow a dislike (from the likers list).
      if (!current || (liked && current.liked === 0)) await upsertSwipe(trx, me.id, targetId, liked, now.toISOString());
      let created = false;
      if (liked) {
        const theirs = await findSwipe(trx, targetId, me.id);
        if (theirs?.liked === 1) created = await insertMatch(trx, me.id, targetId, now.toISOString());
      }
      const match = created || (await findLiveMatch(trx, me.id, targetId)) !== undefined;
      if (!match) return { target, match: false as const, created };
      const theirPhoto = (await photoNamesOf(trx, targetId))[0] ?? null;
      if (created) {
        const myPhoto = (await photoNamesOf(trx, me.id))[0] ?? null;
        // Both sides hear of the match on their open tabs (and later through the bot).
        await insertEvents(
          trx,
          [
            { userId: userId, type: 'match', payload: { profile: { id: target.id, name: target.name, photo: theirPhoto } } },
            { userId: target.user_id, type: 'match', payload: { profile: { id: me.id, name: me.name, photo: myPhoto } } },
          ],
          now.toISOString(),
        );
        await enqueueMatchNotification(trx, userId, target.name, now);
        await enqueueMatchNotification(trx, target.user_id, me.name, now);
      }
      return { target, match: true as const, created, photo: theirPhoto };
    });
    if (!outcome) throw personNotFound();
    this.pools.forget(me.id, targetId);
    if (outcome.created) {
      await this.bus.publish([userId, outcome.target.user_id]);
      this.notificationsQueued();
    }
    if (!outcome.match) return { match: false };
    return { match: true, profile: { id: outcome.target.id, name: outcome.target.name, photo: outcome.photo } };
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

  async settings(userId: number): Promise<SettingsResponse> {
    const row = await findSettings(this.db, userId);
    if (!row) throw profileRequired();
    return { private_mode: row.private_mode === 1, notifications: row.notifications === 1, preferred_gender: row.preferred_gender };
  }

  async updateSettings(userId: number, changes: SettingsChanges): Promise<SettingsResponse> {
    const me = await this.me(userId);
    if (changes.private_mode === undefined && changes.notifications === undefined && changes.preferred_gender === undefined) {
      throw badRequest('nothing_to_change', 'Nothing to change');
    }
    await updateSettings(this.db, me.id, changes);
    return this.settings(userId);
  }
}
