import {
  PostgresAdapter,
  sql,
  type Expression,
  type ExpressionBuilder,
  type Kysely,
  type QueryCreator,
  type SqlBool,
} from 'kysely';
import { preparedByShape } from '../../../db/prepared.ts';
import type { Database, Gender, ProfileId } from '../../../db/schema.ts';
import { everywhereKm, kmPerDegree } from './distance.ts';
import {
  bindFilters,
  filterConditions,
  type CandidateTables,
  firstPassConditions,
  innerEdgeKm,
  outerEdgeKm,
  rankingKmSql,
  seekerTarget,
  type Reading,
  type Seeker,
} from './filters.ts';
import { ageStretch, flatForRankingKm, nearbyKm } from './ranking.ts';
import { poolUpsertInto, searchPoolColumns, type SearchPoolRow } from './poolUpsert.ts';
import { standInsOf, type Binding } from './queryBindings.ts';
import { ageRingStripes, stripeRangesTable } from './stripes.ts';

/** One candidate query: who searches, how people are read, and how many at most. */
export interface CandidateFilter extends Seeker, Reading {
  limit: number;
  /** With `only`: each person's photos too (see Own.photos). */
  withPhotos?: boolean;
  /**
   * With `only`, PostgreSQL: the caller's new pool, written by the same statement (a WITH before the read:
   * repository.ts findCardKeepingPool).
   */
  keeping?: SearchPoolRow;
}

/** What ranking someone reads (service.ts rank): where they are, their age, when last active and their boosts. */
export interface RankedRow {
  id: ProfileId;
  latitude: number | null;
  longitude: number | null;
  age: number;
  active_at: string | null;
  premium_until: string | null;
  liked_me: unknown;
}

export interface CandidateRow extends RankedRow {
  name: string;
  age: number;
  city: string;
  place_id: number | null;
  gender: Gender;
  bio: string;
  /** What others may learn of their activity (profiles/activity.ts activeRecentlyOf). */
  private_mode: number;
  show_activity: number;
  /** 1: a selfie matched their photos (the card's badge). */
  verified: number;
  /** The person's photo file names in order, comma-separated ('' for none): only when asked for (`withPhotos`). */
  photo?: string | null;
  /** Their answered prompts as stored (features/prompts): with the photos only, since only a card shows them. */
  prompts?: string;
}

/** The query's own values (selection, order, limit); the rules bind theirs in filters.ts. */
type Own = {
  me: ProfileId;
  /** Re-checking these people: no box, no order. */
  only?: readonly number[];
  /** A scan from a position: nearest first, from this point. */
  lat?: number;
  lon?: number;
  cos?: number;
  /** The deck's target age (ranking.ts): the scan's order is the ranking distance. */
  target?: number;
  limit: number;
  /** A re-check whose first person may be shown at once: their photos and prompts come with them (one round trip fewer). */
  photos?: boolean;
  /** A ring's first pass read through the stripes (stripes.ts): its ranges, as JSON. */
  stripes?: string;
  /**
   * A ring's first pass testing its own edges (Reading.edgesApart): its inner edge (absent: none) and its
   * outer edge, ranking km, as filters.ts position draws them (innerEdgeKm, outerEdgeKm).
   */
  beyond?: number;
  within?: number;
};

/**
 * The photo file names of `p` in order, comma-separated: the same list listShownPhotoNames reads; both databases
 * take an ordered aggregate (SQLite since 3.44).
 */
export function photoList(db: Kysely<Database>) {
  const aggregate =
    db.getExecutor().adapter instanceof PostgresAdapter ? sql.raw('string_agg') : sql.raw('group_concat');
  return sql<
    string | null
  >`(select ${aggregate}(ph.file_name, ',' order by ph.position, ph.id) from photos ph where ph.profile_id = p.id and ph.moderation = 'clear')`;
}

/** Their swipe on the caller: 1 for a like, else 0 or null. A scalar subquery, for the reason in filters.ts privateMode. */
const likedMe = (eb: ExpressionBuilder<CandidateTables, 'p'>, me: ProfileId) =>
  eb
    .selectFrom('swipes as l')
    .select('l.liked')
    .whereRef('l.swiper_id', '=', 'p.id')
    .where('l.target_id', '=', me)
    .as('liked_me');

