import type { Kysely } from 'kysely';
import type { Database, UserId } from '../../../db/schema.ts';
import type { Language } from '../../../locales/index.ts';
import type { Clock } from '../../clock.ts';
import type { SearchQuery, SearchResult } from '../../contract/discovery.ts';
import { isPremium } from '../premium/index.ts';
import { cityForReader } from '../location/index.ts';
import { activeRecentlyOf, activityBucket } from '../profiles/index.ts';
import { presentPrompts } from '../prompts/index.ts';
import type { RateCounter } from '../rateLimits/index.ts';
import type { CardSearch } from './cardSearch.ts';
import {
  CandidatePools,
  capped,
  frontierMaxAgeMs,
  mergeRanked,
  poolTtlMs,
  unplacedPoolTtlMs,
  type Frontier,
  type Pool,
  type PoolCarrier,
  type PooledCandidate,
  type PoolStore,
} from './candidatePool.ts';
import { findCandidates, findNearest, type CandidateFilter, type CandidateRow, type RankedRow } from './candidates.ts';
import { distanceLimitKm, poolKeyOf, seekerTarget, type Seeker } from './filters.ts';
import { changedNear, horizonBelow, changedRecheckMax, type PrefetchedChanges } from './searchChanges.ts';
import { findCardDetails, findCardKeepingPool, findLikeMessage, findSearchStart } from './repository.ts';
import {
  boxCircleKm,
  everywhereKm,
  flatKm,
  kmPerDegree,
  limitFlatKm,
  pointOf,
  shownDistanceKm,
  type Point,
} from './distance.ts';
import { rankingPoolSize, recheckBatch, recheckBatches, searchBoxSteps, searchRateWindows } from './rules.ts';
import { compareRanked, maxAgeStretch, nearbyKm, rankingKm, scoreOf } from './ranking.ts';

/** A search's own filters; each query adds its box, bound or list of people. */
type Search = Omit<CandidateFilter, 'box' | 'only' | 'beyondKm' | 'withinKm'>;

/** What a search read of the changes as it began: the watermark, and PostgreSQL's horizon with it (Pool.horizon). */
interface Mark {
  watermark: string | null;
  horizon: string | null;
  /** The change query asked from the stored pool by the same statement (PostgreSQL; searchChanges.ts changesAtStart). */
  changes: PrefetchedChanges | null;
}

/** Where a scan starts when it starts beyond a known-empty disc, and the people it keeps pooled from before. */
interface Beyond {
  km: number;
  held: PooledCandidate[];
  /** When the fresh scan the disc's knowledge goes back to was made (Pool.scannedAt). */
  scannedAt: string | null;
  /** Where its first ring pass probably finds enough people (Frontier.hintKm). */
  hintKm?: number | null;
}

/**
 * A frontier nearer than the first box saves nothing: the first box is read whole by one query, and a
 * frontier costs the change query besides.
 */
const frontierMinKm = searchBoxSteps[0] * kmPerDegree;
/**
 * Nor one wider than the last box: it would ask about changes in half the world (after a day on a busy
 * site more than the change query reads, so the scan follows anyway).
 */
const frontierMaxKm = (searchBoxSteps.at(-2) ?? 0) * kmPerDegree;

/**
 * Pairs of passes one scan reads its rings in at most; after them each ring is finished by one query (see
 * `readRing`). Per scan, not per ring: rings crowded with people the rules leave out would otherwise pay
 * up to seven queries each (26 for a scan through three such rings, against 7 for the plain box scan).
 */
const ringPassesMax = 3;

/**
 * The next card: a scan of the neighbourhood in growing boxes, a per-user pool of the people it ranked, and
 * the frontier (bound, watermark) that lets later searches re-check the pool instead of scanning again.
 */
