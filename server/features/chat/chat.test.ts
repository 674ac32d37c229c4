import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ChatListItem, Message, MessagesResponse } from '../../contract/chat.ts';
import { PostgresEventBus } from '../events/index.ts';
import { createLogger } from '../../logger.ts';
import { Browser, json } from '../../test/browser.ts';
import { SessionTokens } from '../sessions/index.ts';
import { EventStreamClient } from '../../test/eventStream.ts';
import { testPassword } from '../../test/accounts.ts';
import { createPerson, type Person } from '../../test/people.ts';
import { createTestApp, testSessionSecret, type TestApp } from '../../test/testApp.ts';
import { createTestDatabase, testDialects } from '../../test/testDatabase.ts';
import { freeMessagesPerDay } from './rules.ts';

describe.each(testDialects())('chat on %s', (dialect) => {
  let app: TestApp;
  beforeEach(async () => {
    app = await createTestApp(dialect);
  });
  afterEach(async () => {
    await app.close();
  });

  async function matched(options: { premium?: boolean } = {}): Promise<[Person, Person]> {
    const a = await createPerson(app, { gender: 'Male', name: 'Антон', ...options });
    const b = await createPerson(app, { name: 'Белла' });
    await a.browser.post('/api/like', { profile_id: b.profileId });
    await b.browser.post('/api/like', { profile_id: a.profileId });
    return [a, b];
  }
  const start = async (from: Person, to: Person) => {
    const res = await from.browser.post('/api/conversations/start', { profile_id: to.profileId });
    expect(res.status).toBe(200);
    return (await json<{ conversation_id: number }>(res)).conversation_id;
  };
  const send = (from: Person, conversation: number, content: string) =>
    from.browser.post(`/api/conversations/${conversation}/messages`, { content });
  const read = async (who: Person, conversation: number, query = '') =>
    who.browser.get(`/api/conversations/${conversation}/messages${query}`);

  it('starts a conversation only with a match, and twice gives the same one', async () => {
    const [a, b] = await matched();
    const stranger = await createPerson(app);
    const id = await start(a, b);
    expect(await start(b, a)).toBe(id);
    const refused = await a.browser.post('/api/conversations/start', { profile_id: stranger.profileId });
    expect(refused.status).toBe(404);
    expect(await refused.json()).toEqual({ error: 'Failed to start chat', code: 'chat_not_allowed' });
    expect((await a.browser.post('/api/conversations/start', { profile_id: 'x' })).status).toBe(400);
  });

  it('pages 45 messages by 20 as 20, 20, 5 with no gaps or repeats while new ones arrive', async () => {
    const [a, b] = await matched({ premium: true });
    const id = await start(a, b);
    for (let i = 1; i <= 45; i++) expect((await send(i % 2 ? a : b, id, `message ${i}`)).status).toBe(201);
    const page1 = await json<MessagesResponse>(await read(a, id, '?limit=20'));
    // Her gender too: the app words what it says of her by it ("заблокирована").
    expect(page1.participant).toEqual({
      profile_id: b.profileId,
      name: 'Белла',
      gender: 'Female',
      photo: expect.any(String) as unknown,
    });
    // New messages arrive between pages: the cursor keeps older pages exact.
    await send(b, id, 'late 1');
    const page2 = await json<MessagesResponse>(
      await read(a, id, `?limit=20&before_message_id=${page1.messages[0]?.message_id ?? 0}`),
    );
    await send(a, id, 'late 2');
    const page3 = await json<MessagesResponse>(
      await read(a, id, `?limit=20&before_message_id=${page2.messages[0]?.message_id ?? 0}`),
    );
    expect([page1.messages.length, page2.messages.length, page3.messages.length]).toEqual([20, 20, 5]);
    const contents = [...page3.messages, ...page2.messages, ...page1.messages].map((m) => m.content);
    expect(contents).toEqual(Array.from({ length: 45 }, (_, i) => `message ${i + 1}`));
    expect(page1.messages.at(-1)?.sender_profile_id).toBe(a.profileId);
    // a has not read 'late 1' yet when b looks: b's own message shows unread, a's (read by b above) read.
    const bView = await json<MessagesResponse>(await read(b, id, '?limit=3'));
    expect(bView.messages.map((m) => [m.content, m.read])).toEqual([
      ['message 45', true],
      ['late 1', true],
      ['late 2', true],
    ]);
  });

  it('tells the sender which of their messages the other person has read', async () => {
    const [a, b] = await matched({ premium: true });
    const id = await start(a, b);
    await send(a, id, 'first');
    const mine = async () => (await json<MessagesResponse>(await read(a, id))).messages.map((m) => [m.content, m.read]);
    expect(await mine()).toEqual([['first', false]]);
    await read(b, id);
    await send(a, id, 'second');
    expect(await mine()).toEqual([
      ['first', true],
      ['second', false],
    ]);
  });

  it('keeps strangers, the unmatched and the blocked out of reading and writing', async () => {
    const [a, b] = await matched();
    const id = await start(a, b);
    await send(a, id, 'hello');
    const stranger = await createPerson(app);
    expect((await read(stranger, id)).status).toBe(404);
    expect((await send(stranger, id, 'hi')).status).toBe(404);

    const [c, d] = await matched();
    const id2 = await start(c, d);
    await c.browser.post('/api/unmatch', { profile_id: d.profileId });
    for (const who of [c, d]) {
      expect((await read(who, id2)).status).toBe(404);
      expect((await send(who, id2, 'still there?')).status).toBe(404);
    }
    await b.browser.post('/api/block', { profile_id: a.profileId });
    for (const who of [a, b]) {
      expect((await read(who, id)).status).toBe(404);
      expect((await send(who, id, 'hm')).status).toBe(404);
      expect(await json(await who.browser.get('/api/chats'))).toEqual([]);
    }
  });

  it('writes a message sent twice with the same client key once, and tells the other side once', async () => {
    const [a, b] = await matched();
    const id = await start(a, b);
    const stream = await EventStreamClient.open(`${app.url}/api/events`, {
      Cookie: `iskra_session=${b.browser.cookie('iskra_session') ?? ''}`,
    });
    try {
      const body = { content: 'only once', client_key: 'key-0123456789abcdef' };
      const first = await a.browser.post(`/api/conversations/${id}/messages`, body);
      expect(first.status).toBe(201);
      const sent = await json<Message>(first);
      // The answer was lost; the app sends again under the same key, twice at once for good measure.
      const repeats = await Promise.all([1, 2].map(() => a.browser.post(`/api/conversations/${id}/messages`, body)));
      for (const repeat of repeats) {
        expect(repeat.status).toBe(201);
        expect(await json<Message>(repeat)).toEqual(sent);
      }
      // Another message after it: the stream delivers it right after the first, with no copy between.
      expect((await send(a, id, 'next')).status).toBe(201);
      await stream.waitFor((e) => (e.data as { content?: string }).content === 'next');
      expect(
        stream.events.filter((e) => e.type === 'message').map((e) => (e.data as { content: string }).content),
      ).toEqual(['only once', 'next']);
      const page = await json<MessagesResponse>(await read(b, id));
      expect(page.messages.map((m) => m.content)).toEqual(['only once', 'next']);
      // The key names one message: other text, or another conversation, under it is refused and writes nothing.
      const reused = await a.browser.post(`/api/conversations/${id}/messages`, {
        content: 'different',
        client_key: body.client_key,
      });
      expect(reused.status).toBe(409);
      expect(await json(reused)).toEqual({
        error: 'This message key was already used for another message',
        code: 'client_key_reused',
      });
      // Keys are the sender's own: the other person may use the same one.
      expect(
        (await b.browser.post(`/api/conversations/${id}/messages`, { content: 'mine', client_key: body.client_key }))
          .status,
      ).toBe(201);
      for (const bad of ['short', 'has space in it', 'x'.repeat(65), 42])
        expect(
          (await a.browser.post(`/api/conversations/${id}/messages`, { content: 'hi', client_key: bad })).status,
        ).toBe(400);
      expect((await json<MessagesResponse>(await read(b, id))).messages.map((m) => m.content)).toEqual([
        'only once',
        'next',
        'mine',
      ]);
    } finally {
      stream.close();
    }
  });

  it('answers 410 partner_deleted for a conversation whose other person deleted their account, and 404 after an unmatch', async () => {
    const [a, b] = await matched();
    const id = await start(a, b);
    await send(a, id, 'are you there?');
    expect((await b.browser.post('/api/delete_account', { password: testPassword })).status).toBe(200);
    const gone = await read(a, id);
    expect(gone.status).toBe(410);
    expect(await json(gone)).toEqual({ error: 'This person deleted their profile', code: 'partner_deleted' });
    const refused = await send(a, id, 'hello?');
    expect(refused.status).toBe(410);
    expect(await json(await a.browser.get('/api/chats'))).toEqual([]);
    // Only the one who stayed is told: to anyone else it is not found.
    const stranger = await createPerson(app);
    expect((await read(stranger, id)).status).toBe(404);
    // A profile deleted alone (the account stays) is told the same way.
    const [c, d] = await matched();
    const id2 = await start(c, d);
    expect((await d.browser.post('/api/delete_profile', {})).status).toBe(200);
    expect((await read(c, id2)).status).toBe(410);
  });

  it('refuses empty, whitespace and over-long messages and keeps text as typed', async () => {
    const [a, b] = await matched();
    const id = await start(a, b);
    for (const content of ['', '   \n\t ', 'x'.repeat(2001)]) expect((await send(a, id, content)).status).toBe(400);
    expect((await a.browser.post(`/api/conversations/${id}/messages`, { content: 'hi', html: true })).status).toBe(400);
    const html = '<img src=x onerror=alert(1)> & "quotes"';
    const sent = await json<Message>(await send(a, id, html));
    expect(sent.content).toBe(html);
    expect((await json<MessagesResponse>(await read(b, id))).messages.map((m) => m.content)).toEqual([html]);
    expect((await send(a, id, 'x'.repeat(2000))).status).toBe(201);
  });

  it('refuses NUL and broken Unicode in a message, and ids beyond 32 bits, with 400 on both databases', async () => {
    const [a, b] = await matched();
    const id = await start(a, b);
    // PostgreSQL cannot store U+0000 in text (it answered 500); a lone surrogate would be stored as U+FFFD.
    for (const content of ['a\u0000b', 'broken \ud800 half', '\udc00']) {
      const res = await send(a, id, content);
      expect(res.status).toBe(400);
      expect(await json(res)).toMatchObject({ code: 'invalid_input' });
    }
    // Ids are 32-bit columns: PostgreSQL refused to compare them with 2^31 (it answered 500).
    for (const res of [
      await a.browser.post('/api/conversations/start', { profile_id: 2 ** 31 }),
      await read(a, 2 ** 31),
      await read(a, id, `?before_message_id=${2 ** 31}`),
      await a.browser.post(`/api/conversations/${2 ** 31}/messages`, { content: 'hi' }),
    ]) {
      expect(res.status).toBe(400);
      expect(await json(res)).toMatchObject({ code: 'invalid_input' });
    }
    expect((await json<MessagesResponse>(await read(b, id))).messages).toEqual([]);
    // A surrogate pair (an emoji) is whole, and welcome.
    expect((await send(a, id, 'hi \ud83d\ude00')).status).toBe(201);
  });

  it('lists chats newest first with the last message, and clears the unread flag once read', async () => {
    const [a, b] = await matched();
    const c = await createPerson(app, { name: 'Вика' });
    await a.browser.post('/api/like', { profile_id: c.profileId });
    await c.browser.post('/api/like', { profile_id: a.profileId });
    const withB = await start(a, b);
    const withC = await start(a, c);
    await send(b, withB, 'от Беллы');
    app.clock.advance(5);
    await send(c, withC, 'от Вики');
    let chats = await json<ChatListItem[]>(await a.browser.get('/api/chats'));
    expect(chats.map((x) => [x.conversation_id, x.name, x.last_message, x.last_message_mine, x.has_unread])).toEqual([
      [withC, 'Вика', 'от Вики', false, true],
      [withB, 'Белла', 'от Беллы', false, true],
    ]);
    // Each row names the other person, so a block or unmatch can take their row away.
    expect(chats.map((x) => x.profile_id)).toEqual([c.profileId, b.profileId]);
    // On the sender's side the same last message is their own.
    expect(
      (await json<ChatListItem[]>(await c.browser.get('/api/chats'))).find((x) => x.conversation_id === withC)
        ?.last_message_mine,
    ).toBe(true);
    await read(a, withC);
    chats = await json<ChatListItem[]>(await a.browser.get('/api/chats'));
    expect(chats.find((x) => x.conversation_id === withC)?.has_unread).toBe(false);
    expect(chats.find((x) => x.conversation_id === withB)?.has_unread).toBe(true);
    // The sender's own message never counts as unread for them.
    expect((await json<ChatListItem[]>(await c.browser.get('/api/chats')))[0]?.has_unread).toBe(false);
  });

  it(`limits free users to ${freeMessagesPerDay} messages a day and everyone to 30 a minute`, async () => {
    const [a, b] = await matched();
    const id = await start(a, b);
    for (let i = 0; i < 30; i++) expect((await send(a, id, `m${i}`)).status).toBe(201);
    const fast = await send(a, id, 'too fast');
    expect(fast.status).toBe(429);
    expect(await json(fast)).toMatchObject({ code: 'message_rate_limited' });
    // Two minutes apart, so the sliding minute (rateLimits/rateCounter.ts) holds none of the earlier ones.
    for (let minute = 0; minute < 3; minute++) {
      app.clock.advance(120);
      for (let i = 0; i < 30 && (minute < 2 || i < 10); i++)
        expect((await send(a, id, `n${minute}-${i}`)).status).toBe(201);
    }
    app.clock.advance(120);
    const daily = await send(a, id, 'one more');
    expect(daily.status).toBe(429);
    expect(await json(daily)).toMatchObject({ code: 'message_limit', limit: freeMessagesPerDay });
  });

  it("pushes a message to the other person's open event stream, and replays what a reconnecting tab missed", async () => {
    const [a, b] = await matched();
    const id = await start(a, b);
    const cookie = `iskra_session=${b.browser.cookie('iskra_session') ?? ''}`;
    const stream = await EventStreamClient.open(`${app.url}/api/events`, { Cookie: cookie });
    await send(a, id, 'live one');
    const live = await stream.waitFor((e) => e.type === 'message');
    expect(live.data).toMatchObject({ conversation_id: id, content: 'live one', sender_profile_id: a.profileId });
    stream.close();

    await send(a, id, 'while away 1');
    await send(a, id, 'while away 2');
    const again = await EventStreamClient.open(`${app.url}/api/events`, {
      Cookie: cookie,
      'Last-Event-ID': String(live.id),
    });
    await again.waitFor((e) => (e.data as { content?: string }).content === 'while away 2');
    expect(
      again.events.filter((e) => e.type === 'message').map((e) => (e.data as { content?: string }).content),
    ).toEqual(['while away 1', 'while away 2']);
    again.close();

    // Reading tells the sender; EventSource cannot set headers, so a jwtToken in the URL is accepted.
    const now = app.clock.now();
    const token = await new SessionTokens(testSessionSecret).sign(
      a.browser.cookie('iskra_session') ?? '',
      a.userId,
      now,
      new Date(now.getTime() + 3_600_000),
    );
    const senderStream = await EventStreamClient.open(`${app.url}/api/events?token=${encodeURIComponent(token)}`);
    await read(b, id);
    const readEvent = await senderStream.waitFor((e) => e.type === 'read');
    expect(readEvent.data).toEqual({ conversation_id: id, reader_profile_id: b.profileId });
    senderStream.close();
    expect((await fetch(`${app.url}/api/events?token=forged`)).status).toBe(401);
  });

  it('ignores a Last-Event-ID beyond 32 bits and refuses such a lastEventId, so the stream still delivers', async () => {
    const [a, b] = await matched();
    const id = await start(a, b);
    const cookie = `iskra_session=${b.browser.cookie('iskra_session') ?? ''}`;
    // PostgreSQL refused to compare the 32-bit ids with it, and the stream silently delivered nothing.
    const stream = await EventStreamClient.open(`${app.url}/api/events`, {
      Cookie: cookie,
      'Last-Event-ID': String(2 ** 31),
    });
    await send(a, id, 'still arrives');
    expect((await stream.waitFor((e) => e.type === 'message')).data).toMatchObject({ content: 'still arrives' });
    stream.close();
    const refused = await fetch(`${app.url}/api/events?lastEventId=${2 ** 31}`, { headers: { Cookie: cookie } });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ code: 'invalid_input' });
  });

  it('tells both people of a new match on their streams, and refuses a stream without a session', async () => {
    const a = await createPerson(app, { gender: 'Male' });
    const b = await createPerson(app, { name: 'Белла' });
    const streamA = await EventStreamClient.open(`${app.url}/api/events`, {
      Cookie: `iskra_session=${a.browser.cookie('iskra_session') ?? ''}`,
    });
    await a.browser.post('/api/like', { profile_id: b.profileId });
    await b.browser.post('/api/like', { profile_id: a.profileId });
    const event = await streamA.waitFor((e) => e.type === 'match');
    expect(event.data).toMatchObject({ profile: { id: b.profileId, name: 'Белла' } });
    streamA.close();
    expect((await fetch(`${app.url}/api/events`)).status).toBe(401);
  });

  if (dialect === 'postgres') {
    it('delivers across two server processes on one database through LISTEN/NOTIFY', async () => {
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
        const a = await createPerson(first, { gender: 'Male' });
        const b = await createPerson(first);
        await a.browser.post('/api/like', { profile_id: b.profileId });
        await b.browser.post('/api/like', { profile_id: a.profileId });
        const id = await start(a, b);
        // B listens on the first process; A writes through the second.
        const stream = await EventStreamClient.open(`${first.url}/api/events`, {
          Cookie: `iskra_session=${b.browser.cookie('iskra_session') ?? ''}`,
        });
        const aOnSecond = new Browser(second.url);
        aOnSecond.setCookie('iskra_session', a.browser.cookie('iskra_session') ?? '');
        expect(
          (await aOnSecond.post(`/api/conversations/${id}/messages`, { content: 'across processes' })).status,
        ).toBe(201);
        const event = await stream.waitFor((e) => e.type === 'message');
        expect(event.data).toMatchObject({ content: 'across processes' });
        stream.close();
      } finally {
        await second.close();
        await first.close();
        await database.drop();
      }
    });
  }
});