/** What ranking reads of someone (RankedRow): every read of candidates starts from it. */
const rankedSelect = (db: QueryCreator<Database>, me: ProfileId) =>
  db
    .selectFrom('profiles as p')
    .innerJoin('users as u', 'u.id', 'p.user_id')
    .select((eb) => ['p.id', 'p.latitude', 'p.longitude', 'p.age', 'p.active_at', 'u.premium_until', likedMe(eb, me)]);

/**
 * The people the caller may see next, nearest first within a box around them: every rule of discovery
 * (filters.ts) in this one query. Ordering uses squared equirectangular distance between snapped points,
 * which sorts like the true distance at these ranges. Built and compiled once per shape (db/prepared.ts),
 * the shape derived from what the query and its rules bind: Kysely's builder cost more than the query
 * itself when re-checking a few pooled people (0.31 ms against 0.09 ms for the same SQL prepared).
 */
const buildCandidates = (db: Kysely<Database>, key: string, slot: (name: string) => never, keeping = false) => {
  const [ownStandIns = {}, ...filterStandIns] = standInsOf(key, slot);
  // Laid out as the `Own` binding findCandidates made.
  const own = ownStandIns as Own;
  // The pool's upsert in a WITH, which PostgreSQL runs whatever the read returns (its values: `pool.*` slots).
  // (Typed as the database alone: the read never names `kept`.)
  const from = keeping
    ? (db.with('kept', (qc) =>
        poolUpsertInto(qc, Object.fromEntries(searchPoolColumns.map((c) => [c, slot(`pool.${c}`)])) as never),
      ) as unknown as QueryCreator<Database>)
    : db;
  let query = rankedSelect(from, own.me).select([
    'p.name',
    'p.city',
    'p.place_id',
    'p.gender',
    'p.bio',
    'p.private_mode',
    'p.show_activity',
    'p.verified',
  ]);
  // Not read by scans of many people, only by the card's own read: answers weigh as much as a bio.
  if (own.photos) query = query.select([photoList(db).as('photo'), 'p.prompts']);
  for (const condition of filterConditions(filterStandIns, own.only !== undefined)) query = query.where(condition);
  // Pooled ids are plain numbers (unpacked from the stored pool); here they are only stand-ins for bound values.
  if (own.only !== undefined) return query.where('p.id', 'in', own.only as readonly ProfileId[]).limit(own.limit);
  if (own.cos === undefined) return query.orderBy('p.id', 'desc').limit(own.limit);
  return (
    query
      // People without a location come last, after everyone whose distance is known.
      .orderBy(sql`(case when p.latitude is null then 1 else 0 end)`)
      .orderBy(rankingKmSql(own.lat, own.lon, own.cos, own.target))
      .orderBy('p.id')
      .limit(own.limit)
  );
};

/**
 * A scan's plan depends on the caller's place (how many people the box holds), and its lists (ages,
 * genders) give hundreds of texts: parsed and planned afresh on every run on PostgreSQL.
 */
const scanQuery = preparedByShape(buildCandidates, (key) => key, { named: false });
/**
 * Re-checking listed people is the pooled search's one big query, and on PostgreSQL parsing and planning it
 * cost 1.5 to 2 ms against 0.2 ms run as a named statement (pgbench, same text). Its shapes are few: ages
 * are a range here (filters.ts), and the list of people is padded to a power of two (`paddedIds`), so a
 * connection keeps at most 24 of these statements (9 lengths up to 256, two gender lists, and the next card's
 * batch of up to 3 with photos: 3 more lengths, two gender lists). After five runs
 * PostgreSQL may keep one generic plan for every caller: each term is written so that plan stays a lookup
 * by id with a probe per person (see filters.ts privateMode, where `exists` was planned as a hash of all
 * of the caller's likes).
 */
const recheckQuery = preparedByShape(buildCandidates, (key) => key);
/**
 * The card's read with the caller's new pool written in the same statement (PostgreSQL): a scan's last round
 * trip was the card's read and, beside it on a second connection, the pool's upsert. Named like the re-check.
 */
const cardKeepingQuery = preparedByShape(
  (db, key: string, slot) => buildCandidates(db, key, slot, true),
  (key) => key,
);

/** The ids repeated to the next power of two: a few list lengths, so a few statement texts (a repeat is harmless in `in`). */
export function paddedIds(ids: readonly number[]): number[] {
  let size = 1;
  while (size < ids.length) size *= 2;
  const last = ids[ids.length - 1];
  return last === undefined ? [] : [...ids, ...Array<number>(size - ids.length).fill(last)];
}

