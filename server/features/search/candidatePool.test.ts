import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SearchResult } from '../../contract/discovery.ts';
import { createPerson, type Person } from '../../test/people.ts';
import { createTestApp, type TestApp } from '../../test/testApp.ts';
import { testDialects } from '../../test/testDatabase.ts';
import { CandidatePools, capped, mergeRanked, poolSize, poolTtlMs, type PooledCandidate } from './candidatePool.ts';
import { changedRecheckMax } from './searchChanges.ts';

const moscow: [number, number] = [55.7558, 37.6173];
const north = (km: number): [number, number] => [moscow[0] + km / 111.2, moscow[1]];

describe.each(testDialects())('the candidate pool on %s', (dialect) => {
  let app: TestApp;
  beforeEach(async () => {
    app = await createTestApp(dialect);
  });
  afterEach(async () => {
    await app.close();
  });

  /** One search as the app makes it, holding nothing: a pooled answer is what would leak. */
  const next = async (viewer: Person, params: Record<string, string> = {}): Promise<number | null> => {
    const res = await viewer.browser.get(`/api/search?${new URLSearchParams(params).toString()}`);
    if (res.status === 404) return null;
    expect(res.status).toBe(200);
    return ((await res.json()) as SearchResult).profile_id;
  };

  /**
   * Every row as changed two hours ago and the viewer's own an hour ago, so the next pool's watermark is an
   * hour old. Rows made a moment ago would otherwise all fall inside the watermark's slack and be re-read
   * whether or not a trigger marked them.
   */
  const ageChanges = async (viewer: Person) => {
    const db = app.database.db;
    const ago = (hours: number) => new Date(Date.now() - hours * 3_600_000).toISOString();
    await db
      .updateTable('profiles')
      .set({ search_changed_at: ago(2) })
      .execute();
    await db
      .updateTable('profiles')
      .set({ search_changed_at: ago(1) })
      .where('id', '=', viewer.profileId)
      .execute();
  };

  /** Everyone the viewer is shown, in order, disliking each until nobody is left. */
  const dislikeAll = async (viewer: Person, params: Record<string, string>): Promise<number[]> => {
    const seen: number[] = [];
    for (;;) {
      // Within the 60-a-minute search limit.
      app.clock.advance(1.5);
      const shown = await next(viewer, params);
      if (shown === null) return seen;
      seen.push(shown);
      expect((await viewer.browser.post('/api/dislike', { profile_id: shown })).status).toBe(200);
    }
  };

  it('checks every pooled person against all the rules again before showing them', async () => {
    const viewer = await createPerson(app, { gender: 'Male', at: moscow });
    const first = await createPerson(app, { at: north(2) });
    const second = await createPerson(app, { at: north(3) });
    const third = await createPerson(app, { at: north(4) });
    const fourth = await createPerson(app, { at: north(5) });
    // The first search ranks all four and pools them.
    expect(await next(viewer)).toBe(first.profileId);

    await app.database.db.updateTable('users').set({ banned_at: app.clock.now().toISOString() }).where('id', '=', first.userId).execute();
    expect(await next(viewer)).toBe(second.profileId);
    expect((await second.browser.post('/api/settings', { private_mode: true })).status).toBe(200);
    expect(await next(viewer)).toBe(third.profileId);
    expect((await third.browser.post('/api/block', { profile_id: viewer.profileId })).status).toBe(200);
    expect(await next(viewer)).toBe(fourth.profileId);
    expect((await viewer.browser.post('/api/dislike', { profile_id: fourth.profileId })).status).toBe(200);
    expect(await next(viewer)).toBeNull();
  });

  it('is not used for other filters, and sees a newcomer inside its bound at once', async () => {
    const viewer = await createPerson(app, { gender: 'Male', at: moscow });
    const thirty = await createPerson(app, { age: 30, at: north(2) });
    const forty = await createPerson(app, { age: 40, at: north(3) });
    expect(await next(viewer, { ageMin: '18', ageMax: '50' })).toBe(thirty.profileId);
    expect(await next(viewer, { ageMin: '35', ageMax: '50' })).toBe(forty.profileId);
    expect(await next(viewer, { ageMin: '18', ageMax: '50', gender: 'Male' })).toBeNull();

    await ageChanges(viewer);
    expect(await next(viewer)).toBe(thirty.profileId);
    // Nearer than everyone pooled, and no time has passed: the pool itself must learn of them.
    const newcomer = await createPerson(app, { at: north(1) });
    expect(await next(viewer)).toBe(newcomer.profileId);
  });

  it('sees at once whoever becomes eligible inside the pool bound, whatever made them so', async () => {
    const db = app.database.db;
    const viewer = await createPerson(app, { gender: 'Male', at: moscow });
    // The only eligible person at first, 60 km away: the first search reads everyone within ~110 km.
    const far = await createPerson(app, { at: north(60) });
    const banned = await createPerson(app, { at: north(2), banned: true });
    const hidden = await createPerson(app, { at: north(3), privateMode: true });
    const unverified = await createPerson(app, { at: north(4), verified: false });
    const liker = await createPerson(app, { at: north(5), privateMode: true });
    const mover = await createPerson(app, { at: [59.9343, 30.3351] });
    const held = await createPerson(app, { at: north(7) });
    await db.updateTable('profiles').set({ held_at: app.clock.now().toISOString() }).where('id', '=', held.profileId).execute();
    await ageChanges(viewer);

    expect(await next(viewer)).toBe(far.profileId);
    // The app holds the far card from now on, so the pool has nobody else to offer: anyone shown next
    // was found as a change inside its bound (a scan beyond the bound would find the mover, 630 km away).
    const holding = { exclude: String(far.profileId) };
    const shownAfter = async (change: () => Promise<unknown>, person: Person) => {
      await change();
      expect(await next(viewer, holding)).toBe(person.profileId);
      expect((await viewer.browser.post('/api/dislike', { profile_id: person.profileId })).status).toBe(200);
    };
    await shownAfter(() => db.updateTable('users').set({ banned_at: null }).where('id', '=', banned.userId).execute(), banned);
    await shownAfter(() => hidden.browser.post('/api/settings', { private_mode: false }), hidden);
    await shownAfter(
      () => db.updateTable('users').set({ verified_at: app.clock.now().toISOString() }).where('id', '=', unverified.userId).execute(),
      unverified,
    );
    await shownAfter(() => liker.browser.post('/api/like', { profile_id: viewer.profileId }), liker);
    const [latitude, longitude] = north(6);
    await shownAfter(() => db.updateTable('profiles').set({ latitude, longitude }).where('id', '=', mover.profileId).execute(), mover);
    await shownAfter(() => db.updateTable('profiles').set({ held_at: null }).where('id', '=', held.profileId).execute(), held);
    expect(await next(viewer, holding)).toBeNull();
  });

  it('does not show a pooled person at the place they left when they move out of the bound or lose their position', async () => {
    const db = app.database.db;
    const viewer = await createPerson(app, { gender: 'Male', at: moscow });
    const shown = await createPerson(app, { at: north(3) });
    const mover = await createPerson(app, { at: north(3.5) });
    const unplaced = await createPerson(app, { at: north(3.8) });
    const near = await createPerson(app, { at: north(4) });
    await ageChanges(viewer);
    // The first search pools all four, within a bound of about 5.5 km.
    expect(await next(viewer)).toBe(shown.profileId);
    const [latitude, longitude] = north(160);
    await db.updateTable('profiles').set({ latitude, longitude }).where('id', '=', mover.profileId).execute();
    await db.updateTable('profiles').set({ latitude: null, longitude: null }).where('id', '=', unplaced.profileId).execute();
    // The app holds the card on screen; the change query looks only inside the bound, where neither is now.
    expect(await dislikeAll(viewer, { exclude: String(shown.profileId) })).toEqual([near.profileId, mover.profileId, unplaced.profileId]);
  });

  it('loses nobody when more people changed than one search re-checks', async () => {
    const viewer = await createPerson(app, { gender: 'Male', at: moscow });
    const far = await createPerson(app, { at: north(60) });
    await ageChanges(viewer);
    expect(await next(viewer)).toBe(far.profileId);
    const newcomers: number[] = [];
    for (let km = 2; newcomers.length < changedRecheckMax + 3; km++) newcomers.push((await createPerson(app, { at: north(km) })).profileId);
    // Nearest first, the ones past the re-check limit found by the scan beyond the shrunken bound.
    expect(await dislikeAll(viewer, { exclude: String(far.profileId) })).toEqual(newcomers);
  });

  it('does not show a pooled person ahead of nearer changed people it had no room to re-check', async () => {
    const viewer = await createPerson(app, { gender: 'Male', at: moscow });
    const shown = await createPerson(app, { at: moscow });
    // One grid cell north and one east: about 1.6 km, inside the first search's 2.2 km bound.
    const pooled = await createPerson(app, { at: [moscow[0] + 0.01, moscow[1] + 0.018] });
    await ageChanges(viewer);
    expect(await next(viewer)).toBe(shown.profileId);
    // More newcomers than one search re-checks in the viewer's own cell, and the rest a cell north (1.1 km).
    const newcomers: number[] = [];
    for (let i = 0; i < changedRecheckMax + 3; i++) newcomers.push((await createPerson(app, { at: i < changedRecheckMax ? moscow : north(1.1) })).profileId);
    // The pool's bound shrinks to the first newcomer left unchecked; the pooled person beyond it waits for them.
    expect(await dislikeAll(viewer, { exclude: String(shown.profileId) })).toEqual([...newcomers, pooled.profileId]);
  });

  it('keeps a held card when a used-up pool is replaced, so a card the app drops unswiped comes back', async () => {
    const viewer = await createPerson(app, { gender: 'Male', at: moscow });
    const near = await createPerson(app, { at: north(2) });
    const far = await createPerson(app, { at: north(60) });
    await ageChanges(viewer);
    expect(await next(viewer)).toBe(near.profileId);
    // The prefetch, holding the card on screen: the pool is used up and replaced by a scan beyond its bound.
    expect(await next(viewer, { exclude: String(near.profileId) })).toBe(far.profileId);
    // The app is closed before either is swiped; the next visit starts over.
    expect(await next(viewer)).toBe(near.profileId);
    expect((await viewer.browser.post('/api/dislike', { profile_id: near.profileId })).status).toBe(200);
    expect(await next(viewer)).toBe(far.profileId);
  });

  it('pools everyone a scan read within its bound, also when the app holds cards the scan made room for', async () => {
    const viewer = await createPerson(app, { gender: 'Male', at: moscow });
    const people = new Set<number>();
    // 103 people 7 to 25 km away, spread around: the scan reads 100 plus one per held id.
    for (let i = 0; people.size < 103; i++) {
      const km = 7 + (i % 17) * 1.1;
      const angle = i * 2.399;
      const at: [number, number] = [
        moscow[0] + (km * Math.sin(angle)) / 111.2,
        moscow[1] + (km * Math.cos(angle)) / (111.2 * Math.cos((moscow[0] * Math.PI) / 180)),
      ];
      people.add((await createPerson(app, { at })).profileId);
    }
    await ageChanges(viewer);
    expect(new Set(await dislikeAll(viewer, { exclude: '999991,999992,999993' }))).toEqual(people);
  });

  it('answers the next person at once when the app holds the current one', async () => {
    const viewer = await createPerson(app, { gender: 'Male', at: moscow });
    const people = [await createPerson(app, { at: north(2) }), await createPerson(app, { at: north(3) }), await createPerson(app, { at: north(4) })];
    const held: number[] = [];
    for (const person of people) {
      expect(await next(viewer, held.length ? { exclude: held.join(',') } : {})).toBe(person.profileId);
      held.push(person.profileId);
    }
    expect(await next(viewer, { exclude: held.join(',') })).toBeNull();
  });
});

