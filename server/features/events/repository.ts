import { sql, type Kysely } from 'kysely';
import { prepared } from '../../../db/prepared.ts';
import type { Database, UserId } from '../../../db/schema.ts';
import type { EphemeralEvent, LiveEvent } from '../../contract/events.ts';

/**
 * A live event for one user: the type decides the payload's shape (server/contract/events.ts). `badges` is
 * not among them: its counts are read when the stream sends it (insertBadgeMarkers); nor `typing`, which is
 * never stored (EventBus.signal).
 */
export type NewEvent = Exclude<LiveEvent, { type: 'badges' } | EphemeralEvent> & { userId: UserId };

/** Answers the new rows' ids in the order of `events` (one statement numbers its rows in order on both databases). */
export async function insertEvents(db: Kysely<Database>, events: readonly NewEvent[], now: string): Promise<number[]> {
  if (events.length === 0) return [];
  const rows = await db
    .insertInto('events')
    .values(
      events.map((e) => ({ user_id: e.userId, type: e.type, payload: JSON.stringify(e.payload), created_at: now })),
    )
    .returning('id')
    .execute();
  return rows.map((r) => r.id).sort((a, b) => a - b);
}

/**
 * `events` and the badge markers of `markerUserIds` (see insertBadgeMarkers) in one statement, for a request
 * that writes both; answers the events' ids in the order of `events`.
 */
export async function insertEventsAndMarkers(
  db: Kysely<Database>,
  events: readonly NewEvent[],
  markerUserIds: readonly UserId[],
  now: string,
): Promise<number[]> {
  const markers = [...new Set(markerUserIds)];
  if (markers.length === 0 || events.length + markers.length > badgeMarkersPerInsert) {
    const ids = await insertEvents(db, events, now);
    await insertBadgeMarkers(db, markers, now);
    return ids;
  }
  const rows = await db
    .insertInto('events')
    .values([
      ...events.map((e) => ({ user_id: e.userId, type: e.type, payload: JSON.stringify(e.payload), created_at: now })),
      ...markers.map((userId) => badgeMarkerRow(userId, now)),
    ])
    .returning('id')
    .execute();
  // The rows are numbered in the order given (as in insertEvents): the events come first.
  return rows
    .map((r) => r.id)
    .sort((a, b) => a - b)
    .slice(0, events.length);
}

/**
 * Tells these users' streams that their badge counts may have changed. The row holds no counts: the stream
 * reads them when it sends the event (liveStream.ts), after every write that led to it has committed, so the
 * last `badges` a tab receives is the truth whatever order concurrent transactions committed in.
 */
export async function insertBadgeMarkers(db: Kysely<Database>, userIds: readonly UserId[], now: string): Promise<void> {
  const users = [...new Set(userIds)];
  // In slices: one statement may bind only so many values (SQLite 32766, PostgreSQL 65535; 4 a row), and a
  // ban or a deletion can tell thousands of people (everyone a spammer liked).
  for (let start = 0; start < users.length; start += badgeMarkersPerInsert) {
    await db
      .insertInto('events')
      .values(users.slice(start, start + badgeMarkersPerInsert).map((userId) => badgeMarkerRow(userId, now)))
      .execute();
  }
}

const badgeMarkersPerInsert = 1000;

/** One `badges` marker row: no counts, the stream reads them when it sends the event. */
export function badgeMarkerRow(userId: UserId, now: string) {
  return { user_id: userId, type: 'badges' as const, payload: '{}', created_at: now };
}

const events = prepared((db, userId: UserId, afterId: number, limit: number, sessionHash: string, now: string) =>
  db
    .selectFrom('events')
    .select(['id', 'type', 'payload'])
    .where('user_id', '=', userId)
    .where('id', '>', afterId)
    // Read by a stream of one session: nothing once that session has ended, in the same statement (no round
    // trip more), so a stream whose close is still on its way sends nothing written after the end.
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('sessions')
          .innerJoin('users', 'users.id', 'sessions.user_id')
          .select(eb.lit(1).as('live'))
          .where('sessions.id_hash', '=', sessionHash)
          .where('sessions.user_id', '=', userId)
          .where('sessions.expires_at', '>', now)
          .where('users.banned_at', 'is', null),
      ),
    )
    .orderBy('id')
    .limit(limit),
);

/**
 * A user's events after an id, oldest first, for a stream of the session `sessionHash`: each live stream
 * reads these on every wake. None at all once that session has ended (signed out, expired, banned).
 */
export async function eventsAfter(
  db: Kysely<Database>,
  userId: UserId,
  sessionHash: string,
  afterId: number,
  limit: number,
  now: string,
) {
  return events.all(db, userId, afterId, limit, sessionHash, now);
}

export async function lastEventId(db: Kysely<Database>, userId: UserId): Promise<number> {
  const row = await db
    .selectFrom('events')
    .select((eb) => eb.fn.max('id').as('id'))
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row?.id ?? 0;
}

/**
 * The ids of the events of these users above `afterId`, oldest first, at most `limit`: what a process's sweep
 * reads by cursor for the users whose streams it holds (eventSweep.ts), served by `events_user_id`.
 */
export async function eventIdsOfUsersAfter(
  db: Kysely<Database>,
  userIds: readonly UserId[],
  afterId: number,
  limit: number,
): Promise<{ user_id: UserId; id: number }[]> {
  if (userIds.length === 0) return [];
  return db
    .selectFrom('events')
    .select(['user_id', 'id'])
    .where('user_id', 'in', userIds)
    .where('id', '>', afterId)
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** The highest event id committed so far (0 without any): where a new process's sweep starts. */
export async function newestEventId(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom('events')
    .select((eb) => eb.fn.max('id').as('id'))
    .executeTakeFirst();
  return row?.id ?? 0;
}

/**
 * PostgreSQL only: one NOTIFY on `channel` whose payload is `payload` followed by the newest event id, read in
 * the same statement (its own autocommit transaction, after the writers' have committed), so a listener
 * learns how far the rows it may read go without a query of its own. Committed without waiting for the WAL
 * flush (`synchronous_commit` off for this transaction only): NOTIFY commits go one at a time cluster-wide,
 * and this one writes nothing worth a flush (the rows are committed; a doorbell lost in a crash is made good
 * by the listeners' reads by cursor), so it holds that queue for microseconds, not a disk flush.
 */
export async function notifyWithCursor(db: Kysely<Database>, channel: string, payload: string): Promise<void> {
  const newest = sql`(select coalesce(max(id), 0) from events)::text`;
  await sql`select set_config('synchronous_commit', 'off', true), pg_notify(${channel}, ${payload} || ${newest})`.execute(
    db,
  );
}

/** PostgreSQL only: one NOTIFY (a signal's, a settle's), in its own autocommit transaction. */
export async function notify(db: Kysely<Database>, channel: string, payload: string): Promise<void> {
  await sql`select pg_notify(${channel}, ${payload})`.execute(db);
}
