import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SearchResult } from '../../contract/discovery.ts';
import { Browser, json } from '../../test/browser.ts';
import { createPerson, searchAll, type Person } from '../../test/people.ts';
import { createTestApp, type TestApp } from '../../test/testApp.ts';
import { testDialects } from '../../test/testDatabase.ts';

const moscow: [number, number] = [55.7558, 37.6173];
/** A point `km` kilometres north of Moscow's centre. */
const north = (km: number): [number, number] => [moscow[0] + km / 111.2, moscow[1]];

describe.each(testDialects())('search on %s', (dialect) => {
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

  it('shows only eligible people: every exclusion rule', async () => {
    const viewer = await createPerson(app, { gender: 'Male', age: 30 });
    const eligible = await createPerson(app, { gender: 'Female' });
    const unverified = await createPerson(app, { verified: false });
    const banned = await createPerson(app, { banned: true });
    const liked = await createPerson(app);
    const disliked = await createPerson(app);
    const blockedByViewer = await createPerson(app);
    const blockingViewer = await createPerson(app);
    const hidden = await createPerson(app, { privateMode: true });
    const hiddenButLikedViewer = await createPerson(app, { privateMode: true });
    const male = await createPerson(app, { gender: 'Male', preferred: 'Any' });
    const wantsWomen = await createPerson(app, { gender: 'Female', preferred: 'Female' });
    const wantsAnyone = await createPerson(app, { gender: 'Female', preferred: 'Any' });

    expect((await like(viewer, liked)).status).toBe(200);
    expect((await dislike(viewer, disliked)).status).toBe(200);
    expect((await viewer.browser.post('/api/block', { profile_id: blockedByViewer.profileId })).status).toBe(200);
    expect((await blockingViewer.browser.post('/api/block', { profile_id: viewer.profileId })).status).toBe(200);
    expect((await like(hiddenButLikedViewer, viewer)).status).toBe(200);

    const seen = await ids(viewer, { gender: 'Female' });
    expect(seen.sort()).toEqual([eligible.profileId, hiddenButLikedViewer.profileId, wantsAnyone.profileId].sort());
    for (const excluded of [
      viewer,
      unverified,
      banned,
      liked,
      disliked,
      blockedByViewer,
      blockingViewer,
      hidden,
      male,
      wantsWomen,
    ]) {
      expect(seen).not.toContain(excluded.profileId);
    }
    // Gender filter Any adds the man who accepts anyone.
    expect(await ids(viewer, { gender: 'Any' })).toContain(male.profileId);
    // The blocker does not see the viewer either.
    expect(await ids(blockingViewer, { gender: 'Any' })).not.toContain(viewer.profileId);
  });

  it('keeps the age filter edges inclusive at 18 and 100', async () => {
    const viewer = await createPerson(app, { gender: 'Male' });
    const [a18, a19, a99, a100] = [
      await createPerson(app, { age: 18 }),
      await createPerson(app, { age: 19 }),
      await createPerson(app, { age: 99 }),
      await createPerson(app, { age: 100 }),
    ];
    expect(await ids(viewer, { ageMin: '18', ageMax: '18' })).toEqual([a18.profileId]);
    expect(await ids(viewer, { ageMin: '100', ageMax: '100' })).toEqual([a100.profileId]);
    expect((await ids(viewer, { ageMin: '19', ageMax: '99' })).sort()).toEqual([a19.profileId, a99.profileId].sort());
    for (const bad of ['ageMin=17', 'ageMax=101', 'ageMin=50&ageMax=40', 'gender=Robot', 'exclude=1;2', 'spy=1']) {
      const res = await viewer.browser.get(`/api/search?${bad}`);
      expect(res.status).toBe(400);
    }
  });

  it('orders nearest first with whole kilometres, and boosts premium and likers only a bounded amount', async () => {
    const viewer = await createPerson(app, { gender: 'Male', at: moscow });
    const near = await createPerson(app, { at: north(3) });
    const mid = await createPerson(app, { at: north(8) });
    const premiumMid = await createPerson(app, { at: north(10), premium: true });
    const far = await createPerson(app, { at: north(40) });
    const farPremiumLiker = await createPerson(app, { at: north(52), premium: true });
    const nowhere = await createPerson(app, { at: null });
    await like(farPremiumLiker, viewer);

    const results = await searchAll(viewer);
    // premiumMid (10 km, boosted 5) passes mid (8 km); the 52 km premium liker (boost 15) passes the 40 km one;
    // nobody jumps from another distance band; people without a location come last.
    expect(results.map((r) => r.id)).toEqual([
      near.profileId,
      premiumMid.profileId,
      mid.profileId,
      farPremiumLiker.profileId,
      far.profileId,
      nowhere.profileId,
    ]);
    // Distances are between grid cells: within a kilometre of the true one.
    const expected = [3, 10, 8, 52, 40];
    results.slice(0, 5).forEach((r, i) => {
      expect(Math.abs((r.distance ?? -99) - (expected[i] ?? 0))).toBeLessThanOrEqual(1);
    });
    expect(results[5]?.distance).toBeNull();
  });

  it('never answers the same person twice in a row while the app holds them, and 404s when nobody is left', async () => {
    const viewer = await createPerson(app, { gender: 'Male' });
    const only = await createPerson(app);
    const first = await json<SearchResult>(await viewer.browser.get('/api/search'));
    expect(first.profile_id).toBe(only.profileId);
    expect(first.photo.split(',')).toHaveLength(1);
    const next = await viewer.browser.get(`/api/search?exclude=${only.profileId}`);
    expect(next.status).toBe(404);
    expect(await json(next)).toEqual({
      error: 'No more profiles available, try changing search conditions',
      code: 'no_more_profiles',
    });

    const noProfile = new Browser(app.url);
    await noProfile.post('/api/register', { email: `np-${Date.now()}@example.com`, password: 'secret123!' });
    expect(await json(await noProfile.get('/api/search'))).toEqual({ userprofile: false });
    expect((await new Browser(app.url).get('/api/search')).status).toBe(401);
  });

  it('hides a private profile until it likes someone, through the settings endpoint', async () => {
    const viewer = await createPerson(app, { gender: 'Male' });
    const shy = await createPerson(app);
    expect(await json(await shy.browser.get('/api/settings'))).toEqual({
      private_mode: false,
      notifications: true,
      email_notifications: true,
      push_notifications: true,
      preferred_gender: 'Male',
      show_activity: true,
      telegram_linked: false,
    });
    expect(await json(await shy.browser.post('/api/settings', { private_mode: true }))).toEqual({
      private_mode: true,
      notifications: true,
      email_notifications: true,
      push_notifications: true,
      preferred_gender: 'Male',
      show_activity: true,
      telegram_linked: false,
    });
    expect((await shy.browser.post('/api/settings', { private_mode: 'yes' })).status).toBe(400);
    expect(await ids(viewer)).toEqual([]);
    await like(shy, viewer);
    expect(await ids(viewer)).toEqual([shy.profileId]);
  });

  it('tells the menu whether a Telegram account is linked (the bot notifications reach nobody without one)', async () => {
    const webOnly = await createPerson(app);
    expect(await json(await webOnly.browser.get('/api/settings'))).toMatchObject({
      notifications: true,
      telegram_linked: false,
    });
    await app.database.db
      .updateTable('users')
      .set({ telegram_id: '5000000123' })
      .where('id', '=', webOnly.userId)
      .execute();
    expect(await json(await webOnly.browser.get('/api/settings'))).toMatchObject({
      notifications: true,
      telegram_linked: true,
    });
    expect(await json(await webOnly.browser.post('/api/settings', { notifications: false }))).toMatchObject({
      notifications: false,
      telegram_linked: true,
    });
    // Not a setting anyone can write.
    expect((await webOnly.browser.post('/api/settings', { telegram_linked: false })).status).toBe(400);
  });

  it('never stores the gender filter on a search (a GET); POST /api/settings does, with CSRF', async () => {
    const viewer = await createPerson(app, { gender: 'Male' });
    const preference = async () =>
      (
        await app.database.db
          .selectFrom('profiles')
          .select('preferred_gender')
          .where('id', '=', viewer.profileId)
          .executeTakeFirstOrThrow()
      ).preferred_gender;
    expect((await viewer.browser.get('/api/search?gender=Any')).status).toBe(404);
    expect((await viewer.browser.get('/api/search?gender=Male')).status).toBe(404);
    expect(await preference()).toBe('Female');
    // A cross-site form cannot make the change: the CSRF token is required.
    expect((await viewer.browser.post('/api/settings', { preferred_gender: 'Male' }, { csrf: false })).status).toBe(
      403,
    );
    expect((await viewer.browser.post('/api/settings', { preferred_gender: 'Neither' })).status).toBe(400);
    expect(await preference()).toBe('Female');
    expect(await json(await viewer.browser.post('/api/settings', { preferred_gender: 'Any' }))).toMatchObject({
      preferred_gender: 'Any',
    });
    expect(await preference()).toBe('Any');
  });

  it('finds people of the gender Other with the Other filter, and shows an Other viewer to those looking for Other', async () => {
    const viewer = await createPerson(app, { gender: 'Other', preferred: 'Other' });
    const lookingForOther = await createPerson(app, { gender: 'Other', preferred: 'Other' });
    const lookingForMen = await createPerson(app, { gender: 'Other', preferred: 'Male' });
    const woman = await createPerson(app, { gender: 'Female', preferred: 'Any' });
    expect(await ids(viewer, { gender: 'Other' })).toEqual([lookingForOther.profileId]);
    expect(await ids(viewer, { gender: 'Any' })).toEqual(
      expect.arrayContaining([lookingForOther.profileId, woman.profileId]),
    );
    expect(await ids(viewer, { gender: 'Any' })).not.toContain(lookingForMen.profileId);
    // The preference is stored through the settings endpoint and read back as given.
    expect(await json(await viewer.browser.post('/api/settings', { preferred_gender: 'Other' }))).toMatchObject({
      preferred_gender: 'Other',
    });
    // Liking works both ways under the reciprocal rule (someone who looks for Other accepts an Other viewer).
    expect((await like(viewer, lookingForOther)).status).toBe(200);
    expect((await like(lookingForOther, viewer)).status).toBe(200);
  });

  it('limits search to 60 calls a minute per user', async () => {
    const viewer = await createPerson(app, { gender: 'Male' });
    for (let i = 0; i < 60; i++) expect((await viewer.browser.get('/api/search')).status).toBe(404);
    const limited = await viewer.browser.get('/api/search');
    expect(limited.status).toBe(429);
    expect(await json(limited)).toMatchObject({ code: 'search_rate_limited' });
    // Two minutes on, the sliding minute (rateLimits/rateCounter.ts) holds none of them.
    app.clock.advance(120);
    expect((await viewer.browser.get('/api/search')).status).toBe(404);
  });

  it('answers a sample profile for the tutorial', async () => {
    const viewer = await createPerson(app, { gender: 'Male' });
    expect(await json(await viewer.browser.get('/api/training'))).toMatchObject({ name: 'Алиса', distance: 1 });
  });

  it('never shows coordinates, e-mail, Telegram ids or sub-kilometre distances of another person', async () => {
    const viewer = await createPerson(app, { gender: 'Male', at: moscow, premium: true });
    const other = await createPerson(app, { at: north(0.3) });
    const third = await createPerson(app, { at: north(0.05) });
    await like(other, viewer);
    await like(third, viewer);
    const responses: unknown[] = [];
    responses.push(await json(await viewer.browser.get('/api/likes')));
    responses.push(await json(await viewer.browser.get(`/api/users_profile_liker?profile_id=${other.profileId}`)));
    responses.push(await json(await viewer.browser.get('/api/search')));
    responses.push(await json(await like(viewer, other)));
    responses.push(await json(await viewer.browser.get('/api/matches')));
    responses.push(await json(await viewer.browser.get(`/api/users_profile?profile_id=${other.profileId}`)));
    responses.push(await json(await third.browser.get('/api/search')));

    const forbidden =
      /(^|_)(lat|lng|lon|latitude|longitude|coords?|geo)($|_)|e?mail|telegram|tg_id|username|password|hash|token|session|premium_until/i;
    const walk = (value: unknown, path: string): void => {
      if (Array.isArray(value)) return value.forEach((v, i) => walk(v, `${path}[${i}]`));
      if (value && typeof value === 'object') {
        for (const [key, v] of Object.entries(value)) {
          // The @username swap (issue 39): its state, and the username itself only once both have shared (not here).
          const swap = key === 'username_share' || (key === 'telegram_username' && v === null);
          expect(forbidden.test(key) && !swap, `${path}.${key}`).toBe(false);
          if (key === 'distance' && v !== null) {
            expect(Number.isInteger(v), `${path}.distance`).toBe(true);
            expect(v as number).toBeGreaterThanOrEqual(1);
          }
          walk(v, `${path}.${key}`);
        }
      } else if (typeof value === 'string') {
        expect(value, path).not.toMatch(/@example\.com/);
      }
    };
    responses.forEach((r, i) => walk(r, `response${i}`));
    expect(responses.length).toBe(7);
  });

  it('makes two people in one grid cell indistinguishable wherever the caller stands', async () => {
    // Two true positions 300 m apart in the same ~1 km cell.
    const p1: [number, number] = [55.75101, 37.61201];
    const p2: [number, number] = [55.75349, 37.61452];
    const x = await createPerson(app, { at: p1 });
    const y = await createPerson(app, { at: p2 });
    const viewers = await Promise.all(
      [
        [55.7, 37.5],
        [55.7512, 37.613],
        [55.8, 37.7],
        [59.9386, 30.3141],
        [55.7489, 37.6111],
      ].map((at) => createPerson(app, { gender: 'Male', at: at as [number, number] })),
    );
    const look = async () => Promise.all(viewers.map(async (v) => searchAll(v)));
    const before = await look();
    for (const seen of before) {
      const [first, second] = seen;
      expect(first?.distance).toBe(second?.distance);
    }
    // Swap their true positions through the real API (which snaps on write): nobody can tell.
    expect((await x.browser.post('/api/edit_profile', { latitude: p2[0], longitude: p2[1] })).status).toBe(200);
    expect((await y.browser.post('/api/edit_profile', { latitude: p1[0], longitude: p1[1] })).status).toBe(200);
    expect(await look()).toEqual(before);
  });
});
