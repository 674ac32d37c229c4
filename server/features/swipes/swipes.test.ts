import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LikeResponse, PersonListItem, UsersProfileResponse } from '../../contract/discovery.ts';
import { json } from '../../test/browser.ts';
import { createPerson, searchAll, type Person } from '../../test/people.ts';
import { createTestApp, type TestApp } from '../../test/testApp.ts';
import { testDialects } from '../../test/testDatabase.ts';
import { freeLikesPerDay } from './rules.ts';

describe.each(testDialects())('swipes on %s', (dialect) => {
  let app: TestApp;
  beforeEach(async () => {
    app = await createTestApp(dialect);
  });
  afterEach(async () => {
    await app.close();
  });

  const like = (from: Person, to: Person) => from.browser.post('/api/like', { profile_id: to.profileId });
  const dislike = (from: Person, to: Person) => from.browser.post('/api/dislike', { profile_id: to.profileId });
  const ids = async (viewer: Person, params: Record<string, string> = {}) =>
    (await searchAll(viewer, params)).map((r) => r.id);

  it('makes likes idempotent and answers match on the mutual one', async () => {
    const a = await createPerson(app, { gender: 'Male' });
    const b = await createPerson(app, { name: 'Вера' });
    const first = await json<LikeResponse>(await like(a, b));
    // No match, so the answer names nobody (a swipe must not reveal more than search would).
    expect(first).toEqual({ match: false });
    expect((await like(a, b)).status).toBe(200);
    const swipes = await app.database.db
      .selectFrom('swipes')
      .selectAll()
      .where('swiper_id', '=', a.profileId)
      .execute();
    expect(swipes).toHaveLength(1);
    // A dislike never undoes the like.
    await dislike(a, b);
    expect(
      (
        await app.database.db
          .selectFrom('swipes')
          .select('liked')
          .where('swiper_id', '=', a.profileId)
          .executeTakeFirstOrThrow()
      ).liked,
    ).toBe(1);

    const mutual = await json<LikeResponse>(await like(b, a));
    expect(mutual).toEqual({
      match: true,
      profile: { id: a.profileId, name: a.name, photo: expect.any(String) as unknown },
    });
    expect((await json<LikeResponse>(await like(b, a))).match).toBe(true);
    expect(await app.database.db.selectFrom('matches').selectAll().execute()).toHaveLength(1);
  });

  it('creates exactly one match when two people like each other at the same moment', async () => {
    const pairs = await Promise.all(
      Array.from(
        { length: 8 },
        async () => [await createPerson(app, { gender: 'Male' }), await createPerson(app)] as const,
      ),
    );
    const answers = await Promise.all(pairs.flatMap(([a, b]) => [like(a, b), like(b, a)]));
    expect(answers.every((r) => r.status === 200)).toBe(true);
    const bodies = await Promise.all(answers.map((r) => json<LikeResponse>(r)));
    for (let i = 0; i < pairs.length; i++) {
      // At least the second of the two sees the match; never neither.
      expect(bodies[2 * i]?.match || bodies[2 * i + 1]?.match).toBe(true);
    }
    const matches = await app.database.db.selectFrom('matches').selectAll().execute();
    expect(matches).toHaveLength(pairs.length);
  });

  it('refuses liking yourself, an unknown, a blocked or a banned profile, and bad input', async () => {
    const me = await createPerson(app, { gender: 'Male' });
    const blocked = await createPerson(app);
    const banned = await createPerson(app, { banned: true });
    await blocked.browser.post('/api/block', { profile_id: me.profileId });
    const self = await like(me, me);
    expect(self.status).toBe(400);
    expect(await json(self)).toMatchObject({ code: 'cannot_swipe_self' });
    expect((await me.browser.post('/api/like', { profile_id: 999_999 })).status).toBe(404);
    expect((await like(me, blocked)).status).toBe(404);
    expect((await like(me, banned)).status).toBe(404);
    for (const body of [{}, { profile_id: 'abc' }, { profile_id: -1 }, { profile_id: 1, extra: true }]) {
      expect((await me.browser.post('/api/like', body)).status).toBe(400);
    }
    expect(await app.database.db.selectFrom('swipes').selectAll().execute()).toHaveLength(0);
  });

  it('asks a caller without a profile to make one first (409 profile_required), whoever the target, and writes nothing', async () => {
    const me = await createPerson(app, { gender: 'Male' });
    const her = await createPerson(app);
    await app.database.db.deleteFrom('profiles').where('id', '=', me.profileId).execute();
    for (const res of [
      await like(me, her),
      await dislike(me, her),
      await me.browser.post('/api/like', { profile_id: 999_999 }),
    ]) {
      expect(res.status).toBe(409);
      expect(await json(res)).toMatchObject({ code: 'profile_required' });
    }
    expect(await app.database.db.selectFrom('swipes').selectAll().execute()).toHaveLength(0);
  });

  it(`stops a free user at the ${freeLikesPerDay + 1}st like in 24 hours, and never a premium one`, async () => {
    const free = await createPerson(app, { gender: 'Male' });
    const premium = await createPerson(app, { gender: 'Male', premium: true });
    const targets = await Promise.all(Array.from({ length: freeLikesPerDay + 1 }, () => createPerson(app)));
    for (const target of targets.slice(0, freeLikesPerDay)) expect((await like(free, target)).status).toBe(200);
    const last = targets[freeLikesPerDay] as Person;
    const refused = await like(free, last);
    expect(refused.status).toBe(429);
    const body = await json<{ code: string; resets_at: string }>(refused);
    expect(body.code).toBe('like_limit');
    expect(Date.parse(body.resets_at)).toBeGreaterThan(app.clock.now().getTime());
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(86_000);
    // Repeating an old like or disliking is not limited.
    expect((await like(free, targets[0] as Person)).status).toBe(200);
    expect((await dislike(free, last)).status).toBe(200);
    for (const target of targets) expect((await like(premium, target)).status).toBe(200);
    app.clock.advance(24 * 3600 + 1);
    expect((await like(free, await createPerson(app))).status).toBe(200);
  });

  it('shows free users blurred likers without names and refuses the liker profile with "no subscribe"; premium sees them', async () => {
    const free = await createPerson(app, { gender: 'Male' });
    const premium = await createPerson(app, { gender: 'Male', premium: true });
    const admirer = await createPerson(app, { name: 'Ника', age: 24 });
    const stranger = await createPerson(app);
    await like(admirer, free);
    await like(admirer, premium);

    const freeList = await json<PersonListItem[]>(await free.browser.get('/api/likes'));
    expect(freeList).toEqual([
      {
        id: null,
        name: null,
        age: null,
        latest_photo: expect.stringMatching(/b{23}0\.jpg$/) as unknown,
        blurred: true,
      },
    ]);
    const refused = await free.browser.get(`/api/users_profile_liker?profile_id=${admirer.profileId}`);
    expect(refused.status).toBe(403);
    expect((await json(refused)).error).toBe('no subscribe');

    const premiumList = await json<PersonListItem[]>(await premium.browser.get('/api/likes'));
    expect(premiumList).toEqual([
      { id: admirer.profileId, name: 'Ника', age: 24, latest_photo: expect.stringMatching(/a{23}0\.jpg$/) as unknown },
    ]);
    const opened = await premium.browser.get(`/api/users_profile_liker?profile_id=${admirer.profileId}`);
    expect(opened.status).toBe(200);
    expect((await json<UsersProfileResponse>(opened)).users_profile).toMatchObject({
      id: admirer.profileId,
      name: 'Ника',
      age: 24,
    });
    expect((await premium.browser.get(`/api/users_profile_liker?profile_id=${stranger.profileId}`)).status).toBe(404);
    // Once answered, the liker leaves the list.
    await dislike(premium, admirer);
    expect(await json(await premium.browser.get('/api/likes'))).toEqual([]);
  });

  it('opens a profile only for a current match, and unmatch or block removes the other person from every list', async () => {
    const a = await createPerson(app, { gender: 'Male' });
    const b = await createPerson(app);
    const c = await createPerson(app);
    expect((await a.browser.get(`/api/users_profile?profile_id=${b.profileId}`)).status).toBe(404);
    await like(a, b);
    await like(b, a);
    await like(a, c);
    await like(c, a);
    expect((await json<PersonListItem[]>(await a.browser.get('/api/matches'))).map((m) => m.id).sort()).toEqual(
      [b.profileId, c.profileId].sort(),
    );
    expect((await a.browser.get(`/api/users_profile?profile_id=${b.profileId}`)).status).toBe(200);

    expect((await a.browser.post('/api/unmatch', { profile_id: b.profileId })).status).toBe(200);
    expect((await a.browser.post('/api/unmatch', { profile_id: b.profileId })).status).toBe(404);
    expect((await c.browser.post('/api/block', { profile_id: a.profileId })).status).toBe(200);
    for (const [viewer, other] of [
      [a, b],
      [b, a],
      [a, c],
      [c, a],
    ] as const) {
      expect((await json<PersonListItem[]>(await viewer.browser.get('/api/matches'))).map((m) => m.id)).not.toContain(
        other.profileId,
      );
      expect((await json<PersonListItem[]>(await viewer.browser.get('/api/likes'))).map((m) => m.id)).not.toContain(
        other.profileId,
      );
      expect((await viewer.browser.get(`/api/users_profile?profile_id=${other.profileId}`)).status).toBe(404);
      expect(await ids(viewer, { gender: 'Any' })).not.toContain(other.profileId);
    }
    expect((await like(a, c)).status).toBe(404);
  });

  it('refuses a swipe on anyone search would not show (404, no data, nothing written) unless they liked the caller', async () => {
    const me = await createPerson(app, { gender: 'Male' });
    const hidden = await createPerson(app, { privateMode: true, name: 'Скрытая' });
    const held = await createPerson(app, { name: 'Задержанная' });
    await app.database.db
      .updateTable('profiles')
      .set({ held_at: app.clock.now().toISOString() })
      .where('id', '=', held.profileId)
      .execute();
    const blocking = await createPerson(app);
    await blocking.browser.post('/api/block', { profile_id: me.profileId });
    const unverified = await createPerson(app, { verified: false });
    // Search would not show him a woman who wants only women: nor may he land among her likers by id.
    const wantsWomen = await createPerson(app, { gender: 'Female', preferred: 'Female' });
    for (const target of [hidden, held, blocking, unverified, wantsWomen]) {
      for (const swipe of [like, dislike]) {
        const refused = await swipe(me, target);
        expect(refused.status).toBe(404);
        // Exactly what an id that does not exist answers: nothing tells the two apart.
        expect(await json(refused)).toEqual({ error: 'Profile not found', code: 'profile_not_found' });
      }
    }
    expect(
      await app.database.db.selectFrom('swipes').selectAll().where('swiper_id', '=', me.profileId).execute(),
    ).toHaveLength(0);
    // The private user's likers list does not gain the caller either.
    expect(await json<PersonListItem[]>(await hidden.browser.get('/api/likes'))).toEqual([]);

    // Someone who liked the caller may be swiped back from the likers list, private or held.
    for (const admirer of [hidden, held]) {
      expect((await like(admirer, me)).status).toBe(200);
      expect(await json(await like(me, admirer))).toEqual({
        match: true,
        profile: { id: admirer.profileId, name: admirer.name, photo: expect.any(String) as unknown },
      });
    }
  });
});