export class SearchService implements CardSearch {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    private readonly rates: RateCounter,
    private readonly pools: PoolStore = new CandidatePools(db, () => clock.now().getTime()),
  ) {}

  /**
   * The next person to show, or null when nobody is left. Read-only but for the rate counter and the
   * stored pool: the gender filter becomes the stored preference (which others' reciprocal rule reads)
   * only through `POST /api/settings`, since a GET is reachable by a cross-site link with the Lax cookie.
   */
  async next(userId: UserId, query: SearchQuery, language: Language): Promise<SearchResult | null | 'no_profile'> {
    const counting = this.rates.plan(
      `search:${userId}`,
      searchRateWindows,
      'search_rate_limited',
      'Too many searches. Please slow down.',
    );
    // The rate counters, the profile, the watermark and the stored pool in one round trip (on PostgreSQL).
    // The start asks the pool's change question only when its answer can be used: a live pool or a frontier.
    const now = this.clock.now().getTime();
    const when = {
      now: new Date(now).toISOString(),
      scannedSince: new Date(now - frontierMaxAgeMs).toISOString(),
      frontierMinKm,
    };
    const start = await findSearchStart(this.db, userId, when, counting?.rows ?? []);
    // Without a profile there is nothing to search (the call was counted all the same).
    if (!start) return 'no_profile';
    counting?.check(start.rateCounts);
    const { me } = start;
    const point = pointOf(me);
    const { exclude, ...params } = query;
    const filter: Search = {
      ...params,
      me: { id: me.id, gender: me.gender, point, age: me.age },
      limit: rankingPoolSize,
    };
    // Everything the pool's ranking depends on (filters.ts): other filters or another position make it stale.
    const poolKey = poolKeyOf(filter);
    const held = new Set(exclude);
    // Whoever wrote with their like comes first, as their own card with the message (issue 38), if the rules
    // let the caller see them now: the pool is neither read nor changed for them.
    const wrote = await this.messagedLiker(filter, start.messagedLikers, held, language);
    if (wrote) return wrote.card;
    // Read with the pool, before anything else: whatever changes after it is asked about by the next search.
    const watermark = point ? start.latestChange : null;
    // Read with the watermark: what this search sees of the changes before it (Pool.horizon).
    const mark: Mark = { watermark, horizon: point ? start.horizon : null, changes: start.changes };
    const pool = await this.pools.take(me.id, poolKey, start.pool);
    let beyond: Beyond | undefined;
    if (pool) {
      const shown = await this.fromPool(filter, pool, held, mark, start.databaseNow);
      if (typeof shown === 'object') {
        await this.pools.put(me.id, pool);
        return this.presentCandidate(shown, point, language);
      }
      // Used up: nobody nearer than the bound is left but the people the app holds (kept in the new pool,
      // since the app may drop them unswiped), so only the ring beyond the bound needs a scan.
      if (shown === 'used_up' && point) beyond = { km: pool.boundKm, held: pool.candidates, scannedAt: pool.scannedAt };
    } else if (point && watermark !== null) {
      // An expired pool still proves who is not nearby: the scan starts beyond it.
      const frontier = await this.pools.frontier(me.id, poolKey, rankingPoolSize, start.pool);
      if (frontier) beyond = await this.beyondFrontier(filter, frontier, mark.changes);
    }
    const found = await this.scan(filter, held, mark, poolKey, beyond);
    return found ? this.presentCandidate(found, point, language) : null;
  }

  /**
   * The newest person who wrote with their like, not held by the app and passing every rule (a re-check by
   * id, as a pooled person's), presented with what they wrote; undefined when there is none.
   */
  private async messagedLiker(
    filter: Search,
    likers: readonly number[],
    held: Set<number>,
    language: Language,
  ): Promise<{ card: SearchResult } | undefined> {
    const ids = likers.filter((id) => !held.has(id));
    if (ids.length === 0) return undefined;
    const rows = await findCandidates(this.db, {
      ...filter,
      box: null,
      limit: ids.length,
      only: ids,
      withPhotos: true,
    });
    const byId = new Map<number, (typeof rows)[number]>(rows.map((r) => [r.id, r]));
    const row = ids.map((id) => byId.get(id)).find((r) => r !== undefined);
    if (!row) return undefined;
    const message = await findLikeMessage(this.db, row.id, filter.me.id);
    if (message === undefined) return undefined;
    return { card: { ...(await this.presentCandidate(row, filter.me.point, language)), message } };
  }

  /**
   * The next person from a pool: first whoever changed inside its bound since it was made (they join the
   * ranking), then the pooled people in order, each re-checked against every rule and re-ranked where
   * they now are (`rerank`). 'used_up' when none is left to show; 'stale' when the pool cannot be trusted
   * (too many changes inside its bound, or too many pooled people failing their re-check) and a full scan
   * must decide. On PostgreSQL changes elsewhere never make it stale: an import in another city costs a pool nothing.
   */
  private async fromPool(
    filter: Search,
    pool: Pool,
    held: Set<number>,
    mark: Mark,
    databaseNow: string,
  ): Promise<CandidateRow | 'used_up' | 'stale'> {
    const meId = filter.me.id;
    const point = filter.me.point;
    const fresh = new Map<number, CandidateRow>();
    if (point) {
      const changed = await changedNear(
        this.db,
        pool.watermark,
        { id: meId, point },
        pool.boundKm,
        horizonBelow(pool.horizon, mark.horizon),
        mark.changes,
      );
      if (changed === null) return 'stale';
      const nearest = changed.filter((c) => c.id !== meId);
      const leftOver = nearest[changedRecheckMax];
      if (leftOver) {
        // Whoever is pooled beyond the drawn-in bound waits for the scan beyond it, which meets the changed
        // people left unchecked there too: shown from the pool, they would go ahead of those nearer.
        pool.boundKm = leftOver.km;
        pool.candidates = pool.candidates.filter((c) => c.flat < leftOver.km);
      }
      // At the bound itself, only those the scan that cut it there would have read: before the last pooled
      // person there in its order (nearer, then lower id). The others tie with people no pool holds (after a
      // draw-in, nobody is pooled there at all) and wait for the scan beyond the bound, which reads them in order.
      const lastAtBound = Math.max(0, ...pool.candidates.filter((c) => c.flat === pool.boundKm).map((c) => c.id));
      const others = nearest
        .slice(0, changedRecheckMax)
        .filter((c) => c.km < pool.boundKm || (c.km === pool.boundKm && c.id < lastAtBound));
      // Not those an earlier search re-checked, read back with the same stamp (Pool.checked): unchanged since,
      // they are in the pool if they passed, or known to be out.
      const checked = pool.checked ?? new Map<number, string>();
      const unchecked = others.filter((c) => c.stamp === null || checked.get(c.id) !== c.stamp).map((c) => c.id);
      if (unchecked.length) {
        // One query (findCandidates pads the list to a few lengths, so a few texts).
        const rows = await findCandidates(this.db, { ...filter, box: null, limit: unchecked.length, only: unchecked });
        // The change query asks a flat circle, wider than the bound in the ranking distance (never less than
        // the flat one): those it found beyond the bound that way leave the pool, for the scan beyond it.
        const e = this.rankingDistance(filter);
        const inside = rows.filter((row) => e(row) < pool.boundKm || (e(row) === pool.boundKm && row.id < lastAtBound));
        const beyondBound = new Set<number>(rows.filter((row) => !inside.includes(row)).map((row) => row.id));
        for (const row of inside) fresh.set(row.id, row);
        const kept = pool.candidates.filter((c) => !beyondBound.has(c.id));
        Object.assign(pool, capped({ ...pool, candidates: mergeRanked(kept, this.rank(inside, filter)) }));
      }
      // Everyone changed since the old watermark is now in the pool or known to be out. The horizon moves with
      // the watermark: rows written below this search's were seen by its change query, or by the one before.
      if (pool.watermark !== mark.watermark) pool.horizon = mark.horizon;
      pool.watermark = mark.watermark;
      pool.checked = stillReadBack(others, checked, new Set(unchecked), databaseNow, pool.boundKm);
    }
    for (let batch = 0; batch < recheckBatches;) {
      const next = pool.candidates.filter((c) => !held.has(c.id)).slice(0, recheckBatch);
      if (!next.length) return 'used_up';
      const unchecked = next.filter((c) => !fresh.has(c.id)).map((c) => c.id);
      // With their photos: the first who passes is shown at once.
      const reread = unchecked.length
        ? await findCandidates(this.db, {
            ...filter,
            box: null,
            limit: unchecked.length,
            only: unchecked,
            withPhotos: true,
          })
        : [];
      for (const row of reread) fresh.set(row.id, row);
      // The pool in hand, not whatever is stored for the user now (another tab may search other filters).
      pool.candidates = pool.candidates.filter((c) => fresh.has(c.id) || !next.includes(c));
      if (point && this.rerank(pool, reread, filter)) continue;
      const first = next.find((c) => fresh.has(c.id));
      if (first) return fresh.get(first.id) as CandidateRow;
      batch++;
    }
    return 'stale';
  }

  /**
   * Where a scan may start from an expired pool's frontier: its empty disc, drawn in to the nearest person
   * changed inside it who now passes every rule (up to `changedRecheckMax` of them, nearest first, re-checked
   * in one query; with more, to the nearest left unchecked). Undefined when a fresh scan costs no more (the
   * disc is inside the first box) or cannot be spared (too many changes inside it).
   */
  private async beyondFrontier(
    filter: Search,
    frontier: Frontier,
    prefetched: PrefetchedChanges | null,
  ): Promise<Beyond | undefined> {
    const point = filter.me.point;
    if (!point || frontier.emptyKm < frontierMinKm || frontier.emptyKm > frontierMaxKm) return undefined;
    const scannedAt = frontier.scannedAt === null ? Number.NaN : Date.parse(frontier.scannedAt);
    if (!(this.clock.now().getTime() - scannedAt <= frontierMaxAgeMs)) return undefined;
    const changed = await changedNear(
      this.db,
      frontier.watermark,
      { id: filter.me.id, point },
      frontier.emptyKm,
      null,
      prefetched,
    );
    if (changed === null) return undefined;
    const nearest = changed.filter((c) => c.id !== filter.me.id);
    let km = Math.min(frontier.emptyKm, nearest[changedRecheckMax]?.km ?? Number.POSITIVE_INFINITY);
    // Those at `km` itself are read by the scan (its inner edge is drawn a hair inside, filters.ts position).
    const inside = nearest
      .slice(0, changedRecheckMax)
      .filter((c) => c.km < km)
      .map((c) => c.id);
    if (inside.length) {
      const rows = await findCandidates(this.db, { ...filter, box: null, limit: inside.length, only: inside });
      const e = this.rankingDistance(filter);
      for (const row of rows) km = Math.min(km, e(row));
    }
    return km < frontierMinKm ? undefined : { km, held: [], scannedAt: frontier.scannedAt, hintKm: frontier.hintKm };
  }

  /**
   * A scan for the nearest people, in growing boxes, and a new pool of all it ranked. Each box after the
   * first reads only the ring beyond the circle the boxes before it read whole (`coveredKm`), and adds
   * what it finds to the people read so far: a heavy swiper's neighbourhood, all swiped, is read once,
   * not once per box. `beyond` starts the rings at the disc a used-up pool proved empty. People the client
   * holds are read too (and pooled, since they may come back) but never answered.
   *
   * `coveredKm` only ever claims a circle read whole, because it becomes the pool's bound: whoever is
   * nearer than the bound is assumed known, and someone unread inside it would stay hidden until the pool
   * expires. So it is cut to the last person read when a limit cut a query, and to the circle the box
   * holds (`boxCircleKm`), which near a pole is narrower than the box is high.
   */
  private async scan(
    filter: Search,
    held: Set<number>,
    mark: Mark,
    poolKey: string,
    beyond: Beyond | undefined,
  ): Promise<CandidateRow | null> {
    const { watermark, horizon } = mark;
    const meId = filter.me.id;
    const point = filter.me.point;
    const limit = rankingPoolSize + held.size;
    // A scan from nothing reads the neighbourhood whole; one beyond a known disc carries on that knowledge.
    const scannedAt = beyond ? beyond.scannedAt : this.clock.now().toISOString();
    // The ranking distance (ranking.ts), which the scan reads by: its rings, bounds and order.
    const flatOf = this.rankingDistance(filter);
    // With a distance limit, nobody passing is farther than this (ranking distance): the last step.
    const reach = this.reachKm(filter);
    // Everyone within `coveredKm` that the rules allow, nearest first (the rings before this one).
    let read: RankedRow[] = [];
    let coveredKm = beyond?.km ?? 0;
    // The last step read everyone left (nobody unheld stopped it earlier): whoever it ranked is held.
    let heldSeen: PooledCandidate[] = [];
    // What is left of this scan's pairs of passes (`ringPassesMax`), and where the first may stop.
    const passes = { left: ringPassesMax, hintKm: beyond?.hintKm ?? null };
    for (const { box, radiusKm, last: lastStep } of scanSteps(point, reach)) {
      if (box !== null && radiusKm <= coveredKm) continue;
      // People read beyond the circle read whole (inside the last box's circle but beyond what it holds
      // whole, near a pole) are read again by this step's ring, in their place among its people.
      read = read.filter((r) => flatOf(r) < coveredKm);
      // The ring's last query; cut by its limit when it returned `ringLimit` rows.
      let ring: RankedRow[] = [];
      let ringLimit = limit;
      if (box === null) {
        // At least one: a query limited to none would come back 'full' and claim everyone was read.
        ringLimit = Math.max(1, limit - read.length + readAgainFrom(read, coveredKm, flatOf));
        ring = await findCandidates(this.db, {
          ...filter,
          box,
          beyondKm: coveredKm > 0 ? coveredKm : undefined,
          limit: ringLimit,
        });
        read = appendRing(read, ring);
      } else {
        // How far this box's ring (inside the box and its circle, beyond `coveredKm`) is read whole.
        let reachedKm: number;
        if (coveredKm === 0) {
          // The first box, whole: most people are answered here, from a few dozen rows.
          ring = await findCandidates(this.db, { ...filter, box, limit: ringLimit });
          read = ring.filter((row) => flatOf(row) <= radiusKm);
          reachedKm =
            ring.length === ringLimit ? Math.min(radiusKm, flatOf(ring[ring.length - 1] as RankedRow)) : radiusKm;
        } else {
          ({ read, reachedKm } = await this.readRing(
            filter,
            { box, radiusKm, fromKm: coveredKm, limit },
            read,
            flatOf,
            passes,
          ));
        }
        if (read.length >= limit) {
          // As a query limited to `limit` would have cut it: the nearest `limit`, as far as the last of them.
          read = read.slice(0, limit);
          reachedKm = Math.min(reachedKm, flatOf(read[limit - 1] as RankedRow));
        }
        // The disc read before and the circle this box holds whole, as far as it was read. The limit's own
        // box holds whole everyone the limit lets in: read to its edge, everyone was read.
        const wholeKm =
          lastStep && reach.flatKm !== null && point && boxCircleKm(point, box) >= reach.flatKm
            ? radiusKm
            : point
              ? boxCircleKm(point, box)
              : 0;
        coveredKm = Math.max(coveredKm, Math.min(reachedKm, wholeKm));
      }
      const rows = read;
      // Someone outside a box may be nearer than a corner of it: rank only those within the inscribed circle.
      const inCircle = box === null ? rows : rows.filter((row) => flatOf(row) <= radiusKm);
      let ranked = this.rank(inCircle, filter);
      const best = ranked.find((c) => !held.has(c.id));
      heldSeen = ranked;
      // Nobody unheld: the next step reads on from the circle read whole.
      if (!best) continue;
      // The pool this step keeps with its card: everyone it ranked but whoever failed the card's read.
      const keep = (people: PooledCandidate[], carry?: PoolCarrier) => {
        if (!point)
          return this.pools.keep(
            meId,
            { key: poolKey, candidates: people, boundKm: 0, watermark: null, scannedAt },
            unplacedPoolTtlMs,
            carry,
          );
        // Everyone nearer than this was read by this scan (or proved out by the pool before it): the circle
        // read whole (never more, see above). Rows come nearest first, people without a position last: the
        // last row of the everywhere step is as far as it saw (infinitely far when unlocated: every located
        // person was read).
        const last = box === null && ring.length === ringLimit ? ring[ring.length - 1] : undefined;
        const boundKm =
          box === null
            ? Math.min(everywhereKm, last ? flatOf(last) : Number.POSITIVE_INFINITY)
            : Math.min(radiusKm, coveredKm);
        return this.pools.keep(
          meId,
          capped({
            key: poolKey,
            candidates: mergeRanked(beyond?.held ?? [], people),
            boundKm,
            watermark,
            horizon,
            scannedAt,
          }),
          poolTtlMs,
          carry,
        );
      };
      // The pool is written with the card's read, as if the card passes, which it nearly always does; else it
      // is written again below, or by the step or the end that follows, never left with someone who failed.
      const shown = await this.cardKeeping(filter, ranked, held, rows, (carry) => keep(ranked, carry));
      if (shown.failed.length) {
        // Out since they were ranked (banned, say, or swiped in another tab): never pooled, and never read again.
        const out = new Set(shown.failed);
        read = read.filter((r) => !out.has(r.id));
        ranked = ranked.filter((c) => !out.has(c.id));
        heldSeen = ranked;
      }
      // Everyone tried failed: the next step reads on, as when nobody was left.
      if (!shown.card) continue;
      if (shown.failed.length) await keep(ranked);
      return shown.card;
    }
    // Nobody anywhere (or within the limit): remembered, so the next search only asks what changed (and about
    // the unlocated). The people the app holds stay pooled, as above: dropped unswiped, they must come back.
    if (point)
      await this.pools.keep(
        meId,
        capped({
          key: poolKey,
          candidates: mergeRanked(beyond?.held ?? [], heldSeen),
          boundKm: Number.isFinite(reach.km) ? Math.max(coveredKm, reach.km) : everywhereKm,
          watermark,
          horizon,
          scannedAt,
        }),
        poolTtlMs,
      );
    else await this.pools.drop(meId);
    return null;
  }

  /**
   * A box's ring beyond `fromKm`, inside the box and its circle, read until it is read whole or `limit`
   * people are read in all; returns the people read before and in it (nearest first) and how far the ring
   * is read whole. Two passes, because a heavy swiper's ring beyond her frontier holds hundreds of people
   * she has not swiped, and reading, probing and sorting each in full only to keep the nearest hundred
   * cost three times the two passes (bench/discovery.ts):
   * - the first pass (candidates.ts `findNearest`) takes the nearest people the search index and the
   *   caller's swipes let through, reading no profile or account row;
   * - the second keeps those of them every rule lets through, read in the same statement (one round trip:
   *   the pass is materialized, then its people are looked up by id). A few more than are wanted are
   *   taken, since the rules leave some out; when they left out more, another pair of passes reads on.
   * A ring crowded with people the rules leave out (private mode, bans, blocks) would take pair after pair;
   * once the scan's `ringPassesMax` pairs are spent, or when a pass gets no further than the one before (a
   * grid cell holding more people than a pass), one query with every rule finishes the ring.
   */
  private async readRing(
    filter: Search,
    ring: { box: number; radiusKm: number; fromKm: number; limit: number },
    read: RankedRow[],
    flatOf: (row: { latitude: number | null; longitude: number | null; age: number }) => number,
    passes: { left: number; hintKm: number | null },
  ): Promise<{ read: RankedRow[]; reachedKm: number }> {
    const { box, radiusKm, limit } = ring;
    let reachedKm = ring.fromKm;
    while (reachedKm < radiusKm && read.length < limit) {
      if (passes.left > 0) {
        passes.left--;
        const wanted = limit - read.length;
        const passLimit = wanted + Math.ceil(wanted / 8) + 4;
        // A first pass reads (and probes) everyone in its ring before it sorts: stopping it where enough
        // people probably are (a frontier's hint) spares probing the rest of a wide ring.
        const outerKm =
          passes.hintKm !== null && passes.hintKm > reachedKm && passes.hintKm < radiusKm ? passes.hintKm : radiusKm;
        passes.hintKm = null;
        // With its people re-read for ranking in the same statement (candidates.ts nearestQuery).
        const { near, ranked } = await findNearest(this.db, {
          ...filter,
          box,
          beyondKm: reachedKm,
          withinKm: outerKm,
          limit: passLimit,
        });
        const last = near.length === passLimit ? near[near.length - 1] : undefined;
        const nextKm = last ? Math.min(outerKm, flatOf(last)) : outerKm;
        if (nextKm > reachedKm) {
          // The box's corners lie beyond its circle, where other directions were not read.
          read = appendRing(
            read,
            ranked.filter((row) => flatOf(row) <= radiusKm),
          );
          reachedKm = nextKm;
          continue;
        }
      }
      // The rest of the ring, in one query. It reads again whoever of the people read stands on its inner
      // edge, so its limit leaves room for them: filled with them, it would end where it began.
      const rest = limit - read.length + readAgainFrom(read, reachedKm, flatOf);
      const rows = await findCandidates(this.db, {
        ...filter,
        box,
        beyondKm: reachedKm,
        withinKm: radiusKm,
        limit: rest,
      });
      read = appendRing(
        read,
        rows.filter((row) => flatOf(row) <= radiusKm),
      );
      return {
        read,
        reachedKm: rows.length === rest ? Math.min(radiusKm, flatOf(rows[rows.length - 1] as RankedRow)) : radiusKm,
      };
    }
    return { read, reachedKm };
  }

  /**
   * The card a scan answers (`cardOf`), with its new pool written by `keep`: when the card must be read, the
   * pool's row rides with its read (repository.ts findCardKeepingPool: on PostgreSQL one statement, where the
   * read and the upsert were two round trips side by side on two connections; bench/firstSearch.ts);
   * otherwise, or with a store that writes its own way, the pool is written beside the card.
   */
  private async cardKeeping(
    filter: Search,
    ranked: PooledCandidate[],
    held: Set<number>,
    rows: RankedRow[],
    keep: (carry?: PoolCarrier) => Promise<void>,
  ): Promise<{ card: CandidateRow | null; failed: number[] }> {
    const first = ranked.find((c) => !held.has(c.id));
    if (!first || rows.some((row) => row.id === first.id && isCandidateRow(row)))
      return (await Promise.all([this.cardOf(filter, ranked, held, rows), keep()]))[0];
    let read: { id: number; rows: CandidateRow[] } | undefined;
    await keep(async (row) => {
      read = { id: first.id, rows: await findCardKeepingPool(this.db, cardRead(filter, first.id), row) };
    });
    return this.cardOf(filter, ranked, held, rows, read);
  }

  /**
   * The card a scan answers: its first person the app does not hold. Someone the scan read in full is
   * shown as read (their photos come with the card, presentCandidate); someone re-read only for ranking
   * (with its ring's first pass) is read now, in full with photos and against every rule again, one at a
   * time: one who fails in the moment since (banned, say) gives way to the next, which is rare, while each person more read
   * costs their rows (batches of three cost 0.18 ms a search on the bench data set). At most
   * `recheckBatch * recheckBatches` are tried, as a pool's re-check tries; `failed` lists who failed, and
   * with no card the scan reads on beyond (never "nobody left" while people were not tried).
   */
  private async cardOf(
    filter: Search,
    ranked: PooledCandidate[],
    held: Set<number>,
    rows: RankedRow[],
    read?: { id: number; rows: CandidateRow[] },
  ): Promise<{ card: CandidateRow | null; failed: number[] }> {
    const readInFull = new Map<number, CandidateRow>();
    for (const row of rows) if (isCandidateRow(row)) readInFull.set(row.id, row);
    const failed: number[] = [];
    for (const c of ranked) {
      if (held.has(c.id)) continue;
      if (failed.length >= recheckBatch * recheckBatches) break;
      // `read`: this person already read, with the pool's upsert (cardKeeping).
      const card =
        readInFull.get(c.id) ??
        (read?.id === c.id ? read.rows : await findCandidates(this.db, cardRead(filter, c.id)))[0];
      if (card) return { card, failed };
      failed.push(c.id);
    }
    return { card: null, failed };
  }

  /**
   * Pooled people re-read with another place (or score) than the pool holds for them, put where they now
   * belong; true when the pool changed, so the caller must look at its head again. The change query only
   * finds people inside the bound by where they are now: someone pooled who moved out of it (or lost their
   * position) is found only here, by the re-check, and leaves the pool, since beyond the bound it is the
   * scan beyond the bound that ranks them among the people there. Kept, they would be shown at the place
   * they left, ahead of everyone now nearer.
   */
  private rerank(pool: Pool, rows: RankedRow[], filter: Search): boolean {
    if (!rows.length) return false;
    const pooled = new Map(pool.candidates.map((c) => [c.id, c]));
    const moved = this.rank(rows, filter).filter((c) => {
      const was = pooled.get(c.id);
      return was !== undefined && (was.flat !== c.flat || was.score !== c.score);
    });
    if (!moved.length) return false;
    // Only a move takes someone out: a boost that changed merely reorders them (a pooled person may lie
    // beyond a bound the pool's cap drew in, see capped()).
    const gone = new Set(
      moved.filter((c) => c.flat !== pooled.get(c.id)?.flat && !(c.flat < pool.boundKm)).map((c) => c.id),
    );
    const kept = moved.filter((c) => !gone.has(c.id));
    pool.candidates = mergeRanked(
      pool.candidates.filter((c) => !gone.has(c.id)),
      kept,
    );
    return true;
  }

  /**
   * The score (ranking.ts): the ranking distance stretched by inactivity, less the bounded boosts (premium and
   * "liked you" move a person ahead of others about as near, never further), in the deck's order (tier by
   * tier, then score). `flat` holds the ranking distance.
   */
  private rank(rows: RankedRow[], filter: Search): PooledCandidate[] {
    const now = this.clock.now();
    const e = this.rankingDistance(filter);
    return (
      rows
        .map((row) => {
          const km = e(row);
          const score = scoreOf(km, activityBucket(row.active_at, now), {
            premium: isPremium(row.premium_until, now),
            likedMe: Boolean(row.liked_me),
          });
          return { id: row.id, flat: km, score };
        })
        // Tier by tier, then by score (compareRanked): the pool keeps this order, and whoever joins it later
        // in a nearer tier must go ahead of everyone farther. Stable: ties keep the query's order (nearest,
        // then id; newest first without a position).
        .sort(compareRanked)
    );
  }

  /** Someone's ranking distance from the caller (ranking.ts rankingKm): Infinity when either has no position. */
  private rankingDistance(
    filter: Search,
  ): (row: { latitude: number | null; longitude: number | null; age: number }) => number {
    const point = filter.me.point;
    const target = seekerTarget(filter);
    return (row) => {
      const there = pointOf(row);
      return point && there ? rankingKm(flatKm(point, there), row.age, target) : Number.POSITIVE_INFINITY;
    };
  }

  /**
   * How far anyone the distance limit lets in can be: `km` in the ranking distance (the flat bound stretched
   * by the filter's most stretched age), `flatKm` in the flat one; Infinity and null without a limit (or a
   * position, or next to a pole, where the limit's box would wrap).
   */
  private reachKm(filter: Seeker): { km: number; flatKm: number | null } {
    const point = filter.me.point;
    if (filter.maxDistance === undefined || !point) return { km: Number.POSITIVE_INFINITY, flatKm: null };
    const flat = limitFlatKm(point, distanceLimitKm(filter.maxDistance));
    if (flat === null) return { km: Number.POSITIVE_INFINITY, flatKm: null };
    const target = seekerTarget(filter);
    return { km: maxAgeStretch(filter.ageMin, filter.ageMax, target) * (flat + nearbyKm) - nearbyKm, flatKm: flat };
  }

  private async presentCandidate(row: CandidateRow, point: Point | null, language: Language): Promise<SearchResult> {
    const { photo, prompts } =
      row.photo !== undefined && row.prompts !== undefined
        ? { photo: row.photo ?? '', prompts: row.prompts }
        : await findCardDetails(this.db, row.id);
    return {
      user_id: row.id,
      profile_id: row.id,
      name: row.name,
      age: row.age,
      city: cityForReader(row, language),
      gender: row.gender,
      bio: row.bio,
      distance: shownDistanceKm(point, pointOf(row)),
      active_recently: activeRecentlyOf(row, this.clock.now()),
      verified: row.verified === 1,
      photo,
      prompts: presentPrompts(prompts, language),
    };
  }
}

