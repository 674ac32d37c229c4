import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { ProfileId, UserId } from '../../../db/schema.ts';
import type { SearchQuery } from '../../contract/discovery.ts';
import { snapCoordinates } from '../profiles/index.ts';
import { testProfileId, testUserId } from '../../test/testIds.ts';
import { TestClock } from '../../test/testClock.ts';
import { createTestDatabase, testDialects, type TestDatabase } from '../../test/testDatabase.ts';
import { cleanupExpired } from '../jobs/index.ts';
import { frontierOf, poolTtlMs } from './candidatePool.ts';
import { findSearchStart } from './repository.ts';
import { changedLimit, changedNear, horizonBelow } from './searchChanges.ts';
import { PlainSearch } from './plainSearch.ts';
import { SearchService } from './service.ts';
import {
  NoRateLimit,
  ageStamps,
  countingQueries,
  databaseTime,
  insertPlaced,
  type Kind,
  type Placed,
} from './searchTestKit.ts';

/**
 * What a pool remembers between searches (candidatePool.ts). After it expired, the search starts beyond the
 * frontier it left (Frontier): nobody passed nearer than it, and whatever changed inside it since is asked
 * about. And the changes it re-checked are not re-checked again while the change query reads them back
 * (Pool.checked). Someone changed without a new stamp (which no route can do) shows what the search reads.
 */
const moscow: [number, number] = [55.7558, 37.6173];
const at = (km: number, angle = 0) =>
  snapCoordinates(
    moscow[0] + (km * Math.cos(angle)) / 111.2,
    moscow[1] + (km * Math.sin(angle)) / (111.2 * Math.cos((moscow[0] * Math.PI) / 180)),
  );
type Person = Omit<Placed, 'id'>;

describe('frontierOf', () => {
  const pool = (flats: number[], boundKm: number) => ({
    candidates: flats.map((flat, i) => ({ id: i + 1, flat, score: flat })),
    boundKm,
    watermark: 'w',
    scannedAt: 's',
  });

  it('is the bound, or the nearest pooled person when nearer, with a hint half as far again as the wanted people reach', () => {
    expect(frontierOf(pool([12, 14, 13, 20], 15), 3)).toEqual({
      emptyKm: 12,
      watermark: 'w',
      scannedAt: 's',
      hintKm: 12 + (14 - 12) * 1.5,
    });
    expect(frontierOf(pool([40, 30, 50], 15), 2)).toEqual({
      emptyKm: 15,
      watermark: 'w',
      scannedAt: 's',
      hintKm: 15 + (40 - 15) * 1.5,
    });
  });

  it('gives no hint when fewer than the wanted people are pooled: the next scan reads past the bound anyway', () => {
    expect(frontierOf(pool([30, 40], 15), 100)).toEqual({
      emptyKm: 15,
      watermark: 'w',
      scannedAt: 's',
      hintKm: null,
    });
  });

  it('gives no hint for an empty pool, and no frontier without a watermark', () => {
    expect(frontierOf(pool([], 1_000_000), 100)).toEqual({
      emptyKm: 1_000_000,
      watermark: 'w',
      scannedAt: 's',
      hintKm: null,
    });
    expect(frontierOf({ ...pool([3], 5), watermark: null }, 100)).toBeNull();
  });
});

describe('horizonBelow', () => {
  const at = (xid: bigint, server = '2026-11-25 04:00:00.1+00') => `${server}/${xid}`;

  it('gives the low 32 bits of a horizon kept on this server, at or behind the horizon now', () => {
    expect(horizonBelow(at(5n * 2n ** 32n + 77n), at(5n * 2n ** 32n + 90n))).toBe('77');
    expect(horizonBelow(at(12345n), at(12345n))).toBe('12345');
  });

  it('trusts none from another server or one restarted, ahead of now, too far behind, or unreadable', () => {
    expect(horizonBelow(at(100n, 'another start'), at(200n))).toBeNull();
    expect(horizonBelow(at(300n), at(200n))).toBeNull();
    expect(horizonBelow(at(100n), at(100n + 2n ** 31n))).toBeNull();
    expect(horizonBelow(at(100n), at(99n + 2n ** 31n))).toBe('100');
    expect(horizonBelow('12345', at(200n))).toBeNull();
    expect(horizonBelow(null, at(200n))).toBeNull();
    expect(horizonBelow(at(100n), null)).toBeNull();
  });
});

