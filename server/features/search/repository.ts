import { PostgresAdapter, sql, type Kysely, type QueryCreator } from 'kysely';
import { prepared, preparedByShape } from '../../../db/prepared.ts';
import type { Database, ProfileId, UserId } from '../../../db/schema.ts';
import { countedRead, type RateRow, readWithRateCounts } from '../rateLimits/index.ts';
import { findCandidates, photoList, type CandidateFilter, type CandidateRow } from './candidates.ts';
import { poolUpsertInto, type SearchPoolRow } from './poolUpsert.ts';
import { changesAtStart, type PrefetchedChanges, type PrefetchWhen } from './searchChanges.ts';

/** A stored pool as read (searchStart, findSearchPool). */
export interface StoredPoolRow {
  pool_key: string;
  expires_at: string;
  bound_km: number;
  watermark: string | null;
  candidates: Uint8Array;
  checked_changes: string | null;
  scanned_at: string | null;
}

/** How many people who wrote with their like the start reads: the deck shows them first (issue 38). */
const messagedLikersRead = 5;

/**
 * The newest people who liked the caller with a message and whom the caller has not swiped, as
 * comma-separated profile ids (null: none); read by the partial index `swipes_messages`. Whether each may be
 * shown is the rules' to say (the service re-checks them as it re-checks pooled people).
 */
const messagedLikers = (postgres: boolean) => {
  const newest = sql`select l.swiper_id from swipes l where l.target_id = p.id and l.liked = 1 and l.message is not null
    and not exists (select 1 from swipes m where m.swiper_id = p.id and m.target_id = l.swiper_id)
    order by l.created_at desc limit ${sql.lit(messagedLikersRead)}`;
  return postgres
    ? sql<string | null>`(select string_agg(x.swiper_id::text, ',') from (${newest}) x)`
    : sql<string | null>`(select group_concat(x.swiper_id, ',') from (${newest}) x)`;
};

/** The statement's reads (see findSearchStart), from `qc`: the database, or the same with a WITH before it. */
const startQuery = (
  qc: QueryCreator<Database>,
  userId: UserId,
  postgres: boolean,
  when: { [K in keyof PrefetchWhen]: unknown },
) =>
  qc
    .selectFrom('profiles as p')
    .innerJoin('users as u', 'u.id', 'p.user_id')
    .leftJoin('search_pools as sp', 'sp.profile_id', 'p.id')
    .select((eb) => [
      'p.id',
      'p.name',
      'p.gender',
      'p.age',
      'p.preferred_gender',
      'p.latitude',
      'p.longitude',
      'u.premium_until',
      eb
        .selectFrom('profiles as c')
        .select((c) => c.fn.max('c.search_changed_at').as('at'))
        .as('latest_change'),
      'sp.pool_key',
      'sp.expires_at',
      'sp.bound_km',
      'sp.watermark',
      'sp.candidates',
      'sp.checked_changes',
      'sp.scanned_at',
      messagedLikers(postgres).as('messaged_likers'),
      // PostgreSQL's transaction horizon, read in the watermark's snapshot (Pool.horizon): every transaction
      // numbered below it had ended. Named by the server's start, since numbers mean nothing in another cluster
      // (its epoch: the text of a time follows the session's time zone and date style).
      (postgres
        ? sql<
            string | null
          >`extract(epoch from pg_postmaster_start_time())::text || '/' || pg_snapshot_xmin(pg_current_snapshot())::text`
        : sql<string | null>`null`
      ).as('horizon'),
      // The change query the pool's search will ask (searchChanges.ts changesAtStart): one round trip fewer.
      (postgres ? changesAtStart(when) : sql<PrefetchedChanges | null>`null`).as('changes'),
      // The database's clock, which stamps changes (searchChanges.ts): how old a change is, measured alike.
      (postgres
        ? sql<string>`to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`
        : sql<string>`strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`
      ).as('database_now'),
    ])
    .where('p.user_id', '=', userId);

const start = prepared((db, userId: UserId, now: string, scannedSince: string, frontierMinKm: number) =>
  startQuery(db, userId, db.getExecutor().adapter instanceof PostgresAdapter, { now, scannedSince, frontierMinKm }),
);

/**
 * PostgreSQL: the same, with the search's rate counters incremented in a WITH (RateCounter.plan's rows), which
 * PostgreSQL runs to completion whatever the rest reads, and their counts read back beside the profile: the
 * count and the start of a search in one round trip (they were two, of the six a pooled search makes).
 */
const startCounting = preparedByShape(
  (db, rows: number, slot) => {
    const { qc, rateCounts } = countedRead(db, rows, slot);
    const when = { now: slot('now'), scannedSince: slot('scannedSince'), frontierMinKm: slot('frontierMinKm') };
    return startQuery(qc, slot('user') as UserId, true, when).select(rateCounts);
  },
  (rows) => String(rows),
);

/**
 * All a search starts from, in one round trip: the caller's profile, the newest search change (the
 * watermark: read in the same snapshot as the pool, so nothing changed between the two goes unasked) and
 * PostgreSQL's transaction horizon then (Pool.horizon), the stored pool, if any, and the database's clock. Three statements before, each a round trip on PostgreSQL.
 * On PostgreSQL also the changes since the stored pool's watermark within its bound (`changes`), the question the
 * pool's search asks next (searchChanges.ts changesAtStart), in the same snapshot as the new watermark.
 * `counters` (RateCounter.plan's rows) are incremented first, and their counts answered (`rateCounts`): in the
 * same statement on PostgreSQL. Undefined when the caller has no profile (the counters still counted). `when`:
 * the service's conditions for using `changes` (PrefetchWhen); a start that cannot use them does not ask.
 */
