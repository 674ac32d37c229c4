import { expressionBuilder, sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { Database, Gender, PreferredGender, ProfileId } from '../../../db/schema.ts';
import type { SearchQuery } from '../../contract/discovery.ts';
import { boxLonSpan, earthRadiusKm, everywhereKm, kmPerDegree, type Point } from './distance.ts';
import { bindParts, type Binding } from './queryBindings.ts';
import {
  ageGraceYears,
  ageStretchFullYears,
  ageStretchMax,
  ageStretchPerYear,
  nearbyKm,
  targetAge,
} from './ranking.ts';

/**
 * The rules of discovery, each declared once: who may appear in someone's search. Everything that
 * depends on the set of rules is derived from the list at the bottom (`searchFilters`):
 * - the candidate query (candidates.ts), for a scan and for re-checking listed people: `where`, built
 *   once per shape from stand-ins (`bind`), so the compiled query's shape key is derived too;
 * - the pool key (service.ts): the request parameters a rule reads (`params`) and whatever else of the
 *   caller it depends on (`poolKey`); a pool made under other values is not reused;
 * - the plain search (plainSearch.ts), the correctness oracle: `plain`, the same rule written plainly,
 *   which searchEquivalence.test.ts holds `where` to;
 * - what must stamp `profiles.search_changed_at` (`watches`), the only way the change query
 *   (searchChanges.ts) learns of a person: it asks who was stamped near the caller, and the re-check
 *   applies every rule. The stamps are triggers in migrations, which never change once applied, so a
 *   new watched column needs a new migration; filters.test.ts reads the triggers installed on both
 *   databases and names every watched column none of them stamps.
 * How to add a filter: docs/discovery.md.
 */

/** The request's filters (GET /api/search). `exclude`, the cards the app holds, is the service's business. */
export type SearchParams = Omit<SearchQuery, 'exclude'>;

/** Who searches and with which filters: all a rule may depend on. */
export interface Seeker extends SearchParams {
  me: { id: ProfileId; gender: Gender; point: Point | null; age: number };
}

/** The age the caller's deck prefers (ranking.ts targetAge). */
export function seekerTarget(s: Seeker): number {
  return targetAge(s.me.age, s.ageMin, s.ageMax);
}

/** How one query reads people: a scan, nearest first within a box (and beyond a bound), or a re-check. */
export interface Reading {
  /** Only these people (re-checking pooled candidates against every rule); no box, no order. */
  only?: readonly number[];
  /** Half-height of the search box in degrees of latitude; null searches everywhere. */
  box: number | null;
  /** Only people at least this far (km, the ranking distance `e`, see ranking.ts) or without a position. */
  beyondKm?: number;
  /** Only people at most this far (km, as `beyondKm`): with `box`, a ring's outer edge, its corners left out. */
  withinKm?: number;
  /**
   * The ring's edges (`beyondKm`, `withinKm`) are tested by the query itself on the ranking distance it computes
   * once (candidates.ts firstPassQuery, PostgreSQL), not by the position rule, which leaves them out.
   */
  edgesApart?: boolean;
}

/** What a rule's condition reads: the candidate's profile `p` and account `u` (and any table in a subquery). */
export type CandidateTables = Database & { p: Database['profiles']; u: Database['users'] };
type Candidate = ExpressionBuilder<CandidateTables, 'p' | 'u'>;
type Condition = Expression<SqlBool>;

/** A column whose change must stamp `profiles.search_changed_at`, as `table.column`. */
type ColumnOf<T extends keyof Database> = `${T}.${keyof Database[T] & string}`;
export type Watched = ColumnOf<'profiles'> | ColumnOf<'users'> | ColumnOf<'swipes'>;

export interface SearchFilter<B extends Binding = Binding> {
  /** Names the rule in test messages. */
  readonly name: string;
  /**
   * Tested on the search index's own columns and the caller's swipes alone, no table row read: part of
   * the cheap first pass of a ring (candidates.ts `findNearest`). Every rule is applied again after it.
   */
  readonly firstPass?: boolean;
  /** The request parameters it reads; their values are part of the pool key. */
  readonly params?: readonly (keyof SearchParams)[];
  /** What else of the caller decides who passes (their gender, their position): part of the pool key. */
  poolKey?(s: Seeker): unknown;
  /**
   * The values `where` uses in one query. Lists' lengths, switches and which values are present make up
   * the compiled query's shape; the values themselves are bound on each run.
   */
  bind?(s: Seeker, r: Reading): B;
  /**
   * The rule in the candidate query, in terms SQLite tests in the order written (see the list's order).
   * Built once per shape: `b` holds stand-ins for the values, to be used only as operands, never computed
   * with; lists' lengths and switches are real and may decide the terms. `recheck`: listed people are
   * read by id, so no term may invite an index seek of its own.
   */
  where(eb: Candidate, b: B, recheck: boolean): Condition[];
  /** The same rule written plainly, with the caller's values, for PlainSearch. */
  plain(eb: Candidate, s: Seeker): Condition[];
  /**
   * Columns whose change can let someone pass who did not, or move them: each must stamp
   * `profiles.search_changed_at` (a trigger, in a migration) or a pool would never learn of it. A rule
   * that only ever takes people out watches nothing: every pooled person is re-checked before being shown.
   */
  readonly watches: readonly Watched[];
}

/** A rule with its binding's type checked against its own `where` (the list holds them all alike). */
function searchFilter<B extends Binding = Record<string, never>>(filter: SearchFilter<B>): SearchFilter {
  return filter;
}

const allGenders: readonly Gender[] = ['Female', 'Male', 'Other'];

/** Every whole age of the filter (at most 83: the contract bounds ages to 18..100). */
function agesBetween(min: number, max: number): number[] {
  return Array.from({ length: Math.max(0, max - min + 1) }, (_, i) => min + i);
}

/**
 * `exists (select 1 ...)` rather than selecting a column: the probe is then answered from the primary-key
 * index alone, without reading the swipe row (a heavy swiper has thousands of these probes per search).
 */
export const one = sql<number>`1`.as('one');

const notMe = searchFilter({
  name: 'notMe',
  firstPass: true,
  bind: (s) => ({ me: s.me.id }),
  where: (eb, { me }) => [eb('p.id', '!=', me)],
  plain: (eb, s) => [eb('p.id', '!=', s.me.id)],
  watches: [],
});

/**
 * The caller's gender filter. Ages and genders as lists, not ranges: each (gender, age) pair is one seek
 * into profiles_search, which then reads only a latitude range; a range on age would leave latitude
 * unusable for the seek. Re-checking listed people, the lists are wrapped so no planner takes them for
 * index seeks: with a few dozen ids SQLite preferred seeking every (gender, age) pair worldwide to
 * reading the ids (5 ms).
 */
const gender = searchFilter({
  name: 'gender',
  firstPass: true,
  params: ['gender'],
  bind: (s) => ({ genders: s.gender === 'Any' ? allGenders : [s.gender] }),
  where: (eb, { genders }, recheck) => [eb(recheck ? sql<Gender>`p.gender || ''` : eb.ref('p.gender'), 'in', genders)],
  plain: (eb, s) => (s.gender === 'Any' ? [] : [eb('p.gender', '=', s.gender)]),
  watches: ['profiles.gender'],
});

type AgeBinding = { ages?: readonly number[]; min?: number; max?: number };

/**
 * The caller's age range, as a list for the same reasons as the genders. Re-checking listed people it is a
 * range: no seek to invite, and one text for every range, which lets the re-check be a named statement.
 */
const age = searchFilter({
  name: 'age',
  firstPass: true,
  params: ['ageMin', 'ageMax'],
  bind: (s, r): AgeBinding =>
    r.only !== undefined ? { min: s.ageMin, max: s.ageMax } : { ages: agesBetween(s.ageMin, s.ageMax) },
  where: (eb, { ages, min, max }, recheck) =>
    recheck
      ? [eb(sql<number>`p.age + 0`, '>=', min ?? 0), eb(sql<number>`p.age + 0`, '<=', max ?? 0)]
      : [eb('p.age', 'in', ages ?? [])],
  plain: (eb, s) => [eb('p.age', '>=', s.ageMin), eb('p.age', '<=', s.ageMax)],
  watches: ['profiles.age'],
});

/**
 * Reciprocal: the caller's gender suits what the candidate looks for (Any, or exactly the caller's gender,
 * Other included).
 */
const reciprocal = searchFilter({
  name: 'reciprocal',
  firstPass: true,
  poolKey: (s) => s.me.gender,
  bind(s) {
    const preferred: PreferredGender[] = ['Any', s.me.gender];
    return { preferred };
  },
  where: (eb, { preferred }) => [eb('p.preferred_gender', 'in', preferred)],
  plain: (eb, s) => [eb.or([eb('p.preferred_gender', '=', 'Any'), eb('p.preferred_gender', '=', s.me.gender)])],
  watches: ['profiles.preferred_gender'],
});

type PositionBinding = {
  south?: number;
  north?: number;
  west?: number;
  east?: number;
  /** Beyond everywhere: only people without a position are left (one seek per gender and age). */
  unlocatedOnly?: boolean;
  lat?: number;
  lon?: number;
  cos?: number;
  /** The deck's target age (ranking.ts), with an edge. */
  target?: number;
  /** The inner edge, ranking km (a hair inside). */
  beyond?: number;
  /** The outer edge, ranking km (a hair outside). */
  within?: number;
};

/** A ring's inner edge as its query tests it, ranking km: a hair inside `beyondKm` (see `position`). */
export function innerEdgeKm(beyondKm: number): number {
  return Math.max(0, beyondKm - 1e-6);
}

/** A ring's outer edge as its query tests it, ranking km: a hair outside `withinKm` (see `position`). */
export function outerEdgeKm(withinKm: number): number {
  return withinKm + 1e-6;
}

/**
 * The ranking distance `e` (ranking.ts rankingKm) in SQL, from the caller's point (`lat`, `lon`, `cos` of
 * the latitude) and target age: the flat distance stretched by the age gap. Null without a position. The
 * target is cast: a range's middle may be a half year, and PostgreSQL would type it as the age's integer.
 */
export function rankingKmSql(lat: unknown, lon: unknown, cos: unknown, target: unknown) {
  const dLat = sql<number>`(p.latitude - ${lat})`;
  const dLon = sql<number>`((p.longitude - ${lon}) * ${cos})`;
  const gap = sql<number>`abs(p.age - cast(${target} as double precision))`;
  const stretch = sql<number>`(case when ${gap} <= ${sql.lit(ageGraceYears)} then 1.0 when ${gap} >= ${sql.lit(ageGraceYears + ageStretchFullYears)} then ${sql.lit(1 + ageStretchMax)} else 1.0 + ${sql.lit(ageStretchPerYear)} * (${gap} - ${sql.lit(ageGraceYears)}) end)`;
  return sql<number>`(${stretch} * (sqrt(${dLat} * ${dLat} + ${dLon} * ${dLon}) * ${sql.lit(kmPerDegree)} + ${sql.lit(nearbyKm)}) - ${sql.lit(nearbyKm)})`;
}
/**
 * Where a scan looks: inside its box, and beyond the disc a used-up pool proved empty, both measured in the
 * ranking distance (ranking.ts: the flat distance stretched by the age gap). Not a rule of who may be seen,
 * so the plain search has no term for it (it draws the same circles in memory); but someone moving changes
 * who is inside a pool's bound, so positions are watched, and the caller's own, with the target age the
 * distance is stretched from, is part of the pool key.
 */
const position = searchFilter({
  name: 'position',
  firstPass: true,
  poolKey: (s) => [s.me.point?.latitude, s.me.point?.longitude, seekerTarget(s)],
  bind(s, r): PositionBinding {
    const point = s.me.point;
    if (r.only !== undefined || point === null) return {};
    const cos = Math.cos((point.latitude * Math.PI) / 180);
    const unlocatedOnly = r.beyondKm !== undefined && r.beyondKm >= everywhereKm;
    const binding: PositionBinding = { unlocatedOnly };
    if (r.box !== null) {
      // The box, narrowed to the outer edge's circle where that is smaller (a ring stopped short of its box's
      // circle, service.ts readRing): only what the index seeks is narrowed, who passes is the same. Drawn
      // a little outside the edge's own test below, so rounding never puts someone in one and not the other.
      const edge = r.withinKm === undefined ? Number.POSITIVE_INFINITY : (r.withinKm + 1e-3) / kmPerDegree;
      const latSpan = Math.min(r.box, edge);
      const lonSpan = Math.min(boxLonSpan(point.latitude, r.box), cos > 0 ? edge / cos : Number.POSITIVE_INFINITY);
      Object.assign(binding, {
        south: point.latitude - latSpan,
        north: point.latitude + latSpan,
        west: point.longitude - lonSpan,
        east: point.longitude + lonSpan,
      });
    }
    if (r.beyondKm !== undefined && !unlocatedOnly && !r.edgesApart) {
      // A hair inside the bound, so rounding never drops someone standing exactly on it; never below zero
      // (a bound drawn in to 0 by capped(), or the all but empty circle a box holds next to a pole).
      Object.assign(binding, {
        lat: point.latitude,
        lon: point.longitude,
        cos,
        target: seekerTarget(s),
        beyond: innerEdgeKm(r.beyondKm),
      });
    }
    if (r.withinKm !== undefined && r.box !== null && !r.edgesApart) {
      // A hair outside the edge, for the same reason: the caller keeps whom it wants by its own measure.
      Object.assign(binding, {
        lat: point.latitude,
        lon: point.longitude,
        cos,
        target: seekerTarget(s),
        within: outerEdgeKm(r.withinKm),
      });
    }
    return binding;
  },
  where(eb, b) {
    const terms: Condition[] = [];
    // On the index's own columns, before the subqueries: someone outside the box or inside the
    // known-empty disc costs no swipe or block probe.
    if (b.south !== undefined) {
      terms.push(sql<SqlBool>`p.latitude >= ${b.south}`, sql<SqlBool>`p.latitude <= ${b.north}`);
      terms.push(sql<SqlBool>`p.longitude >= ${b.west}`, sql<SqlBool>`p.longitude <= ${b.east}`);
    }
    if (b.unlocatedOnly) terms.push(eb('p.latitude', 'is', null));
    if (b.beyond !== undefined)
      terms.push(sql<SqlBool>`(p.latitude is null or ${rankingKmSql(b.lat, b.lon, b.cos, b.target)} >= ${b.beyond})`);
    if (b.within !== undefined) terms.push(sql<SqlBool>`${rankingKmSql(b.lat, b.lon, b.cos, b.target)} <= ${b.within}`);
    return terms;
  },
  plain: () => [],
  watches: ['profiles.latitude', 'profiles.longitude'],
});

type DistanceLimitBinding = { lat?: number; lon?: number; cosLat?: number; limit?: number };

/**
 * The haversine term `h` (0 at the caller, 1 at the antipode) between the caller and the candidate, in SQL:
 * the great-circle distance is 2R asin(sqrt(h)), as distance.ts haversineKm computes the one shown.
 */
function haversineTermSql(lat: unknown, lon: unknown, cosLat: unknown) {
  const rad = sql.lit(Math.PI / 180);
  const halfLat = sql<number>`sin((p.latitude - ${lat}) * ${rad} / 2)`;
  const halfLon = sql<number>`sin((p.longitude - ${lon}) * ${rad} / 2)`;
  return sql<number>`(${halfLat} * ${halfLat} + ${cosLat} * cos(p.latitude * ${rad}) * ${halfLon} * ${halfLon})`;
}

/**
 * The deck's distance limit (`maxDistance`, whole km): only people whose card would show at most that many
 * kilometres (distance.ts shownDistanceKm rounds the great-circle distance), so the edge is inclusive as
 * the card reads: N km shown is in, N + 1 is out, i.e. a great-circle distance below N + 0.5 km. Nobody
 * without a position passes it (their distance is unknown); a caller without one has no distance to limit,
 * and the limit is not applied. Tested on the index's own columns (a term of the first pass).
 */
const maxDistance = searchFilter({
  name: 'maxDistance',
  firstPass: true,
  params: ['maxDistance'],
  poolKey: (s) => (s.maxDistance === undefined ? null : [s.me.point?.latitude, s.me.point?.longitude]),
  bind(s): DistanceLimitBinding {
    const point = s.me.point;
    if (s.maxDistance === undefined || point === null) return {};
    const half = Math.sin(distanceLimitKm(s.maxDistance) / (2 * earthRadiusKm));
    return {
      lat: point.latitude,
      lon: point.longitude,
      cosLat: Math.cos((point.latitude * Math.PI) / 180),
      limit: half * half,
    };
  },
  where: (_eb, b) =>
    b.limit === undefined ? [] : [sql<SqlBool>`${haversineTermSql(b.lat, b.lon, b.cosLat)} < ${b.limit}`],
  plain(_eb, s) {
    const point = s.me.point;
    if (s.maxDistance === undefined || point === null) return [];
    // Written as the distance itself: twice the radius times the arc sine of the term's root.
    const h = haversineTermSql(point.latitude, point.longitude, Math.cos((point.latitude * Math.PI) / 180));
    return [sql<SqlBool>`${sql.lit(2 * earthRadiusKm)} * asin(sqrt(${h})) < ${distanceLimitKm(s.maxDistance)}`];
  },
  watches: ['profiles.latitude', 'profiles.longitude'],
});

/** The great-circle distance a `maxDistance` of `km` lets in, exclusive: what rounds to `km` or less. */
export function distanceLimitKm(km: number): number {
  return km + 0.5;
}

/**
 * Not swiped by the caller, either way. Probes that need only the id the index holds come next, the
 * caller's own swipes first: for a heavy swiper nearly everyone nearby fails there, before their profile
 * and account rows are read at all. Watches nothing: a swiped person still pooled fails the next search's
 * re-check and leaves the pool then; an undo (`POST /api/undo`) stamps the person as changed, so the change
 * query brings them back.
 */
const notSwiped = searchFilter({
  name: 'notSwiped',
  firstPass: true,
  // `probe` (a switch: part of the shape) when a scan reads beyond a bound: the ring's own terms on the
  // index's columns leave few people to the probe (27 of 1,464 band entries for a heavy swiper's day's
  // first search on the bench data), and PostgreSQL, misjudging how few, hashed every swipe of the caller
  // for `not exists` (2,594: 0.44 ms). A scalar subquery is never hashed (see privateMode): a probe by the
  // primary key for each person left. A box read whole keeps `not exists`, which may hash a neighbourhood
  // full of swiped people. SQLite probes per row either way.
  bind: (s, r) => ({ me: s.me.id, probe: r.beyondKm !== undefined }),
  where: (eb, { me, probe }) => [
    probe
      ? eb(
          eb.selectFrom('swipes as s').select(one).where('s.swiper_id', '=', me).whereRef('s.target_id', '=', 'p.id'),
          'is',
          null,
        )
      : eb.not(
          eb.exists(
            eb.selectFrom('swipes as s').select(one).where('s.swiper_id', '=', me).whereRef('s.target_id', '=', 'p.id'),
          ),
        ),
  ],
  plain: (eb, s) => [
    eb.not(
      eb.exists(
        eb
          .selectFrom('swipes as s')
          .select('s.target_id')
          .where('s.swiper_id', '=', s.me.id)
          .whereRef('s.target_id', '=', 'p.id'),
      ),
    ),
  ],
  watches: [],
});

/** Neither has blocked the other. Watches nothing: a block only takes people out, and is never undone. */
const notBlocked = searchFilter({
  name: 'notBlocked',
  bind: (s) => ({ me: s.me.id }),
  where: (eb, { me }) => [
    eb.not(
      eb.exists(
        eb.selectFrom('blocks as b').select(one).where('b.blocker_id', '=', me).whereRef('b.blocked_id', '=', 'p.id'),
      ),
    ),
    eb.not(
      eb.exists(
        eb
          .selectFrom('blocks as b2')
          .select(one)
          .whereRef('b2.blocker_id', '=', 'p.id')
          .where('b2.blocked_id', '=', me),
      ),
    ),
  ],
  plain: (eb, s) => [
    eb.not(
      eb.exists(
        eb
          .selectFrom('blocks as b')
          .select('b.blocker_id')
          .where((b) =>
            b.or([
              b.and([b('b.blocker_id', '=', s.me.id), b('b.blocked_id', '=', b.ref('p.id'))]),
              b.and([b('b.blocker_id', '=', b.ref('p.id')), b('b.blocked_id', '=', s.me.id)]),
            ]),
          ),
      ),
    ),
  ],
  watches: [],
});

/** A verified account. */
const verified = searchFilter({
  name: 'verified',
  where: (eb) => [eb('u.verified_at', 'is not', null)],
  plain: (eb) => [eb('u.verified_at', 'is not', null)],
  watches: ['users.verified_at'],
});

const notBanned = searchFilter({
  name: 'notBanned',
  where: (eb) => [eb('u.banned_at', 'is', null)],
  plain: (eb) => [eb('u.banned_at', 'is', null)],
  watches: ['users.banned_at'],
});

/** Held on strong evidence from reports (safety/reportEvidence.ts): out of search until an admin decides. */
const notHeld = searchFilter({
  name: 'notHeld',
  where: (eb) => [eb('p.held_at', 'is', null)],
  plain: (eb) => [eb('p.held_at', 'is', null)],
  watches: ['profiles.held_at'],
});

/**
 * `verifiedOnly`: only people whose selfie matched their photos (issue 40, docs/trust.md). A switch: off
 * adds no term (the query stays as it was). Someone verified becomes visible, so the badge is watched
 * (a trigger stamps it: migration verified_search_stamp); losing it only takes people out.
 */
const verifiedOnly = searchFilter({
  name: 'verifiedOnly',
  params: ['verifiedOnly'],
  bind: (s) => ({ on: s.verifiedOnly === true }),
  where: (eb, { on }) => (on ? [eb('p.verified', '=', 1)] : []),
  plain: (eb, s) => (s.verifiedOnly === true ? [eb('p.verified', '=', 1)] : []),
  watches: ['profiles.verified'],
});

/** In private mode, seen only by the people they liked: a like from them lets the person liked see them. */
const privateMode = searchFilter({
  name: 'privateMode',
  bind: (s) => ({ me: s.me.id }),
  // Their swipe on the caller as a scalar subquery (at most one row: the primary key), not `exists`: in the
  // re-check, a named statement, PostgreSQL's generic plan turned `exists` into a hashed subplan reading
  // every like the caller ever got (7-23 ms for someone liked 15,000 times, against 0.1 ms); a scalar
  // subquery is never hashed.
  where: (eb, { me }) => [
    eb.or([
      eb('p.private_mode', '=', 0),
      eb(
        eb
          .selectFrom('swipes as pl')
          .select('pl.liked')
          .whereRef('pl.swiper_id', '=', 'p.id')
          .where('pl.target_id', '=', me),
        '=',
        1,
      ),
    ]),
  ],
  plain: (eb, s) => [
    eb.or([
      eb('p.private_mode', '=', 0),
      eb.exists(
        eb
          .selectFrom('swipes as l')
          .select('l.swiper_id')
          .whereRef('l.swiper_id', '=', 'p.id')
          .where('l.target_id', '=', s.me.id)
          .where('l.liked', '=', 1),
      ),
    ]),
  ],
  watches: ['profiles.private_mode', 'swipes.liked'],
});

/**
 * Every rule, in the order the candidate query tests them: SQLite tests terms in the order written, so
 * the cheap ones on the search index's own columns come first and the probes of other tables last.
 */
export const searchFilters: readonly SearchFilter[] = [
  notMe,
  gender,
  age,
  reciprocal,
  position,
  maxDistance,
  notSwiped,
  notBlocked,
  verified,
  notBanned,
  notHeld,
  verifiedOnly,
  privateMode,
];

/** What of the caller and their filters decides who passes one rule: its request parameters and its `poolKey`. */
export function filterPoolKey(f: SearchFilter, s: Seeker): unknown[] {
  return [f.params?.map((p) => s[p]) ?? null, f.poolKey?.(s) ?? null];
}

/**
 * The order a stored pool's people are kept in; a pool stored in another is not handed out. 2: tier by tier,
 * then by score (ranking.ts compareRanked), where 1 kept the score alone: a pool of 1 read as it was would
 * keep someone merged in a nearer tier behind farther people until it expired (6 hours).
 */
const poolOrder = 2;

/** Everything of the caller and their filters that decides who passes: a pool made under another key is stale. */
export function poolKeyOf(s: Seeker): string {
  return JSON.stringify([poolOrder, ...searchFilters.map((f) => filterPoolKey(f, s))]);
}

/** The values of one query: its own part first (`own`: selection, order, limit), then every rule's (queryBindings.ts). */
export function bindFilters(own: Binding, s: Seeker, r: Reading): { key: string; values: Record<string, unknown> } {
  return bindParts([own, ...searchFilters.map((f) => f.bind?.(s, r) ?? {})]);
}

const candidate = expressionBuilder<CandidateTables, 'p' | 'u'>();

/**
 * Every rule's terms, from their bindings' stand-ins (those after the query's own part, `standInsOf`).
 * `afterFirstPass`: the people were just found by a ring's first pass, which tested its rules (`firstPass`)
 * already; only the others are tested.
 */
export function filterConditions(bindings: readonly Binding[], recheck: boolean, afterFirstPass = false): Condition[] {
  return searchFilters.flatMap((f, i) =>
    afterFirstPass && f.firstPass ? [] : f.where(candidate, bindings[i] ?? {}, recheck),
  );
}

/**
 * The terms of the rules tested in a ring's first pass (`firstPass`), from the same stand-ins, but for those
 * it leaves out (`leftOut`, by name): the age rule when the pass reads stripe ranges that each hold one age
 * of the filter (stripes.ts ageRingStripes; its list could only invite a planner to seek by it instead of
 * by each range's age).
 */
export function firstPassConditions(bindings: readonly Binding[], leftOut: readonly string[] = []): Condition[] {
  return searchFilters.flatMap((f, i) =>
    f.firstPass && !leftOut.includes(f.name) ? f.where(candidate, bindings[i] ?? {}, false) : [],
  );
}

/** Every rule written plainly, with the caller's values (PlainSearch). */
export function plainConditions(s: Seeker): Condition[] {
  return searchFilters.flatMap((f) => f.plain(candidate, s));
}