/** The candidates a filter allows (see buildCandidates), with the values of this call bound. */
export async function findCandidates(db: Kysely<Database>, f: CandidateFilter): Promise<CandidateRow[]> {
  if (f.only?.length === 0) return [];
  const point = f.only === undefined ? f.me.point : null;
  if (f.only !== undefined) {
    const only = paddedIds(f.only);
    const own: Own = { me: f.me.id, only, limit: only.length, ...(f.withPhotos ? { photos: true } : {}) };
    const { key, values } = bindFilters(own, f, f);
    if (f.keeping) {
      const row = f.keeping;
      for (const column of searchPoolColumns) values[`pool.${column}`] = row[column];
      return cardKeepingQuery(db, key, values);
    }
    return recheckQuery(db, key, values);
  }
  const own: Own = point
    ? {
        me: f.me.id,
        lat: point.latitude,
        lon: point.longitude,
        cos: Math.cos((point.latitude * Math.PI) / 180),
        target: seekerTarget(f),
        limit: f.limit,
      }
    : { me: f.me.id, limit: f.limit };
  const { key, values } = bindFilters(own, f, f);
  return scanQuery(db, key, values);
}

/** Where someone of a ring's first pass stands, and their age (read from the search index alone). */
export interface NearRow {
  id: ProfileId;
  latitude: number;
  longitude: number;
  age: number;
}

/**
 * A ring's first pass: the nearest people who pass the rules the search index and the caller's swipes
 * decide alone (`firstPass` in filters.ts), nearest first, without reading a profile or account row. A
 * heavy swiper's ring beyond her frontier holds hundreds of new people; reading, probing and sorting
 * every one of them in full only to keep the nearest hundred cost about 7 ms on the bench data set
 * (bench/discovery.ts); this pass and the re-read of the hundred with every rule about 2.5 ms. Needs a
 * position and a box. `k` is the order's own value (the ranking distance), for the re-read's order.
 */
function firstPassQuery(db: Kysely<Database>, own: Own, filterStandIns: readonly Binding[]) {
  const terms = firstPassConditions(filterStandIns, own.stripes === undefined ? [] : ['age']);
  const nearestFirst = rankingKmSql(own.lat, own.lon, own.cos, own.target);
  const columns = ['p.id', 'p.latitude', 'p.longitude', 'p.age', nearestFirst.as('k')] as const;
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  // With its edges apart (PostgreSQL), the ring's ranking distance is written once, as `k`, and its edges and
  // order read it: the position rule wrote it in each edge and the order again, four copies of 9 values,
  // and PostgreSQL parses the statement on every run (unnamed: its plan depends on the place). A subquery
  // PostgreSQL flattens, so its terms and the edges are one list, ordered by cost: the swipe probe last.
  const edged = (from: ReturnType<typeof candidatesIn>) => {
    const x = db.selectFrom(from.as('x')).select(['x.id', 'x.latitude', 'x.longitude', 'x.age', 'x.k']);
    const inside = own.beyond === undefined ? x : x.where(sql<SqlBool>`(x.latitude is null or x.k >= ${own.beyond})`);
    return inside.where(sql<SqlBool>`x.k <= ${own.within}`);
  };
  // The people of the index in the ring's box (or of one stripe range, `holds`), with their `k`.
  function candidatesIn(holds?: Expression<SqlBool>) {
    let query = db.selectFrom('profiles as p').select(columns);
    if (holds) query = query.where(holds);
    for (const term of terms) query = query.where(term);
    return query;
  }
  if (own.stripes === undefined) {
    if (own.within !== undefined) return edged(candidatesIn()).orderBy('x.k').orderBy('x.id').limit(own.limit);
    return candidatesIn().orderBy(nearestFirst).orderBy('p.id').limit(own.limit);
  }
  // Each stripe range, then the index's entries inside it (profiles_stripes), ranges first.
  const ranges = stripeRangesTable(db, own.stripes);
  if (postgres) {
    // A lateral subquery run per range: joined plainly, PostgreSQL hashed the ranges against a bitmap
    // scan of the whole box (7.4 ms against 5.9 for the band); per range it seeks the index (2.1-2.6 ms
    // against 4.2-6.9, same data). `offset 0` keeps it from being flattened back into that join.
    if (own.within !== undefined)
      return db
        .selectFrom(ranges.from)
        .innerJoinLateral(
          () =>
            edged(candidatesIn(ranges.holds))
              .modifyEnd(sql`offset 0`)
              .as('p'),
          (join) => join.onTrue(),
        )
        .select(['p.id', 'p.latitude', 'p.longitude', 'p.age', 'p.k'])
        .orderBy('p.k')
        .orderBy('p.id')
        .limit(own.limit);
    const query = db
      .selectFrom(ranges.from)
      .innerJoinLateral(
        (eb) => {
          let inRange = eb
            .selectFrom('profiles as p')
            .select(['p.id', 'p.latitude', 'p.longitude', 'p.age'])
            .where(ranges.holds);
          for (const term of terms) inRange = inRange.where(term);
          return inRange.modifyEnd(sql`offset 0`).as('p');
        },
        (join) => join.onTrue(),
      )
      .select(columns);
    return query.orderBy(nearestFirst).orderBy('p.id').limit(own.limit);
  }
  // SQLite keeps a cross join's order: the ranges outside, a seek of the index for each.
  let query = db.selectFrom(ranges.from).crossJoin('profiles as p').select(columns).where(ranges.holds);
  for (const term of terms) query = query.where(term);
  return query.orderBy(nearestFirst).orderBy('p.id').limit(own.limit);
}