/**
 * A change is taken as settled once the database's clock is this far past its stamp: a later change of the
 * same person could only bear the same stamp (milliseconds) if its transaction had stamped within that
 * millisecond and was still open this long after, while the stamping transactions hold no network call
 * and last milliseconds (searchChanges.ts watermarkSlackMs). A miss would last as long as the pool and
 * the frontiers carried on from it, so the margin is wide.
 */
const settledAfterMs = 5000;

/**
 * The changes a pool has re-checked that its next searches still read back (Pool.checked), of those this
 * search took into account (`considered`): those read back with the stamp they were checked at, and those
 * just re-checked (`rechecked`) whose stamp has settled. Only those strictly inside the pool's bound as it
 * now is: the bound drawn in (to the nearest change left unchecked, or by capped()) may leave someone
 * re-checked at it, out of the pool, and the change query reads back people at the bound too (they tie
 * with pooled people there); remembered, they would be skipped while others tied with them are merged.
 * Whatever is no longer read back is forgotten.
 */
function stillReadBack(
  considered: readonly { id: number; km: number; stamp: string | null }[],
  checked: ReadonlyMap<number, string>,
  rechecked: ReadonlySet<number>,
  databaseNow: string,
  boundKm: number,
): Map<number, string> {
  const settled = new Date(Date.parse(databaseNow) - settledAfterMs).toISOString();
  const still = new Map<number, string>();
  for (const c of considered) {
    if (c.stamp === null || !(c.km < boundKm)) continue;
    if (checked.get(c.id) === c.stamp || (rechecked.has(c.id) && c.stamp <= settled)) still.set(c.id, c.stamp);
  }
  return still;
}

