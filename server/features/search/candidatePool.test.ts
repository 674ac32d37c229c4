import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SearchResult } from '../../contract/discovery.ts';
import { Browser } from '../../test/browser.ts';
import { createPerson, type Person } from '../../test/people.ts';
import { createTestApp, type TestApp } from '../../test/testApp.ts';
import { testDialects } from '../../test/testDatabase.ts';
import {
  CandidatePools,
  capped,
  mergeRanked,
  packCandidates,
  poolSize,
  poolTtlMs,
  unpackCandidates,
  type PooledCandidate,
} from './candidatePool.ts';
import { everywhereKm } from './distance.ts';
import { ageStamps, dislikeAll, importPeople, plainOrder, searchNext } from './searchTestKit.ts';
import { changedLimit, changedRecheckMax } from './searchChanges.ts';

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

  const ageChanges = (viewer: Person) => ageStamps(app.database.db, viewer.profileId);

  it('checks every pooled person against all the rules again before showing them', async () => {
    const viewer = await createPerson(app, { gender: 'Male', at: moscow });
    const first = await createPerson(app, { at: north(2) });
    const second = await createPerson(app, { at: north(3) });
    const third = await createPerson(app, { at: north(4) });
    const fourth = await createPerson(app, { at: north(5) });
    // The first search ranks all four and pools them.
    expect(await searchNext(viewer)).toBe(first.profileId);

    await app.database.db
      .updateTable('users')
      .set({ banned_at: app.clock.now().toISOString() })
      .where('id', '=', first.userId)
      .execute();
    expect(await searchNext(viewer)).toBe(second.profileId);
    expect((await second.browser.post('/api/settings', { private_mode: true })).status).toBe(200);
    expect(await searchNext(viewer)).toBe(third.profileId);
    expect((await third.browser.post('/api/block', { profile_id: viewer.profileId })).status).toBe(200);
    expect(await searchNext(viewer)).toBe(fourth.profileId);
    expect((await viewer.browser.post('/api/dislike', { profile_id: fourth.profileId })).status).toBe(200);
    expect(await searchNext(viewer)).toBeNull();
  });

  it('is not used for other filters, and sees a newcomer inside its bound at once', async () => {
    const viewer = await createPerson(app, { gender: 'Male', at: moscow });
    const thirty = await createPerson(app, { age: 30, at: north(2) });
    const forty = await createPerson(app, { age: 40, at: north(3) });
    expect(await searchNext(viewer, { ageMin: '18', ageMax: '50' })).toBe(thirty.profileId);
    expect(await searchNext(viewer, { ageMin: '35', ageMax: '50' })).toBe(forty.profileId);
    expect(await searchNext(viewer, { ageMin: '18', ageMax: '50', gender: 'Male' })).toBeNull();

    await ageChanges(viewer);
    expect(await searchNext(viewer)).toBe(thirty.profileId);
    // Nearer than everyone pooled, and no time has passed: the pool itself must learn of them.
    const newcomer = await createPerson(app, { at: north(1) });
    expect(await searchNext(viewer)).toBe(newcomer.profileId);
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
    await db
      .updateTable('profiles')
      .set({ held_at: app.clock.now().toISOString() })
      .where('id', '=', held.profileId)
      .execute();
    await ageChanges(viewer);

    expect(await searchNext(viewer)).toBe(far.profileId);
    // The app holds the far card from now on, so the pool has nobody else to offer: anyone shown next
    // was found as a change inside its bound (a scan beyond the bound would find the mover, 630 km away).
    const holding = { exclude: String(far.profileId) };
    const shownAfter = async (change: () => Promise<unknown>, person: Person) => {
      await change();
      expect(await searchNext(viewer, holding)).toBe(person.profileId);
      expect((await viewer.browser.post('/api/dislike', { profile_id: person.profileId })).status).toBe(200);
    };
    await shownAfter(
      () => db.updateTable('users').set({ banned_at: null }).where('id', '=', banned.userId).execute(),
      banned,
    );
    await shownAfter(() => hidden.browser.post('/api/settings', { private_mode: false }), hidden);
    await shownAfter(
      () =>
        db
          .updateTable('users')
          .set({ verified_at: app.clock.now().toISOString() })
          .where('id', '=', unverified.userId)
          .execute(),
      unverified,
    );
    await shownAfter(() => liker.browser.post('/api/like', { profile_id: viewer.profileId }), liker);
    const [latitude, longitude] = north(6);
    await shownAfter(
      () => db.updateTable('profiles').set({ latitude, longitude }).where('id', '=', mover.profileId).execute(),
      mover,
    );
    await shownAfter(
      () => db.updateTable('profiles').set({ held_at: null }).where('id', '=', held.profileId).execute(),
      held,
    );
    expect(await searchNext(viewer, holding)).toBeNull();
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
    expect(await searchNext(viewer)).toBe(shown.profileId);
    const [latitude, longitude] = north(160);
    await db.updateTable('profiles').set({ latitude, longitude }).where('id', '=', mover.profileId).execute();
    await db
      .updateTable('profiles')
      .set({ latitude: null, longitude: null })
      .where('id', '=', unplaced.profileId)
      .execute();
    // The app holds the card on screen; the change query looks only inside the bound, where neither is now.
    expect(await dislikeAll(app, viewer, { exclude: String(shown.profileId) })).toEqual([
      near.profileId,
      mover.profileId,
      unplaced.profileId,
    ]);
  });

  it('loses nobody when more people changed than one search re-checks', async () => {
    const viewer = await createPerson(app, { gender: 'Male', at: moscow });
    const far = await createPerson(app, { at: north(60) });
    await ageChanges(viewer);
    expect(await searchNext(viewer)).toBe(far.profileId);
    // As many changed people as one search re-checks, nearest, none of whom the viewer may see (men looking
    // for women), and three he may see beyond them.
    await importPeople(app, changedRecheckMax, () => north(2), { gender: 'Male' });
    const newcomers: number[] = [];
    for (const km of [3, 4, 5]) newcomers.push((await createPerson(app, { at: north(km) })).profileId);
    // Nearest first, the ones past the re-check limit found by the scan beyond the shrunken bound.
    expect(await dislikeAll(app, viewer, { exclude: String(far.profileId) })).toEqual(newcomers);
  });

  it('does not show a pooled person ahead of nearer changed people it had no room to re-check', async () => {
    const viewer = await createPerson(app, { gender: 'Male', at: moscow });
    const shown = await createPerson(app, { at: moscow });
    // One grid cell north and one east: about 1.6 km, inside the first search's 2.2 km bound.
    const pooled = await createPerson(app, { at: [moscow[0] + 0.01, moscow[1] + 0.018] });
    await ageChanges(viewer);
    expect(await searchNext(viewer)).toBe(shown.profileId);
    // As many changed people as one search re-checks in the viewer's own cell (none he may see), and three
    // newcomers a cell north (1.1 km).
    await importPeople(app, changedRecheckMax, () => moscow, { gender: 'Male' });
    const newcomers: number[] = [];
    for (let i = 0; i < 3; i++) newcomers.push((await createPerson(app, { at: north(1.1) })).profileId);
    // The pool's bound shrinks to the first newcomer left unchecked; the pooled person beyond it waits for them.
    expect(await dislikeAll(app, viewer, { exclude: String(shown.profileId) })).toEqual([
      ...newcomers,
      pooled.profileId,
    ]);
  });

  it('keeps a held card when a used-up pool is replaced, so a card the app drops unswiped comes back', async () => {
    const viewer = await createPerson(app, { gender: 'Male', at: moscow });
    const near = await createPerson(app, { at: north(2) });
    const far = await createPerson(app, { at: north(60) });
    await ageChanges(viewer);
    expect(await searchNext(viewer)).toBe(near.profileId);
    // The prefetch, holding the card on screen: the pool is used up and replaced by a scan beyond its bound.
    expect(await searchNext(viewer, { exclude: String(near.profileId) })).toBe(far.profileId);
    // The app is closed before either is swiped; the next visit starts over.
    expect(await searchNext(viewer)).toBe(near.profileId);
    expect((await viewer.browser.post('/api/dislike', { profile_id: near.profileId })).status).toBe(200);
    expect(await searchNext(viewer)).toBe(far.profileId);
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
    expect(new Set(await dislikeAll(app, viewer, { exclude: '999991,999992,999993' }))).toEqual(people);
  });

  it('answers the next person at once when the app holds the current one', async () => {
    const viewer = await createPerson(app, { gender: 'Male', at: moscow });
    const people = [
      await createPerson(app, { at: north(2) }),
      await createPerson(app, { at: north(3) }),
      await createPerson(app, { at: north(4) }),
    ];
    const held: number[] = [];
    for (const person of people) {
      expect(await searchNext(viewer, held.length ? { exclude: held.join(',') } : {})).toBe(person.profileId);
      held.push(person.profileId);
    }
    expect(await searchNext(viewer, { exclude: held.join(',') })).toBeNull();
  });

  /** The viewer's tab, talking to another app instance on the same database (their session cookie, its CSRF token). */
  const tabOn = (other: TestApp, viewer: Person): Person => {
    const browser = new Browser(other.url);
    for (const pair of viewer.browser.cookieHeader().split('; ')) {
      const index = pair.indexOf('=');
      browser.setCookie(pair.slice(0, index), pair.slice(index + 1));
    }
    return { ...viewer, browser };
  };
  const storedPool = (viewer: Person) =>
    app.database.db
      .selectFrom('search_pools')
      .select(['expires_at', 'bound_km'])
      .where('profile_id', '=', viewer.profileId)
      .executeTakeFirst();
  /** Six people inside the first search box (2.2 km), one far: all of them found by the first search but the far one. */
  const neighbourhood = async () => {
    const near: number[] = [];
    for (const km of [0.3, 0.6, 0.9, 1.2, 1.5, 1.8]) near.push((await createPerson(app, { at: north(km) })).profileId);
    const far = (await createPerson(app, { at: north(60) })).profileId;
    return { near, far };
  };

  it('continues one frontier across app instances on one database, giving the cards one instance would give', async () => {
    const second = await createTestApp(dialect, { database: app.database });
    try {
      const viewer = await createPerson(app, { gender: 'Male', at: moscow });
      const { near, far } = await neighbourhood();
      const tabs = [viewer, tabOn(second, viewer)];
      const seen: number[] = [];
      let made: string | undefined;
      for (let turn = 0; ; turn++) {
        app.clock.advance(1.5);
        second.clock.advance(1.5);
        const tab = tabs[turn % 2] as Person;
        const shown = await searchNext(tab);
        if (shown === null) break;
        seen.push(shown);
        if (turn === 0) made = (await storedPool(viewer))?.expires_at;
        // Until the near people are used up, every search continues the first one's pool: a new scan
        // (on either instance, whose clocks have moved on) would store a pool of another expiry.
        else if (near.includes(shown)) expect((await storedPool(viewer))?.expires_at).toBe(made);
        expect((await tab.browser.post('/api/dislike', { profile_id: shown })).status).toBe(200);
      }
      expect(made).toBeDefined();
      expect(seen).toEqual([...near, far]);
    } finally {
      await second.close();
    }
  });

  it('continues the frontier after a restart: a new instance takes the pool the old one stored', async () => {
    const viewer = await createPerson(app, { gender: 'Male', at: moscow });
    const { near, far } = await neighbourhood();
    expect(await searchNext(viewer)).toBe(near[0]);
    expect((await viewer.browser.post('/api/dislike', { profile_id: near[0] })).status).toBe(200);
    const before = await storedPool(viewer);
    expect(before?.bound_km).toBeGreaterThan(1.8);
    const restarted = await createTestApp(dialect, { database: app.database });
    try {
      restarted.clock.advance(60);
      const tab = tabOn(restarted, viewer);
      const seen: number[] = [];
      for (;;) {
        restarted.clock.advance(1.5);
        const shown = await searchNext(tab);
        if (shown === null) break;
        // The old pool (its expiry, its bound) serves every near card: no rescan after the restart.
        if (near.includes(shown)) expect(await storedPool(viewer)).toEqual(before);
        seen.push(shown);
        expect((await tab.browser.post('/api/dislike', { profile_id: shown })).status).toBe(200);
      }
      expect(seen).toEqual([...near.slice(1), far]);
    } finally {
      await restarted.close();
    }
  });

  it('never fails when one user searches in several tabs at once; the pool stored is a whole one', async () => {
    const viewer = await createPerson(app, { gender: 'Male', at: moscow });
    const { near } = await neighbourhood();
    const answers = await Promise.all(Array.from({ length: 8 }, () => viewer.browser.get('/api/search')));
    expect(answers.map((r) => r.status)).toEqual(Array.from({ length: 8 }, () => 200));
    const ids = await Promise.all(answers.map(async (r) => ((await r.json()) as SearchResult).profile_id));
    expect(new Set(ids)).toEqual(new Set([near[0]]));
    const pools = new CandidatePools(app.database.db, () => app.clock.now().getTime());
    const row = await app.database.db
      .selectFrom('search_pools')
      .select('pool_key')
      .where('profile_id', '=', viewer.profileId)
      .executeTakeFirstOrThrow();
    expect((await pools.take(viewer.profileId, row.pool_key))?.candidates.map((c) => c.id)).toEqual(near);
  });

  // On SQLite, which cannot seek the change query's box, so many changes anywhere still make a pool stale
  // (searchChanges.ts changedNear): the cards must come right all the same, from a rescan.
  it('keeps its pool (on PostgreSQL) through a burst of more changes far away than the change limit, with nothing left to rescan', async () => {
    const viewer = await createPerson(app, { gender: 'Male', at: moscow });
    // Inside the first search box (2.2 km): the first search pools all three.
    const near = [
      await createPerson(app, { at: north(0.5) }),
      await createPerson(app, { at: north(1) }),
      await createPerson(app, { at: north(1.5) }),
    ];
    await ageChanges(viewer);
    expect(await searchNext(viewer)).toBe(near[0]?.profileId);
    const made = await storedPool(viewer);
    expect(made?.bound_km).toBeGreaterThan(1.5);
    // An import in St Petersburg, 630 km away, far beyond the pool's bound: more people than the limit.
    const spb: [number, number] = [59.9343, 30.3351];
    await importPeople(app, changedLimit + 1, (i) => [spb[0] + (i % 40) * 0.01, spb[1] + Math.floor(i / 40) * 0.018]);
    for (const [i, person] of near.entries()) {
      if (i > 0) {
        // The clock moves on: a rescan would store a pool of another expiry.
        app.clock.advance(1.5);
        expect(await searchNext(viewer)).toBe(person.profileId);
        if (dialect === 'postgres') expect(await storedPool(viewer)).toEqual(made);
        else expect(await storedPool(viewer)).not.toEqual(made);
      }
      expect((await viewer.browser.post('/api/dislike', { profile_id: person.profileId })).status).toBe(200);
    }
  });

  it('re-checks a burst of changes inside its bound in one search, keeping its bound, and shows those it let in where they belong', async () => {
    const db = app.database.db;
    const viewer = await createPerson(app, { gender: 'Male', at: moscow });
    // Inside the first search box (2.2 km): the viewer's own grid cell, one north (1.1 km) and one north-east (1.6 km).
    const cell = (north: number, east: number): [number, number] => [
      moscow[0] + north * 0.01,
      moscow[1] + east * 0.018,
    ];
    const first = await createPerson(app, { at: cell(0, 0) });
    const pooled = [await createPerson(app, { at: cell(1, 0) }), await createPerson(app, { at: cell(1, 1) })];
    // More than the 40 people one search used to re-check, banned for now, over six cells inside the bound.
    const cells = [cell(0, 0), cell(0, 1), cell(0, -1), cell(1, 0), cell(1, 1), cell(1, -1)];
    const banned = await importPeople(app, 60, (i) => cells[i % cells.length] ?? cell(0, 0), { banned: true });
    await ageChanges(viewer);
    expect(await searchNext(viewer)).toBe(first.profileId);
    expect((await viewer.browser.post('/api/dislike', { profile_id: first.profileId })).status).toBe(200);
    const made = await storedPool(viewer);
    expect(made?.bound_km).toBeGreaterThan(2);

    // Unbanned at once: the triggers stamp all 60 as changed.
    await db
      .updateTable('users')
      .set({ banned_at: null })
      .where(
        'id',
        'in',
        banned.map((b) => b.userId),
      )
      .execute();
    // The order the plain search gives, holding each answer in turn.
    const expected = await plainOrder(db, app.clock, viewer.userId);
    expect(new Set(expected)).toEqual(new Set([...pooled.map((p) => p.profileId), ...banned.map((b) => b.profileId)]));

    app.clock.advance(1.5);
    expect(await searchNext(viewer)).toBe(expected[0]);
    // Every changed person re-checked in that search: the pool keeps its bound (and is no new scan's).
    expect(await storedPool(viewer)).toEqual(made);
    expect((await viewer.browser.post('/api/dislike', { profile_id: expected[0] })).status).toBe(200);
    expect(await dislikeAll(app, viewer, {})).toEqual(expected.slice(1));
  });
});