/**
 * The first pass and, in the same statement, its people re-read for ranking: whether every other rule
 * lets them through (`passed`; the first pass's rules are not tested again: the same statement just tested
 * them, and a pooled person is re-checked against every rule before being shown) and what ranking reads
 * (no name, bio or city: of a hundred, one is shown, and its card is read then). PostgreSQL only: one
 * round trip, where the pass and a re-read by id were two (the re-read 0.42 ms p50 of a heavy swiper's
 * day's first search of 2.9 ms at load 4, bench/firstSearch.ts). Everyone the pass found comes back, since
 * where the last of them stands tells how far the pass read. The pass is materialized: read once, then
 * each of its people looked up by id, never the other way round; its order is restored from `k`, the
 * order's own value.
 */
const nearestQuery = preparedByShape(
  (db, key: string, slot) => {
    const [ownStandIns = {}, ...filterStandIns] = standInsOf(key, slot);
    const own = ownStandIns as Own;
    const others = filterConditions(filterStandIns, true, true);
    return db
      .with(
        (cte) => cte('near').materialized(),
        () => firstPassQuery(db, own, filterStandIns),
      )
      .selectFrom('near')
      .innerJoin('profiles as p', 'p.id', 'near.id')
      .innerJoin('users as u', 'u.id', 'p.user_id')
      .select((eb) => [
        'near.id',
        'near.latitude',
        'near.longitude',
        'near.age',
        sql<number>`(case when ${eb.and(others)} then 1 else 0 end)`.as('passed'),
        'p.active_at',
        'u.premium_until',
        likedMe(eb, own.me),
        'near.k',
      ]);
  },
  (key) => key,
  // Unnamed on PostgreSQL for the same reasons as scanQuery: list lengths, and a plan per place.
  { named: false },
);

/**
 * The filter's ages grouped by their age stretch, each group with the flat annulus (degrees) of the ring
 * (`beyondKm` to `withinKm`, ranking km) for it.
 */
function ringAgeBands(
  f: Pick<CandidateFilter, 'ageMin' | 'ageMax' | 'beyondKm' | 'withinKm'>,
  target: number,
): { ages: number[]; fromDeg: number; toDeg: number }[] {
  const byStretch = new Map<number, number[]>();
  for (let age = f.ageMin; age <= f.ageMax; age++) {
    const stretch = ageStretch(age, target);
    byStretch.set(stretch, [...(byStretch.get(stretch) ?? []), age]);
  }
  const outer = outerEdgeKm(f.withinKm ?? 0);
  return [...byStretch].map(([stretch, ages]) => ({
    ages,
    fromDeg: f.beyondKm === undefined ? 0 : flatForRankingKm(innerEdgeKm(f.beyondKm), stretch) / kmPerDegree,
    // Below 0 when nobody of these ages can be that near (their ranking distance starts above the edge).
    toDeg: ((outer + nearbyKm) / stretch - nearbyKm) / kmPerDegree,
  }));
}

