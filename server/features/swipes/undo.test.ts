import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PersonListItem, SearchResult, UndoResponse } from '../../contract/discovery.ts';
import { json } from '../../test/browser.ts';
import { createPerson, type Person } from '../../test/people.ts';
import { createTestApp, type TestApp } from '../../test/testApp.ts';
import { testDialects } from '../../test/testDatabase.ts';
import { undoWithinSeconds } from './rules.ts';

describe.each(testDialects())('undo on %s', (dialect) => {
  let app: TestApp;
  beforeEach(async () => {
    app = await createTestApp(dialect);
  });
  afterEach(async () => {
    await app.close();
  });

  const like = (from: Person, to: Person) => from.browser.post('/api/like', { profile_id: to.profileId });
  const dislike = (from: Person, to: Person) => from.browser.post('/api/dislike', { profile_id: to.profileId });
  const undo = (person: Person) => person.browser.post('/api/undo', {});
  const card = async (viewer: Person, exclude: number[] = []) =>
    json<SearchResult>(await viewer.browser.get(`/api/search${exclude.length ? `?exclude=${exclude.join(',')}` : ''}`));
  const swipesBy = (person: Person) =>
    app.database.db.selectFrom('swipes').selectAll().where('swiper_id', '=', person.profileId).execute();

  it('takes back the last dislike and answers its person, whose card search shows again', async () => {
    const me = await createPerson(app, { gender: 'Male', premium: true });
    const near = await createPerson(app, { at: [55.7558, 37.6173] });
    const farther = await createPerson(app, { at: [55.9, 37.9] });
    // Search pools them first, so the undone person must come back through the pool's change check.
    expect((await card(me)).profile_id).toBe(near.profileId);
    await dislike(me, near);
    expect((await card(me)).profile_id).toBe(farther.profileId);
    const answer = await undo(me);
    expect(answer.status).toBe(200);
    expect(await json<UndoResponse>(answer)).toEqual({ profile_id: near.profileId });
    expect(await swipesBy(me)).toEqual([]);
    expect((await card(me, [farther.profileId])).profile_id).toBe(near.profileId);
    // An expired pool (a frontier that learnt nobody near is left) lets them back too.
    await dislike(me, near);
    app.clock.advance(7 * 3600);
    expect((await card(me)).profile_id).toBe(farther.profileId);
    app.clock.advance(-7 * 3600 + 60);
    expect((await json<UndoResponse>(await undo(me))).profile_id).toBe(near.profileId);
    app.clock.advance(7 * 3600);
    expect((await card(me)).profile_id).toBe(near.profileId);
  });

  it('takes an undone like out of the other person’s likers and badge', async () => {
    const me = await createPerson(app, { gender: 'Male' });
    const her = await createPerson(app, { premium: true });
    await like(me, her);
    expect((await json<PersonListItem[]>(await her.browser.get('/api/likes'))).map((l) => l.id)).toEqual([
      me.profileId,
    ]);
    expect((await json<{ new_likers: number }>(await her.browser.get('/api/badges'))).new_likers).toBe(1);
    expect((await json<UndoResponse>(await undo(me))).profile_id).toBe(her.profileId);
    expect(await json(await her.browser.get('/api/likes'))).toEqual([]);
    expect((await json<{ new_likers: number }>(await her.browser.get('/api/badges'))).new_likers).toBe(0);
    // Her live stream was told to read her badges again.
    const markers = await app.database.db
      .selectFrom('events')
      .select('type')
      .where('user_id', '=', her.userId)
      .execute();
    expect(markers.filter((e) => e.type === 'badges').length).toBeGreaterThanOrEqual(2);
  });

  it('refuses with nothing to undo, a swipe too old, and a swipe that made a match, changing nothing', async () => {
    const me = await createPerson(app, { gender: 'Male', premium: true });
    const nothing = await undo(me);
    expect(nothing.status).toBe(409);
    expect(await json(nothing)).toMatchObject({ code: 'nothing_to_undo', error: expect.any(String) as unknown });

    const old = await createPerson(app);
    await dislike(me, old);
    app.clock.advance(undoWithinSeconds + 1);
    const tooOld = await undo(me);
    expect(tooOld.status).toBe(409);
    expect(await json(tooOld)).toMatchObject({ code: 'undo_too_old' });

    const her = await createPerson(app);
    await like(her, me);
    expect((await json<{ match: boolean }>(await like(me, her))).match).toBe(true);
    const matched = await undo(me);
    expect(matched.status).toBe(409);
    expect(await json(matched)).toMatchObject({ code: 'undo_match' });
    // Unmatched since, the swipe that made it still cannot be taken back.
    await me.browser.post('/api/unmatch', { profile_id: her.profileId });
    expect(await json(await undo(me))).toMatchObject({ code: 'undo_match' });
    expect((await swipesBy(me)).map((s) => s.target_id).sort()).toEqual([old.profileId, her.profileId].sort());
    expect(await app.database.db.selectFrom('swipe_undos').selectAll().execute()).toEqual([]);
  });

  it('only ever takes back the caller’s own swipe, never someone else’s', async () => {
    const me = await createPerson(app, { gender: 'Male' });
    const other = await createPerson(app, { gender: 'Male' });
    const her = await createPerson(app);
    await like(other, her);
    expect(await json(await undo(me))).toMatchObject({ code: 'nothing_to_undo' });
    // The body names nobody: a profile id in it is refused, not obeyed.
    const named = await me.browser.post('/api/undo', { profile_id: her.profileId });
    expect(named.status).toBe(400);
    expect(await json(named)).toMatchObject({ code: expect.any(String) as unknown });
    expect(await swipesBy(other)).toHaveLength(1);
    expect((await json<PersonListItem[]>(await her.browser.get('/api/likes'))).length).toBe(1);
    expect((await app.database.db.selectFrom('swipes').selectAll().execute()).length).toBe(1);
  });

  it('lets a free user undo once a rolling day, even with parallel requests, and a premium user every time', async () => {
    const free = await createPerson(app, { gender: 'Male' });
    const premium = await createPerson(app, { gender: 'Male', premium: true });
    const women = await Promise.all(Array.from({ length: 6 }, () => createPerson(app)));
    for (const w of women) await dislike(free, w);
    const answers = await Promise.all(Array.from({ length: 5 }, () => undo(free)));
    expect(answers.filter((r) => r.status === 200)).toHaveLength(1);
    const refused = answers.filter((r) => r.status !== 200);
    for (const r of refused) {
      expect(r.status).toBe(429);
      expect(await json(r)).toMatchObject({ code: 'undo_limit', limit: 1, resets_at: expect.any(String) as unknown });
    }
    expect(await swipesBy(free)).toHaveLength(women.length - 1);
    app.clock.advance(24 * 3600 + 1);
    // A day later the limit is back, but the swipes are too old to undo.
    expect(await json(await undo(free))).toMatchObject({ code: 'undo_too_old' });
    await dislike(free, await createPerson(app));
    expect((await undo(free)).status).toBe(200);

    for (const w of women) await dislike(premium, w);
    const all = await Promise.all(Array.from({ length: 3 }, () => undo(premium)));
    expect(all.map((r) => r.status)).toEqual([200, 200, 200]);
    const ids = await Promise.all(all.map(async (r) => (await json<UndoResponse>(r)).profile_id));
    expect(new Set(ids).size).toBe(3);
    expect(await swipesBy(premium)).toHaveLength(women.length - 3);
  });

  it('never lets an undo and the other person’s like back both win', async () => {
    for (let i = 0; i < 6; i++) {
      const me = await createPerson(app, { gender: 'Male', premium: true });
      const her = await createPerson(app);
      await like(me, her);
      const [undone, likedBack] = await Promise.all([undo(me), like(her, me)]);
      const matched = (await json<{ match: boolean }>(likedBack)).match;
      const matches = await app.database.db
        .selectFrom('matches')
        .selectAll()
        .where('profile_low', '=', me.profileId)
        .execute();
      if (undone.status === 200) {
        expect(matched).toBe(false);
        expect(matches).toHaveLength(0);
      } else {
        expect(await json(undone)).toMatchObject({ code: 'undo_match' });
        expect(matched).toBe(true);
        expect(matches).toHaveLength(1);
      }
    }
  });
});
