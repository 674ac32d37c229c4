/**
 * The floor of a search that starts beyond a frontier (a heavy swiper's first search of the day, issue 41
 * goal 4): one query reading the same ring the search reads, through the same index ranges (the per-age
 * stripes of candidates.ts), with the search index's own filters (gender, age, the other side's preference)
 * and no exclusion (no swipe, block, ban, verification, hold or private-mode test), nearest first in the
 * ranking distance, as many as a pool holds. What the search costs beyond it is its exclusions and its
 * other statements (the start, the change query, the ranking re-read, the card, the pool). Before, the floor
 * read the box around the caller, which a heavy swiper's search never reads again.
 */
import { PostgresAdapter, sql, type CompiledQuery, type Kysely } from 'kysely';
import type { Database, Gender, ProfileId } from '../db/schema.ts';
import type { SearchQuery } from '../server/contract/discovery.ts';
import type { Frontier, Pool, PoolStore } from '../server/features/search/candidatePool.ts';
import { kmPerDegree, type Point } from '../server/features/search/distance.ts';
import {
  ageStretch,
  ageGraceYears,
  ageStretchFullYears,
  ageStretchMax,
  ageStretchPerYear,
  nearbyKm,
  targetAge,
} from '../server/features/search/ranking.ts';
import { rankingPoolSize } from '../server/features/search/rules.ts';
import { ringStripes } from '../server/features/search/stripes.ts';

/**
 * The ring's index ranges per age: for people of age stretch `s`, ranking km `e` to `E` is the flat annulus
 * (e + nearbyKm) / s - nearbyKm to (E + nearbyKm) / s - nearbyKm; its stripes (stripes.ts ringStripes) with the
 * age, `[stripe, west, east, age]`. Written here rather than taken from the search, so that the floor stays the
 * same whichever checkout's search it is set beside. Null when a ring is too tall for the stripes.
 */
function ringRanges(point: Point, ageMin: number, ageMax: number, target: number, ring: Ring): number[][] | null {
  const rows: number[][] = [];
  for (let age = ageMin; age <= ageMax; age++) {
    const s = ageStretch(age, target);
    const to = ((ring.toKm + 1e-6 + nearbyKm) / s - nearbyKm) / kmPerDegree;
    if (to < 0) continue;
    const from = Math.max(0, (Math.max(0, ring.fromKm - 1e-6) + nearbyKm) / s - nearbyKm) / kmPerDegree;
    const ranges = ringStripes(point, Math.min(from, to), to);
    if (!ranges) return null;
    for (const [stripe, west, east] of ranges) rows.push([stripe, west, east, age]);
  }
  return rows;
}

/** The ring a search read beyond its frontier: from the frontier's empty disc to the bound of the pool it kept (ranking km). */
export interface Ring {
  fromKm: number;
  toKm: number;
}

/**
 * A pool store that remembers, per caller, the frontier a search started from and the bound it kept (in
 * `rings`, a map of its own unless given).
 */
export function recordingRings(
  store: PoolStore,
  rings = new Map<number, Ring>(),
): { store: PoolStore; rings: Map<number, Ring> } {
  const from = new Map<number, Frontier>();
  return {
    rings,
    store: {
      take: (me, key, prefetched) => store.take(me, key, prefetched),
      frontier: async (me, key, wanted, prefetched) => {
        const frontier: Frontier | null = await store.frontier(me, key, wanted, prefetched);
        if (frontier) from.set(me, frontier);
        else from.delete(me);
        return frontier;
      },
      keep: async (me, pool: Omit<Pool, 'expiresAt'>, ttlMs, carry) => {
        // A pool made beyond the frontier carries its scan time on; a fresh scan (the frontier not
        // trusted) stamps its own, and read no ring beyond it.
        const frontier = from.get(me);
        from.delete(me);
        if (frontier && pool.scannedAt === frontier.scannedAt)
          rings.set(me, { fromKm: frontier.emptyKm, toKm: pool.boundKm });
        else rings.delete(me);
        await store.keep(me, pool, ttlMs, carry);
      },
      put: (me, pool) => store.put(me, pool),
      drop: (me) => store.drop(me),
    },
  };
}

export interface FloorSeeker {
  me: { id: ProfileId; gender: Gender; point: Point; age: number };
  query: Omit<SearchQuery, 'exclude'>;
}

