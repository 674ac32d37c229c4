import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MessagesResponse } from '../../contract/chat.ts';
import type { LikeResponse, PersonListItem, SearchResult, UsersProfileResponse } from '../../contract/discovery.ts';
import { json } from '../../test/browser.ts';
import { createPerson, type Person } from '../../test/people.ts';
import { createTestApp, type TestApp } from '../../test/testApp.ts';
import { testDialects } from '../../test/testDatabase.ts';
import { freeLikeMessagesPerDay } from './rules.ts';

describe.each(testDialects())('likes with a message on %s', (dialect) => {
  let app: TestApp;
  beforeEach(async () => {
    app = await createTestApp(dialect);
  });
  afterEach(async () => {
    await app.close();
  });

  const write = (from: Person, to: Person, message: unknown) =>
    from.browser.post('/api/like', { profile_id: to.profileId, message });
  const like = (from: Person, to: Person) => from.browser.post('/api/like', { profile_id: to.profileId });
  const likers = async (viewer: Person) => json<PersonListItem[]>(await viewer.browser.get('/api/likes'));
  const swipesBy = (person: Person) =>
    app.database.db.selectFrom('swipes').selectAll().where('swiper_id', '=', person.profileId).execute();

  it('stores the trimmed message and shows its sender whole, on top of a free user’s likers, with the message', async () => {
    const her = await createPerson(app, { name: 'Ира' });
    const quiet = await createPerson(app, { gender: 'Male', name: 'Тихий' });
    const writer = await createPerson(app, { gender: 'Male', name: 'Пишущий', age: 33 });
    expect((await like(quiet, her)).status).toBe(200);
    const answer = await write(writer, her, '  Привет! Тоже люблю горы  ');
    expect(answer.status).toBe(200);
    expect(await json<LikeResponse>(answer)).toEqual({ match: false });
    expect((await swipesBy(writer))[0]?.message).toBe('Привет! Тоже люблю горы');

    // The plain liker, newer or not, stays blurred below the one who wrote.
    const list = await likers(her);
    expect(list).toEqual([
      {
        id: writer.profileId,
        name: 'Пишущий',
        age: 33,
        latest_photo: expect.stringMatching(/a{23}0\.jpg$/) as unknown,
        message: 'Привет! Тоже люблю горы',
      },
      {
        id: null,
        name: null,
        age: null,
        latest_photo: expect.stringMatching(/b{23}0\.jpg$/) as unknown,
        blurred: true,
      },
    ]);
    // Their profile opens on the free plan; the plain liker's still needs premium.
    const opened = await her.browser.get(`/api/users_profile_liker?profile_id=${writer.profileId}`);
    expect(opened.status).toBe(200);
    expect((await json<UsersProfileResponse>(opened)).users_profile).toMatchObject({
      id: writer.profileId,
      name: 'Пишущий',
    });
    expect((await her.browser.get(`/api/users_profile_liker?profile_id=${quiet.profileId}`)).status).toBe(403);
  });

  it('makes the writer the next card of the person written to, message over it, ahead of anyone nearer', async () => {
    const her = await createPerson(app, { at: [55.7558, 37.6173] });
    const near = await createPerson(app, { gender: 'Male', at: [55.7558, 37.6173] });
    const far = await createPerson(app, { gender: 'Male', at: [59.9343, 30.3351], name: 'Далёкий' });
    // Her pool is made before the like: the writer still comes first.
    const first = await json<SearchResult>(await her.browser.get('/api/search'));
    expect(first.profile_id).toBe(near.profileId);
    expect(first.message).toBeUndefined();
    await write(far, her, 'Я из Петербурга');
    const card = await json<SearchResult>(await her.browser.get('/api/search'));
    expect(card).toMatchObject({ profile_id: far.profileId, name: 'Далёкий', message: 'Я из Петербурга' });
    // Held by the app (shown), the next is the nearest again; answered, the writer is not shown again.
    expect((await json<SearchResult>(await her.browser.get(`/api/search?exclude=${far.profileId}`))).profile_id).toBe(
      near.profileId,
    );
    await her.browser.post('/api/dislike', { profile_id: far.profileId });
    expect((await json<SearchResult>(await her.browser.get('/api/search'))).profile_id).toBe(near.profileId);
    // Nobody else sees the message on the writer's card.
    const other = await createPerson(app, { at: [59.9343, 30.3351] });
    const theirs = await json<SearchResult>(await other.browser.get('/api/search'));
    expect(theirs.message).toBeUndefined();
  });

  it('puts the message into the conversation as the sender’s first message when the like is answered, and an answer’s message after it', async () => {
    const her = await createPerson(app);
    const him = await createPerson(app, { gender: 'Male' });
    await write(him, her, 'Привет, как дела?');
    app.clock.advance(5);
    const matched = await json<LikeResponse>(await write(her, him, 'Отлично!'));
    expect(matched.match).toBe(true);
    // He has her answer unread: the chats badge says so.
    expect((await json<{ unread_chats: number }>(await him.browser.get('/api/badges'))).unread_chats).toBe(1);
    const { conversation_id } = await json<{ conversation_id: number }>(
      await him.browser.post('/api/conversations/start', { profile_id: her.profileId }),
    );
    const page = await json<MessagesResponse>(await him.browser.get(`/api/conversations/${conversation_id}/messages`));
    expect(page.messages.map((m) => [m.sender_profile_id, m.content])).toEqual([
      [him.profileId, 'Привет, как дела?'],
      [her.profileId, 'Отлично!'],
    ]);
    // The writer answering a plain like: the match opens with his words only.
    const other = await createPerson(app);
    await like(other, him);
    expect((await json<LikeResponse>(await write(him, other, 'Взаимно!'))).match).toBe(true);
    const chats = await json<{ name: string; last_message: string | null }[]>(await other.browser.get('/api/chats'));
    expect(chats).toContainEqual(expect.objectContaining({ name: him.name, last_message: 'Взаимно!' }));
  });

  it('refuses bad messages with 400 and writes nothing', async () => {
    const her = await createPerson(app);
    const him = await createPerson(app, { gender: 'Male' });
    for (const message of ['', '   ', 'я'.repeat(201), 42, null, ['привет'], 'a\u0000b', 'a\uD800b']) {
      const refused = await write(him, her, message);
      expect(refused.status, JSON.stringify(message)).toBe(400);
      expect(await json(refused)).toMatchObject({
        code: expect.any(String) as unknown,
        error: expect.any(String) as unknown,
      });
    }
    expect(await swipesBy(him)).toHaveLength(0);
    // 200 characters after trimming is fine.
    expect((await write(him, her, ` ${'я'.repeat(200)} `)).status).toBe(200);
  });

  it('answers a repeat with the same words as the like made, and refuses other words on a like already made', async () => {
    const her = await createPerson(app);
    const him = await createPerson(app, { gender: 'Male' });
    await write(him, her, 'Первое');
    expect((await write(him, her, 'Первое')).status).toBe(200);
    const refused = await write(him, her, 'Второе');
    expect(refused.status).toBe(409);
    expect(await json(refused)).toMatchObject({ code: 'already_liked' });
    expect((await swipesBy(him)).map((s) => s.message)).toEqual(['Первое']);
  });

  it(`lets a free user write with ${freeLikeMessagesPerDay} likes a day, even in parallel at the limit, and a premium one with every like`, async () => {
    const free = await createPerson(app, { gender: 'Male' });
    const premium = await createPerson(app, { gender: 'Male', premium: true });
    const women = await Promise.all(Array.from({ length: 12 }, () => createPerson(app)));
    for (const target of women.slice(0, freeLikeMessagesPerDay - 1))
      expect((await write(free, target, 'Привет')).status).toBe(200);
    // One left: ten at once, exactly one passes.
    const rest = women.slice(freeLikeMessagesPerDay - 1);
    const answers = await Promise.all(rest.map((target) => write(free, target, 'Привет')));
    expect(answers.filter((r) => r.status === 200)).toHaveLength(1);
    const refused = answers.filter((r) => r.status === 429);
    expect(refused).toHaveLength(rest.length - 1);
    expect(await json(refused[0] as Response)).toMatchObject({
      code: 'like_message_limit',
      limit: freeLikeMessagesPerDay,
    });
    expect((await swipesBy(free)).filter((s) => s.message !== null)).toHaveLength(freeLikeMessagesPerDay);
    // Refused likes wrote nothing at all; a plain like still goes.
    expect(await swipesBy(free)).toHaveLength(freeLikeMessagesPerDay);
    expect((await like(free, rest[rest.length - 1] as Person)).status).toBe(200);

    const all = await Promise.all(women.map((target) => write(premium, target, 'Привет')));
    expect(all.every((r) => r.status === 200)).toBe(true);
    app.clock.advance(24 * 3600 + 1);
    expect((await write(free, await createPerson(app), 'Снова')).status).toBe(200);
  });

  it('keeps counting a like with a message that was taken back: an undo gives no allowance back', async () => {
    const free = await createPerson(app, { gender: 'Male' });
    const women = await Promise.all(Array.from({ length: freeLikeMessagesPerDay + 1 }, () => createPerson(app)));
    for (const target of women.slice(0, freeLikeMessagesPerDay - 1))
      expect((await write(free, target, 'Привет')).status).toBe(200);
    expect((await free.browser.post('/api/undo', {})).status).toBe(200);
    expect((await write(free, women[freeLikeMessagesPerDay - 1] as Person, 'Привет')).status).toBe(200);
    const refused = await write(free, women[freeLikeMessagesPerDay] as Person, 'Привет');
    expect(refused.status).toBe(429);
    expect(await json(refused)).toMatchObject({ code: 'like_message_limit' });
  });

  it('hides a writer’s message wherever a block or a ban hides them, and shows a private writer only to the person written to', async () => {
    const her = await createPerson(app);
    const banned = await createPerson(app, { gender: 'Male' });
    const blocked = await createPerson(app, { gender: 'Male' });
    const blocking = await createPerson(app, { gender: 'Male' });
    const hidden = await createPerson(app, { gender: 'Male', privateMode: true, name: 'Скрытый' });
    for (const writer of [banned, blocked, blocking, hidden])
      expect((await write(writer, her, `От ${writer.name}`)).status).toBe(200);
    await app.database.db
      .updateTable('users')
      .set({ banned_at: app.clock.now().toISOString() })
      .where('id', '=', banned.userId)
      .execute();
    await her.browser.post('/api/block', { profile_id: blocked.profileId });
    await blocking.browser.post('/api/block', { profile_id: her.profileId });

    const list = await likers(her);
    expect(list.map((l) => l.id)).toEqual([hidden.profileId]);
    expect(list[0]?.message).toBe('От Скрытый');
    const card = await json<SearchResult>(await her.browser.get('/api/search'));
    expect(card).toMatchObject({ profile_id: hidden.profileId, message: 'От Скрытый' });
    for (const gone of [banned, blocked, blocking]) {
      expect((await her.browser.get(`/api/users_profile_liker?profile_id=${gone.profileId}`)).status).toBe(404);
      expect(
        (await json<SearchResult>(await her.browser.get(`/api/search?exclude=${hidden.profileId}`))).profile_id,
      ).not.toBe(gone.profileId);
    }
    // Another woman is shown neither the private writer nor anything he wrote.
    const other = await createPerson(app);
    const res = await other.browser.get('/api/search');
    if (res.status === 200) expect((await json<SearchResult>(res)).profile_id).not.toBe(hidden.profileId);
  });
});
