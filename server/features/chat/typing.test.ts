import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { typingIntervalSeconds, type TypingResponse } from '../../contract/chat.ts';
import { createLogger } from '../../logger.ts';
import { Browser, json } from '../../test/browser.ts';
import { EventStreamClient, type ReceivedEvent } from '../../test/eventStream.ts';
import { createPerson, type Person } from '../../test/people.ts';
import { createTestApp, type TestApp } from '../../test/testApp.ts';
import { createTestDatabase, testDialects } from '../../test/testDatabase.ts';
import { PostgresEventBus } from '../events/index.ts';

describe.each(testDialects())('typing on %s', (dialect) => {
  let app: TestApp;
  const streams: EventStreamClient[] = [];
  beforeEach(async () => {
    app = await createTestApp(dialect);
  });
  afterEach(async () => {
    for (const stream of streams.splice(0)) stream.close();
    await app.close();
  });

  async function matchedPair(): Promise<{ anton: Person; bella: Person; conversation: number }> {
    const anton = await createPerson(app, { gender: 'Male', name: 'Антон' });
    const bella = await createPerson(app, { name: 'Белла' });
    await anton.browser.post('/api/like', { profile_id: bella.profileId });
    await bella.browser.post('/api/like', { profile_id: anton.profileId });
    const started = await anton.browser.post('/api/conversations/start', { profile_id: bella.profileId });
    expect(started.status).toBe(200);
    return { anton, bella, conversation: (await json<{ conversation_id: number }>(started)).conversation_id };
  }

  async function streamOf(
    person: Person,
    headers: Record<string, string> = {},
    base = app.url,
  ): Promise<EventStreamClient> {
    const stream = await EventStreamClient.open(`${base}/api/events`, {
      Cookie: `iskra_session=${person.browser.cookie('iskra_session') ?? ''}`,
      ...headers,
    });
    // The stream is subscribed once its opening frame is out: a signal sent after that reaches it.
    await stream.firstFrame;
    streams.push(stream);
    return stream;
  }

  const typing = (who: Person, conversation: number | string) =>
    who.browser.post(`/api/conversations/${conversation}/typing`, {});
  const typed = (events: readonly ReceivedEvent[]) => events.filter((e) => e.type === 'typing');

  it("tells the partner's stream only, without an id, and never replays it or stores it", async () => {
    const { anton, bella, conversation } = await matchedPair();
    const stranger = await createPerson(app);
    const [bellaStream, antonStream, strangerStream] = [
      await streamOf(bella),
      await streamOf(anton),
      await streamOf(stranger),
    ];

    const res = await typing(anton, conversation);
    expect(res.status).toBe(200);
    expect(await json<TypingResponse>(res)).toEqual({ ok: true, sent: true });
    const event = await bellaStream.waitFor((e) => e.type === 'typing');
    expect(event.data).toEqual({ conversation_id: conversation, profile_id: anton.profileId });
    // No `id:` line: the browser's last event id stays that of the last stored event.
    expect(Number.isNaN(event.id)).toBe(true);

    // A message after it: both streams have it, and by then a typing event to anyone else would have come too.
    expect(
      (await anton.browser.post(`/api/conversations/${conversation}/messages`, { content: 'привет' })).status,
    ).toBe(201);
    const message = await bellaStream.waitFor((e) => e.type === 'message');
    await antonStream.waitFor((e) => e.type === 'message');
    expect(typed(antonStream.events)).toEqual([]);
    expect(typed(strangerStream.events)).toEqual([]);
    expect(bellaStream.events.map((e) => e.type).filter((t) => t === 'typing' || t === 'message')).toEqual([
      'typing',
      'message',
    ]);

    // Nothing in the event log: a stream resuming from before the signal is sent the message, not the typing.
    const stored = await app.database.db
      .selectFrom('events')
      .select('type')
      .where('user_id', '=', bella.userId)
      .execute();
    expect(stored.map((r) => r.type)).not.toContain('typing');
    const resumed = await streamOf(bella, { 'Last-Event-ID': String(message.id - 1) });
    await resumed.waitFor((e) => e.type === 'message');
    expect(typed(resumed.events)).toEqual([]);
  });

  it('sends one signal per sender in 3 s: the calls between answer sent: false and tell nobody', async () => {
    const { anton, bella, conversation } = await matchedPair();
    const bellaStream = await streamOf(bella);
    expect(await json<TypingResponse>(await typing(anton, conversation))).toEqual({ ok: true, sent: true });
    app.clock.advance(typingIntervalSeconds - 0.5);
    expect(await json<TypingResponse>(await typing(anton, conversation))).toEqual({ ok: true, sent: false });
    // Her own typing is hers: his throttle does not hold hers back.
    expect(await json<TypingResponse>(await typing(bella, conversation))).toEqual({ ok: true, sent: true });
    app.clock.advance(0.5);
    expect(await json<TypingResponse>(await typing(anton, conversation))).toEqual({ ok: true, sent: true });

    // A message marks the end of what could have come: exactly the two signals that went out, before it.
    expect((await anton.browser.post(`/api/conversations/${conversation}/messages`, { content: 'ok' })).status).toBe(
      201,
    );
    await bellaStream.waitFor((e) => e.type === 'message');
    expect(typed(bellaStream.events)).toHaveLength(2);
  });

  it('lets one of many parallel calls through', async () => {
    const { anton, bella, conversation } = await matchedPair();
    const bellaStream = await streamOf(bella);
    const answers = await Promise.all(
      Array.from({ length: 8 }, async () => json<TypingResponse>(await typing(anton, conversation))),
    );
    expect(answers.filter((a) => a.sent)).toHaveLength(1);
    expect((await anton.browser.post(`/api/conversations/${conversation}/messages`, { content: 'ok' })).status).toBe(
      201,
    );
    await bellaStream.waitFor((e) => e.type === 'message');
    expect(typed(bellaStream.events)).toHaveLength(1);
  });

  it('refuses a stranger, a blocked pair, an ended match, no session and a bad id, and tells nobody', async () => {
    const { anton, bella, conversation } = await matchedPair();
    const stranger = await createPerson(app);
    const bellaStream = await streamOf(bella);
    const antonStream = await streamOf(anton);

    const fromStranger = await typing(stranger, conversation);
    expect(fromStranger.status).toBe(404);
    expect(await fromStranger.json()).toEqual({ error: 'Conversation not found', code: 'conversation_not_found' });
    expect((await typing(anton, 'abc')).status).toBe(400);
    expect((await new Browser(app.url).post(`/api/conversations/${conversation}/typing`, {})).status).toBe(401);

    // Blocked: neither side may signal the other, whoever blocked.
    const second = await matchedPair();
    expect((await second.bella.browser.post('/api/block', { profile_id: second.anton.profileId })).status).toBe(200);
    for (const who of [second.anton, second.bella]) {
      const refused = await typing(who, second.conversation);
      expect(refused.status).toBe(404);
      expect(await refused.json()).toMatchObject({ code: 'conversation_not_found' });
    }

    // Unmatched: over too.
    expect((await bella.browser.post('/api/unmatch', { profile_id: anton.profileId })).status).toBe(200);
    await antonStream.waitFor((e) => e.type === 'unmatched');
    await bellaStream.waitFor((e) => e.type === 'unmatched');
    expect((await typing(anton, conversation)).status).toBe(404);
    // Every refused call above came before the `unmatched` both streams got: none of them told anyone.
    expect(typed(bellaStream.events)).toEqual([]);
    expect(typed(antonStream.events)).toEqual([]);
  });

  if (dialect === 'postgres') {
    it('reaches a partner connected to another server process, once', async () => {
      const logger = createLogger('silent');
      const database = await createTestDatabase('postgres');
      const url = database.url ?? '';
      const schema = database.schema ?? '';
      const first = await createTestApp('postgres', {
        database,
        eventBus: await PostgresEventBus.start(url, schema, logger),
      });
      const second = await createTestApp('postgres', {
        database,
        eventBus: await PostgresEventBus.start(url, schema, logger),
      });
      try {
        const anton = await createPerson(first, { gender: 'Male' });
        const bella = await createPerson(first);
        await anton.browser.post('/api/like', { profile_id: bella.profileId });
        await bella.browser.post('/api/like', { profile_id: anton.profileId });
        const started = await json<{ conversation_id: number }>(
          await anton.browser.post('/api/conversations/start', { profile_id: bella.profileId }),
        );
        // Bella listens on the first process, and on the second (another tab); Anton types through the second.
        const onFirst = await streamOf(bella, {}, first.url);
        const onSecond = await streamOf(bella, {}, second.url);
        const antonOnSecond = new Browser(second.url);
        antonOnSecond.setCookie('iskra_session', anton.browser.cookie('iskra_session') ?? '');
        expect(
          await json<TypingResponse>(
            await antonOnSecond.post(`/api/conversations/${started.conversation_id}/typing`, {}),
          ),
        ).toEqual({
          ok: true,
          sent: true,
        });
        // The throttle is the database's: the first process lets no second signal through either.
        const viaFirst = await anton.browser.post(`/api/conversations/${started.conversation_id}/typing`, {});
        expect(await json<TypingResponse>(viaFirst)).toEqual({ ok: true, sent: false });
        for (const stream of [onFirst, onSecond]) {
          const event = await stream.waitFor((e) => e.type === 'typing');
          expect(event.data).toEqual({ conversation_id: started.conversation_id, profile_id: anton.profileId });
        }
        // A message through the second process, after the signal: by its arrival on each, no copy came.
        expect(
          (await antonOnSecond.post(`/api/conversations/${started.conversation_id}/messages`, { content: 'hi' }))
            .status,
        ).toBe(201);
        for (const stream of [onFirst, onSecond]) {
          await stream.waitFor((e) => e.type === 'message');
          expect(typed(stream.events)).toHaveLength(1);
        }
      } finally {
        for (const stream of streams.splice(0)) stream.close();
        await second.close();
        await first.close();
        await database.drop();
      }
    });
  }
});
