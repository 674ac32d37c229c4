import { PostgresAdapter, sql, type Kysely } from 'kysely';
import type { Database, ProfileId, UserId } from '../../../db/schema.ts';
import type { Clock } from '../../clock.ts';
import { RateCounter } from '../rateLimits/index.ts';
import { expect } from 'vitest';
import type { SearchResult } from '../../contract/discovery.ts';
import { snapCoordinates } from '../profiles/index.ts';
import type { Person } from '../../test/people.ts';
import type { TestApp } from '../../test/testApp.ts';
import { testProfileId, testUserId } from '../../test/testIds.ts';
import { PlainSearch } from './plainSearch.ts';

/**
 * What the search's tests share (no test of its own). Rate limits are not a search rule; the plain search
 * has none, so the tuned one is tested without.
 */
export class NoRateLimit extends RateCounter {
  override plan(): null {
    return null;
  }
}

/** The database, with every prepared query it runs (db/prepared.ts runs them by `executeQuery`) counted. */
export function countingQueries(
  db: Kysely<Database>,
  count: (sql: string, parameters: readonly unknown[]) => void,
): Kysely<Database> {
  return new Proxy(db, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property);
      if (property === 'executeQuery' && typeof value === 'function')
        return (...args: unknown[]) => {
          const query: unknown = args[0];
          const sql =
            typeof query === 'object' && query !== null && 'sql' in query && typeof query.sql === 'string'
              ? query.sql
              : '';
          const parameters: unknown =
            typeof query === 'object' && query !== null && 'parameters' in query ? query.parameters : [];
          count(sql, Array.isArray(parameters) ? parameters : []);
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/** The database's clock (which stamps changes, searchChanges.ts) moved by `ms`, whatever the app's clock says. */
export async function databaseTime(db: Kysely<Database>, ms = 0): Promise<string> {
  const now =
    db.getExecutor().adapter instanceof PostgresAdapter
      ? sql<{
          now: string;
        }>`select to_char(clock_timestamp() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as now`
      : sql<{ now: string }>`select strftime('%Y-%m-%dT%H:%M:%fZ', 'now') as now`;
  const row = (await now.execute(db)).rows[0];
  if (!row) throw new Error('no database clock');
  return new Date(Date.parse(row.now) + ms).toISOString();
}

/** Everyone the plain search shows the user with the widest filters, in its order (each answer held in turn). */
export async function plainOrder(db: Kysely<Database>, clock: Clock, userId: UserId): Promise<number[]> {
  const plain = new PlainSearch(db, clock);
  const order: number[] = [];
  for (;;) {
    const answer = await plain.next(userId, { ageMin: 18, ageMax: 100, gender: 'Any', exclude: [...order] }, 'ru');
    if (answer === null || answer === 'no_profile') return order;
    order.push(answer.profile_id);
  }
}

/** What keeps someone out of a test viewer's search, if anything (`eligible`: nothing). */
export type Kind = 'eligible' | 'banned' | 'unverified' | 'held' | 'blocking' | 'swiped' | 'private';

/** Someone of a test world, by an id of the test's choosing (their user's and profile's alike). */
export interface Placed {
  id: number;
  kind: Kind;
  where: { latitude: number; longitude: number };
  /** Their age; by default one of `placedAge(id)`'s. */
  age?: number;
  /** Hours since they were last active, null for never; by default an hour (everyone alike). */
  activeHoursAgo?: number | null;
}

/**
 * A test person's age when the test does not say: spread from 18 to 75 by id, so that the ranking stretches
 * distances (ranking.ts), a ring's per-age ranges (stripes.ts ageRingStripes) differ by age, and a pool's
 * bound in the ranking distance is not the flat one.
 */
export function placedAge(id: number): number {
  return 18 + ((id * 37) % 58);
}

/**
 * When a test person was last active, by id: today, this week, this month, long ago or never. Not the
 * default: activity reorders people within a tier, and where a box holds more than a pool (100), the tuned
 * search reorders only the nearest of them, by design (plainSearch.ts), so worlds that large compare alike
 * only when everyone was active alike.
 */
export function placedActivityHours(id: number): number | null {
  return [2, 50, 300, 2000, null][(id * 7) % 5] ?? null;
}

/**
 * People written in bulk, 500 at a time, at their own ages (`placedAge`, unless given) and active an hour ago
 * (unless given, `placedActivityHours` say): the viewer (`viewer`: their id, if among them) a man looking for women, everyone else a
 * woman looking for men. `blocking` people block the viewer, `swiped` ones were disliked by them (both only
 * with a viewer).
 */
export async function insertPlaced(
  db: Kysely<Database>,
  now: string,
  people: readonly Placed[],
  viewer: number | null,
  emailPrefix: string,
): Promise<void> {
  for (let i = 0; i < people.length; i += 500) {
    const batch = people.slice(i, i + 500);
    await db
      .insertInto('users')
      .values(
        batch.map((p) => ({
          id: testUserId(p.id),
          email: `${emailPrefix}${p.id}@example.com`,
          password_hash: null,
          language: 'ru' as const,
          verified_at: p.kind === 'unverified' ? null : now,
          banned_at: p.kind === 'banned' ? now : null,
          created_at: now,
        })),
      )
      .execute();
    await db
      .insertInto('profiles')
      .values(
        batch.map((p) => ({
          id: testProfileId(p.id),
          user_id: testUserId(p.id),
          name: `Person ${p.id}`,
          age: p.age ?? placedAge(p.id),
          gender: p.id === viewer ? ('Male' as const) : ('Female' as const),
          preferred_gender: p.id === viewer ? ('Female' as const) : ('Male' as const),
          bio: '',
          city: 'Москва',
          latitude: p.where.latitude,
          longitude: p.where.longitude,
          created_at: now,
          updated_at: now,
          held_at: p.kind === 'held' ? now : null,
          private_mode: p.kind === 'private' ? 1 : 0,
          active_at: activeAt(now, p.activeHoursAgo === undefined ? 1 : p.activeHoursAgo),
        })),
      )
      .execute();
    if (viewer === null) continue;
    const blocking = batch.filter((p) => p.kind === 'blocking');
    if (blocking.length)
      await db
        .insertInto('blocks')
        .values(
          blocking.map((p) => ({
            blocker_id: testProfileId(p.id),
            blocked_id: testProfileId(viewer),
            created_at: now,
          })),
        )
        .execute();
    const swiped = batch.filter((p) => p.kind === 'swiped');
    if (swiped.length)
      await db
        .insertInto('swipes')
        .values(
          swiped.map((p) => ({
            swiper_id: testProfileId(viewer),
            target_id: testProfileId(p.id),
            liked: 0,
            created_at: now,
          })),
        )
        .execute();
  }
}

function activeAt(now: string, hoursAgo: number | null): string | null {
  return hoursAgo === null ? null : new Date(Date.parse(now) - hoursAgo * 3_600_000).toISOString();
}

/**
 * Every row as changed two to three hours ago (each at its own time, by id) and the viewer's own an hour ago,
 * so a pool's watermark is an hour old: rows made a moment ago would all fall inside the watermark's slack
 * (searchChanges.ts) and be read again as changed, which would hide a pool bound claiming people it never read.
 */
export async function ageStamps(db: Kysely<Database>, viewerProfile: ProfileId): Promise<void> {
  const ago = (hours: number) => new Date(Date.now() - hours * 3_600_000).toISOString();
  const rows = await db.selectFrom('profiles').select('id').execute();
  // One statement per distinct stamp would be thousands: 60 stamps, a minute apart.
  for (let minute = 0; minute < 60; minute++) {
    const ids = rows.map((r) => r.id).filter((id) => id % 60 === minute);
    for (let i = 0; i < ids.length; i += 500)
      await db
        .updateTable('profiles')
        .set({ search_changed_at: ago(2 + minute / 60) })
        .where('id', 'in', ids.slice(i, i + 500))
        .execute();
  }
  await db
    .updateTable('profiles')
    .set({ search_changed_at: ago(1) })
    .where('id', '=', viewerProfile)
    .execute();
}

/** One search as the app makes it, holding nothing (a pooled answer is what would leak): the card's profile, null when none is left. */
export async function searchNext(viewer: Person, params: Record<string, string> = {}): Promise<number | null> {
  const res = await viewer.browser.get(`/api/search?${new URLSearchParams(params).toString()}`);
  if (res.status === 404) return null;
  expect(res.status).toBe(200);
  return ((await res.json()) as SearchResult).profile_id;
}

/** People made by importPeople so far in this process: their emails stay unique. */
let imported = 0;

export interface ImportOptions {
  banned?: boolean;
  gender?: 'Female' | 'Male';
}

/**
 * Many people made in a few statements, as an import would (one by one, thousands would take minutes):
 * women looking for men (or men looking for women), aged 30, verified, each at the place `at(i)` gives
 * (snapped, as the API would).
 */
export async function importPeople(
  app: TestApp,
  count: number,
  at: (i: number) => [number, number],
  options: ImportOptions = {},
) {
  const db = app.database.db;
  const now = app.clock.now().toISOString();
  const made: { userId: UserId; profileId: ProfileId }[] = [];
  for (let start = 0; start < count; start += 500) {
    const indexes = Array.from({ length: Math.min(500, count - start) }, (_, k) => start + k);
    const users = await db
      .insertInto('users')
      .values(
        indexes.map(() => ({
          email: `imported${(imported += 1)}-${process.pid}@example.com`,
          password_hash: null,
          language: 'ru' as const,
          verified_at: now,
          banned_at: options.banned ? now : null,
          created_at: now,
          premium_until: null,
        })),
      )
      .returning('id')
      .execute();
    const profiles = await db
      .insertInto('profiles')
      .values(
        users.map((user, k) => {
          const snapped = snapCoordinates(...at(indexes[k] ?? 0));
          return {
            user_id: user.id,
            name: `Imported${start + k}`,
            age: 30,
            gender: options.gender ?? ('Female' as const),
            preferred_gender: options.gender === 'Male' ? ('Female' as const) : ('Male' as const),
            bio: '',
            city: 'Москва',
            latitude: snapped.latitude,
            longitude: snapped.longitude,
            created_at: now,
            updated_at: now,
            private_mode: 0,
          };
        }),
      )
      .returning(['id', 'user_id'])
      .execute();
    made.push(...profiles.map((row) => ({ userId: row.user_id, profileId: row.id })));
  }
  return made;
}

/** Everyone the viewer is shown, in order, disliking each until nobody is left. */
export async function dislikeAll(app: TestApp, viewer: Person, params: Record<string, string> = {}): Promise<number[]> {
  const seen: number[] = [];
  for (;;) {
    // Within the 60-a-minute search limit.
    app.clock.advance(1.5);
    const shown = await searchNext(viewer, params);
    if (shown === null) return seen;
    seen.push(shown);
    expect((await viewer.browser.post('/api/dislike', { profile_id: shown })).status).toBe(200);
  }
}
