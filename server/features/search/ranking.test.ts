import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SearchResult, SettingsResponse, UsersProfileResponse } from '../../contract/discovery.ts';
import { json } from '../../test/browser.ts';
import { createPerson, searchAll, type Person } from '../../test/people.ts';
import { createTestApp, type TestApp } from '../../test/testApp.ts';
import { testDialects } from '../../test/testDatabase.ts';
import { searchEngines } from './engines.ts';

const moscow: [number, number] = [55.7558, 37.6173];
/** A point `km` kilometres north of Moscow's centre. */
const north = (km: number): [number, number] => [moscow[0] + km / 111.2, moscow[1]];
const day = 86_400_000;

/**
 * The deck's order (ranking.ts), the distance limit and what others learn of someone's activity, through the
 * real API, with each search engine (SEARCH_ENGINE) serving it.
 */
describe.each(testDialects().flatMap((dialect) => searchEngines.map((engine) => [dialect, engine] as const)))(
  'ranking, distance limit and activity on %s, %s engine',
  (dialect, engine) => {
    let app: TestApp;
    beforeEach(async () => {
      app = await createTestApp(dialect, { searchEngine: engine });
    });
    afterEach(async () => {
      await app.close();
    });

    const ids = async (viewer: Person, params: Record<string, string> = {}) =>
      (await searchAll(viewer, params)).map((r) => r.id);
    const ago = (ms: number) => new Date(app.clock.now().getTime() - ms);
    const card = async (viewer: Person, params: Record<string, string> = {}) => {
      const res = await viewer.browser.get(`/api/search?${new URLSearchParams(params).toString()}`);
      expect(res.status).toBe(200);
      return json<SearchResult>(res);
    };

    it('puts someone 8 km away and about his age before someone 1 km away and 10 years apart (a 30-year-old, default filter)', async () => {
      const viewer = await createPerson(app, { gender: 'Male', age: 30, at: moscow });
      const nextDoorOlder = await createPerson(app, { age: 40, at: north(1) });
      const fartherHisAge = await createPerson(app, { age: 32, at: north(8) });
      expect(await ids(viewer)).toEqual([fartherHisAge.profileId, nextDoorOlder.profileId]);
      // Narrowed to 38-42, the middle of the range (40) is the age the deck prefers: the neighbour comes first.
      expect(await ids(viewer, { ageMin: '38', ageMax: '42' })).toEqual([nextDoorOlder.profileId]);
      expect(await ids(viewer, { ageMin: '30', ageMax: '42' })).toEqual([
        nextDoorOlder.profileId,
        fartherHisAge.profileId,
      ]);
    });

    it('puts someone his age 45 km away after someone his age 8 km away', async () => {
      const viewer = await createPerson(app, { gender: 'Male', age: 30, at: moscow });
      const far = await createPerson(app, { age: 30, at: north(45) });
      const near = await createPerson(app, { age: 30, at: north(8) });
      expect(await ids(viewer)).toEqual([near.profileId, far.profileId]);
    });

    it('puts someone last active a month ago after an otherwise equal person active today', async () => {
      const viewer = await createPerson(app, { gender: 'Male', age: 30, at: moscow });
      // Created first: with a lower id, which alone would put them first.
      const monthAgo = await createPerson(app, { age: 30, at: north(5), activeAt: ago(31 * day) });
      const today = await createPerson(app, { age: 30, at: north(5), activeAt: ago(2 * 3_600_000) });
      expect(await ids(viewer)).toEqual([today.profileId, monthAgo.profileId]);
    });

    it('shows someone who becomes visible in a nearer tier before the farther people already ranked, however long inactive', async () => {
      const viewer = await createPerson(app, { gender: 'Male', age: 30, at: moscow });
      // The first search finds nobody within the third box step's circle (about 28 km) and ranks the next ring.
      const farther = await createPerson(app, { age: 30, at: north(35) });
      // In private mode and never seen active: 25 km doubled by inactivity, less the liked-you boost, scores 40.
      const shy = await createPerson(app, { age: 30, at: north(25), privateMode: true, activeAt: null });
      expect((await card(viewer)).profile_id).toBe(farther.profileId);
      // Their like shows them to the viewer (written directly: through the API it would mark them active now).
      await app.database.db
        .insertInto('swipes')
        .values({ swiper_id: shy.profileId, target_id: viewer.profileId, liked: 1, created_at: ago(0).toISOString() })
        .execute();
      // Nearer tier first, whatever the scores (farther: 35): as a fresh search answers it.
      expect((await card(viewer)).profile_id).toBe(shy.profileId);
    });

    it('shows nobody beyond maxDistance: a card reading N km is in, N + 1 is out; people without a position are out', async () => {
      const viewer = await createPerson(app, { gender: 'Male', at: moscow });
      const people = [];
      for (const km of [3, 6, 9, 12, 30]) people.push(await createPerson(app, { at: north(km) }));
      const nowhere = await createPerson(app, { at: null });
      const all = await searchAll(viewer);
      const sorted = (list: number[]) => [...list].sort((a, b) => a - b);
      expect(sorted(all.map((r) => r.id))).toEqual(sorted([...people.map((p) => p.profileId), nowhere.profileId]));
      const shown = new Map(all.map((r) => [r.id, r.distance]));
      const edgePerson = people[2] as Person;
      const edge = shown.get(edgePerson.profileId) ?? 0;
      expect(edge).toBeGreaterThanOrEqual(8);

      const within = await searchAll(viewer, { maxDistance: String(edge) });
      // The edge is inclusive as the card reads it, and everyone nearer is there.
      expect(sorted(within.map((r) => r.id))).toEqual(
        sorted(people.filter((p) => (shown.get(p.profileId) ?? 999) <= edge).map((p) => p.profileId)),
      );
      expect(within.map((r) => r.id)).toContain(edgePerson.profileId);
      expect(within.every((r) => r.distance !== null && r.distance <= edge)).toBe(true);
      // One kilometre less leaves the edge person out.
      expect(await ids(viewer, { maxDistance: String(edge - 1) })).not.toContain(edgePerson.profileId);
      // The slider's ends.
      expect(sorted(await ids(viewer, { maxDistance: '500' }))).toEqual(sorted(people.map((p) => p.profileId)));
      expect(await ids(viewer, { maxDistance: '1' })).toEqual([]);
    });

    it('refuses a bad maxDistance with 400 {error, code} and answers nothing', async () => {
      const viewer = await createPerson(app, { gender: 'Male', at: moscow });
      await createPerson(app, { at: north(3) });
      for (const bad of ['0', '501', '2.5', 'abc', '', '-3', '1e9']) {
        const res = await viewer.browser.get(`/api/search?maxDistance=${encodeURIComponent(bad)}`);
        expect(res.status, bad).toBe(400);
        const body = await json<{ error: string; code: string; fields: Record<string, string> }>(res);
        expect(body.code).toBe('invalid_input');
        expect(body.error).toContain('maxDistance');
        expect(Object.keys(body.fields)).toEqual(['maxDistance']);
      }
      expect((await card(viewer, { maxDistance: '10' })).distance).toBeLessThanOrEqual(10);
    });

    it('says active today or this week, never finer, and nothing for private mode or when the person turned it off', async () => {
      const viewer = await createPerson(app, { gender: 'Male', at: moscow });
      const cases: [Person, SearchResult['active_recently']][] = [
        [await createPerson(app, { at: north(2), activeAt: ago(20 * 3_600_000) }), 'today'],
        [await createPerson(app, { at: north(2), activeAt: ago(3 * day) }), 'week'],
        [await createPerson(app, { at: north(2), activeAt: ago(10 * day) }), null],
        [await createPerson(app, { at: north(2), activeAt: null }), null],
        [await createPerson(app, { at: north(2), showActivity: false }), null],
      ];
      // In private mode, visible to the viewer because they liked him, active a minute ago: still nothing.
      const shy = await createPerson(app, { at: north(2), privateMode: true });
      expect((await shy.browser.post('/api/like', { profile_id: viewer.profileId })).status).toBe(200);
      cases.push([shy, null]);

      const held: number[] = [];
      const said = new Map<number, unknown>();
      for (;;) {
        const res = await viewer.browser.get(`/api/search?exclude=${held.join(',')}`);
        if (res.status === 404) break;
        const body = await json<SearchResult>(res);
        held.push(body.profile_id);
        said.set(body.profile_id, body.active_recently);
        // Only the contract's words: no time, no date.
        expect(Object.keys(body).sort()).toEqual([
          'active_recently',
          'age',
          'bio',
          'city',
          'distance',
          'gender',
          'name',
          'photo',
          'profile_id',
          'prompts',
          'user_id',
          'verified',
        ]);
      }
      expect(Object.fromEntries(said)).toEqual(Object.fromEntries(cases.map(([p, word]) => [p.profileId, word])));
    });

    it('reads and writes show_activity in the settings, and a match profile follows it', async () => {
      const viewer = await createPerson(app, { gender: 'Male', at: moscow });
      const match = await createPerson(app, { at: north(2) });
      expect((await viewer.browser.post('/api/like', { profile_id: match.profileId })).status).toBe(200);
      expect((await match.browser.post('/api/like', { profile_id: viewer.profileId })).status).toBe(200);
      const profile = async () =>
        (await json<UsersProfileResponse>(await viewer.browser.get(`/api/users_profile?profile_id=${match.profileId}`)))
          .users_profile;
      expect((await profile()).active_recently).toBe('today');

      expect((await json<SettingsResponse>(await match.browser.get('/api/settings'))).show_activity).toBe(true);
      const off = await json<SettingsResponse>(await match.browser.post('/api/settings', { show_activity: false }));
      expect(off.show_activity).toBe(false);
      expect((await json<SettingsResponse>(await match.browser.get('/api/settings'))).show_activity).toBe(false);
      expect((await profile()).active_recently).toBeNull();
      expect((await match.browser.post('/api/settings', { show_activity: 'no' })).status).toBe(400);
      expect(
        (await json<SettingsResponse>(await match.browser.post('/api/settings', { show_activity: true })))
          .show_activity,
      ).toBe(true);
      expect((await profile()).active_recently).toBe('today');
      // Private mode hides it as well.
      await match.browser.post('/api/settings', { private_mode: true });
      expect((await profile()).active_recently).toBeNull();
    });

    it('marks someone active when they use the app', async () => {
      const viewer = await createPerson(app, { gender: 'Male', at: moscow });
      const away = await createPerson(app, { at: north(2), activeAt: ago(10 * day) });
      expect((await card(viewer)).active_recently).toBeNull();
      // Any authenticated request; the mark is bookkeeping written beside the session's, not awaited by the request.
      expect((await away.browser.get('/api/settings')).status).toBe(200);
      const deadline = Date.now() + 10_000;
      let word: SearchResult['active_recently'] = null;
      while (word !== 'today' && Date.now() < deadline) {
        const row = await app.database.db
          .selectFrom('profiles')
          .select('active_at')
          .where('id', '=', away.profileId)
          .executeTakeFirstOrThrow();
        if (row.active_at !== null && Date.parse(row.active_at) > ago(day).getTime())
          word = (await card(viewer)).active_recently;
        else await new Promise((resolve) => setImmediate(resolve));
      }
      expect(word).toBe('today');
    });
  },
);
