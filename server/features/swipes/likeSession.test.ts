import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProfileId } from '../../../db/schema.ts';
import { Browser, json } from '../../test/browser.ts';
import { createPerson, type Person } from '../../test/people.ts';
import { createTestApp, testSessionSecret, type TestApp } from '../../test/testApp.ts';
import { testDialects } from '../../test/testDatabase.ts';
import { SessionTokens } from '../sessions/index.ts';

/**
 * A like or dislike checks its own session: on PostgreSQL the session loader leaves the session unread and
 * the like's one statement reads it (iskra_session_swipe), on SQLite the loader reads it as for any POST. On
 * both, a session that has ended is refused with 401 and nothing of the like is written, a live one likes and
 * gets its bookkeeping ("last seen", the activity mark) when due, and a bearer token's refusal comes first,
 * whatever else is wrong with the request.
 */
describe.each(testDialects())('a like and its session on %s', (dialect) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp(dialect);
  });
  afterAll(async () => {
    await app.close();
  });

  const swipesBy = async (profileId: ProfileId) =>
    (await app.database.db.selectFrom('swipes').select('target_id').where('swiper_id', '=', profileId).execute()).map(
      (r) => r.target_id,
    );
  const sessionId = (person: Person) => person.browser.cookie('iskra_session') ?? '';
  /** Another browser with the same session cookie (a sign-out clears the cookie of the browser it came from). */
  const sameSession = (person: Person) => {
    const copy = new Browser(app.url);
    copy.setCookie('iskra_session', sessionId(person));
    return copy;
  };
  const tokenOf = (person: Person) => {
    const now = app.clock.now();
    return new SessionTokens(testSessionSecret).sign(
      sessionId(person),
      person.userId,
      now,
      new Date(now.getTime() + 86_400_000),
    );
  };
  const postWithToken = (token: string, path: string, body: string) =>
    fetch(`${app.url}${path}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body,
    });

  const endings: [string, (person: Person) => Promise<void>][] = [
    [
      'signed out',
      async (person) => {
        expect((await person.browser.post('/api/logout')).status).toBe(200);
      },
    ],
    [
      'expired',
      async (person) => {
        await app.database.db
          .updateTable('sessions')
          .set({ expires_at: new Date(app.clock.now().getTime() - 1000).toISOString() })
          .where('user_id', '=', person.userId)
          .execute();
      },
    ],
    [
      'its account banned',
      async (person) => {
        await app.database.db
          .updateTable('users')
          .set({ banned_at: app.clock.now().toISOString() })
          .where('id', '=', person.userId)
          .execute();
      },
    ],
  ];

  it.each(endings)(
    'refuses a like and a dislike with 401 once the session ended (%s), writing nothing',
    async (_, end) => {
      const me = await createPerson(app, { gender: 'Male' });
      const [liked, disliked] = [await createPerson(app), await createPerson(app)];
      const browser = sameSession(me);
      await browser.csrfToken();
      // Live first: the same requests would be answered (a dislike of someone else, so nothing is used up).
      expect((await browser.post('/api/dislike', { profile_id: (await createPerson(app)).profileId })).status).toBe(
        200,
      );
      await end(me);
      const like = await browser.post('/api/like', { profile_id: liked.profileId });
      expect(like.status).toBe(401);
      expect(await json(like)).toMatchObject({ code: 'unauthorized' });
      expect((await browser.post('/api/dislike', { profile_id: disliked.profileId })).status).toBe(401);
      expect((await browser.post('/api/like', { profile_id: liked.profileId, message: 'Hi' })).status).toBe(401);
      expect(await swipesBy(me.profileId)).toHaveLength(1);
      expect(await swipesBy(liked.profileId)).toEqual([]);
    },
  );

  it('likes for a live session and writes its "last seen" and activity mark only when they are due', async () => {
    const me = await createPerson(app, { gender: 'Male' });
    const db = app.database.db;
    const lastSeen = async () =>
      (await db.selectFrom('sessions').select('last_seen_at').where('user_id', '=', me.userId).executeTakeFirst())
        ?.last_seen_at;
    const activeAt = async () =>
      (await db.selectFrom('profiles').select('active_at').where('id', '=', me.profileId).executeTakeFirst())
        ?.active_at;
    const now = app.clock.now();
    const ago = (seconds: number) => new Date(now.getTime() - seconds * 1000).toISOString();
    /** "Last seen" and the activity mark, written that many seconds ago. */
    const markedAgo = async (seen: number, active: number) => {
      await db
        .updateTable('sessions')
        .set({ last_seen_at: ago(seen) })
        .where('user_id', '=', me.userId)
        .execute();
      await db
        .updateTable('profiles')
        .set({ active_at: ago(active) })
        .where('id', '=', me.profileId)
        .execute();
    };
    // Neither written for 2 hours: the like marks both (on SQLite after the answer: not awaited there).
    await markedAgo(7200, 7200);
    const first = await createPerson(app);
    expect(await json(await me.browser.post('/api/like', { profile_id: first.profileId }))).toEqual({ match: false });
    await expect.poll(lastSeen).toBe(now.toISOString());
    await expect.poll(activeAt).toBe(now.toISOString());
    expect(await swipesBy(me.profileId)).toEqual([first.profileId]);
    // "Last seen" a minute ago: nothing is due, the activity mark included, however old.
    await markedAgo(60, 7200);
    const second = await createPerson(app);
    expect((await me.browser.post('/api/dislike', { profile_id: second.profileId })).status).toBe(200);
    expect(await swipesBy(me.profileId)).toEqual(expect.arrayContaining([first.profileId, second.profileId]));
    expect(await lastSeen()).toBe(ago(60));
    expect(await activeAt()).toBe(ago(7200));
  });

  it('likes with a live bearer token and no CSRF token; an ended one is refused with 401 before anything else', async () => {
    const me = await createPerson(app, { gender: 'Male' });
    const [first, second] = [await createPerson(app), await createPerson(app)];
    const token = await tokenOf(me);
    const like = await postWithToken(token, '/api/like', JSON.stringify({ profile_id: first.profileId }));
    expect(like.status).toBe(200);
    expect(await json(like)).toEqual({ match: false });
    // A live token with bad input: the input's refusal, as for any request.
    expect((await postWithToken(token, '/api/like', JSON.stringify({ profile_id: 'x' }))).status).toBe(400);
    await app.database.db.deleteFrom('sessions').where('user_id', '=', me.userId).execute();
    for (const body of [JSON.stringify({ profile_id: second.profileId }), '{"profile_id":', '{"profile_id":"x"}']) {
      const refused = await postWithToken(token, '/api/like', body);
      expect(refused.status, body).toBe(401);
      expect(await json(refused)).toMatchObject({ code: 'unauthorized' });
    }
    expect((await postWithToken(token, '/api/dislike', JSON.stringify({ profile_id: second.profileId }))).status).toBe(
      401,
    );
    expect(await swipesBy(me.profileId)).toEqual([first.profileId]);
    // A token not of ours proves nothing: the CSRF check refuses it, as on every POST.
    const forged = await postWithToken('x', '/api/like', JSON.stringify({ profile_id: second.profileId }));
    expect(forged.status).toBe(403);
  });

  it('answers bad input before an ended cookie session, as every POST does', async () => {
    const me = await createPerson(app, { gender: 'Male' });
    const browser = sameSession(me);
    await browser.csrfToken();
    expect((await me.browser.post('/api/logout')).status).toBe(200);
    expect((await browser.post('/api/like', { profile_id: 'x' })).status).toBe(400);
    expect((await browser.post('/api/like', { profile_id: 1 })).status).toBe(401);
  });
});
