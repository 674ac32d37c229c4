import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { messagesPerMinute } from '../chat/index.ts';
import { searchPerMinute } from '../search/index.ts';
import { json } from '../../test/browser.ts';
import { createPerson, type Person } from '../../test/people.ts';
import { createTestApp, type TestApp } from '../../test/testApp.ts';
import { testDialects } from '../../test/testDatabase.ts';

/**
 * The per-minute limits hold over a sliding minute, not a fixed one: a burst at the end of one minute is
 * still counted at the start of the next (weighted by how much of it the sliding minute still covers), so
 * the audit's 120 searches in 2.3 s across a minute boundary, against 60 a minute, no longer get through.
 * Time moves only by the app's test clock.
 */
describe.each(testDialects())('per-minute limits over a sliding minute on %s', (dialect) => {
  let app: TestApp;
  beforeEach(async () => {
    app = await createTestApp(dialect);
  });
  afterEach(async () => {
    await app.close();
  });

  /** Moves the clock to `second` (may be fractional) into the next whole minute. */
  function toSecondOfMinute(second: number) {
    const now = app.clock.now().getTime() / 1000;
    app.clock.advance(60 - (now % 60) + second);
  }
  const search = (p: Person) => p.browser.get('/api/search?gender=Female');

  it(`refuses the ${searchPerMinute + 1}st search in a minute that spans a boundary, and frees one a second after`, async () => {
    const viewer = await createPerson(app, { gender: 'Male' });
    toSecondOfMinute(59);
    for (let i = 0; i < searchPerMinute; i++) expect((await search(viewer)).status).toBe(404);
    // Half a second into the next minute: a fixed window would start again from nothing.
    app.clock.advance(1.5);
    const refused = await search(viewer);
    expect(refused.status).toBe(429);
    expect(await json(refused)).toMatchObject({ code: 'search_rate_limited' });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    // Ten seconds on, a sixth of the earlier minute has slid out: about ten searches are free again.
    app.clock.advance(10);
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) statuses.push((await search(viewer)).status);
    expect(statuses.filter((s) => s === 404).length).toBe(9);
  });

  it('holds the sliding minute exactly when 30 searches arrive at once just past the boundary', async () => {
    const viewer = await createPerson(app, { gender: 'Male' });
    await viewer.browser.csrfToken();
    toSecondOfMinute(59);
    const first = await Promise.all(Array.from({ length: searchPerMinute }, () => search(viewer)));
    expect(first.every((r) => r.status === 404)).toBe(true);
    // 10.5 s in: the earlier minute weighs 60 × 49.5/60 = 49.5, so exactly 10 of 30 fit under 60.
    toSecondOfMinute(10.5);
    const burst = await Promise.all(Array.from({ length: 30 }, () => search(viewer)));
    expect(burst.filter((r) => r.status === 404)).toHaveLength(10);
    expect(burst.filter((r) => r.status === 429)).toHaveLength(20);
  });

  it(`refuses the ${messagesPerMinute + 1}st message in a minute that spans a boundary`, async () => {
    const a = await createPerson(app, { gender: 'Male', premium: true });
    const b = await createPerson(app);
    expect((await a.browser.post('/api/like', { profile_id: b.profileId })).status).toBe(200);
    expect((await b.browser.post('/api/like', { profile_id: a.profileId })).status).toBe(200);
    const { conversation_id } = await json<{ conversation_id: number }>(
      await a.browser.post('/api/conversations/start', { profile_id: b.profileId }),
    );
    const send = (content: string) => a.browser.post(`/api/conversations/${conversation_id}/messages`, { content });
    toSecondOfMinute(59);
    for (let i = 0; i < messagesPerMinute; i++) expect((await send(`late ${i}`)).status).toBe(201);
    app.clock.advance(1.5);
    const refused = await send('early');
    expect(refused.status).toBe(429);
    expect(await json(refused)).toMatchObject({ code: 'message_rate_limited' });
    // Two minutes on, nothing of the burst is left in the sliding minute.
    app.clock.advance(120);
    expect((await send('later')).status).toBe(201);
  });
});
