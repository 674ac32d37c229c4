import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createPerson } from '../../test/people.ts';
import { createTestApp, type TestApp } from '../../test/testApp.ts';
import { testDialects } from '../../test/testDatabase.ts';
import { ageStamps, dislikeAll, importPeople, plainOrder, searchNext } from './searchTestKit.ts';
import { changedRecheckMax } from './searchChanges.ts';

const moscow: [number, number] = [55.7558, 37.6173];
const north = (km: number): [number, number] => [moscow[0] + km / 111.2, moscow[1]];

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

  it('shows someone who became eligible exactly at the bound (the cell the scan was cut in) in the plain order', async () => {
    const db = app.database.db;
    const viewer = await createPerson(app, { gender: 'Male', at: moscow });
    // Banned for now, with the lowest id in the cell; then more people there than one scan ranks (100).
    const late = await createPerson(app, { at: north(1.1), banned: true });
    await importPeople(app, 110, () => north(1.1));
    await ageStamps(app.database.db, viewer.profileId);
    const first = await searchNext(viewer);
    expect(first).not.toBeNull();
    expect((await viewer.browser.post('/api/dislike', { profile_id: first })).status).toBe(200);
    await db.updateTable('users').set({ banned_at: null }).where('id', '=', late.userId).execute();
    const expected = await plainOrder(db, app.clock, viewer.userId);
    expect(expected[0]).toBe(late.profileId);
    const shown = await dislikeAll(app, viewer);
    expect(shown.length).toBe(expected.length);
    expect(shown.indexOf(late.profileId)).toBe(0);
    expect(shown).toEqual(expected);
  }, 120_000);

  it('shows a same-cell burst of more than changedRecheckMax people in the plain search order', async () => {
    const db = app.database.db;
    const viewer = await createPerson(app, { gender: 'Male', at: moscow });
    const first = await createPerson(app, { at: north(0.3) });
    await ageStamps(app.database.db, viewer.profileId);
    expect(await searchNext(viewer)).toBe(first.profileId);
    expect((await viewer.browser.post('/api/dislike', { profile_id: first.profileId })).status).toBe(200);

    // 202 newcomers in one cell 1.1 km north; the lowest ids changed last (the newest stamps), so a change
    // query read in stamp order would list the highest ids first.
    const ids = (await importPeople(app, changedRecheckMax + 2, () => north(1.1))).map((p) => p.profileId);
    const ago = (ms: number) => new Date(Date.now() - ms).toISOString();
    for (const [i, id] of [...ids].sort((a, b) => b - a).entries()) {
      await db
        .updateTable('profiles')
        .set({ search_changed_at: ago(1000 * (ids.length - i)) })
        .where('id', '=', id)
        .execute();
    }

    const expected = await plainOrder(db, app.clock, viewer.userId);
    expect(expected).toEqual([...ids].sort((a, b) => a - b));
    const shown = await dislikeAll(app, viewer);
    expect(shown.length).toBe(expected.length);
    expect(shown.slice(0, 5)).toEqual(expected.slice(0, 5));
    expect(shown).toEqual(expected);
  }, 120_000);
});