/**
 * People read so far and a ring's, nearest first: whoever stands on the ring's inner edge may be read by
 * both (a ring's edge is drawn a hair inside, see filters.ts `position`), and is kept once.
 */
function appendRing(read: RankedRow[], ring: RankedRow[]): RankedRow[] {
  if (!ring.length) return read;
  const known = new Set(read.map((r) => r.id));
  return [...read, ...ring.filter((r) => !known.has(r.id))];
}

/**
 * How many of the people read a query starting at `km` reads again (its edge is drawn a hair inside, see
 * filters.ts `position`): counted generously, since a larger limit only reads a little more.
 */
function readAgainFrom(read: RankedRow[], km: number, flatOf: (row: RankedRow) => number): number {
  return read.filter((r) => flatOf(r) >= km - 2e-6).length;
}

/**
 * The boxes a scan tries, nearest first (rules.ts searchBoxSteps), each with the circle of the ranking
 * distance it answers from. With a distance limit (`reach`), the steps stop at the first whose circle
 * reaches it, drawn in to the limit's own box (which holds every place the limit lets in) and circle:
 * the same people as that step's, since nobody beyond passes; the last, `everywhere` step is never read.
 */
function scanSteps(
  point: Point | null,
  reach: { km: number; flatKm: number | null },
): { box: number | null; radiusKm: number; last: boolean }[] {
  if (!point) return [{ box: null, radiusKm: Number.POSITIVE_INFINITY, last: true }];
  const steps: { box: number | null; radiusKm: number; last: boolean }[] = [];
  for (const step of searchBoxSteps) {
    const box = step === 180 ? null : step;
    const radiusKm = box === null ? Number.POSITIVE_INFINITY : box * kmPerDegree;
    if (reach.flatKm !== null && radiusKm >= reach.km) {
      steps.push({ box: Math.max(reach.flatKm / kmPerDegree, 1e-6), radiusKm: reach.km, last: true });
      return steps;
    }
    steps.push({ box, radiusKm, last: box === null });
  }
  return steps;
}

/** The read of one person as a card: against every rule, in full, with photos. */
function cardRead(filter: Search, id: number): CandidateFilter {
  return { ...filter, box: null, limit: 1, only: [id], withPhotos: true };
}

/** A row read in full (a card can be shown from it), not only for ranking. */
function isCandidateRow(row: RankedRow): row is CandidateRow {
  return 'name' in row;
}
