import { PostgresAdapter, sql, type Kysely } from 'kysely';
import { prepared, preparedByShape } from '../../../db/prepared.ts';
import type { Database, ProfileId } from '../../../db/schema.ts';
import { flatKm, kmPerDegree, type Point } from './distance.ts';

/**
 * Changes are read back this far before a pool's watermark: a change is stamped before its transaction
 * commits, so on PostgreSQL one stamped before the watermark can become visible after it was read. The
 * transactions that stamp (a profile edit, a like, a ban) hold no network call and last milliseconds;
 * a minute covers them with room to spare. (SQLite has one writer: a stamp is never overtaken.)
 */
export const watermarkSlackMs = 60_000;
/**
 * More changes than this inside a pool's bound since its watermark (minus the slack): reading and
 * re-checking them costs about a rescan. On PostgreSQL changes elsewhere never count: after an import that
 * touched thousands of people in other cities, a pool here is still good (on SQLite they do, see changedNear).
 */
export const changedLimit = 3000;
/**
 * Changed people re-checked at most per search, nearest first, in one query. With more, the pool's bound
 * shrinks to the nearest one left unchecked, and a later scan beyond the bound meets them instead. A
 * re-check by id is a primary-key read and a few probes, so a burst near the caller (an import) costs one
 * re-check of up to 200 people, not a rescan (the people the caller swiped are not even listed).
 */
export const changedRecheckMax = 200;
/**
 * People within `withinKm` of a point (flat metric) whose eligibility may have changed since a watermark,
 * nearest first, each with the stamp of their last change; null when so many changed inside that box that
 * reading them costs about a rescan. People the caller swiped are left out: their re-check could only fail (for a heavy
 * swiper, most of a city after an import); an undone swipe is gone, and its person stamped. How the box is read: `changedInBox`. `horizon` (PostgreSQL, see
 * Pool.horizon): rows last written below it were dealt with by the search that read `since`, and are left out
 * before their swipe probe.
 */
export async function changedNear(
  db: Kysely<Database>,
  since: string | null,
  me: { id: ProfileId; point: Point },
  withinKm: number,
  horizon: string | null = null,
  prefetched: PrefetchedChanges | null = null,
): Promise<{ id: number; km: number; stamp: string | null }[] | null> {
  const point = me.point;
  const from = sinceWithSlack(since);
  const box = changeBox(point, withinKm);
  // Read with the search's start when it asked the same question of a box holding this one (PostgreSQL): one
  // round trip fewer for every pooled search and day's first search. Its rows outside this box are dropped.
  const early = prefetched && usablePrefetch(prefetched, from, withinKm, horizon);
  if (early)
    return nearestChanges(
      point,
      withinKm,
      early.filter((r) => inBox(box, r)),
    );
  // SQLite cannot seek the box (see changedInBox): after an import it would read every change since, on
  // every search until the watermark moves a minute past the import (11 ms a pooled search on the bench's
  // 100,000 people, all stamped at once, against 1 ms for the rescan). There, many changes anywhere still
  // make the pool stale, as before; PostgreSQL reads the box by its index and keeps the pool.
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) {
    const anywhere = await changedAnywhere.first(db, from, changedLimit + 1);
    if (Number(anywhere?.n ?? 0) > changedLimit) return null;
  }
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  const rows = await changedInBox(db, postgres && horizon !== null, {
    from,
    ...(postgres && horizon !== null ? { horizon } : {}),
    ...box,
    me: me.id,
    limit: changedLimit + 1,
  });
  // The box's corners lie beyond the bound, so this may say stale a little early; never late.
  if (rows.length > changedLimit) return null;
  return nearestChanges(point, withinKm, rows);
}

type ChangedRow = { id: number; latitude: number | null; longitude: number | null; search_changed_at: string | null };

