import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json } from '../../test/browser.ts';
import { EventStreamClient } from '../../test/eventStream.ts';
import { createPerson, type Person } from '../../test/people.ts';
import { createTestApp, type TestApp } from '../../test/testApp.ts';
import { testDialects } from '../../test/testDatabase.ts';
import { lastEventId } from './repository.ts';

/**
 * A stream says where it starts: its first frame carries the cursor as an `id:` with no `data:`, which sets
 * a browser's Last-Event-ID without dispatching an event. A tab cut off before its first event then comes
 * back with that id and is sent what happened while it was away.
 */
describe.each(testDialects())('the opening id of an event stream on %s', (dialect) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp(dialect);
  });
  afterAll(async () => {
    await app.close();
  });

  const cookieOf = (person: Person) => ({ Cookie: `iskra_session=${person.browser.cookie('iskra_session') ?? ''}` });
  const open = (person: Person, headers: Record<string, string> = {}) =>
    EventStreamClient.open(`${app.url}/api/events`, { ...cookieOf(person), ...headers });

  it('sends the cursor as the first frame’s id, and a reconnect with it gets the message sent while away', async () => {
    const me = await createPerson(app);
    const other = await createPerson(app, { gender: 'Male', premium: true });
    expect((await me.browser.post('/api/like', { profile_id: other.profileId })).status).toBe(200);
    expect((await other.browser.post('/api/like', { profile_id: me.profileId })).status).toBe(200);
    const { conversation_id } = await json<{ conversation_id: number }>(
      await other.browser.post('/api/conversations/start', { profile_id: me.profileId }),
    );
    const newest = await lastEventId(app.database.db, me.userId);
    expect(newest).toBeGreaterThan(0);

    const first = await open(me);
    const frame = await first.firstFrame;
    expect(frame.split('\n')).toContain(`id: ${newest}`);
    // No data: the browser dispatches no event, so the app has nothing to misread or acknowledge.
    expect(frame).not.toMatch(/^(data|event):/m);
    expect(first.lastId()).toBe(newest);
    first.close();
    await first.ended;
    expect(first.events).toEqual([]);

    expect(
      (await other.browser.post(`/api/conversations/${conversation_id}/messages`, { content: 'while you were away' }))
        .status,
    ).toBe(201);
    // What a browser's EventSource sends when it reconnects by itself.
    const again = await open(me, { 'Last-Event-ID': String(first.lastId()) });
    const message = await again.waitFor((e) => e.type === 'message');
    expect(message.data).toMatchObject({ conversation_id, content: 'while you were away' });
    again.close();
  });

  it('opens at id 0 for someone with no event yet, and a reconnect with Last-Event-ID 0 gets the first one', async () => {
    const me = await createPerson(app);
    const first = await open(me);
    expect((await first.firstFrame).split('\n')).toContain('id: 0');
    first.close();
    await first.ended;

    const liker = await createPerson(app, { gender: 'Male' });
    expect((await liker.browser.post('/api/like', { profile_id: me.profileId })).status).toBe(200);
    expect(await lastEventId(app.database.db, me.userId)).toBeGreaterThan(0);
    const again = await open(me, { 'Last-Event-ID': String(first.lastId()) });
    expect((await again.waitFor((e) => e.type === 'badges')).data).toMatchObject({ new_likers: 1 });
    again.close();
  });
});
