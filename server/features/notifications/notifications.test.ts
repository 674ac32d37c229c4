import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createBot } from '../../../bot/bot.ts';
import { createTelegramNotifier } from '../../../bot/notifier.ts';
import { createLogger } from '../../logger.ts';
import { json } from '../../test/browser.ts';
import { EventStreamClient } from '../../test/eventStream.ts';
import { createPerson, type Person, type PersonOptions } from '../../test/people.ts';
import { testBotToken } from '../../test/telegramSigning.ts';
import { TelegramStandIn, testBotInfo } from '../../test/telegramStandIn.ts';
import { createTestApp, type TestApp } from '../../test/testApp.ts';
import { testDialects } from '../../test/testDatabase.ts';
import { TelegramUserService } from '../telegram/index.ts';
import { defaultNotifyGraceSeconds } from './queue.ts';
import { NotificationWorker } from './worker.ts';

const publicUrl = 'https://iskra.example';
let telegramIds = 700_000_000;

describe.each(testDialects())('bot notifications on %s', (dialect) => {
  let app: TestApp;
  let telegram: TelegramStandIn;
  let worker: NotificationWorker;
  beforeEach(async () => {
    app = await createTestApp(dialect);
    telegram = new TelegramStandIn();
    const apiRoot = await telegram.start();
    const logger = createLogger('silent');
    const bot = createBot({
      token: testBotToken,
      users: new TelegramUserService(app.database.db, app.clock),
      logger,
      publicUrl,
      apiRoot,
      botInfo: testBotInfo,
      limits: { perChatIntervalMs: 0, minGapMs: 0 },
    });
    worker = new NotificationWorker(app.database.db, createTelegramNotifier(bot.api, publicUrl), app.clock, logger);
  });
  afterEach(async () => {
    await telegram.stop();
    await app.close();
  });

  /** A person who signed in through Telegram and started the bot. */
  async function telegramPerson(
    options: PersonOptions & { language?: 'ru' | 'en'; startedBot?: boolean } = {},
  ): Promise<Person & { chatId: number }> {
    const person = await createPerson(app, options);
    const chatId = ++telegramIds;
    await app.database.db
      .updateTable('users')
      .set({
        telegram_id: String(chatId),
        language: options.language ?? 'ru',
        bot_started_at: options.startedBot === false ? null : app.clock.now().toISOString(),
      })
      .where('id', '=', person.userId)
      .execute();
    return { ...person, chatId };
  }
  const sentTo = (chatId: number) => telegram.callsOf('sendMessage').filter((p) => p.chat_id === chatId);
  const buttonUrl = (payload: Record<string, unknown> | undefined) =>
    (payload?.reply_markup as { inline_keyboard: { web_app?: { url: string } }[][] } | undefined)
      ?.inline_keyboard[0]?.[0]?.web_app?.url ?? '';
  /** The grace period passes: what the app did not show in time is due. */
  const afterGrace = () => app.clock.advance(defaultNotifyGraceSeconds + 1);
  const streamOf = (person: Person) =>
    EventStreamClient.open(`${app.url}/api/events`, {
      Cookie: `iskra_session=${person.browser.cookie('iskra_session') ?? ''}`,
    });
  const ack = (person: Person, ids: number[]) => person.browser.post('/api/events/ack', { ids });

  /** A match whose conversation B starts (so B has opened it: only A is told of the match). */
  async function matchedConversation(a: Person, b: Person): Promise<number> {
    await a.browser.post('/api/like', { profile_id: b.profileId });
    await b.browser.post('/api/like', { profile_id: a.profileId });
    return (
      await json<{ conversation_id: number }>(
        await b.browser.post('/api/conversations/start', { profile_id: a.profileId }),
      )
    ).conversation_id;
  }
  const send = (from: Person, conversation: number, content: string) =>
    from.browser.post(`/api/conversations/${conversation}/messages`, { content });

  it('notifies both people of a match in their own language, with a Mini App button, once the grace period has passed', async () => {
    const anton = await telegramPerson({ gender: 'Male', name: 'Антон', language: 'ru' });
    const bella = await telegramPerson({ name: 'Bella', language: 'en' });
    await anton.browser.post('/api/like', { profile_id: bella.profileId });
    await bella.browser.post('/api/like', { profile_id: anton.profileId });
    // The app gets its chance to show the match first.
    expect(await worker.drainOnce()).toBe(0);
    app.clock.advance(defaultNotifyGraceSeconds - 1);
    expect(await worker.drainOnce()).toBe(0);
    app.clock.advance(2);
    expect(await worker.drainOnce()).toBe(2);
    const [toAnton] = sentTo(anton.chatId);
    const [toBella] = sentTo(bella.chatId);
    // Said to the recipient in their own gender (Anton: «первым»).
    expect(toAnton?.text).toBe('У вас новая пара: Bella! Напишите первым 💬');
    expect(toBella?.text).toBe("You have a new match: Антон! Don't wait — say hi 💬");
    // Each button opens the other's profile (match_<profileId>).
    expect(buttonUrl(toBella)).toBe(`${publicUrl}/?startapp=match_${anton.profileId}`);
    expect(buttonUrl(toAnton)).toBe(`${publicUrl}/?startapp=match_${bella.profileId}`);
    expect(await worker.drainOnce()).toBe(0);
    expect(telegram.callsOf('sendMessage')).toHaveLength(2);
  });

  it('notifies of a message with the sender and the start of the newest text, at most once per conversation in 10 minutes', async () => {
    const a = await telegramPerson({ gender: 'Male', name: 'Антон' });
    const b = await telegramPerson({ name: 'Белла' });
    const id = await matchedConversation(a, b);
    afterGrace();
    await worker.drainOnce();
    const long = `Привет! ${'очень '.repeat(30)}длинное сообщение`;
    expect((await send(a, id, 'первое')).status).toBe(201);
    expect((await send(a, id, long)).status).toBe(201);
    afterGrace();
    await worker.drainOnce();
    // One notification, telling of the newest message while it waited.
    const messages = sentTo(b.chatId).filter((p) => String(p.text).startsWith('Антон:'));
    expect(messages).toHaveLength(1);
    expect(String(messages[0]?.text)).toMatch(/^Антон: Привет! очень/);
    expect(String(messages[0]?.text).length).toBeLessThan(100);
    expect(buttonUrl(messages[0])).toBe(`${publicUrl}/?startapp=chat_${id}`);

    await send(a, id, 'после отправки');
    afterGrace();
    await worker.drainOnce();
    expect(sentTo(b.chatId).filter((p) => String(p.text).startsWith('Антон:'))).toHaveLength(1);

    app.clock.advance(10 * 60);
    await send(a, id, 'третье');
    afterGrace();
    await worker.drainOnce();
    expect(
      sentTo(b.chatId)
        .filter((p) => String(p.text).startsWith('Антон:'))
        .map((p) => p.text),
    ).toEqual([messages[0]?.text, 'Антон: третье']);
  });

  it('sends exactly one notification to someone whose app is open elsewhere and does not show the message (the case that used to send none)', async () => {
    const a = await telegramPerson({ gender: 'Male', name: 'Антон' });
    const b = await telegramPerson({ name: 'Белла' });
    const id = await matchedConversation(a, b);
    afterGrace();
    await worker.drainOnce();
    const before = sentTo(b.chatId).length;
    // B's app is open (its stream receives the message) but on another screen: it acknowledges nothing.
    const stream = await streamOf(b);
    await send(a, id, 'ты тут?');
    await stream.waitFor((e) => e.type === 'message');
    expect(await worker.drainOnce()).toBe(0);
    afterGrace();
    expect(await worker.drainOnce()).toBe(1);
    expect(await worker.drainOnce()).toBe(0);
    expect(
      sentTo(b.chatId)
        .slice(before)
        .map((p) => p.text),
    ).toEqual(['Антон: ты тут?']);
    stream.close();
  });

  it('sends nothing for a message the app showed or the person read in time, and again for the next one that nobody saw', async () => {
    const a = await telegramPerson({ gender: 'Male', name: 'Антон' });
    const b = await telegramPerson({ name: 'Белла' });
    const id = await matchedConversation(a, b);
    afterGrace();
    await worker.drainOnce();
    const before = sentTo(b.chatId).length;
    const stream = await streamOf(b);
    await send(a, id, 'видно в открытом чате');
    const shown = await stream.waitFor((e) => e.type === 'message');
    expect(await json(await ack(b, [shown.id]))).toEqual({ ok: true });
    // Acknowledging twice, or at once from two tabs, is the same.
    expect((await Promise.all([ack(b, [shown.id]), ack(b, [shown.id, shown.id])])).map((r) => r.status)).toEqual([
      200, 200,
    ]);
    afterGrace();
    expect(await worker.drainOnce()).toBe(0);

    await send(a, id, 'прочитано вовремя');
    expect((await b.browser.get(`/api/conversations/${id}/messages`)).status).toBe(200);
    afterGrace();
    await worker.drainOnce();
    expect(sentTo(b.chatId).slice(before)).toEqual([]);

    // Within the 10 minutes, but nothing was sent yet: the next unseen message is notified.
    await send(a, id, 'а это не видно');
    afterGrace();
    await worker.drainOnce();
    expect(
      sentTo(b.chatId)
        .slice(before)
        .map((p) => p.text),
    ).toEqual(['Антон: а это не видно']);
    stream.close();
  });

  it("ignores an acknowledgement of someone else's event", async () => {
    const a = await telegramPerson({ gender: 'Male', name: 'Антон' });
    const b = await telegramPerson({ name: 'Белла' });
    const stranger = await telegramPerson();
    const id = await matchedConversation(a, b);
    afterGrace();
    await worker.drainOnce();
    const stream = await streamOf(b);
    await send(a, id, 'только для Беллы');
    const event = await stream.waitFor((e) => e.type === 'message');
    const jobs = () =>
      app.database.db.selectFrom('notification_jobs').select(['id', 'done_at', 'outcome']).orderBy('id').execute();
    const before = await jobs();
    // The answer is the same as for one's own ids: it says nothing about whether the id exists.
    expect(await json(await ack(stranger, [event.id]))).toEqual({ ok: true });
    expect(await json(await ack(a, [event.id]))).toEqual({ ok: true });
    expect(await jobs()).toEqual(before);
    afterGrace();
    await worker.drainOnce();
    expect(sentTo(b.chatId).map((p) => p.text)).toContain('Антон: только для Беллы');
    stream.close();
  });

  it('skips the match notification of whoever saw the overlay (acknowledged or marked seen), and any for a match already ended', async () => {
    const a = await telegramPerson({ gender: 'Male', name: 'Антон' });
    const b = await telegramPerson({ name: 'Белла' });
    const c = await telegramPerson({ name: 'Вера' });
    const stream = await streamOf(b);
    await a.browser.post('/api/like', { profile_id: b.profileId });
    await b.browser.post('/api/like', { profile_id: a.profileId });
    const overlay = await stream.waitFor((e) => e.type === 'match');
    await ack(b, [overlay.id]);
    // A marks it seen on the swipe answer's overlay.
    expect((await a.browser.post('/api/matches/seen', { profile_id: b.profileId })).status).toBe(200);
    // C matches A and unmatches before anyone was told.
    await a.browser.post('/api/like', { profile_id: c.profileId });
    await c.browser.post('/api/like', { profile_id: a.profileId });
    await c.browser.post('/api/unmatch', { profile_id: a.profileId });
    afterGrace();
    await worker.drainOnce();
    expect(telegram.callsOf('sendMessage')).toEqual([]);
    const outcomes = await app.database.db
      .selectFrom('notification_jobs')
      .select(['user_id', 'outcome'])
      .orderBy('id')
      .execute();
    expect(outcomes).toEqual([
      { user_id: b.userId, outcome: 'seen' },
      { user_id: a.userId, outcome: 'stale' },
      { user_id: c.userId, outcome: 'stale' },
      { user_id: a.userId, outcome: 'stale' },
    ]);
    stream.close();
  });

  it('addresses a woman as a woman in a match notification, and someone of gender Other neutrally', async () => {
    const vera = await telegramPerson({ name: 'Вера', language: 'ru' });
    const oleg = await telegramPerson({ gender: 'Male', preferred: 'Any', name: 'Олег', language: 'ru' });
    const sam = await telegramPerson({ gender: 'Other', name: 'Саша', language: 'ru' });
    for (const [a, b] of [
      [vera, oleg],
      [sam, oleg],
    ] as const) {
      await a.browser.post('/api/like', { profile_id: b.profileId });
      await b.browser.post('/api/like', { profile_id: a.profileId });
    }
    afterGrace();
    await worker.drainOnce();
    expect(sentTo(vera.chatId).map((m) => m.text)).toEqual(['У вас новая пара: Олег! Напишите первой 💬']);
    expect(sentTo(sam.chatId).map((m) => m.text)).toEqual(['У вас новая пара: Олег! Не ждите — напишите 💬']);
  });

  it('tells a premium user who liked them, in their language with a button to the likers; never a free user', async () => {
    const premiumRu = await telegramPerson({ gender: 'Male', premium: true, language: 'ru' });
    const premiumEn = await telegramPerson({ gender: 'Male', premium: true, language: 'en' });
    const free = await telegramPerson({ gender: 'Male' });
    const admirer = await telegramPerson({ name: 'Ника' });
    for (const target of [premiumRu, premiumEn, free])
      expect((await admirer.browser.post('/api/like', { profile_id: target.profileId })).status).toBe(200);
    expect(await worker.drainOnce()).toBe(0);
    afterGrace();
    expect(await worker.drainOnce()).toBe(2);
    const [toRu] = sentTo(premiumRu.chatId);
    const [toEn] = sentTo(premiumEn.chatId);
    // Of the liker in her gender.
    expect(toRu?.text).toBe('Ника лайкнула вас 💘 Ответите взаимностью?');
    expect(toEn?.text).toBe('New like from Ника 💘 Like her back?');
    expect(buttonUrl(toRu)).toBe(`${publicUrl}/?startapp=likes`);
    expect(JSON.stringify(toEn?.reply_markup)).toContain('See who liked you');
    expect(sentTo(free.chatId)).toEqual([]);
    expect(sentTo(admirer.chatId)).toEqual([]);
  });

  it('tells a free user too that someone wrote with their like, never the words; an undone like is not told', async () => {
    const free = await telegramPerson({ gender: 'Male', language: 'ru' });
    const freeEn = await telegramPerson({ gender: 'Male', language: 'en' });
    const undone = await telegramPerson({ gender: 'Male', premium: true });
    const admirer = await telegramPerson({ name: 'Ника' });
    const secret = 'Тайные слова про горы';
    for (const target of [free, freeEn]) {
      expect((await admirer.browser.post('/api/like', { profile_id: target.profileId, message: secret })).status).toBe(
        200,
      );
    }
    expect((await admirer.browser.post('/api/like', { profile_id: undone.profileId, message: secret })).status).toBe(
      200,
    );
    expect((await admirer.browser.post('/api/undo', {})).status).toBe(200);
    afterGrace();
    expect(await worker.drainOnce()).toBe(3);
    const [toRu] = sentTo(free.chatId);
    const [toEn] = sentTo(freeEn.chatId);
    expect(toRu?.text).toBe('Ника написала вам вместе с\u00a0лайком 💌 Откройте, чтобы прочитать');
    expect(toEn?.text).toBe('Ника wrote to you with a like 💌 Open to read her message');
    expect(buttonUrl(toRu)).toBe(`${publicUrl}/?startapp=likes`);
    expect(JSON.stringify(telegram.callsOf('sendMessage'))).not.toContain(secret);
    expect(sentTo(undone.chatId)).toEqual([]);
  });

  it('skips a like notification once the Likes screen was opened, the liker answered or notifications turned off', async () => {
    const looked = await telegramPerson({ gender: 'Male', premium: true });
    const answered = await telegramPerson({ gender: 'Male', premium: true });
    const quiet = await telegramPerson({ gender: 'Male', premium: true });
    const admirer = await telegramPerson({ name: 'Ника' });
    for (const target of [looked, answered, quiet])
      await admirer.browser.post('/api/like', { profile_id: target.profileId });
    expect((await looked.browser.post('/api/likes/seen', {})).status).toBe(200);
    await answered.browser.post('/api/dislike', { profile_id: admirer.profileId });
    await quiet.browser.post('/api/settings', { notifications: false });
    afterGrace();
    expect(await worker.drainOnce()).toBe(3);
    expect(telegram.callsOf('sendMessage')).toEqual([]);
  });

  it('does not announce a match the matches list no longer shows by the time it is due (partner banned meanwhile)', async () => {
    const anton = await telegramPerson({ gender: 'Male' });
    const bella = await telegramPerson({ name: 'Белла' });
    await anton.browser.post('/api/like', { profile_id: bella.profileId });
    await bella.browser.post('/api/like', { profile_id: anton.profileId });
    await app.database.db
      .updateTable('users')
      .set({ banned_at: app.clock.now().toISOString() })
      .where('id', '=', bella.userId)
      .execute();
    expect(await json(await anton.browser.get('/api/matches'))).toEqual([]);
    afterGrace();
    await worker.drainOnce();
    expect(sentTo(anton.chatId)).toEqual([]);
  });

  it('does not name a liker who is off the likers list by the time it is due (banned meanwhile)', async () => {
    const target = await telegramPerson({ gender: 'Male', premium: true });
    const admirer = await telegramPerson({ name: 'Ника' });
    expect((await admirer.browser.post('/api/like', { profile_id: target.profileId })).status).toBe(200);
    await app.database.db
      .updateTable('users')
      .set({ banned_at: app.clock.now().toISOString() })
      .where('id', '=', admirer.userId)
      .execute();
    // The likers list and the badge no longer show them: the bot must not either.
    expect(await json(await target.browser.get('/api/likes'))).toEqual([]);
    afterGrace();
    expect(await worker.drainOnce()).toBe(1);
    expect(sentTo(target.chatId)).toEqual([]);
  });

  it('sends nothing to someone who turned notifications off (even during the grace period) or never started the bot', async () => {
    const sender = await telegramPerson({ gender: 'Male', name: 'Антон' });
    const quiet = await telegramPerson();
    const neverStarted = await telegramPerson({ startedBot: false });
    const lateQuiet = await telegramPerson();
    await quiet.browser.post('/api/settings', { notifications: false });
    for (const other of [quiet, neverStarted, lateQuiet]) {
      const id = await matchedConversation(sender, other);
      await send(sender, id, 'привет');
    }
    await lateQuiet.browser.post('/api/settings', { notifications: false });
    afterGrace();
    await worker.drainOnce();
    expect(sentTo(quiet.chatId)).toEqual([]);
    expect(sentTo(neverStarted.chatId)).toEqual([]);
    expect(sentTo(lateQuiet.chatId)).toEqual([]);
    // The sender still hears of the three matches.
    expect(sentTo(sender.chatId)).toHaveLength(3);
  });

  it('keeps the message when Telegram fails and sends the notification on a later attempt', async () => {
    const a = await telegramPerson({ gender: 'Male', name: 'Антон' });
    const b = await telegramPerson({ name: 'Белла' });
    const id = await matchedConversation(a, b);
    afterGrace();
    await worker.drainOnce();
    telegram.failNext('sendMessage', { error_code: 400, description: 'Bad Request: temporary trouble' });
    const sent = await send(a, id, 'дойдёт');
    expect(sent.status).toBe(201);
    afterGrace();
    expect(await worker.drainOnce()).toBe(0);
    const job = () =>
      app.database.db
        .selectFrom('notification_jobs')
        .select(['attempts', 'outcome'])
        .where('user_id', '=', b.userId)
        .where('kind', '=', 'message')
        .executeTakeFirstOrThrow();
    expect(await job()).toEqual({ attempts: 1, outcome: null });
    // Not due yet; due after the back-off.
    expect(await worker.drainOnce()).toBe(0);
    app.clock.advance(31);
    expect(await worker.drainOnce()).toBe(1);
    expect(await job()).toEqual({ attempts: 1, outcome: 'sent' });
    // The stand-in records the failed attempt and the successful one.
    expect(sentTo(b.chatId).filter((p) => p.text === 'Антон: дойдёт')).toHaveLength(2);
    // The person still has not read it (nothing was displayed in the app).
    const stored = await json<{ messages: { content: string }[] }>(
      await b.browser.get(`/api/conversations/${id}/messages`),
    );
    expect(stored.messages.map((m) => m.content)).toEqual(['дойдёт']);
  });

  it('settles a notification to someone who blocked the bot without retrying, and marks them unreachable', async () => {
    const a = await telegramPerson({ gender: 'Male' });
    const b = await telegramPerson();
    telegram.blocked.add(b.chatId);
    await a.browser.post('/api/like', { profile_id: b.profileId });
    await b.browser.post('/api/like', { profile_id: a.profileId });
    afterGrace();
    expect(await worker.drainOnce()).toBe(2);
    const user = await app.database.db
      .selectFrom('users')
      .select('bot_unreachable_at')
      .where('id', '=', b.userId)
      .executeTakeFirstOrThrow();
    expect(user.bot_unreachable_at).not.toBeNull();
    const jobs = await app.database.db.selectFrom('notification_jobs').select(['user_id', 'outcome']).execute();
    expect(jobs.find((j) => j.user_id === b.userId)?.outcome).toBe('unreachable');
  });
});