describe.each(testDialects())('the stored pools on %s', (dialect) => {
  let app: TestApp;
  beforeEach(async () => {
    app = await createTestApp(dialect);
  });
  afterEach(async () => {
    await app.close();
  });

  const candidate = (id: number): PooledCandidate => ({ id, flat: id, score: id });
  const pool = (...ids: number[]) => ({
    key: 'k',
    candidates: ids.map(candidate),
    boundKm: 5,
    watermark: null,
    scannedAt: null,
  });
  const start = Date.parse('2026-11-24T12:00:00.000Z');

  it('keeps one pool per profile in the database, for every process; none for another key or after the time to live', async () => {
    const me = (await createPerson(app)).profileId;
    let now = start;
    const pools = new CandidatePools(app.database.db, () => now);
    const elsewhere = new CandidatePools(app.database.db, () => now);
    await pools.keep(me, pool(10, 11), poolTtlMs);
    expect((await elsewhere.take(me, 'k'))?.candidates.map((c) => c.id)).toEqual([10, 11]);
    expect(await elsewhere.take(me, 'other')).toBeNull();
    await elsewhere.keep(me, pool(12), poolTtlMs);
    expect((await pools.take(me, 'k'))?.candidates.map((c) => c.id)).toEqual([12]);
    expect(
      await app.database.db.selectFrom('search_pools').select('profile_id').where('profile_id', '=', me).execute(),
    ).toHaveLength(1);
    now += poolTtlMs;
    expect(await pools.take(me, 'k')).toBeNull();
    await pools.drop(me);
    now = start;
    expect(await pools.take(me, 'k')).toBeNull();
  });

  it('hands out copies: what a search changed is kept only when put back, and putting back an unchanged pool writes nothing', async () => {
    const db = app.database.db;
    const me = (await createPerson(app)).profileId;
    let now = start;
    const pools = new CandidatePools(db, () => now);
    await pools.keep(me, pool(10, 11, 12), poolTtlMs);
    const unchanged = await pools.take(me, 'k');
    if (!unchanged) throw new Error('no pool');
    // Marked behind the store's back: a write of the unchanged pool would restore the null watermark.
    await db.updateTable('search_pools').set({ watermark: 'marked' }).where('profile_id', '=', me).execute();
    await pools.put(me, unchanged);
    expect(
      (await db.selectFrom('search_pools').select('watermark').where('profile_id', '=', me).executeTakeFirstOrThrow())
        .watermark,
    ).toBe('marked');

    const taken = await pools.take(me, 'k');
    if (!taken) throw new Error('no pool');
    taken.candidates = taken.candidates.slice(1);
    expect((await pools.take(me, 'k'))?.candidates.map((c) => c.id)).toEqual([10, 11, 12]);
    now += poolTtlMs / 2;
    await pools.put(me, { ...taken, watermark: 'w' });
    expect(await pools.take(me, 'k')).toMatchObject({
      candidates: [
        { id: 11, flat: 11, score: 11 },
        { id: 12, flat: 12, score: 12 },
      ],
      watermark: 'w',
      boundKm: 5,
    });
    now += poolTtlMs / 2;
    expect(await pools.take(me, 'k')).toBeNull();
  });

  it('stores the candidates exactly, the infinitely far unplaced ones and an empty pool too', async () => {
    const me = (await createPerson(app)).profileId;
    const pools = new CandidatePools(app.database.db, () => start);
    const candidates = [
      { id: 2 ** 31 - 1, flat: 0.1 + 0.2, score: -1.25 },
      { id: 7, flat: 1234.567891234, score: 1 / 3 },
      { id: 8, flat: Number.POSITIVE_INFINITY, score: Number.POSITIVE_INFINITY },
    ];
    expect(unpackCandidates(packCandidates(candidates))).toEqual(candidates);
    await pools.keep(
      me,
      {
        key: 'k',
        candidates,
        boundKm: 2.2238985,
        watermark: '2026-11-24T11:00:00.000Z',
        scannedAt: '2026-11-20T08:00:00.000Z',
      },
      poolTtlMs,
    );
    expect(await pools.take(me, 'k')).toEqual({
      key: 'k',
      candidates,
      boundKm: 2.2238985,
      watermark: '2026-11-24T11:00:00.000Z',
      expiresAt: start + poolTtlMs,
      checked: new Map(),
      horizon: null,
      scannedAt: '2026-11-20T08:00:00.000Z',
    });
    // The changes it re-checked, as taken back (Pool.checked).
    const checked = new Map([
      [7, '2026-11-24T10:59:30.123Z'],
      [2 ** 31 - 1, '2026-11-24T10:59:59.999Z'],
    ]);
    const taken = await pools.take(me, 'k');
    if (!taken) throw new Error('no pool');
    await pools.put(me, { ...taken, checked });
    expect((await pools.take(me, 'k'))?.checked).toEqual(checked);
    // The horizon (Pool.horizon) is kept beside them, with no change re-checked too.
    await pools.put(me, { ...taken, checked, horizon: '2026-11-25 04:00:00+00/4294967299' });
    expect(await pools.take(me, 'k')).toMatchObject({ checked, horizon: '2026-11-25 04:00:00+00/4294967299' });
    await pools.put(me, { ...taken, checked: new Map(), horizon: '2026-11-25 04:00:00+00/12345' });
    expect(await pools.take(me, 'k')).toMatchObject({ checked: new Map(), horizon: '2026-11-25 04:00:00+00/12345' });
    await pools.put(me, { ...taken, checked, horizon: '2026-11-25 04:00:00+00/12345' });
    // A process of an earlier version writes its own pool and leaves them on the row: they do not count,
    // whether its watermark moved or its people changed under the same one.
    const db = app.database.db;
    await db
      .updateTable('search_pools')
      .set({ candidates: packCandidates(candidates.slice(1)) })
      .where('profile_id', '=', me)
      .execute();
    expect(await pools.take(me, 'k')).toMatchObject({ checked: new Map(), horizon: null });
    await pools.put(me, { ...taken, checked, horizon: '2026-11-25 04:00:00+00/12345' });
    await db
      .updateTable('search_pools')
      .set({ watermark: '2026-11-24T11:30:00.000Z' })
      .where('profile_id', '=', me)
      .execute();
    expect(await pools.take(me, 'k')).toMatchObject({ checked: new Map(), horizon: null });
    await pools.keep(
      me,
      { key: 'k', candidates: [], boundKm: everywhereKm, watermark: null, scannedAt: null },
      poolTtlMs,
    );
    // A new pool forgets the changes the one before it checked.
    expect((await pools.take(me, 'k'))?.checked).toEqual(new Map());
    expect(await pools.take(me, 'k')).toMatchObject({ candidates: [], boundKm: everywhereKm });
  });

  it('keeps no pool for a profile deleted while its search ran, without failing that search', async () => {
    const person = await createPerson(app);
    const pools = new CandidatePools(app.database.db, () => start);
    await pools.keep(person.profileId, pool(10), poolTtlMs);
    // The account is erased: its pool goes with the profile.
    await app.database.db.deleteFrom('profiles').where('id', '=', person.profileId).execute();
    expect(await app.database.db.selectFrom('search_pools').select('profile_id').execute()).toEqual([]);
    await expect(pools.keep(person.profileId, pool(11), poolTtlMs)).resolves.toBeUndefined();
    expect(await app.database.db.selectFrom('search_pools').select('profile_id').execute()).toEqual([]);
  });
});

