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
import { TelegramUserService } from '../telegram/telegramUsers.ts';
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
  async function telegramPerson(options: PersonOptions & { language?: 'ru' | 'en'; startedBot?: boolean } = {}): Promise<Person & { chatId: number }> {
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
    (payload?.reply_markup as { inline_keyboard: { web_app?: { url: string } }[][] } | undefined)?.inline_keyboard[0]?.[0]?.web_app?.url ?? '';

  async function matchedConversation(a: Person, b: Person): Promise<number> {
    await a.browser.post('/api/like', { profile_id: b.profileId });
    await b.browser.post('/api/like', { profile_id: a.profileId });
    return (await json<{ conversation_id: number }>(await a.browser.post('/api/conversations/start', { profile_id: b.profileId }))).conversation_id;
  }

  it('notifies both people of a match in their own language, with a Mini App button', async () => {
    const anton = await telegramPerson({ gender: 'Male', name: 'Антон', language: 'ru' });
    const bella = await telegramPerson({ name: 'Bella', language: 'en' });
    await matchedConversation(anton, bella);
    expect(await worker.drainOnce()).toBe(2);
    const [toAnton] = sentTo(anton.chatId);
    const [toBella] = sentTo(bella.chatId);
    expect(toAnton?.text).toBe('У вас новая пара: Bella! Напишите первым 💬');
    expect(toBella?.text).toBe('You have a new match: Антон! Say hi first 💬');
    // Each button opens the other's profile (match_<profileId>).
    expect(buttonUrl(toBella)).toBe(`${publicUrl}/?startapp=match_${anton.profileId}`);
    expect(buttonUrl(toAnton)).toBe(`${publicUrl}/?startapp=match_${bella.profileId}`);
  });

  it('notifies of a message with the sender and the start of the text, at most once per conversation in 10 minutes', async () => {
    const a = await telegramPerson({ gender: 'Male', name: 'Антон' });
    const b = await telegramPerson({ name: 'Белла' });
    const id = await matchedConversation(a, b);
    await worker.drainOnce();
    const long = `Привет! ${'очень '.repeat(30)}длинное сообщение`;
    expect((await a.browser.post(`/api/conversations/${id}/messages`, { content: long })).status).toBe(201);
    await a.browser.post(`/api/conversations/${id}/messages`, { content: 'второе' });
    await worker.drainOnce();
    const messages = sentTo(b.chatId).filter((p) => String(p.text).startsWith('Антон:'));
    expect(messages).toHaveLength(1);
    expect(String(messages[0]?.text)).toMatch(/^Антон: Привет! очень/);
    expect(String(messages[0]?.text).length).toBeLessThan(100);
    expect(buttonUrl(messages[0])).toBe(`${publicUrl}/?startapp=chat_${id}`);

    app.clock.advance(10 * 60 + 1);
    await a.browser.post(`/api/conversations/${id}/messages`, { content: 'третье' });
    await worker.drainOnce();
    expect(
      sentTo(b.chatId)
        .filter((p) => String(p.text).startsWith('Антон:'))
        .map((p) => p.text),
    ).toEqual([messages[0]?.text, 'Антон: третье']);
  });

  it('sends nothing to someone who turned notifications off, never started the bot, or is online in the app', async () => {
    const sender = await telegramPerson({ gender: 'Male', name: 'Антон' });
    const quiet = await telegramPerson();
    const neverStarted = await telegramPerson({ startedBot: false });
    const online = await telegramPerson();
    await quiet.browser.post('/api/settings', { notifications: false });
    const stream = await EventStreamClient.open(`${app.url}/api/events`, { Cookie: `iskra_session=${online.browser.cookie('iskra_session') ?? ''}` });
    for (const other of [quiet, neverStarted, online]) {
      const id = await matchedConversation(sender, other);
      await sender.browser.post(`/api/conversations/${id}/messages`, { content: 'привет' });
    }
    await worker.drainOnce();
    expect(sentTo(quiet.chatId)).toEqual([]);
    expect(sentTo(neverStarted.chatId)).toEqual([]);
    expect(sentTo(online.chatId)).toEqual([]);
    await stream.waitFor((e) => e.type === 'message');
    stream.close();
    // The sender, who is not online, still hears of the three matches.
    expect(sentTo(sender.chatId)).toHaveLength(3);
  });

  it('keeps the message when Telegram fails and sends the notification on a later attempt', async () => {
    const a = await telegramPerson({ gender: 'Male', name: 'Антон' });
    const b = await telegramPerson({ name: 'Белла' });
    const id = await matchedConversation(a, b);
    await worker.drainOnce();
    telegram.failNext('sendMessage', { error_code: 400, description: 'Bad Request: temporary trouble' });
    const sent = await a.browser.post(`/api/conversations/${id}/messages`, { content: 'дойдёт' });
    expect(sent.status).toBe(201);
    expect(await worker.drainOnce()).toBe(0);
    const job = () =>
      app.database.db
        .selectFrom('notification_jobs')
        .select(['attempts', 'outcome'])
        .where('user_id', '=', b.userId)
        .where('kind', '=', 'message')
        .executeTakeFirstOrThrow();
    expect(await job()).toEqual({ attempts: 1, outcome: null });
    const stored = await json<{ messages: { content: string }[] }>(await b.browser.get(`/api/conversations/${id}/messages`));
    expect(stored.messages.map((m) => m.content)).toEqual(['дойдёт']);
    // Not due yet; due after the back-off.
    expect(await worker.drainOnce()).toBe(0);
    app.clock.advance(31);
    expect(await worker.drainOnce()).toBe(1);
    expect(await job()).toEqual({ attempts: 1, outcome: 'sent' });
    // The stand-in records the failed attempt and the successful one.
    expect(sentTo(b.chatId).filter((p) => p.text === 'Антон: дойдёт')).toHaveLength(2);
  });

  it('settles a notification to someone who blocked the bot without retrying, and marks them unreachable', async () => {
    const a = await telegramPerson({ gender: 'Male' });
    const b = await telegramPerson();
    telegram.blocked.add(b.chatId);
    await matchedConversation(a, b);
    expect(await worker.drainOnce()).toBe(2);
    const user = await app.database.db.selectFrom('users').select('bot_unreachable_at').where('id', '=', b.userId).executeTakeFirstOrThrow();
    expect(user.bot_unreachable_at).not.toBeNull();
    const jobs = await app.database.db.selectFrom('notification_jobs').select(['user_id', 'outcome']).execute();
    expect(jobs.find((j) => j.user_id === b.userId)?.outcome).toBe('unreachable');
  });
});
