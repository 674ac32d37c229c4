import { sql, type Kysely } from 'kysely';
import { prepared } from '../../../db/prepared.ts';
import type { Database } from '../../../db/schema.ts';
import { flatKm, kmPerDegree, type Point } from './distance.ts';

/**
 * Changes are read back this far before a pool's watermark: a change is stamped before its transaction
 * commits, so on PostgreSQL one stamped before the watermark can become visible after it was read. The
 * transactions that stamp (a profile edit, a like, a ban) hold no network call and last milliseconds;
 * a minute covers them with room to spare. (SQLite has one writer: a stamp is never overtaken.)
 */
export const watermarkSlackMs = 60_000;
/** More changes than this anywhere since the pool's watermark (minus the slack): reading them all costs about a rescan. */
export const changedLimit = 3000;
/**
 * Changed people re-checked at most per search, nearest first. With more, the pool's bound shrinks to
 * the nearest one left unchecked, and a later scan beyond the bound meets them instead.
 */
export const changedRecheckMax = 40;

const latest = prepared((db) => db.selectFrom('profiles').select((eb) => eb.fn.max('search_changed_at').as('at')));

/** The newest change any search could care about (`profiles.search_changed_at`, kept by triggers). */
export async function latestSearchChange(db: Kysely<Database>): Promise<string | null> {
  return (await latest.first(db))?.at ?? null;
}

/**
 * People within `withinKm` of a point (flat metric) whose eligibility may have changed since a watermark,
 * nearest first; null when there are so many changes anywhere that reading them costs about a rescan.
 * Only the recent end of the index on (search_changed_at, latitude, longitude) is read. The box is
 * tested inside that index but written so it cannot be used for a seek (`+ 0`): a planner without
 * statistics would otherwise walk the latitude index through a whole city instead.
 */
export async function changedNear(db: Kysely<Database>, since: string | null, point: Point, withinKm: number): Promise<{ id: number; km: number }[] | null> {
  const from = since === null ? '' : new Date(Date.parse(since) - watermarkSlackMs).toISOString();
  const anywhere = await changedCount.first(db, from, changedLimit + 1);
  if (Number(anywhere?.n ?? 0) > changedLimit) return null;
  // The longitude span from the whole bound, not the latitude span capped at 180°: the flat metric does not
  // wrap, so within the 'everywhere' bound someone 200° of longitude away is still inside it.
  const degrees = withinKm / kmPerDegree;
  const span = Math.min(degrees, 180);
  const lonSpan = Math.min(degrees / Math.max(Math.cos((point.latitude * Math.PI) / 180), 0.01), 360);
  const rows = await changedInBox.all(db, from, point.latitude - span, point.latitude + span, point.longitude - lonSpan, point.longitude + lonSpan);
  return rows
    .flatMap((r) => (r.latitude === null || r.longitude === null ? [] : [{ id: r.id, km: flatKm(point, { latitude: r.latitude, longitude: r.longitude }) }]))
    .filter((c) => c.km < withinKm)
    .sort((a, b) => a.km - b.km);
}

const changedCount = prepared((db, from: string, limit: number) =>
  db
    .selectFrom((eb) => eb.selectFrom('profiles').select('id').where('search_changed_at', '>=', from).limit(limit).as('recent'))
    .select((eb) => eb.fn.countAll<number | string>().as('n')),
);

const changedInBox = prepared((db, from: string, south: number, north: number, west: number, east: number) =>
  db
    .selectFrom('profiles')
    .select(['id', 'latitude', 'longitude'])
    .where('search_changed_at', '>=', from)
    .where(sql<number>`latitude + 0`, '>=', south)
    .where(sql<number>`latitude + 0`, '<=', north)
    .where(sql<number>`longitude + 0`, '>=', west)
    .where(sql<number>`longitude + 0`, '<=', east),
);
