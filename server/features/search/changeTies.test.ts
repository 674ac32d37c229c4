import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SearchResult } from '../../contract/discovery.ts';
import { snapCoordinates } from '../profiles/locationGrid.ts';
import { createPerson, type Person } from '../../test/people.ts';
import { createTestApp, type TestApp } from '../../test/testApp.ts';
import { testDialects } from '../../test/testDatabase.ts';
import { plainOrder } from './searchTestKit.ts';
import { changedRecheckMax } from './searchChanges.ts';

const moscow: [number, number] = [55.7558, 37.6173];
const north = (km: number): [number, number] => [moscow[0] + km / 111.2, moscow[1]];
let imported = 0;

/**
 * Changes that tie with the pool's bound. Locations are snapped to a grid, so a whole cell is at one
 * distance: (1) someone becoming eligible in the cell a scan was cut in must take their place by id among
 * the pooled people there; (2) with more changed people than one search re-checks, all in one cell, the
 * re-checked ones must not go ahead of the unchecked ones at the same distance (found later by the scan
 * beyond the bound). Both were shown out of the plain search's order before (a review's probes).
 */
describe.each(testDialects())('same-cell burst on %s', (dialect) => {
  let app: TestApp;
  beforeEach(async () => {
    app = await createTestApp(dialect);
  });
  afterEach(async () => {
    await app.close();
  });

  const next = async (viewer: Person): Promise<number | null> => {
    const res = await viewer.browser.get('/api/search');
    if (res.status === 404) return null;
    expect(res.status).toBe(200);
    return ((await res.json()) as SearchResult).profile_id;
  };
  const ago = (ms: number) => new Date(Date.now() - ms).toISOString();
  const ageChanges = async (viewer: Person) => {
    const db = app.database.db;
    await db
      .updateTable('profiles')
      .set({ search_changed_at: ago(2 * 3_600_000) })
      .execute();
    await db
      .updateTable('profiles')
      .set({ search_changed_at: ago(3_600_000) })
      .where('id', '=', viewer.profileId)
      .execute();
  };
  const dislikeAll = async (viewer: Person): Promise<number[]> => {
    const seen: number[] = [];
    for (;;) {
      app.clock.advance(1.5);
      const shown = await next(viewer);
      if (shown === null) return seen;
      seen.push(shown);
      expect((await viewer.browser.post('/api/dislike', { profile_id: shown })).status).toBe(200);
    }
  };
  const importPeople = async (count: number, at: [number, number]) => {
    const db = app.database.db;
    const now = app.clock.now().toISOString();
    const users = await db
      .insertInto('users')
      .values(
        Array.from({ length: count }, () => ({
          email: `tie${(imported += 1)}-${process.pid}@example.com`,
          password_hash: null,
          language: 'ru' as const,
          verified_at: now,
          banned_at: null,
          created_at: now,
          premium_until: null,
        })),
      )
      .returning('id')
      .execute();
    const snapped = snapCoordinates(...at);
    const profiles = await db
      .insertInto('profiles')
      .values(
        users.map((user, k) => ({
          user_id: user.id,
          name: `Tie${k}`,
          age: 30,
          gender: 'Female' as const,
          preferred_gender: 'Male' as const,
          bio: '',
          city: 'Москва',
          latitude: snapped.latitude,
          longitude: snapped.longitude,
          created_at: now,
          updated_at: now,
          private_mode: 0,
        })),
      )
      .returning('id')
      .execute();
    return profiles.map((p) => p.id);
  };

  it('shows someone who became eligible exactly at the bound (the cell the scan was cut in) in the plain order', async () => {
    const db = app.database.db;
    const viewer = await createPerson(app, { gender: 'Male', at: moscow });
    // Banned for now, with the lowest id in the cell; then more people there than one scan ranks (100).
    const late = await createPerson(app, { at: north(1.1), banned: true });
    await importPeople(110, north(1.1));
    await ageChanges(viewer);
    const first = await next(viewer);
    expect(first).not.toBeNull();
    expect((await viewer.browser.post('/api/dislike', { profile_id: first })).status).toBe(200);
    await db.updateTable('users').set({ banned_at: null }).where('id', '=', late.userId).execute();
    const expected = await plainOrder(db, app.clock, viewer.userId);
    expect(expected[0]).toBe(late.profileId);
    const shown = await dislikeAll(viewer);
    expect(shown.length).toBe(expected.length);
    expect(shown.indexOf(late.profileId)).toBe(0);
    expect(shown).toEqual(expected);
  }, 120_000);

  it('shows a same-cell burst of more than changedRecheckMax people in the plain search order', async () => {
    const db = app.database.db;
    const viewer = await createPerson(app, { gender: 'Male', at: moscow });
    const first = await createPerson(app, { at: north(0.3) });
    await ageChanges(viewer);
    expect(await next(viewer)).toBe(first.profileId);
    expect((await viewer.browser.post('/api/dislike', { profile_id: first.profileId })).status).toBe(200);

    // 202 newcomers in one cell 1.1 km north; the lowest ids changed last (the newest stamps), so a change
    // query read in stamp order would list the highest ids first.
    const ids = await importPeople(changedRecheckMax + 2, north(1.1));
    for (const [i, id] of [...ids].sort((a, b) => b - a).entries()) {
      await db
        .updateTable('profiles')
        .set({ search_changed_at: ago(1000 * (ids.length - i)) })
        .where('id', '=', id)
        .execute();
    }

    const expected = await plainOrder(db, app.clock, viewer.userId);
    expect(expected).toEqual([...ids].sort((a, b) => a - b));
    const shown = await dislikeAll(viewer);
    expect(shown.length).toBe(expected.length);
    expect(shown.slice(0, 5)).toEqual(expected.slice(0, 5));
    expect(shown).toEqual(expected);
  }, 120_000);
});