/**
 * SQLite's first pass alone and its re-read by id: SQLite has no round trip to save, and the one statement
 * cost it more than these two (3.0-3.7x against 2.7-3.3x the ring floor, bench/firstSearch.ts paired with
 * main, load 4-5). The re-read is prepared once per list length (padded, `paddedIds`).
 */
const passQuery = preparedByShape(
  (db, key: string, slot) => {
    const [ownStandIns = {}, ...filterStandIns] = standInsOf(key, slot);
    return firstPassQuery(db, ownStandIns as Own, filterStandIns);
  },
  (key) => key,
  { named: false },
);
const rereadQuery = preparedByShape(
  (db, key: string, slot) => {
    const [ownStandIns = {}, ...filterStandIns] = standInsOf(key, slot);
    const own = ownStandIns as Own;
    let query = rankedSelect(db, own.me);
    for (const condition of filterConditions(filterStandIns, true, true)) query = query.where(condition);
    return query.where('p.id', 'in', (own.only ?? []) as readonly ProfileId[]).limit(own.limit);
  },
  (key) => key,
);

/** A ring's first pass (`near`, nearest first) and those of its people every rule lets through (`ranked`, in its order). */
export interface RingPass {
  near: NearRow[];
  ranked: RankedRow[];
}

type NearRankedRow = NearRow & {
  k: number;
  passed: number;
  active_at: string | null;
  premium_until: string | null;
  liked_me: unknown;
};

export async function findNearest(db: Kysely<Database>, f: CandidateFilter): Promise<RingPass> {
  const point = f.me.point;
  if (!point || f.box === null || f.only !== undefined) throw new Error('a first pass needs a position and a box');
  const target = seekerTarget(f);
  const own: Own = {
    me: f.me.id,
    lat: point.latitude,
    lon: point.longitude,
    cos: Math.cos((point.latitude * Math.PI) / 180),
    target,
    limit: f.limit,
  };
  // The ring's stripes when it has an outer edge (a first pass always has) and is not too tall for them.
  // Its edges are in the ranking distance (filters.ts position): for people of one age stretch `s` that is
  // the flat annulus from (beyond + nearbyKm) / s - nearbyKm to (within + nearbyKm) / s - nearbyKm, so each
  // band of ages alike in stretch seeks its own annulus (ageRingStripes), its own disc read before left out.
  if (f.withinKm !== undefined) {
    const ranges = ageRingStripes(point, ringAgeBands(f, target));
    if (ranges) own.stripes = JSON.stringify(ranges);
  }
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) {
    const { key, values } = bindFilters(own, f, f);
    const near = (await passQuery(db, key, values)) as (NearRow & { k: number })[];
    if (!near.length) return { near: [], ranked: [] };
    const only = paddedIds(near.map((n) => n.id));
    const reread = bindFilters({ me: f.me.id, only, limit: only.length }, f, { box: null, only });
    const passed = new Map((await rereadQuery(db, reread.key, reread.values)).map((r) => [r.id, r]));
    return {
      near: near.map(({ id, latitude, longitude, age }) => ({ id, latitude, longitude, age })),
      ranked: near.flatMap((n) => passed.get(n.id) ?? []),
    };
  }
  // The ring's edges tested on `k`, the ranking distance the pass computes once (firstPassQuery), as the
  // position rule would test them.
  if (f.beyondKm !== undefined && f.beyondKm < everywhereKm) own.beyond = innerEdgeKm(f.beyondKm);
  if (f.withinKm !== undefined) own.within = outerEdgeKm(f.withinKm);
  const { key, values } = bindFilters(own, f, { ...f, edgesApart: own.within !== undefined });
  // In the pass's order (nearest first, then id), sorted here on the values the pass ordered by (`k`, the
  // id): the join gives no order of its own, and sorting a pool's worth of rows here is cheap.
  const rows = ((await nearestQuery(db, key, values)) as NearRankedRow[]).sort((a, b) => a.k - b.k || a.id - b.id);
  const near: NearRow[] = [];
  const ranked: RankedRow[] = [];
  for (const row of rows) {
    const { id, latitude, longitude, age } = row;
    near.push({ id, latitude, longitude, age });
    // PostgreSQL's int4 reaches JavaScript as a number.
    if (row.passed === 1)
      ranked.push({
        id,
        latitude,
        longitude,
        age,
        active_at: row.active_at,
        premium_until: row.premium_until,
        liked_me: row.liked_me,
      });
  }
  return { near, ranked };
}
