import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProfileId, UserId } from '../../../db/schema.ts';
import type { SearchQuery } from '../../contract/discovery.ts';
import { snapCoordinates } from '../profiles/index.ts';
import { testProfileId, testUserId } from '../../test/testIds.ts';
import { TestClock } from '../../test/testClock.ts';
import { createTestDatabase, testDialects, type TestDatabase } from '../../test/testDatabase.ts';
import { PlainSearch } from './plainSearch.ts';
import { SearchService } from './service.ts';
import { NoRateLimit, ageStamps, countingQueries, insertPlaced, type Kind, type Placed } from './searchTestKit.ts';

/**
 * The ring scan (service.ts scan/readRing) near a pole and through several crowded rings: cases a review
 * found after crowdedRings.test.ts (a newcomer east of a polar caller inside the pool's bound went unasked
 * about; three crowded rings cost 26 queries).
 */
type Person = Omit<Placed, 'id'>;

describe.each(testDialects())('ring scan limits on %s', (dialect) => {
  let database: TestDatabase;
  const clock = new TestClock();
  let nextId = 1;
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
  });
  afterAll(async () => {
    await database.drop();
  });

  /** Everyone 30: these tests draw their rings and bounds in flat kilometres, which are then the ranking's. */
  async function insert(people: Placed[], viewer: number | null) {
    const thirty = people.map((p) => ({ age: 30, ...p }));
    await insertPlaced(database.db, clock.now().toISOString(), thirty, viewer, 'ring');
  }

  async function world(people: Person[], viewerAt: { latitude: number; longitude: number }) {
    const db = database.db;
    for (const table of ['swipes', 'blocks', 'photos', 'search_pools', 'profiles', 'users'] as const)
      await db.deleteFrom(table).execute();
    const all = [{ kind: 'eligible' as Kind, where: viewerAt }, ...people].map((p) => ({ ...p, id: nextId++ }));
    const viewer = all[0];
    if (!viewer) throw new Error('no viewer');
    await insert(all, viewer.id);
    await ageStamps(db, testProfileId(viewer.id));
    return { viewer: testUserId(viewer.id), viewerProfile: testProfileId(viewer.id), ids: all.map((p) => p.id) };
  }

  const query: SearchQuery = { ageMin: 18, ageMax: 100, gender: 'Female', exclude: [] };

  async function both(tuned: SearchService, plain: PlainSearch, viewer: UserId) {
    const t = await tuned.next(viewer, query, 'ru');
    const p = await plain.next(viewer, query, 'ru');
    const id = (a: typeof t) => (typeof a === 'object' ? (a?.profile_id ?? null) : a);
    return { tuned: id(t), plain: id(p) };
  }

  async function dislike(viewerProfile: ProfileId, id: number) {
    await database.db
      .insertInto('swipes')
      .values({
        swiper_id: viewerProfile,
        target_id: testProfileId(id),
        liked: 0,
        created_at: clock.now().toISOString(),
      })
      .execute();
  }

  it('near a pole, a newcomer east of the caller inside the pool bound is found (changedNear box vs boxCircleKm)', async () => {
    // Viewer at 89.9 N: cos = 0.00175, under the 0.01 floor. A is 50 km south, found by the 1-degree box,
    // whose circle read whole is boxCircleKm = 19.4 km: the pool's bound. A newcomer ~10 km due east
    // (52 degrees of longitude) is inside that bound; changedNear's box spans only
    // (19.4 / 111.19) / 0.01 = 17.4 degrees of longitude, so it never learns of her.
    const viewerAt = snapCoordinates(89.9, 0.5);
    const a: Person = { kind: 'eligible', where: snapCoordinates(89.45, 0.5) };
    const { viewer, viewerProfile, ids } = await world([a], viewerAt);
    const tuned = new SearchService(database.db, clock, new NoRateLimit(database.db, clock));
    const plain = new PlainSearch(database.db, clock);
    const first = await both(tuned, plain, viewer);
    expect(first).toEqual({ tuned: ids[1], plain: ids[1] });
    const pool = await database.db.selectFrom('search_pools').select('bound_km').executeTakeFirstOrThrow();
    expect(pool.bound_km).toBeGreaterThan(15);
    expect(pool.bound_km).toBeLessThan(25);
    // The newcomer (stamped now by the insert trigger, well after the watermark).
    const newcomer = { kind: 'eligible' as Kind, where: snapCoordinates(89.9, 52.5), id: nextId++ };
    await insert([newcomer], null);
    await dislike(viewerProfile, ids[1] ?? 0);
    const second = await both(tuned, plain, viewer);
    expect(second.plain).toBe(newcomer.id);
    expect(second.tuned).toBe(newcomer.id);
  });

  it('counts the queries of a fresh scan through several rings crowded with people the first pass lets through', async () => {
    // Three rings (boxes 0.05, 0.25 and 1) each holding 400 people in private mode, spread over many
    // cells; one eligible person 150 km away (box 4).
    const moscow: [number, number] = [55.7558, 37.6173];
    const at = (km: number, angle: number) =>
      snapCoordinates(
        moscow[0] + (km * Math.cos(angle)) / 111.2,
        moscow[1] + (km * Math.sin(angle)) / (111.2 * Math.cos((moscow[0] * Math.PI) / 180)),
      );
    const ring = (from: number, to: number): Person[] =>
      Array.from({ length: 400 }, (_, i) => ({
        kind: 'private',
        where: at(from + ((to - from) * i) / 400, i * 2.399963),
      }));
    const people = [
      ...ring(2.4, 5.4),
      ...ring(5.8, 27),
      ...ring(28.5, 110),
      { kind: 'eligible' as Kind, where: at(150, 0) },
    ];
    const { viewer } = await world(people, snapCoordinates(moscow[0], moscow[1]));
    // Statistics as autovacuum would have them: a freshly filled table looks empty to the planner.
    if (dialect === 'postgres') {
      const { sql } = await import('kysely');
      await sql`analyze`.execute(database.db);
    }
    let queries = 0;
    const counted = countingQueries(database.db, () => queries++);
    const tuned = new SearchService(counted, clock, new NoRateLimit(counted, clock));
    const plain = new PlainSearch(database.db, clock);
    const answer = await tuned.next(viewer, query, 'ru');
    expect(answer).toEqual(await plain.next(viewer, query, 'ru'));
    // The search's own reads and writes (start, pool, photo) and one scan: the first box, the scan's three pairs
    // of passes, and one query finishing each ring after them. Three pairs per ring made it 26.
    expect(queries).toBeLessThanOrEqual(14);
    // And the counter sees the scan at all: the first box, three pairs of passes and the rings' finishing queries.
    expect(queries).toBeGreaterThanOrEqual(10);
  });
});