/** The watermark as the change query reads from it: `watermarkSlackMs` before it ('' for none: every change). */
function sinceWithSlack(since: string | null): string {
  return since === null ? '' : new Date(Date.parse(since) - watermarkSlackMs).toISOString();
}

/**
 * The box the change query reads around a point for a bound. The longitude span from the whole bound, not the
 * latitude span capped at 180°: the flat metric does not wrap, so within the 'everywhere' bound someone 200° of
 * longitude away is still inside it. Unlike a search box's, never clamped near a pole: the bound is a circle in
 * the flat metric, and all of it must be asked about (cos near 0 gives the whole 360°). Past a pole (a latitude
 * no API accepts, but an import might hold) cos turns negative: the whole 360° then.
 */
function changeBox(point: Point, withinKm: number) {
  const degrees = withinKm / kmPerDegree;
  const span = Math.min(degrees, 180);
  const cos = Math.cos((point.latitude * Math.PI) / 180);
  const lonSpan = cos > 0 ? Math.min(degrees / cos, 360) : 360;
  return {
    south: point.latitude - span,
    north: point.latitude + span,
    west: point.longitude - lonSpan,
    east: point.longitude + lonSpan,
  };
}

function inBox(box: ReturnType<typeof changeBox>, r: ChangedRow): boolean {
  return (
    r.latitude !== null &&
    r.longitude !== null &&
    r.latitude >= box.south &&
    r.latitude <= box.north &&
    r.longitude >= box.west &&
    r.longitude <= box.east
  );
}

/** The changed people within the bound, nearest first, with their stamps. */
function nearestChanges(point: Point, withinKm: number, rows: readonly ChangedRow[]) {
  return (
    rows
      .flatMap((r) =>
        r.latitude === null || r.longitude === null
          ? []
          : [
              {
                id: r.id,
                km: flatKm(point, { latitude: r.latitude, longitude: r.longitude }),
                stamp: r.search_changed_at,
              },
            ],
      )
      // At the bound too: the pool may hold people at exactly that distance (the cell a scan was cut in), whom they tie with.
      .filter((c) => c.km <= withinKm)
      .sort((a, b) => a.km - b.km)
  );
}

/**
 * The change query as the search's start asked it (PostgreSQL, `changesAtStart`): from the stored pool's
 * watermark, within its bound (a hair wider), with the horizon it applied (null: none), the people it found
 * (id, latitude, longitude, stamp); null when it asked nothing (no pool, no watermark, no position).
 */
export interface PrefetchedChanges {
  since: string;
  boundKm: number;
  horizon: string | null;
  rows: [number, number | null, number | null, string | null][];
}

/**
 * The prefetched rows, when they answer this very question: the same watermark and horizon, a bound at least
 * as wide, and not cut by their limit (then this box's own query decides, as it would have); else undefined.
 */
function usablePrefetch(
  prefetched: PrefetchedChanges,
  from: string,
  withinKm: number,
  horizon: string | null,
): ChangedRow[] | undefined {
  if (prefetched.since !== from || !(withinKm <= prefetched.boundKm) || prefetched.horizon !== horizon)
    return undefined;
  if (prefetched.rows.length > changedLimit) return undefined;
  return prefetched.rows.map(([id, latitude, longitude, stamp]) => ({
    id,
    latitude,
    longitude,
    search_changed_at: stamp,
  }));
}