describe('CandidatePools', () => {
  const candidate = (id: number): PooledCandidate => ({ id, flat: id, score: id });
  const pool = (...ids: number[]) => ({ key: 'k', candidates: ids.map(candidate), boundKm: 5, watermark: null });

  it('keeps at most the configured number of users, dropping the least recently used', () => {
    const pools = new CandidatePools(() => 0, 2);
    pools.keep(1, pool(10), poolTtlMs);
    pools.keep(2, pool(20), poolTtlMs);
    expect(pools.take(1, 'k')?.candidates).toHaveLength(1);
    pools.keep(3, pool(30), poolTtlMs);
    expect(pools.size).toBe(2);
    expect(pools.take(2, 'k')).toBeNull();
    expect(pools.take(1, 'k')?.candidates[0]?.id).toBe(10);
  });

  it('forgets swiped people, and answers nothing for another key or after the time to live', () => {
    let now = 0;
    const pools = new CandidatePools(() => now);
    pools.keep(1, pool(10, 11), poolTtlMs);
    pools.forget(1, 10);
    expect(pools.take(1, 'k')?.candidates.map((c) => c.id)).toEqual([11]);
    expect(pools.take(1, 'other')).toBeNull();
    pools.keep(1, pool(10), poolTtlMs);
    now += poolTtlMs;
    expect(pools.take(1, 'k')).toBeNull();
  });

  it('hands out copies: what a search changed is kept only when put back, with its time to live', () => {
    let now = 0;
    const pools = new CandidatePools(() => now);
    pools.keep(1, pool(10, 11, 12), poolTtlMs);
    const taken = pools.take(1, 'k');
    if (!taken) throw new Error('no pool');
    taken.candidates = taken.candidates.slice(1);
    expect(pools.take(1, 'k')?.candidates.map((c) => c.id)).toEqual([10, 11, 12]);
    now += poolTtlMs / 2;
    pools.put(1, { ...taken, watermark: 'w' });
    expect(pools.take(1, 'k')).toMatchObject({
      candidates: [
        { id: 11, flat: 11, score: 11 },
        { id: 12, flat: 12, score: 12 },
      ],
      watermark: 'w',
      boundKm: 5,
    });
    now += poolTtlMs / 2;
    expect(pools.take(1, 'k')).toBeNull();
  });

  it('drops the worst ranked past its size and draws the bound in to the nearest of them', () => {
    const many = Array.from({ length: poolSize + 2 }, (_, i) => candidate(i + 1));
    // The two worst ranked: one far, one nearer than the bound (a liked-you boost ranks it low here).
    many[poolSize] = { id: 900, flat: 40, score: 1000 };
    many[poolSize + 1] = { id: 901, flat: 3, score: 1001 };
    const kept = capped({ candidates: many, boundKm: 50 });
    expect(kept.candidates).toHaveLength(poolSize);
    expect(kept.candidates.some((c) => c.id === 900 || c.id === 901)).toBe(false);
    expect(kept.boundKm).toBe(3);
    expect(capped({ candidates: many.slice(0, 3), boundKm: 50 }).boundKm).toBe(50);
  });

  it('merges newly found people into the ranking by score, replacing their old place', () => {
    const merged = mergeRanked([candidate(2), candidate(5), candidate(9)], [{ id: 9, flat: 9, score: 1 }, candidate(6)]);
    expect(merged.map((c) => c.id)).toEqual([9, 2, 5, 6]);
  });
});
