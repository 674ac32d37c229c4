import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventStreamClient } from '../../test/eventStream.ts';
import { createPerson } from '../../test/people.ts';
import { createTestApp, type TestApp } from '../../test/testApp.ts';

describe('event streams on shutdown', () => {
  const stopping = new AbortController();
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp('sqlite', { shutdownSignal: stopping.signal });
  });
  afterAll(async () => {
    await app.close();
  });

  it('tell the client to reconnect soon and end when the process shuts down, so the server can close', async () => {
    const person = await createPerson(app);
    const stream = await EventStreamClient.open(`${app.url}/api/events`, {
      cookie: `iskra_session=${person.browser.cookie('iskra_session') ?? ''}`,
    });
    let ended = false;
    void stream.ended.then(() => (ended = true));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(ended).toBe(false);
    stopping.abort();
    await stream.ended;
    expect(ended).toBe(true);
    // The last words: an event without an id (the client's Last-Event-ID stays), and a reconnection time
    // short enough that the browser comes back within seconds, spread so a whole process's streams do not
    // land on the others at once.
    expect(stream.events.at(-1)).toMatchObject({ type: 'reconnect', data: { reason: 'shutdown' } });
    expect(Number.isNaN(stream.events.at(-1)?.id)).toBe(true);
    expect(stream.retryMs).toBeGreaterThanOrEqual(500);
    expect(stream.retryMs).toBeLessThan(2500);
  });
});