/**
 * PostgreSQL: the change question a search will ask, asked by its start statement (findSearchStart) from the
 * stored pool, so that a pooled search and a day's first search save its round trip (issue 37 point 5, issue
 * 41 goal 4): everyone stamped since the pool's watermark (less the slack) in the box of its bound (a hair
 * wider: the service keeps the rows of its own box, computed as changedNear computes it), not swiped by the
 * caller, at most `changedLimit + 1`. The horizon (Pool.horizon) is applied as `horizonBelow` would take it
 * when the pool is still live by the database's clock, and an expired pool's frontier asks without one; the
 * answer says which it applied, and the service uses it only when it is what it would have asked
 * (`usablePrefetch`), else it asks again. The start is a named statement, so planned once for every caller
 * without these values: the changes are read from the recent end of the index on (search_changed_at, latitude,
 * longitude) in its order, the box tested inside it (`latitude + 0`: a generic plan read a heavy swiper's
 * 445 km box through the latitude index instead, 3,100 rows), the values computed once (`offset 0` keeps `w`
 * from being inlined into every row's test), and the swipe probe a scalar subquery, so that it probes each
 * changed person rather than hashing the caller's swipes (see changedInBox). After an import elsewhere this
 * reads the import's entries of the index (changedInBox, planned with the values, reads the box then).
 */
/**
 * When the start's change question can be used (`changesAtStart`), as the service decides it, by its clock: the
 * stored pool is live (`now`: the pool path asks from its watermark), or it is a frontier the service may scan
 * beyond (scanned at or after `scannedSince`, with a bound of at least `frontierMinKm`, which its empty disc
 * cannot exceed). Anything else (an expired pool too old or too small to be a frontier) asks nothing.
 */
export interface PrefetchWhen {
  now: string;
  scannedSince: string;
  frontierMinKm: number;
}

export function changesAtStart(when: { [K in keyof PrefetchWhen]: unknown }) {
  const kept = sql`substring(sp.checked_changes from '"h":"([^"]*)"')`;
  const nowXmin = sql`pg_snapshot_xmin(pg_current_snapshot())::text::numeric`;
  const horizon = sql<
    string | null
  >`case when sp.expires_at > to_char(clock_timestamp() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
      and ${kept} ~ '^[^/]+/[0-9]{1,18}$'
      and split_part(${kept}, '/', 1) = extract(epoch from pg_postmaster_start_time())::text
      and split_part(${kept}, '/', 2)::numeric <= ${nowXmin}
      and ${nowXmin} - split_part(${kept}, '/', 2)::numeric < ${sql.lit(Number(xidSpan / 2n))}
    then (split_part(${kept}, '/', 2)::numeric % ${sql.lit(Number(xidSpan))})::text end`;
  const degrees = sql`(sp.bound_km / ${sql.lit(kmPerDegree)})`;
  const widen = (span: ReturnType<typeof sql>) => sql`(${span} * (1 + 1e-9) + 1e-9)`;
  return sql<PrefetchedChanges | null>`(select json_build_object('since', w.since, 'boundKm', sp.bound_km, 'horizon', w.horizon, 'rows',
      (select coalesce(json_agg(json_build_array(ch.id, ch.latitude, ch.longitude, ch.search_changed_at)), '[]'::json)
        from (select c.id, c.latitude, c.longitude, c.search_changed_at from profiles c
          where c.search_changed_at >= w.since
            and c.latitude + 0 >= p.latitude - w.span and c.latitude + 0 <= p.latitude + w.span
            and c.longitude >= p.longitude - w.lon_span and c.longitude <= p.longitude + w.lon_span
            and (w.horizon is null or age(c.xmin) <= age(w.horizon::xid))
            and (select 1 from swipes s where s.swiper_id = p.id and s.target_id = c.id) is null
          order by c.search_changed_at
          limit ${sql.lit(changedLimit + 1)}) ch))
    from (select to_char((sp.watermark::timestamptz - ${sql.lit(`${watermarkSlackMs} milliseconds`)}::interval) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as since,
        ${widen(sql`least(${degrees}, 180)`)} as span,
        ${widen(sql`(case when cos(radians(p.latitude)) > 0 then least(${degrees} / cos(radians(p.latitude)), 360) else 360 end)`)} as lon_span,
        ${horizon} as horizon
      offset 0) w
    where sp.watermark is not null and p.latitude is not null and p.longitude is not null
      and (sp.expires_at > ${when.now}
        or (sp.scanned_at >= ${when.scannedSince} and sp.bound_km >= ${when.frontierMinKm})))`;
}

