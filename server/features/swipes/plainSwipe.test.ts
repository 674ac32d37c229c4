import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LikeResponse } from '../../contract/discovery.ts';
import { addSeconds } from '../../clock.ts';
import { json } from '../../test/browser.ts';
import { createPerson, type Person, type PersonOptions } from '../../test/people.ts';
import { createTestApp, type TestApp } from '../../test/testApp.ts';
import { testDialects } from '../../test/testDatabase.ts';
import { swipePlainly } from './repository.ts';
import { spendFreeLikes } from './spentLikes.ts';
import { freeLikesPerDay, likeWindowSeconds } from './rules.ts';

/**
 * The like endpoint's answers and rows, case by case, on both databases. On PostgreSQL a like or dislike
 * without a message first goes through iskra_plain_swipe (db/migrations/2026_12_05_0900_plain_swipe_whole_read.ts),
 * which writes only the plain case: for every case it must leave to the transaction path, the function is
 * called alone first and must write nothing, then the endpoint must answer and write what the rules say.
 */
describe.each(testDialects())('plain swipes on %s', (dialect) => {
  let app: TestApp;
  beforeEach(async () => {
    app = await createTestApp(dialect);
  });
  afterEach(async () => {
    await app.close();
  });

  const like = (from: Person, to: Person) => from.browser.post('/api/like', { profile_id: to.profileId });
  const dislike = (from: Person, to: Person) => from.browser.post('/api/dislike', { profile_id: to.profileId });
  const me = () => createPerson(app, { gender: 'Male' });
  const them = (options: PersonOptions = {}) => createPerson(app, { name: 'Вера', ...options });

  /** Every row a swipe may write between the two: swipes both ways, their match, events to either. */
  async function rowsOf(a: Person, b: Person) {
    const db = app.database.db;
    const swipes = await db
      .selectFrom('swipes')
      .select(['swiper_id', 'target_id', 'liked', 'created_at'])
      .where((eb) =>
        eb.or([
          eb.and([eb('swiper_id', '=', a.profileId), eb('target_id', '=', b.profileId)]),
          eb.and([eb('swiper_id', '=', b.profileId), eb('target_id', '=', a.profileId)]),
        ]),
      )
      .orderBy('swiper_id')
      .execute();
    const matches = await db
      .selectFrom('matches')
      .select('id')
      .where('profile_low', '=', Math.min(a.profileId, b.profileId) as typeof a.profileId)
      .where('profile_high', '=', Math.max(a.profileId, b.profileId) as typeof a.profileId)
      .execute();
    const events = await db
      .selectFrom('events')
      .select(['user_id', 'type'])
      .where('user_id', 'in', [a.userId, b.userId])
      .orderBy('id')
      .execute();
    return { swipes, matches: matches.length, events };
  }

  /** PostgreSQL: the function alone, for a case it must leave to the transaction path: it writes nothing. */
  async function functionLeavesIt(a: Person, b: Person, liked = true) {
    if (dialect !== 'postgres') return;
    const before = await rowsOf(a, b);
    const now = app.clock.now();
    const outcome = await swipePlainly(app.database.db, {
      userId: a.userId,
      targetId: b.profileId,
      liked,
      at: now.toISOString(),
      likesSince: addSeconds(now, -likeWindowSeconds).toISOString(),
      likeLimit: freeLikesPerDay,
    });
    expect(outcome?.swiped).toBe(false);
    expect(await rowsOf(a, b)).toEqual(before);
  }

  const code = async (res: Response) => (await json<{ code: string }>(res)).code;

  it('writes a plain like with its badge marker for the person liked, and nothing else', async () => {
    const [a, b] = [await me(), await them()];
    expect(await json<LikeResponse>(await like(a, b))).toEqual({ match: false });
    const rows = await rowsOf(a, b);
    expect(rows.swipes).toMatchObject([{ swiper_id: a.profileId, target_id: b.profileId, liked: 1 }]);
    expect(rows.matches).toBe(0);
    expect(rows.events).toEqual([{ user_id: b.userId, type: 'badges' }]);
  });

  const hidden: [string, (a: Person) => Promise<Person>][] = [
    [
      'held',
      async () => {
        const b = await them();
        await app.database.db
          .updateTable('profiles')
          .set({ held_at: app.clock.now().toISOString() })
          .where('id', '=', b.profileId)
          .execute();
        return b;
      },
    ],
    ['private', () => them({ privateMode: true })],
    ['banned', () => them({ banned: true })],
    ['unverified', () => them({ verified: false })],
    [
      'blocking the caller',
      async (a) => {
        const b = await them();
        expect((await b.browser.post('/api/block', { profile_id: a.profileId })).status).toBeLessThan(300);
        return b;
      },
    ],
    ['of a gender the person does not look for', () => them({ preferred: 'Female' })],
  ];
  for (const [name, make] of hidden) {
    it(`answers not found for a person ${name}, writing nothing`, async () => {
      const a = await me();
      const b = await make(a);
      await functionLeavesIt(a, b);
      const before = await rowsOf(a, b);
      const res = await like(a, b);
      expect(res.status).toBe(404);
      expect(await code(res)).toBe('profile_not_found');
      expect(await rowsOf(a, b)).toEqual(before);
    });
  }

  it('leaves a like to a premium person the bot can reach to the transaction path, which notifies', async () => {
    const a = await me();
    const b = await them({ premium: true });
    await app.database.db
      .updateTable('users')
      .set({ telegram_id: `${b.userId}0042`, bot_started_at: app.clock.now().toISOString() })
      .where('id', '=', b.userId)
      .execute();
    await app.database.db.updateTable('profiles').set({ notifications: 1 }).where('id', '=', b.profileId).execute();
    await functionLeavesIt(a, b);
    expect(await json<LikeResponse>(await like(a, b))).toEqual({ match: false });
    const rows = await rowsOf(a, b);
    expect(rows.swipes).toMatchObject([{ swiper_id: a.profileId, liked: 1 }]);
    expect(rows.matches).toBe(0);
    // One badge marker: written by the function inside the transaction (p_notifies), not again by the service.
    expect(rows.events).toEqual([{ user_id: b.userId, type: 'badges' }]);
    const jobs = await app.database.db
      .selectFrom('notification_jobs')
      .select('user_id')
      .where('user_id', '=', b.userId)
      .execute();
    expect(jobs.length).toBeGreaterThan(0);
  });

  /** A premium person whom the bot reaches: a like to them takes the transaction path. */
  async function reachable(options: PersonOptions = {}) {
    const b = await them({ premium: true, ...options });
    await app.database.db
      .updateTable('users')
      .set({ telegram_id: `${b.userId}0042`, bot_started_at: app.clock.now().toISOString() })
      .where('id', '=', b.userId)
      .execute();
    await app.database.db.updateTable('profiles').set({ notifications: 1 }).where('id', '=', b.profileId).execute();
    return b;
  }

  it('inside a transaction with p_notifies writes a like to notify, kept only by the commit', async () => {
    if (dialect !== 'postgres') return;
    const a = await me();
    const b = await reachable();
    const before = await rowsOf(a, b);
    const now = app.clock.now();
    const request = {
      userId: a.userId,
      targetId: b.profileId,
      liked: true,
      at: now.toISOString(),
      likesSince: addSeconds(now, -likeWindowSeconds).toISOString(),
      likeLimit: freeLikesPerDay,
      notifies: true,
    };
    const rolledBack = new Error('roll back');
    await expect(
      app.database.db.transaction().execute(async (trx) => {
        const outcome = await swipePlainly(trx, request);
        expect(outcome?.swiped).toBe(true);
        expect(outcome?.state).toMatchObject({ id: b.profileId, user_id: b.userId, mine: null, theirs: null });
        expect(outcome?.me).toMatchObject({ id: a.profileId, gender: 'Male' });
        throw rolledBack;
      }),
    ).rejects.toBe(rolledBack);
    expect(await rowsOf(a, b)).toEqual(before);
    await app.database.db.transaction().execute(async (trx) => {
      expect((await swipePlainly(trx, request))?.swiped).toBe(true);
    });
    const rows = await rowsOf(a, b);
    expect(rows.swipes).toMatchObject([{ swiper_id: a.profileId, target_id: b.profileId, liked: 1 }]);
    expect(rows.events).toEqual([{ user_id: b.userId, type: 'badges' }]);
  });

  it('makes exactly one match of likes crossing at the same moment, plain or to notify', async () => {
    const pairs = await Promise.all(
      Array.from({ length: 6 }, async (_, i) => [await me(), i % 2 ? await reachable() : await them()] as const),
    );
    const answers = await Promise.all(pairs.flatMap(([a, b]) => [like(a, b), like(b, a)]));
    expect(answers.map((r) => r.status)).toEqual(answers.map(() => 200));
    const bodies = await Promise.all(answers.map((r) => json<LikeResponse>(r)));
    for (const [i, [a, b]] of pairs.entries()) {
      // The second of the two sees the match; never neither.
      expect(bodies[2 * i]?.match || bodies[2 * i + 1]?.match).toBe(true);
      const rows = await rowsOf(a, b);
      expect(rows.swipes.map((s) => s.liked)).toEqual([1, 1]);
      expect(rows.matches).toBe(1);
      expect(rows.events.filter((e) => e.type === 'match')).toHaveLength(2);
    }
  });

  it("keeps the free allowance under parallel likes, counted under the caller's lock", async () => {
    const a = await me();
    const other = await them();
    const now = app.clock.now();
    // Two likes left of the allowance; six people liked at once, half of them to notify.
    await spendFreeLikes(app.database.db, a.profileId, other.profileId, freeLikesPerDay - 2, now);
    const people = await Promise.all(Array.from({ length: 6 }, (_, i) => (i % 2 ? reachable() : them())));
    const answers = await Promise.all(people.map((b) => like(a, b)));
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 200, 429, 429, 429, 429]);
    const written = await app.database.db
      .selectFrom('swipes')
      .select('target_id')
      .where('swiper_id', '=', a.profileId)
      .execute();
    expect(written).toHaveLength(2);
  });

  it('refuses a free like over the allowance, writing nothing', async () => {
    const a = await me();
    const b = await them();
    const other = await them();
    const now = app.clock.now();
    // Undone likes count as likes (the allowance cannot be reset by undoing).
    await spendFreeLikes(app.database.db, a.profileId, other.profileId, freeLikesPerDay, now);
    await functionLeavesIt(a, b);
    const before = await rowsOf(a, b);
    const res = await like(a, b);
    expect(res.status).toBe(429);
    expect(await code(res)).toBe('like_limit');
    expect(await rowsOf(a, b)).toEqual(before);
  });

  it('turns a dislike into a like, telling the person liked', async () => {
    const [a, b] = [await me(), await them()];
    expect((await dislike(a, b)).status).toBe(200);
    expect((await rowsOf(a, b)).events).toEqual([]);
    expect(await json<LikeResponse>(await like(a, b))).toEqual({ match: false });
    const rows = await rowsOf(a, b);
    expect(rows.swipes).toMatchObject([{ swiper_id: a.profileId, liked: 1 }]);
    expect(rows.events).toEqual([{ user_id: b.userId, type: 'badges' }]);
  });

  it('leaves a repeated like or dislike as it was', async () => {
    const [a, b] = [await me(), await them()];
    await like(a, b);
    const first = await rowsOf(a, b);
    await functionLeavesIt(a, b);
    await functionLeavesIt(a, b, false);
    expect(await json<LikeResponse>(await like(a, b))).toEqual({ match: false });
    expect(await json<LikeResponse>(await dislike(a, b))).toEqual({ match: false });
    expect(await rowsOf(a, b)).toEqual(first);
  });

  it('makes a match of crossing likes through the transaction path, telling both', async () => {
    const [a, b] = [await me(), await them()];
    expect(await json<LikeResponse>(await like(b, a))).toEqual({ match: false });
    await functionLeavesIt(a, b);
    expect(await json<LikeResponse>(await like(a, b))).toEqual({
      match: true,
      profile: { id: b.profileId, name: b.name, photo: expect.any(String) as unknown },
    });
    const rows = await rowsOf(a, b);
    expect(rows.swipes.map((s) => s.liked)).toEqual([1, 1]);
    expect(rows.matches).toBe(1);
    expect(
      rows.events
        .filter((e) => e.type === 'match')
        .map((e) => e.user_id)
        .sort(),
    ).toEqual([a.userId, b.userId].sort());
  });
});
