import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Bot } from 'grammy';
import type { Update } from 'grammy/types';
import { createBot } from '../../../bot/bot.ts';
import type { BotContext } from '../../../bot/context.ts';
import { createTelegramNotifier } from '../../../bot/notifier.ts';
import { createLogger } from '../../logger.ts';
import { Browser } from '../../test/browser.ts';
import { createPerson, type Person } from '../../test/people.ts';
import { signInitData, testBotToken } from '../../test/telegramSigning.ts';
import { TelegramStandIn, testBotInfo } from '../../test/telegramStandIn.ts';
import { createTestApp, type TestApp } from '../../test/testApp.ts';
import { testDialects } from '../../test/testDatabase.ts';
import { TelegramUserService } from '../telegram/index.ts';
import { defaultNotifyGraceSeconds } from './queue.ts';
import { NotificationWorker } from './worker.ts';

const publicUrl = 'https://iskra.example';
let telegramIds = 710_000_000;

/**
 * Issue 39: a Mini App user whose launch data say `allows_write_to_pm: true`, or who granted the app's
 * `requestWriteAccess` (Telegram's `write_access_allowed` message), hears from the bot without ever sending /start.
 */
describe.each(testDialects())('the bot reaches Mini App users who allowed it on %s', (dialect) => {
  let app: TestApp;
  let telegram: TelegramStandIn;
  let worker: NotificationWorker;
  let bot: Bot<BotContext>;
  beforeEach(async () => {
    app = await createTestApp(dialect, { botToken: testBotToken });
    telegram = new TelegramStandIn();
    const apiRoot = await telegram.start();
    const logger = createLogger('silent');
    bot = createBot({
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

  /** A person with a profile whose account is a Telegram one that never started the bot. */
  async function miniAppPerson(name: string, gender: 'Male' | 'Female'): Promise<Person & { chatId: number }> {
    const person = await createPerson(app, { name, gender });
    const chatId = ++telegramIds;
    await app.database.db
      .updateTable('users')
      .set({ telegram_id: String(chatId), bot_started_at: null })
      .where('id', '=', person.userId)
      .execute();
    return { ...person, chatId };
  }
  /** Opens the Mini App: POST /api/auth/telegram with init data signed at `at`. */
  async function launch(chatId: number, allows: boolean | undefined, at = app.clock.now()): Promise<number> {
    const user = { id: chatId, first_name: 'Тест', ...(allows === undefined ? {} : { allows_write_to_pm: allows }) };
    const res = await new Browser(app.url).post('/api/auth/telegram', { initData: await signInitData(user, at) });
    return res.status;
  }
  const reachability = (chatId: number) =>
    app.database.db
      .selectFrom('users')
      .select(['bot_started_at', 'bot_unreachable_at'])
      .where('telegram_id', '=', String(chatId))
      .executeTakeFirstOrThrow();
  const matchAndWait = async (a: Person, b: Person) => {
    await a.browser.post('/api/like', { profile_id: b.profileId });
    await b.browser.post('/api/like', { profile_id: a.profileId });
    app.clock.advance(defaultNotifyGraceSeconds + 1);
    await worker.drainOnce();
  };
  const sentTo = (chatId: number) => telegram.callsOf('sendMessage').filter((p) => p.chat_id === chatId);

  it('writes about a match to a user whose Mini App launch allowed it, and not to one whose launch did not', async () => {
    const allowed = await miniAppPerson('Аня', 'Female');
    const silent = await miniAppPerson('Оля', 'Female');
    const partner = await miniAppPerson('Петя', 'Male');
    expect(await launch(allowed.chatId, true)).toBe(200);
    expect(await launch(silent.chatId, false)).toBe(200);
    expect((await reachability(allowed.chatId)).bot_started_at).not.toBeNull();
    expect((await reachability(silent.chatId)).bot_started_at).toBeNull();

    await matchAndWait(allowed, partner);
    await matchAndWait(silent, partner);
    expect(sentTo(allowed.chatId).map((p) => p.text)).toEqual(['У вас новая пара: Петя! Напишите первой 💬']);
    expect(sentTo(silent.chatId)).toEqual([]);
    // Nobody sent /start: the bot wrote on the launch's word alone.
    expect(telegram.callsOf('sendMessage').some((p) => String(p.text).includes('/start'))).toBe(false);
  });

  it('writes to a user once Telegram tells the bot they granted write access in the app', async () => {
    const granted = await miniAppPerson('Вера', 'Female');
    const partner = await miniAppPerson('Иван', 'Male');
    const update: Update = {
      update_id: 1,
      message: {
        message_id: 1,
        date: Math.floor(Date.now() / 1000),
        chat: { id: granted.chatId, type: 'private', first_name: 'Вера' },
        from: { id: granted.chatId, is_bot: false, first_name: 'Вера' },
        write_access_allowed: { from_request: true },
      },
    };
    await bot.handleUpdate(update);
    // Nothing said in reply: the grant is not a conversation.
    expect(sentTo(granted.chatId)).toEqual([]);
    await matchAndWait(granted, partner);
    expect(sentTo(granted.chatId)).toHaveLength(1);
  });

  it('keeps a user who blocked the bot after their launch unreachable; a later launch that allows it reaches them again', async () => {
    const person = await miniAppPerson('Лена', 'Female');
    const partner = await miniAppPerson('Гоша', 'Male');
    const launchedAt = app.clock.now();
    expect(await launch(person.chatId, true, launchedAt)).toBe(200);
    telegram.blocked.add(person.chatId);
    await matchAndWait(person, partner);
    expect((await reachability(person.chatId)).bot_unreachable_at).not.toBeNull();

    // The same (older) launch data again: the 403 came after them, so it stands.
    expect(await launch(person.chatId, true, launchedAt)).toBe(200);
    expect((await reachability(person.chatId)).bot_unreachable_at).not.toBeNull();
    // A launch after the block that still says "allowed": the user unblocked the bot since.
    app.clock.advance(60);
    telegram.blocked.delete(person.chatId);
    expect(await launch(person.chatId, true)).toBe(200);
    expect(await reachability(person.chatId)).toMatchObject({ bot_unreachable_at: null });
    const started = (await reachability(person.chatId)).bot_started_at;
    // The first time the bot could write is kept.
    expect(started).toBe(launchedAt.toISOString());
  });
});