/**
 * On PostgreSQL the box is tested as plain columns and the query is unnamed, so planned with each run's
 * values and the table's statistics: a few recent changes are read from the recent end of the index on
 * (search_changed_at, latitude, longitude) with the box tested inside it; after an import that touched
 * thousands of people it reads the box instead (0.3 ms against 3 ms for a city box with 5,000 changes
 * elsewhere). A generic plan, made once for every caller, tested each changed person against all of the
 * caller's swipes (380 ms after an import near a heavy swiper, against 8 ms planned with the values).
 * SQLite plans without statistics: there the box is written so it cannot be used for a seek (`+ 0`), or it
 * would walk the latitude index through a whole city instead; only the recent end of the index is read.
 */
const changedInBox = preparedByShape<
  boolean,
  { id: number; latitude: number | null; longitude: number | null; search_changed_at: string | null }
>(
  (db, belowHorizon, slot) => {
    const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
    const latitude = postgres ? sql<number>`p.latitude` : sql<number>`p.latitude + 0`;
    const longitude = postgres ? sql<number>`p.longitude` : sql<number>`p.longitude + 0`;
    let query = db
      .selectFrom('profiles as p')
      .select(['p.id', 'p.latitude', 'p.longitude', 'p.search_changed_at'])
      .where('p.search_changed_at', '>=', slot('from'))
      .where(latitude, '>=', slot('south'))
      .where(latitude, '<=', slot('north'))
      .where(longitude, '>=', slot('west'))
      .where(longitude, '<=', slot('east'));
    // Only rows written at or above the horizon (Pool.horizon). age() counts back from one transaction number
    // for the whole statement, so of two ids within 2^31 of it the older has the greater age, across
    // wraparound too (a frozen row keeps its xmin; one older than that is long out of the slack minute).
    // Tested before the swipe probe, on the row the scan holds.
    if (belowHorizon) query = query.where(sql<boolean>`age(p.xmin) <= age(cast(${slot('horizon')} as xid))`);
    return query
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('swipes as s')
              .select(sql<number>`1`.as('one'))
              .where('s.swiper_id', '=', slot('me'))
              .whereRef('s.target_id', '=', 'p.id'),
          ),
        ),
      )
      .limit(slot('limit'));
  },
  (belowHorizon) => (belowHorizon ? 'horizon' : ''),
  { named: false },
);

const xidSpan = 2n ** 32n;

/**
 * The horizon a pool kept (Pool.horizon) as changedNear takes it, the low 32 bits of its transaction number
 * (what a row's xmin holds), or null when it cannot be trusted here: taken on another PostgreSQL server or
 * before it restarted (a restored dump, a switch to a replica: their numbers are not this server's), or not
 * behind the horizon now, or so far behind that 32 bits no longer order it. Both are
 * `<server start>/<transaction number>` (repository.ts).
 */
export function horizonBelow(kept: string | null | undefined, now: string | null): string | null {
  const parse = (horizon: string | null | undefined) => {
    const match = horizon ? /^(.+)\/(\d+)$/.exec(horizon) : null;
    return match?.[1] && match[2] ? { server: match[1], xid: BigInt(match[2]) } : null;
  };
  const [was, is] = [parse(kept), parse(now)];
  if (!was || !is || was.server !== is.server || was.xid > is.xid || is.xid - was.xid >= xidSpan / 2n) return null;
  return (was.xid % xidSpan).toString();
}

/** How many changed since, counted up to a limit: only the recent end of the index on search_changed_at is read. */
const changedAnywhere = prepared((db, from: string, limit: number) =>
  db
    .selectFrom((eb) =>
      eb.selectFrom('profiles').select('id').where('search_changed_at', '>=', from).limit(limit).as('recent'),
    )
    .select((eb) => eb.fn.countAll<number | string>().as('n')),
);
