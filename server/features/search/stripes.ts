import {
  PostgresAdapter,
  sql,
  type AliasedRawBuilder,
  type Expression,
  type Kysely,
  type RawBuilder,
  type SqlBool,
} from 'kysely';
import type { Database } from '../../../db/schema.ts';
import type { Point } from './distance.ts';

/**
 * The search's spatial key: latitude cut into stripes of 1/`stripesPerDegree` degree (about 11 km), the
 * third column of `profiles_stripes` after gender and age, with longitude after it. Inside one stripe the
 * index is ordered by longitude, so a ring's first pass (candidates.ts findNearest) seeks, per stripe, only
 * the longitudes the ring crosses there: one range where the stripe passes beside the ring's hole, two
 * (west and east of it) where it crosses the hole. profiles_search orders by latitude, so a ring there
 * reads its whole latitude band, the swiped disc inside it included: for a heavy swiper's ring at 26 km
 * about 6,300 index entries to find 117 people (1.3 ms); the stripes read a few hundred (0.5 ms), from 10
 * stripe ranges per (gender, age) pair (bench/discovery.ts `cells`). Narrower stripes read
 * fewer entries but pay more seeks: 0.05° cost 0.58 ms, 0.01° 1.27 ms on the same ring.
 *
 * The key is an expression index, so the query must spell the expression exactly as the migration does
 * (2026_11_28_1500_search_stripes), literals and all: `stripeOfRow` is that text.
 */
export const stripesPerDegree = 10;

/** The stripe a latitude lies in, computed as both databases compute the index's expression (IEEE doubles). */
export function stripeOf(latitude: number): number {
  return Math.floor((latitude + 90) * stripesPerDegree);
}

/** The index's expression over the candidate `p`, as the migration writes it. */
export const stripeOfRow: RawBuilder<number> = sql<number>`floor((p.latitude + 90) * 10)`;

/**
 * Beyond this many stripes a ring is read from its latitude band: each stripe costs a seek per (gender,
 * age) pair (up to 83 ages), and a ring that tall is far from its caller, where people are few.
 */
export const stripesMax = 24;

/** A stripe and the longitudes (degrees, west to east) a ring may cross inside it. */
export type StripeRange = readonly [stripe: number, west: number, east: number];

/** A stripe range for people of one age (the index's column before the stripe): what a first pass seeks. */
export type AgeStripeRange = readonly [stripe: number, west: number, east: number, age: number];

/**
 * The longitude ranges of each stripe that may hold someone at a flat distance (distance.ts flatKm, in
 * degrees here) from `fromDeg` to `toDeg` of `point`: a superset, since the query tests the exact ring
 * too. Null when the ring is read better from its band: too many stripes, or a caller so near a pole that
 * a degree of longitude is nothing.
 */
export function ringStripes(point: Point, fromDeg: number, toDeg: number): StripeRange[] | null {
  const cos = Math.cos((point.latitude * Math.PI) / 180);
  if (!(cos > 1e-6) || !(toDeg >= 0)) return null;
  // Margins wide enough for any rounding between these doubles and the database's: whoever the exact
  // terms let through lies inside the ranges.
  const slack = 1e-9;
  const outer = toDeg + slack;
  const inner = Math.max(0, fromDeg - slack);
  const first = stripeOf(point.latitude - outer);
  const last = stripeOf(point.latitude + outer);
  if (last - first + 1 > stripesMax) return null;
  const ranges: StripeRange[] = [];
  for (let stripe = first; stripe <= last; stripe++) {
    // The stripe's latitudes relative to the caller, widened a hair (a row computed into this stripe may
    // lie a rounding error outside the interval its number spells).
    const south = stripe / stripesPerDegree - 90 - point.latitude - slack;
    const north = (stripe + 1) / stripesPerDegree - 90 - point.latitude + slack;
    const nearest = south <= 0 && north >= 0 ? 0 : Math.min(Math.abs(south), Math.abs(north));
    const farthest = Math.max(Math.abs(south), Math.abs(north));
    if (nearest > outer) continue;
    const half = Math.sqrt(outer * outer - nearest * nearest) / cos + slack;
    if (farthest < inner) {
      // The hole spans the whole stripe: its width where it is narrowest, at the stripe's far edge.
      const hole = Math.sqrt(inner * inner - farthest * farthest) / cos - slack;
      if (hole > 0) {
        ranges.push(
          [stripe, point.longitude - half, point.longitude - hole],
          [stripe, point.longitude + hole, point.longitude + half],
        );
        continue;
      }
    }
    ranges.push([stripe, point.longitude - half, point.longitude + half]);
  }
  return ranges;
}

/**
 * The stripe ranges of a ring per age (`AgeStripeRange`): each band of ages (`ages`, alike in how far their
 * ring reaches) gets the ranges of its own flat annulus, `fromDeg` to `toDeg`, so that a ring drawn in the
 * ranking distance (ranking.ts) leaves out, for each age, the disc already read for that age: the age
 * stretch makes a far-off age's disc small and a near age's large, and one annulus for every age had to
 * take the smallest hole and the largest outside. Bands whose annulus is empty (`toDeg` below 0) read
 * nothing. Null when any band is better read from its latitude band (ringStripes). Longitudes are rounded
 * outwards to about a centimetre: the parameter is smaller, and the query's exact terms decide.
 */
export function ageRingStripes(
  point: Point,
  bands: readonly { ages: readonly number[]; fromDeg: number; toDeg: number }[],
): AgeStripeRange[] | null {
  const rows: AgeStripeRange[] = [];
  for (const band of bands) {
    if (!band.ages.length || !(band.toDeg >= 0)) continue;
    const ranges = ringStripes(point, Math.min(band.fromDeg, band.toDeg), band.toDeg);
    if (!ranges) return null;
    for (const [stripe, west, east] of ranges) {
      const w = Math.floor(west * 1e7 - 1) / 1e7;
      const e = Math.ceil(east * 1e7 + 1) / 1e7;
      for (const age of band.ages) rows.push([stripe, w, e, age]);
    }
  }
  return rows;
}

/**
 * The ranges as a table `iv`, from one JSON parameter so that every number of ranges shares one statement
 * text (SQLite's json_each, PostgreSQL's jsonb_array_elements), and `holds`: the term that keeps a profile
 * `p` to its range's age, stripe and longitudes (`AgeStripeRange`), written as the index's columns and
 * expression so that each range is one seek of the index per gender.
 */
export function stripeRangesTable(
  db: Kysely<Database>,
  json: unknown,
): { from: AliasedRawBuilder<{ value: unknown }, 'iv'>; holds: Expression<SqlBool> } {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  const field = (index: number, type = 'double precision') =>
    postgres
      ? sql<number>`cast(iv.value ->> ${sql.lit(index)} as ${sql.raw(type)})`
      : sql<number>`(iv.value ->> ${sql.lit(index)})`;
  return {
    from: (postgres
      ? sql<{ value: unknown }>`jsonb_array_elements(cast(${json} as jsonb))`
      : sql<{ value: unknown }>`json_each(${json})`
    ).as('iv'),
    holds: sql<SqlBool>`p.age = ${field(3, 'integer')} and ${stripeOfRow} = ${field(0)} and p.longitude >= ${field(1)} and p.longitude <= ${field(2)}`,
  };
}