describe('pool ranking', () => {
  const candidate = (id: number): PooledCandidate => ({ id, flat: id, score: id });

  it('drops the worst ranked past its size and draws the bound in to the nearest of them', () => {
    const many = Array.from({ length: poolSize + 2 }, (_, i) => candidate(i + 1));
    // The two last (placed there by hand: capped takes the pool's order as given): one far, one nearer than the bound.
    many[poolSize] = { id: 900, flat: 40, score: 1000 };
    many[poolSize + 1] = { id: 901, flat: 3, score: 1001 };
    const kept = capped({ candidates: many, boundKm: 50 });
    expect(kept.candidates).toHaveLength(poolSize);
    expect(kept.candidates.some((c) => c.id === 900 || c.id === 901)).toBe(false);
    expect(kept.boundKm).toBe(3);
    expect(capped({ candidates: many.slice(0, 3), boundKm: 50 }).boundKm).toBe(50);
  });

  it('merges newly found people into the ranking by score, replacing their old place', () => {
    // All within one box step (the third, 5.6 to 28 km): there the score alone orders them.
    const inStep = (id: number): PooledCandidate => ({ id, flat: 10 + id, score: id });
    const merged = mergeRanked([inStep(2), inStep(5), inStep(9)], [{ id: 9, flat: 19, score: 1 }, inStep(6)]);
    expect(merged.map((c) => c.id)).toEqual([9, 2, 5, 6]);
  });

  it('puts someone merged in a nearer box step ahead of farther people who score better', () => {
    // A pool of the ring beyond the third step (about 28 km); someone inactive joins inside it.
    const merged = mergeRanked(
      [
        { id: 1, flat: 37.5, score: 37.5 },
        { id: 2, flat: 60, score: 70 },
      ],
      [{ id: 3, flat: 25, score: 40 }],
    );
    expect(merged.map((c) => c.id)).toEqual([3, 1, 2]);
  });
});
