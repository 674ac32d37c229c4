import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { json } from '../../test/browser.ts';
import { EventStreamClient } from '../../test/eventStream.ts';
import { createPerson } from '../../test/people.ts';
import { createTestApp, type TestApp } from '../../test/testApp.ts';

/**
 * PostgreSQL numbers an event when it is inserted, but others see it only once its transaction commits: a
 * row with a lower id can appear after rows with higher ids were sent. (SQLite runs one writer at a time,
 * so its ids always commit in order: nothing to test there.)
 */
describe.skipIf(!process.env.TEST_DATABASE_URL)('live events committed out of id order on postgres', () => {
  let app: TestApp;
  beforeEach(async () => {
    app = await createTestApp('postgres');
  });
  afterEach(async () => {
    await app.close();
  });

  it('sends an event whose transaction committed after later-numbered ones were sent', async () => {
    const me = await createPerson(app, { gender: 'Male' });
    const sender = await createPerson(app);
    expect((await me.browser.post('/api/like', { profile_id: sender.profileId })).status).toBe(200);
    expect((await sender.browser.post('/api/like', { profile_id: me.profileId })).status).toBe(200);
    const { conversation_id: conversation } = await json<{ conversation_id: number }>(
      await sender.browser.post('/api/conversations/start', { profile_id: me.profileId }),
    );
    const stream = await EventStreamClient.open(`${app.url}/api/events`, {
      Cookie: `iskra_session=${me.browser.cookie('iskra_session') ?? ''}`,
    });
    try {
      // A slow transaction takes its event id first and commits last.
      let commit = () => {};
      const committed = new Promise<void>((resolve) => (commit = resolve));
      let slowId = 0;
      let numbered = () => {};
      const gotId = new Promise<void>((resolve) => (numbered = resolve));
      const slow = app.database.db.transaction().execute(async (trx) => {
        const row = await trx
          .insertInto('events')
          .values({
            user_id: me.userId,
            type: 'match_seen',
            payload: JSON.stringify({ profile_id: sender.profileId }),
            created_at: app.clock.now().toISOString(),
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        slowId = row.id;
        numbered();
        await committed;
      });
      await gotId;
      expect(
        (await sender.browser.post(`/api/conversations/${conversation}/messages`, { content: 'first' })).status,
      ).toBe(201);
      const first = await stream.waitFor((e) => e.type === 'message');
      expect(first.id).toBeGreaterThan(slowId);
      commit();
      await slow;
      // The next wake-up of the stream (any later event) brings the late one too.
      expect(
        (await sender.browser.post(`/api/conversations/${conversation}/messages`, { content: 'second' })).status,
      ).toBe(201);
      await stream.waitFor((e) => e.type === 'message' && e.id > first.id);
      await stream.waitFor((e) => e.id === slowId);
    } finally {
      stream.close();
    }
  });
});
