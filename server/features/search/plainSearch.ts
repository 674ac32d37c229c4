import type { Kysely } from 'kysely';
import type { Database, UserId } from '../../../db/schema.ts';
import type { Language } from '../../../locales/index.ts';
import type { Clock } from '../../clock.ts';
import type { SearchQuery, SearchResult } from '../../contract/discovery.ts';
import { cityForReader } from '../location/index.ts';
import { activeRecentlyOf, activityBucket } from '../profiles/index.ts';
import { presentPrompts } from '../prompts/index.ts';
import type { CardSearch } from './cardSearch.ts';
import { flatKm, kmPerDegree, pointOf, shownDistanceKm, type Point } from './distance.ts';
import { searchBoxSteps } from './rules.ts';
import type { CandidateRow } from './candidates.ts';
import { plainConditions, seekerTarget, type Seeker } from './filters.ts';
import { rankingKm, scoreOf } from './ranking.ts';
import { findCardDetails } from './repository.ts';

/**
 * The search written out plainly, as the correctness oracle for SearchService (searchEquivalence.test.ts):
 * no pool, no prepared queries, no frontier, no indexes to please. One query reads every person the rules
 * allow (each rule's `plain` form in filters.ts, written beside the tuned one but plainly); the rest is
 * done in memory with the meaning the tuned search gives a fresh scan: for each box step in turn, the
 * candidates inside the box and within its inscribed circle of the ranking distance (ranking.ts: distance
 * stretched by the age gap), ranked by the score (inactivity stretching it, the bounded boosts taking off),
 * and the first the app does not already hold is the answer. Slow on purpose (it reads everyone eligible
 * anywhere); never serves traffic. Rate limits are the caller's business, as they are not a search rule.
 *
 * Where the tuned search answers differently, by design (the property test keeps its worlds clear of these):
 * - More than `rankingPoolSize` (100) people, plus the held ones, in a box: the tuned scan reads only the
 *   nearest of them (a SQL limit), so the boosts reorder only those, and its pool's bound is drawn in to
 *   the last one read. Here everyone in the box is ranked.
 * - A pooled person's score is kept from the scan that pooled them: someone who starts liking the caller
 *   without being in private mode, or whose premium starts or ends, keeps their old boost in the tuned
 *   search while they wait in its pool (no trigger marks those changes; the re-check at its head re-ranks them).
 * - A caller without a position gets a pool that is not told about changes; it lasts two minutes
 *   (`unplacedPoolTtlMs`).
 */
export class PlainSearch implements CardSearch {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
  ) {}

  async next(userId: UserId, query: SearchQuery, language: Language): Promise<SearchResult | null | 'no_profile'> {
    const me = await this.db
      .selectFrom('profiles')
      .select(['id', 'gender', 'latitude', 'longitude', 'age'])
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (!me) return 'no_profile';
    const point = pointOf(me);
    const { exclude, ...params } = query;
    const seeker: Seeker = { ...params, me: { id: me.id, gender: me.gender, point, age: me.age } };
    const everyone = await this.eligible(seeker);
    const target = seekerTarget(seeker);
    const held = new Set(exclude);
    for (const step of point ? searchBoxSteps : [null]) {
      const inStep =
        point && step !== null && step !== 180
          ? everyone.filter((c) => insideBox(point, step, c) && withinCircle(point, step, c, target))
          : everyone;
      const best = this.ranked(inStep, point, target).find((c) => !held.has(c.id));
      if (best) return this.present(best, point, language);
    }
    return null;
  }

  /** Everyone the rules (filters.ts, in their plain form) let this caller see, anywhere, in no particular order. */
  private async eligible(seeker: Seeker): Promise<Candidate[]> {
    let query = this.db
      .selectFrom('profiles as p')
      .innerJoin('users as u', 'u.id', 'p.user_id')
      .select((eb) => [
        'p.id',
        'p.name',
        'p.age',
        'p.city',
        'p.place_id',
        'p.gender',
        'p.bio',
        'p.latitude',
        'p.longitude',
        'p.active_at',
        'p.private_mode',
        'p.show_activity',
        'p.verified',
        'u.premium_until',
        // They liked the caller: a boost.
        eb
          .exists(
            eb
              .selectFrom('swipes as l')
              .select('l.swiper_id')
              .whereRef('l.swiper_id', '=', 'p.id')
              .where('l.target_id', '=', seeker.me.id)
              .where('l.liked', '=', 1),
          )
          .as('liked_me'),
      ]);
    for (const condition of plainConditions(seeker)) query = query.where(condition);
    return query.execute();
  }

  /**
   * Best first by the score (ranking.ts: the ranking distance stretched by inactivity, less the boosts,
   * never more than half of it); ties in the tuned query's order, which is located people first, then the
   * ranking distance, then id; a caller without a position sees everyone by id, newest first.
   */
  private ranked(candidates: Candidate[], point: Point | null, target: number): Candidate[] {
    const now = this.clock.now();
    const keyed = candidates.map((c) => {
      const there = pointOf(c);
      if (!point || !there) return { c, score: Number.POSITIVE_INFINITY, located: there !== null, e: 0 };
      const e = rankingKm(flatKm(point, there), c.age, target);
      const premium = c.premium_until !== null && c.premium_until > now.toISOString();
      return {
        c,
        score: scoreOf(e, activityBucket(c.active_at, now), { premium, likedMe: Boolean(Number(c.liked_me)) }),
        located: true,
        e,
      };
    });
    if (!point) return keyed.sort((a, b) => b.c.id - a.c.id).map((k) => k.c);
    return keyed
      .sort((a, b) => {
        if (a.score !== b.score) return a.score < b.score ? -1 : 1;
        if (a.located !== b.located) return a.located ? -1 : 1;
        if (a.e !== b.e) return a.e - b.e;
        return a.c.id - b.c.id;
      })
      .map((k) => k.c);
  }

  private async present(c: Candidate, point: Point | null, language: Language): Promise<SearchResult> {
    const { photo, prompts } = await findCardDetails(this.db, c.id);
    return {
      user_id: c.id,
      profile_id: c.id,
      name: c.name,
      age: c.age,
      city: cityForReader(c, language),
      gender: c.gender,
      bio: c.bio,
      distance: shownDistanceKm(point, pointOf(c)),
      active_recently: activeRecentlyOf(c, this.clock.now()),
      verified: c.verified === 1,
      photo,
      prompts: presentPrompts(prompts, language),
    };
  }
}

/** A candidate row, shaped as the tuned search's (only the type is shared, never its query). */
type Candidate = CandidateRow;

/** The box a step searches: `step` degrees of latitude either way, and the same ground distance in longitude. */
function insideBox(point: Point, step: number, c: Candidate): boolean {
  if (c.latitude === null || c.longitude === null) return false;
  const lonSpan = step / Math.max(Math.cos((point.latitude * Math.PI) / 180), 0.01);
  return (
    c.latitude >= point.latitude - step &&
    c.latitude <= point.latitude + step &&
    c.longitude >= point.longitude - lonSpan &&
    c.longitude <= point.longitude + lonSpan
  );
}

/** Within the box's inscribed circle, in the ranking distance: someone outside a box may be nearer than a corner of it. */
function withinCircle(point: Point, step: number, c: Candidate, target: number): boolean {
  const there = pointOf(c);
  return there !== null && rankingKm(flatKm(point, there), c.age, target) <= step * kmPerDegree;
}