export async function findSearchStart(
  db: Kysely<Database>,
  userId: UserId,
  when: PrefetchWhen,
  counters: readonly RateRow[] = [],
) {
  const { row, rateCounts } = await readWithRateCounts(
    db,
    counters,
    (slots) => startCounting(db, counters.length, { user: userId, ...when, ...slots }),
    () => start.first(db, userId, when.now, when.scannedSince, when.frontierMinKm),
  );
  if (!row) return undefined;
  const {
    pool_key,
    expires_at,
    bound_km,
    watermark,
    candidates,
    checked_changes,
    scanned_at,
    latest_change,
    horizon,
    database_now,
    messaged_likers,
    changes,
    ...me
  } = row;
  const pool: StoredPoolRow | null =
    pool_key === null || expires_at === null || bound_km === null || candidates === null
      ? null
      : { pool_key, expires_at, bound_km, watermark, candidates, checked_changes, scanned_at };
  const messagedLikerIds = (messaged_likers ?? '').split(',').filter(Boolean).map(Number);
  return {
    me,
    latestChange: latest_change ?? null,
    horizon,
    pool,
    databaseNow: database_now,
    rateCounts,
    messagedLikers: messagedLikerIds,
    changes: changes ?? null,
  };
}

/** The stored discovery pool of a profile (expired or not: the caller decides), by primary key. */
export async function findSearchPool(db: Kysely<Database>, profileId: ProfileId) {
  return db
    .selectFrom('search_pools')
    .select(['pool_key', 'expires_at', 'bound_km', 'watermark', 'candidates', 'checked_changes', 'scanned_at'])
    .where('profile_id', '=', profileId)
    .executeTakeFirst();
}

/**
 * The pool's upsert alone (poolUpsert.ts), built and compiled once (db/prepared.ts): Kysely's builder cost
 * about as much as the write itself on SQLite, where it is a step of the day's first search
 * (bench/firstSearch.ts), and PostgreSQL parses it once per connection.
 */
const poolUpsert = prepared(
  (
    db,
    profileId: ProfileId,
    poolKey: string,
    expiresAt: string,
    boundKm: number,
    watermark: string | null,
    candidates: Uint8Array,
    checked: string | null,
    scannedAt: string | null,
  ) =>
    poolUpsertInto(db, {
      profile_id: profileId,
      pool_key: poolKey,
      expires_at: expiresAt,
      bound_km: boundKm,
      watermark,
      candidates,
      checked_changes: checked,
      scanned_at: scannedAt,
    }),
);

export async function upsertSearchPool(db: Kysely<Database>, row: SearchPoolRow): Promise<void> {
  await poolUpsert.all(
    db,
    row.profile_id,
    row.pool_key,
    row.expires_at,
    row.bound_km,
    row.watermark,
    row.candidates,
    row.checked_changes,
    row.scanned_at,
  );
}

/**
 * The card a scan answers, read as `filter` asks (findCandidates: one person, every rule, with photos), and the
 * caller's new pool written: on PostgreSQL by the same statement (the upsert in a WITH before the read), one
 * round trip where the read and the upsert were two, side by side on two connections; on SQLite one after
 * the other, as they ran before.
 */
export async function findCardKeepingPool(
  db: Kysely<Database>,
  filter: CandidateFilter,
  row: SearchPoolRow,
): Promise<CandidateRow[]> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return findCandidates(db, { ...filter, keeping: row });
  const rows = await findCandidates(db, filter);
  await upsertSearchPool(db, row);
  return rows;
}

export async function deleteSearchPool(db: Kysely<Database>, profileId: ProfileId): Promise<void> {
  await db.deleteFrom('search_pools').where('profile_id', '=', profileId).execute();
}

/**
 * What a card shows beyond its candidate row, when that row came from a scan (which reads neither, for a
 * hundred people): the photos in order and the prompts, in one statement, as the re-check reads them.
 */
const cardDetails = prepared((db, profileId: ProfileId) =>
  db
    .selectFrom('profiles as p')
    .select([photoList(db).as('photo'), 'p.prompts'])
    .where('p.id', '=', profileId),
);

export async function findCardDetails(
  db: Kysely<Database>,
  profileId: ProfileId,
): Promise<{ photo: string; prompts: string }> {
  const row = await cardDetails.first(db, profileId);
  return { photo: row?.photo ?? '', prompts: row?.prompts ?? '[]' };
}

/** What a liker wrote with their like to `me` (undefined when they did not, or no longer like them). */
export async function findLikeMessage(
  db: Kysely<Database>,
  liker: ProfileId,
  me: ProfileId,
): Promise<string | undefined> {
  const row = await db
    .selectFrom('swipes')
    .select('message')
    .where('swiper_id', '=', liker)
    .where('target_id', '=', me)
    .where('liked', '=', 1)
    .executeTakeFirst();
  return row?.message ?? undefined;
}
