import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SearchResult } from '../../contract/discovery.ts';
import { createPerson, type Person } from '../../test/people.ts';
import { createTestApp, type TestApp } from '../../test/testApp.ts';
import { testDialects } from '../../test/testDatabase.ts';
import { CandidatePools, poolTtlMs, type PooledCandidate } from './candidatePool.ts';
import type { CandidateRow } from './candidates.ts';

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

  it('is not used for other filters, and ages out so newcomers are seen', async () => {
    const viewer = await createPerson(app, { gender: 'Male', at: moscow });
    const thirty = await createPerson(app, { age: 30, at: north(2) });
    const forty = await createPerson(app, { age: 40, at: north(3) });
    expect(await next(viewer, { ageMin: '18', ageMax: '50' })).toBe(thirty.profileId);
    expect(await next(viewer, { ageMin: '35', ageMax: '50' })).toBe(forty.profileId);
    expect(await next(viewer, { ageMin: '18', ageMax: '50', gender: 'Male' })).toBeNull();

    expect(await next(viewer)).toBe(thirty.profileId);
    const newcomer = await createPerson(app, { at: north(1) });
    app.clock.advance(poolTtlMs / 1000 + 1);
    expect(await next(viewer)).toBe(newcomer.profileId);
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
  const candidate = (id: number): PooledCandidate => ({ row: { id } as CandidateRow, km: id });

  it('keeps at most the configured number of users, dropping the least recently used', () => {
    const pools = new CandidatePools(() => 0, 2);
    pools.keep(1, 'k', [candidate(10)]);
    pools.keep(2, 'k', [candidate(20)]);
    expect(pools.take(1, 'k')).toHaveLength(1);
    pools.keep(3, 'k', [candidate(30)]);
    expect(pools.size).toBe(2);
    expect(pools.take(2, 'k')).toBeNull();
    expect(pools.take(1, 'k')?.[0]?.row.id).toBe(10);
  });

  it('forgets swiped people, and answers nothing for another key or after the time to live', () => {
    let now = 0;
    const pools = new CandidatePools(() => now);
    pools.keep(1, 'k', [candidate(10), candidate(11)]);
    pools.forget(1, 10);
    expect(pools.take(1, 'k')?.map((c) => c.row.id)).toEqual([11]);
    expect(pools.take(1, 'other')).toBeNull();
    pools.keep(1, 'k', [candidate(10)]);
    now += poolTtlMs;
    expect(pools.take(1, 'k')).toBeNull();
  });
});
