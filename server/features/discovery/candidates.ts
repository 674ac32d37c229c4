import { sql, type Kysely } from 'kysely';
import type { Database, Gender } from '../../../db/schema.ts';
import type { Point } from './distance.ts';

export interface CandidateFilter {
  me: { id: number; gender: Gender; point: Point | null };
  ageMin: number;
  ageMax: number;
  gender: 'Any' | 'Male' | 'Female';
  exclude: number[];
  /** Only these people (re-checking pooled candidates against every rule); no box, no order. */
  only?: number[];
  /** Half-height of the search box in degrees of latitude; null searches everywhere. */
  box: number | null;
  limit: number;
}

export interface CandidateRow {
  id: number;
  name: string;
  age: number;
  city: string;
  gender: Gender;
  bio: string;
  latitude: number | null;
  longitude: number | null;
  premium_until: string | null;
  liked_me: unknown;
}

const genders: Gender[] = ['Female', 'Male', 'Other'];

/** Every whole age of the filter (at most 83: the contract bounds ages to 18..100). */
function agesBetween(min: number, max: number): number[] {
  return Array.from({ length: Math.max(0, max - min + 1) }, (_, i) => min + i);
}

/**
 * `exists (select 1 ...)` rather than selecting a column: the probe is then answered from the primary-key
 * index alone, without reading the swipe row (a heavy swiper has thousands of these probes per search).
 */
const one = sql<number>`1`.as('one');

/**
 * The people the caller may see next, nearest first within a box around them. Every rule of discovery is
 * in this one query: verified, not banned, not the caller, not swiped by the caller, not blocked either
 * way, not hiding in private mode (unless they liked the caller), within the age range and gender filter,
 * and reciprocal (the caller's gender suits the candidate's preference). Ordering uses squared
 * equirectangular distance between snapped points, which sorts like the true distance at these ranges.
 */
export async function findCandidates(db: Kysely<Database>, f: CandidateFilter): Promise<CandidateRow[]> {
  const me = f.me.id;
  let query = db
    .selectFrom('profiles as p')
    .innerJoin('users as u', 'u.id', 'p.user_id')
    .select((eb) => [
      'p.id',
      'p.name',
      'p.age',
      'p.city',
      'p.gender',
      'p.bio',
      'p.latitude',
      'p.longitude',
      'u.premium_until',
      eb
        .exists(
          eb
            .selectFrom('swipes as l')
            .select(one)
            .whereRef('l.swiper_id', '=', 'p.id')
            .where('l.target_id', '=', me)
            .where('l.liked', '=', 1),
        )
        .as('liked_me'),
    ])
    .where('p.id', '!=', me)
    // Ages and genders as lists, not ranges: each (gender, age) pair is one seek into profiles_search, which
    // then reads only a latitude range; a range on age would leave latitude unusable for the seek.
    .where('p.gender', 'in', f.gender === 'Any' ? genders : [f.gender])
    .where('p.age', 'in', agesBetween(f.ageMin, f.ageMax))
    .where('p.preferred_gender', 'in', f.me.gender === 'Other' ? ['Any'] : ['Any', f.me.gender])
    .where('u.verified_at', 'is not', null)
    .where('u.banned_at', 'is', null)
    // Reported by three different people: out of search until an admin decides.
    .where('p.held_at', 'is', null)
    .where((eb) =>
      eb.not(eb.exists(eb.selectFrom('swipes as s').select(one).where('s.swiper_id', '=', me).whereRef('s.target_id', '=', 'p.id'))),
    )
    .where((eb) =>
      eb.not(eb.exists(eb.selectFrom('blocks as b').select(one).where('b.blocker_id', '=', me).whereRef('b.blocked_id', '=', 'p.id'))),
    )
    .where((eb) =>
      eb.not(eb.exists(eb.selectFrom('blocks as b2').select(one).whereRef('b2.blocker_id', '=', 'p.id').where('b2.blocked_id', '=', me))),
    )
    .where((eb) =>
      eb.or([
        eb('p.private_mode', '=', 0),
        eb.exists(
          eb
            .selectFrom('swipes as pl')
            .select(one)
            .whereRef('pl.swiper_id', '=', 'p.id')
            .where('pl.target_id', '=', me)
            .where('pl.liked', '=', 1),
        ),
      ]),
    );
  if (f.exclude.length) query = query.where('p.id', 'not in', f.exclude);
  if (f.only) return f.only.length ? query.where('p.id', 'in', f.only).limit(f.only.length).execute() : [];

  const point = f.me.point;
  if (!point) return query.orderBy('p.id', 'desc').limit(f.limit).execute();

  if (f.box !== null) {
    const lonSpan = f.box / Math.max(Math.cos((point.latitude * Math.PI) / 180), 0.01);
    query = query
      .where('p.latitude', '>=', point.latitude - f.box)
      .where('p.latitude', '<=', point.latitude + f.box)
      .where('p.longitude', '>=', point.longitude - lonSpan)
      .where('p.longitude', '<=', point.longitude + lonSpan);
  }
  const cos = Math.cos((point.latitude * Math.PI) / 180);
  const dLat = sql<number>`(p.latitude - ${point.latitude})`;
  const dLon = sql<number>`((p.longitude - ${point.longitude}) * ${cos})`;
  return (
    query
      // People without a location come last, after everyone whose distance is known.
      .orderBy(sql`(case when p.latitude is null then 1 else 0 end)`)
      .orderBy(sql`${dLat} * ${dLat} + ${dLon} * ${dLon}`)
      .orderBy('p.id')
      .limit(f.limit)
      .execute()
  );
}