/** The floor query for this caller and ring, compiled. */
export function ringFloorQuery(db: Kysely<Database>, s: FloorSeeker, ring: Ring): CompiledQuery {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  const { me, query } = s;
  const target = targetAge(me.age, query.ageMin, query.ageMax);
  const ranges = ringRanges(me.point, query.ageMin, query.ageMax, target, ring);
  const genders: Gender[] = query.gender === 'Any' ? ['Female', 'Male', 'Other'] : [query.gender];
  const list = (values: readonly unknown[]) => sql.join(values.map((v) => sql`${v}`));
  const field = (i: number, type = 'double precision') =>
    postgres ? sql`cast(iv.value ->> ${sql.lit(i)} as ${sql.raw(type)})` : sql`(iv.value ->> ${sql.lit(i)})`;
  const cos = Math.cos((me.point.latitude * Math.PI) / 180);
  // The ranking distance as filters.ts rankingKmSql writes it.
  const { latitude: lat, longitude: lon } = me.point;
  const gap = sql`abs(p.age - cast(${target} as double precision))`;
  const stretch = sql`(case when ${gap} <= ${sql.lit(ageGraceYears)} then 1.0 when ${gap} >= ${sql.lit(ageGraceYears + ageStretchFullYears)} then ${sql.lit(1 + ageStretchMax)} else 1.0 + ${sql.lit(ageStretchPerYear)} * (${gap} - ${sql.lit(ageGraceYears)}) end)`;
  const e = sql`(${stretch} * (sqrt((p.latitude - ${lat}) * (p.latitude - ${lat}) + ((p.longitude - ${lon}) * ${cos}) * ((p.longitude - ${lon}) * ${cos})) * ${sql.lit(kmPerDegree)} + ${sql.lit(nearbyKm)}) - ${sql.lit(nearbyKm)})`;
  // A ring too tall for the stripes is read, as the search reads it, from its latitude band (profiles_search).
  const outerDeg = (ring.toKm + 1e-3) / kmPerDegree;
  const ages = Array.from({ length: query.ageMax - query.ageMin + 1 }, (_, i) => query.ageMin + i);
  const where = ranges
    ? sql`p.age = ${field(3, 'integer')} and floor((p.latitude + 90) * 10) = ${field(0)} and p.longitude >= ${field(1)} and p.longitude <= ${field(2)}`
    : sql`p.age in (${list(ages)}) and p.latitude >= ${lat - outerDeg} and p.latitude <= ${lat + outerDeg} and p.longitude >= ${lon - outerDeg / cos} and p.longitude <= ${lon + outerDeg / cos}`;
  const terms = sql`${where} and p.gender in (${list(genders)}) and p.preferred_gender in (${list(['Any', me.gender])}) and p.id != ${me.id} and ${e} >= ${Math.max(0, ring.fromKm - 1e-6)} and ${e} <= ${ring.toKm + 1e-6}`;
  const columns = sql`p.id, p.latitude, p.longitude, p.age`;
  const limit = rankingPoolSize;
  if (!ranges)
    return sql`select ${columns} from profiles as p where ${terms} order by ${e}, p.id limit ${limit}`.compile(db);
  const json = JSON.stringify(ranges);
  // As the search's first pass: on PostgreSQL a lateral subquery per range (candidates.ts nearestQuery).
  return (
    postgres
      ? sql`select ${columns} from jsonb_array_elements(cast(${json} as jsonb)) as iv cross join lateral (select ${columns} from profiles as p where ${terms} offset 0) as p order by ${e}, p.id limit ${limit}`
      : sql`select ${columns} from json_each(${json}) as iv cross join profiles as p where ${terms} order by ${e}, p.id limit ${limit}`
  ).compile(db);
}

/** The ring's width in kilometres and the index ranges it is read through, for the bench's notes. */
export function ringNote(rings: Iterable<Ring>): string {
  const list = [...rings];
  if (!list.length) return 'none';
  const mean = (f: (r: Ring) => number) => list.reduce((sum, r) => sum + f(r), 0) / list.length;
  return `${list.length} rings, from ${mean((r) => r.fromKm).toFixed(1)} to ${mean((r) => r.toKm).toFixed(1)} km on average (${(mean((r) => r.toKm - r.fromKm) / kmPerDegree).toFixed(2)} degrees wide)`;
}