describe.each(testDialects())('the frontier of an expired pool on %s', (dialect) => {
  let database: TestDatabase;
  const clock = new TestClock();
  let nextId = 1;
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
  });
  afterAll(async () => {
    await database.drop();
  });

  const ago = (hours: number) => new Date(Date.now() - hours * 3_600_000).toISOString();

  /** Everyone 30 (unless told): these tests name who is nearest by flat distance, which is then the ranking's. */
  async function insert(people: Placed[], viewer: number | null) {
    const thirty = people.map((p) => ({ age: 30, ...p }));
    await insertPlaced(database.db, clock.now().toISOString(), thirty, viewer, 'frontier');
  }

  /** A heavy swiper: everyone within 10 km swiped, eligible people from 12 km out. Stamps aged past the watermark's slack. */
  async function world(eligibleCount = 20) {
    const db = database.db;
    for (const table of ['swipes', 'blocks', 'photos', 'search_pools', 'profiles', 'users'] as const)
      await db.deleteFrom(table).execute();
    const swiped: Person[] = Array.from({ length: 300 }, (_, i) => ({
      kind: 'swiped',
      where: at(0.3 + (9.7 * i) / 300, i * 2.399963),
    }));
    // From 12 km to 20 km whatever their number.
    const eligible: Person[] = Array.from({ length: eligibleCount }, (_, i) => ({
      kind: 'eligible',
      where: at(12 + (i * 8) / eligibleCount, i * 1.7),
    }));
    const all = [{ kind: 'eligible' as Kind, where: at(0) }, ...swiped, ...eligible].map((p) => ({
      ...p,
      id: nextId++,
    }));
    const viewer = all[0];
    if (!viewer) throw new Error('no viewer');
    await insert(all, viewer.id);
    await ageStamps(db, testProfileId(viewer.id));
    const others = all.slice(1).filter((p) => p.kind === 'eligible');
    return {
      viewer: testUserId(viewer.id),
      nearestEligible: others[0]?.id,
      eligible: others.map((p) => testProfileId(p.id)),
    };
  }

  const query: SearchQuery = { ageMin: 18, ageMax: 100, gender: 'Female', exclude: [] };
  const idOf = (answer: Awaited<ReturnType<SearchService['next']>>) =>
    typeof answer === 'object' ? (answer?.profile_id ?? null) : answer;

  /** Someone inside the frontier, as if they had been there all along: their stamp is older than the watermark. */
  async function unstamped(
    where: { latitude: number; longitude: number },
    kind: Kind = 'eligible',
  ): Promise<ProfileId> {
    const person = { kind, where, id: nextId++ };
    await insert([person], null);
    await database.db
      .updateTable('profiles')
      .set({ search_changed_at: ago(2) })
      .where('id', '=', testProfileId(person.id))
      .execute();
    return testProfileId(person.id);
  }

  /** Every card in turn, each held while the next is asked for (at most `cards`). */
  async function order(search: { next: SearchService['next'] }, viewer: UserId, cards = 1000): Promise<ProfileId[]> {
    const shown: ProfileId[] = [];
    while (shown.length < cards) {
      const id = idOf(await search.next(viewer, { ...query, exclude: [...shown] }, 'ru'));
      if (typeof id !== 'number') break;
      shown.push(id);
    }
    return shown;
  }

  async function searchAfterExpiry(viewer: UserId) {
    const tuned = new SearchService(database.db, clock, new NoRateLimit(database.db, clock));
    const first = await tuned.next(viewer, query, 'ru');
    clock.advance(poolTtlMs / 1000 + 60);
    return { tuned, first: idOf(first) };
  }

  it('starts beyond the frontier: nobody nearer is read, unless they changed since', async () => {
    const { viewer, nearestEligible } = await world();
    const { tuned, first } = await searchAfterExpiry(viewer);
    // The cleanup job keeps an expired pool for its frontier.
    await cleanupExpired({ db: database.db, clock });
    expect(first).toBe(testProfileId(nearestEligible ?? 0));
    const hidden = await unstamped(at(5, 1));
    // The plain search (and a fresh scan) would read her; the day's first search starts beyond the frontier.
    expect(idOf(await new PlainSearch(database.db, clock).next(viewer, query, 'ru'))).toBe(hidden);
    expect(idOf(await tuned.next(viewer, query, 'ru'))).toBe(first);
    // Its new pool is stored; removed, a fresh scan reads everything and finds her.
    await database.db.deleteFrom('search_pools').execute();
    expect(idOf(await tuned.next(viewer, query, 'ru'))).toBe(hidden);
  });

  it('asks what changed inside the frontier: a newcomer there is shown, one who does not pass leaves it where it was', async () => {
    const { viewer } = await world();
    const { tuned, first } = await searchAfterExpiry(viewer);
    const hidden = await unstamped(at(8, 2));
    // Stamped now by the insert trigger: a change the frontier's watermark has not seen.
    const unverified = { kind: 'unverified' as Kind, where: at(3, 0.5), id: nextId++ };
    await insert([unverified], null);
    const plain = new PlainSearch(database.db, clock);
    // The unverified newcomer does not pass: the scan still starts beyond the frontier and misses `hidden`.
    expect(idOf(await tuned.next(viewer, query, 'ru'))).toBe(first);
    clock.advance(poolTtlMs / 1000 + 60);
    const newcomer = { kind: 'eligible' as Kind, where: at(9, 3), id: nextId++ };
    await insert([newcomer], null);
    // She passes: the scan starts at her. `hidden`, nearer still, stays unread; the plain search shows her.
    const answer = idOf(await tuned.next(viewer, query, 'ru'));
    expect(answer).toBe(testProfileId(newcomer.id));
    expect(idOf(await plain.next(viewer, query, 'ru'))).toBe(hidden);
  });

  it.runIf(dialect === 'postgres')(
    "asks a frontier's changes in its start once the database sees the pool expired: a newcomer inside it is shown",
    async () => {
      const { viewer } = await world();
      const db = database.db;
      const statements: string[] = [];
      const tuned = new SearchService(
        countingQueries(db, (text) => statements.push(text)),
        clock,
        new NoRateLimit(db, clock),
      );
      await tuned.next(viewer, query, 'ru');
      clock.advance(poolTtlMs / 1000 + 60);
      // Expired for the database too, as a day's first search finds it: the start asks without a horizon.
      await db
        .updateTable('search_pools')
        .set({ expires_at: new Date(Date.now() - 60_000).toISOString() })
        .execute();
      const newcomer = { kind: 'eligible' as Kind, where: at(9, 3), id: nextId++ };
      await insert([newcomer], null);
      statements.length = 0;
      expect(idOf(await tuned.next(viewer, query, 'ru'))).toBe(testProfileId(newcomer.id));
      // Asked by the start (searchChanges.ts changesAtStart), not by a change query of its own.
      expect(statements.filter((text) => text.includes('"p"."search_changed_at" >='))).toEqual([]);
      expect(statements.filter((text) => text.includes('c.search_changed_at >= w.since'))).toHaveLength(1);
    },
  );

  it('scans afresh when too many changed inside the frontier since', async () => {
    const { viewer } = await world();
    const { tuned } = await searchAfterExpiry(viewer);
    const hidden = await unstamped(at(6, 4));
    // More changes than the change query reads, all of them people who do not pass (unverified, far inside).
    const crowd = Array.from({ length: changedLimit + 1 }, (_, i): Person & { id: number } => ({
      kind: 'unverified',
      where: at(1 + (8 * i) / changedLimit, i),
      id: nextId++,
    }));
    await insert(crowd, null);
    expect(idOf(await tuned.next(viewer, query, 'ru'))).toBe(hidden);
  });

  it('re-checks a change once: read back with the stamp it was checked at, it is not asked about again', async () => {
    const { viewer, eligible } = await world();
    const [goesPrivate, movesNearer] = eligible;
    if (goesPrivate === undefined || movesNearer === undefined) throw new Error('world without eligible people');
    const db = database.db;
    const tuned = new SearchService(db, clock, new NoRateLimit(db, clock));
    const plain = new PlainSearch(db, clock);
    await tuned.next(viewer, query, 'ru');
    // Ten seconds ago (settled, and still read back for a minute: searchChanges.ts watermarkSlackMs): one
    // goes into private mode, one moves nearer, and an unverified newcomer arrives.
    await db.updateTable('profiles').set({ private_mode: 1 }).where('id', '=', goesPrivate).execute();
    const nearer = at(11, 0.3);
    await db.updateTable('profiles').set(nearer).where('id', '=', movesNearer).execute();
    const newcomer = { kind: 'unverified' as Kind, where: at(3, 0.5), id: nextId++ };
    await insert([newcomer], null);
    const newcomerProfile = testProfileId(newcomer.id);
    const stamp = await databaseTime(database.db, -10_000);
    await db
      .updateTable('profiles')
      .set({ search_changed_at: stamp })
      .where('id', 'in', [goesPrivate, movesNearer, newcomerProfile])
      .execute();
    expect(idOf(await plain.next(viewer, query, 'ru'))).toBe(movesNearer);
    expect(idOf(await tuned.next(viewer, query, 'ru'))).toBe(movesNearer);
    const checked = async () => {
      const row = await db.selectFrom('search_pools').select('checked_changes').executeTakeFirstOrThrow();
      const stored: unknown = JSON.parse(row.checked_changes ?? '{"c": []}');
      return typeof stored === 'object' && stored !== null && 'c' in stored ? stored.c : null;
    };
    expect(await checked()).toEqual(
      expect.arrayContaining([
        [goesPrivate, stamp],
        [movesNearer, stamp],
        [newcomerProfile, stamp],
      ]),
    );
    // The newcomer verified, her stamp put back (no route can): the pool does not ask about her again.
    await db
      .updateTable('users')
      .set({ verified_at: clock.now().toISOString() })
      .where('id', '=', testUserId(newcomer.id))
      .execute();
    await db.updateTable('profiles').set({ search_changed_at: stamp }).where('id', '=', newcomerProfile).execute();
    expect(idOf(await plain.next(viewer, query, 'ru'))).toBe(newcomerProfile);
    expect(idOf(await tuned.next(viewer, query, 'ru'))).toBe(movesNearer);
    // Stamped anew, as every route does: asked about, and shown. Not settled (here: stamped ahead of the
    // database's clock, so however slow the machine), she is not remembered as checked.
    await db
      .updateTable('profiles')
      .set({ search_changed_at: await databaseTime(database.db, 30_000) })
      .where('id', '=', newcomerProfile)
      .execute();
    expect(idOf(await tuned.next(viewer, query, 'ru'))).toBe(newcomerProfile);
    expect(await checked()).not.toEqual(expect.arrayContaining([[newcomerProfile, expect.any(String)]]));
  });

  it('trusts a frontier for a week after the fresh scan it goes back to, then scans the neighbourhood whole again', async () => {
    const { viewer } = await world();
    const { tuned, first } = await searchAfterExpiry(viewer);
    const hidden = await unstamped(at(5, 1));
    expect(idOf(await tuned.next(viewer, query, 'ru'))).toBe(first);
    const scannedAt = async () =>
      (await database.db.selectFrom('search_pools').select('scanned_at').executeTakeFirstOrThrow()).scanned_at;
    const firstScan = await scannedAt();
    // Carried on by the pool made beyond the frontier, and by the next one.
    clock.advance(3 * 86_400);
    expect(idOf(await tuned.next(viewer, query, 'ru'))).toBe(first);
    expect(await scannedAt()).toBe(firstScan);
    clock.advance(5 * 86_400);
    expect(idOf(await tuned.next(viewer, query, 'ru'))).toBe(hidden);
    expect(await scannedAt()).not.toBe(firstScan);
  });

  it('reads on past where the hint stopped its first pass: someone beyond it and inside the box is not skipped', async () => {
    // More than a pool's worth of people, so the frontier gives a hint (frontierOf): the 100th at 19.2 km.
    const { viewer, eligible } = await world(110);
    await searchAfterExpiry(viewer);
    // Beyond the frontier (12 km) and the hint (about 23 km), inside the 0.25 degree box's circle (27.8 km).
    const beyondHint = await unstamped(at(25, 2.5));
    const plain = new PlainSearch(database.db, clock);
    const tuned = new SearchService(database.db, clock, new NoRateLimit(database.db, clock));
    const tunedOrder = await order(tuned, viewer);
    expect(tunedOrder).toEqual(await order(plain, viewer));
    expect(new Set(tunedOrder)).toEqual(new Set([...eligible, beyondHint]));
    expect(tunedOrder.at(-1)).toBe(beyondHint);
  });

  it('re-checks the nearest 200 people changed inside the frontier and starts at the next one: the cards come in the plain order', async () => {
    const { viewer } = await world();
    const { tuned } = await searchAfterExpiry(viewer);
    // 260 newcomers inside the disc (11 km once snapped), stamped by the insert trigger: the nearest 200
    // unverified (re-checked, and out), then 60 who pass from 9 km on, where the disc is drawn in to (the
    // nearest left unchecked).
    const newcomers = Array.from({ length: 260 }, (_, i): Person & { id: number } => ({
      kind: i < 200 ? 'unverified' : 'eligible',
      where: i < 200 ? at(2.5 + (3.5 * i) / 200, i * 0.7) : at(9 + (1.5 * (i - 200)) / 60, i * 0.7),
      id: nextId++,
    }));
    await insert(newcomers, null);
    const tunedOrder = await order(tuned, viewer, 40);
    expect(tunedOrder).toHaveLength(40);
    expect(tunedOrder).toEqual(await order(new PlainSearch(database.db, clock), viewer, 40));
  });

  /**
   * A review's world: C eligible at 11 km, M nearer, ten more from 16 km, the viewer's pool made (M first);
   * then 200 unverified newcomers nearer than C and L in C's own grid cell (a higher id), L the 201st change.
   */
  async function tiedAtBound() {
    const db = database.db;
    for (const table of ['swipes', 'blocks', 'photos', 'search_pools', 'profiles', 'users'] as const)
      await db.deleteFrom(table).execute();
    const viewer = { kind: 'eligible' as Kind, where: at(0), id: nextId++ };
    const m = { kind: 'eligible' as Kind, where: at(9, 1), id: nextId++ };
    const far = Array.from({ length: 10 }, (_, i): Person & { id: number } => ({
      kind: 'eligible',
      where: at(16 + i * 0.4, i * 1.7),
      id: nextId++,
    }));
    const c = { kind: 'eligible' as Kind, where: at(11, 0), id: nextId++ };
    await insert([viewer, m, ...far, c], viewer.id);
    await ageStamps(db, testProfileId(viewer.id));
    const user = testUserId(viewer.id);
    const tuned = new SearchService(db, clock, new NoRateLimit(db, clock));
    const plain = new PlainSearch(db, clock);
    expect(idOf(await tuned.next(user, query, 'ru'))).toBe(testProfileId(m.id));
    const crowd = Array.from({ length: 200 }, (_, i): Person & { id: number } => ({
      kind: 'unverified',
      where: at(1 + (6 * i) / 200, i * 2.399963),
      id: nextId++,
    }));
    const l = { kind: 'eligible' as Kind, where: c.where, id: nextId++ };
    await insert([...crowd, l], null);
    return { db, viewer, m, c, l, crowd, user, tuned, plain };
  }

  it('draws the bound in to the nearest change left unchecked on every search, remembered ones counted: nobody tied at it goes first', async () => {
    // A review's case: C pooled at 11 km; 200 unverified newcomers nearer and L in C's own grid cell (a higher
    // id) arrive, L the 201st change. Counting only the changes not yet remembered, the next search re-checked
    // L at the bound and showed her ahead of C, who ties with her and comes first in the plain order.
    const { db, viewer, m, c, l, crowd, user, tuned, plain } = await tiedAtBound();
    const settled = await databaseTime(database.db, -10_000);
    await db
      .updateTable('profiles')
      .set({ search_changed_at: settled })
      .where(
        'id',
        'in',
        [...crowd, l].map((p) => testProfileId(p.id)),
      )
      .execute();
    // Re-checks the 200 and remembers them; M is still first.
    expect(idOf(await tuned.next(user, query, 'ru'))).toBe(testProfileId(m.id));
    await db
      .insertInto('swipes')
      .values({
        swiper_id: testProfileId(viewer.id),
        target_id: testProfileId(m.id),
        liked: 0,
        created_at: clock.now().toISOString(),
      })
      .execute();
    expect(idOf(await plain.next(user, query, 'ru'))).toBe(testProfileId(c.id));
    expect(idOf(await tuned.next(user, query, 'ru'))).toBe(testProfileId(c.id));
  });

  it('leaves a newcomer at a drawn-in bound to the scan beyond it, where people tied with her wait too, once the burst is out of the question', async () => {
    // A review's case: after the search that drew the bound in to C's grid cell (C and L there, out of the
    // pool), the 200 it re-checked are no longer read back (the minute passed; on PostgreSQL the horizon
    // leaves them out at once). L2 arrives in C's cell, the one change read: merged, she went ahead of C.
    const { db, viewer, m, c, l, crowd, user, tuned, plain } = await tiedAtBound();
    // Draws the bound in to L, the 201st change; M is still first.
    expect(idOf(await tuned.next(user, query, 'ru'))).toBe(testProfileId(m.id));
    const bound = (await storedMark()).boundKm;
    expect(bound).toBeLessThan(11.5);
    await db
      .updateTable('profiles')
      .set({ search_changed_at: ago(2) })
      .where(
        'id',
        'in',
        [...crowd, l].map((p) => testProfileId(p.id)),
      )
      .execute();
    const l2 = { kind: 'eligible' as Kind, where: c.where, id: nextId++ };
    await insert([l2], null);
    await db
      .insertInto('swipes')
      .values({
        swiper_id: testProfileId(viewer.id),
        target_id: testProfileId(m.id),
        liked: 0,
        created_at: clock.now().toISOString(),
      })
      .execute();
    const expected = await order(plain, user, 3);
    expect(expected).toEqual([c, l, l2].map((p) => testProfileId(p.id)));
    expect(await order(tuned, user, 3)).toEqual(expected);
  });

  /** The stored pool's watermark, bound and horizon (Pool.horizon, kept in checked_changes). */
  async function storedMark() {
    const row = await database.db
      .selectFrom('search_pools')
      .select(['watermark', 'bound_km', 'checked_changes'])
      .executeTakeFirstOrThrow();
    const parsed: unknown = JSON.parse(row.checked_changes ?? '{}');
    const horizon =
      typeof parsed === 'object' && parsed !== null && 'h' in parsed && typeof parsed.h === 'string' ? parsed.h : null;
    return { watermark: row.watermark, boundKm: row.bound_km, horizon };
  }

  it.runIf(dialect === 'postgres')(
    'asks only about rows written at or above the horizon, never leaving out one committed after its search began',
    async () => {
      const { viewer, eligible } = await world();
      const db = database.db;
      const statements: { text: string; parameters: readonly unknown[] }[] = [];
      const tuned = new SearchService(
        countingQueries(db, (text, parameters) => statements.push({ text, parameters })),
        clock,
        new NoRateLimit(db, clock),
      );
      const me = await db
        .selectFrom('profiles')
        .select(['id', 'latitude', 'longitude'])
        .where('user_id', '=', viewer)
        .executeTakeFirstOrThrow();
      const point = { latitude: me.latitude ?? 0, longitude: me.longitude ?? 0 };
      /** A horizon's transaction number (`<server start>/<number>`). */
      const numberOf = (horizon: string | null) => /\/(\d+)$/.exec(horizon ?? '')?.[1] ?? 'none';
      const low32 = (xid: string) => (BigInt(xid) % 2n ** 32n).toString();
      const snapshotXmin = async () =>
        (await sql<{ xmin: string }>`select pg_snapshot_xmin(pg_current_snapshot())::text as xmin`.execute(db)).rows[0]
          ?.xmin ?? '';
      const first = idOf(await tuned.next(viewer, query, 'ru'));
      const firstHorizon = numberOf((await storedMark()).horizon);
      expect(firstHorizon).toMatch(/^\d+$/);
      // A burst inside the bound, committed: the eligible people each move a metre (stamped by the trigger).
      await db
        .updateTable('profiles')
        .set((eb) => ({ latitude: eb('latitude', '+', 0.00001) }))
        .where('id', 'in', eligible)
        .execute();
      const afterBurst = await snapshotXmin();
      // Then a slow transaction takes someone near the viewer out of private mode, and has not committed yet.
      const hidden = await unstamped(at(5, 1), 'private');
      let commit = () => {};
      const committed = new Promise<void>((resolve) => (commit = resolve));
      let wrote = (_xid: string) => {};
      const written = new Promise<string>((resolve) => (wrote = resolve));
      const slow = db.transaction().execute(async (trx) => {
        await trx.updateTable('profiles').set({ private_mode: 0 }).where('id', '=', hidden).execute();
        const { rows } = await sql<{ xid: string }>`select pg_current_xact_id()::text as xid`.execute(trx);
        wrote(rows[0]?.xid ?? '');
        await committed;
      });
      const slowXid = await written;
      try {
        // A later transaction commits meanwhile: the newest number is no longer the slow one's.
        await sql`select pg_current_xact_id()`.execute(db);
        const asked = async (horizon: string | null) => {
          const mark = await storedMark();
          const changed = await changedNear(db, mark.watermark, { id: me.id, point }, mark.boundKm, horizon);
          return (changed ?? []).map((c) => c.id).sort((a, b) => a - b);
        };
        const sorted = [...eligible].sort((a, b) => a - b);
        // The search after the burst re-checks it, the first search's horizon in its change query: asked by its
        // start statement (searchChanges.ts changesAtStart), which takes that horizon from the stored pool.
        const when = { now: new Date().toISOString(), scannedSince: new Date(0).toISOString(), frontierMinKm: 0 };
        expect((await findSearchStart(db, viewer, when))?.changes?.horizon).toBe(low32(firstHorizon));
        // A start whose pool the service would neither take (expired by its clock) nor scan beyond (scanned too
        // long ago for a frontier, or too small a bound) does not ask: a generic plan would walk the index from
        // an old watermark for nothing.
        const later = '9999-12-31T00:00:00.000Z';
        const useless = [
          { now: later, scannedSince: later, frontierMinKm: 0 },
          { now: later, scannedSince: new Date(0).toISOString(), frontierMinKm: 1e9 },
        ];
        for (const w of useless) expect((await findSearchStart(db, viewer, w))?.changes).toBeNull();
        statements.length = 0;
        expect(idOf(await tuned.next(viewer, query, 'ru'))).toBe(first);
        expect(statements.filter((s) => s.text.includes('age(p.xmin)'))).toEqual([]);
        expect(statements.filter((s) => s.text.includes('age(c.xmin)'))).toHaveLength(1);
        // The burst is read back for a minute; written below the slow transaction, it is left out below it.
        expect(await asked(null)).toEqual(sorted);
        expect(await asked(low32(slowXid))).toEqual([]);
        // The horizon kept moved with the watermark, past the burst's end, but not past the slow transaction,
        // still running as the search began (numbers only grow: true whatever else runs on the server).
        const kept = numberOf((await storedMark()).horizon);
        expect(BigInt(kept)).toBeGreaterThanOrEqual(BigInt(afterBurst));
        expect(BigInt(kept)).toBeLessThanOrEqual(BigInt(slowXid));
        commit();
        await slow;
        // Committed after that search began: at its horizon or above, asked about, and shown first.
        expect(await asked(low32(slowXid))).toEqual([hidden]);
        expect(await asked(low32(kept))).toContain(hidden);
        expect(idOf(await new PlainSearch(db, clock).next(viewer, query, 'ru'))).toBe(hidden);
        expect(idOf(await tuned.next(viewer, query, 'ru'))).toBe(hidden);
      } finally {
        commit();
        await slow;
      }
    },
  );

  it.runIf(dialect === 'sqlite')(
    'keeps no horizon on SQLite, whose one writer never commits a stamp late',
    async () => {
      const { viewer } = await world();
      const tuned = new SearchService(database.db, clock, new NoRateLimit(database.db, clock));
      await tuned.next(viewer, query, 'ru');
      expect((await storedMark()).horizon).toBeNull();
    },
  );
});
