import { Writable } from 'node:stream';
import type { Bot } from 'grammy';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import en from '../locales/en.json' with { type: 'json' };
import ru from '../locales/ru.json' with { type: 'json' };
import { TelegramUserService } from '../server/features/telegram/index.ts';
import { createLogger } from '../server/logger.ts';
import { signInitData, testBotToken } from '../server/test/telegramSigning.ts';
import { TelegramStandIn, testBotInfo } from '../server/test/telegramStandIn.ts';
import { buttonPress, textMessage } from '../server/test/telegramUpdates.ts';
import { createTestApp, type TestApp } from '../server/test/testApp.ts';
import { TestClock } from '../server/test/testClock.ts';
import { createTestDatabase, testDialects, type TestDatabase } from '../server/test/testDatabase.ts';
import { createBot } from './bot.ts';
import type { BotContext } from './context.ts';
import { webhookHandler, webhookSecret } from './webhook.ts';
import type { UserId } from '../db/schema.ts';

const publicUrl = 'https://iskra.test/';
let nextTelegramId = 6_000_000_000;
const newUser = (language_code = 'ru') => ({
  id: ++nextTelegramId,
  first_name: 'Маша',
  username: 'masha',
  language_code,
});

interface InlineButton {
  text: string;
  web_app?: { url: string };
  callback_data?: string;
}
const buttonsOf = (payload: Record<string, unknown>) =>
  ((payload.reply_markup as { inline_keyboard?: InlineButton[][] } | undefined)?.inline_keyboard ?? []).flat();

describe.each(testDialects())('the bot on %s', (dialect) => {
  let database: TestDatabase;
  let telegram: TelegramStandIn;
  let bot: Bot<BotContext>;
  const logs: string[] = [];

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    telegram = new TelegramStandIn();
    const apiRoot = await telegram.start();
    const sink = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        logs.push(chunk.toString());
        callback();
      },
    });
    bot = createBot({
      token: testBotToken,
      users: new TelegramUserService(database.db, new TestClock()),
      logger: createLogger('info', sink),
      publicUrl,
      apiRoot,
      botInfo: testBotInfo,
      // Pacing is tested on its own; here it would only slow the suite down.
      limits: { perChatIntervalMs: 0, minGapMs: 0 },
    });
  });
  afterAll(async () => {
    await telegram.stop();
    await database.drop();
  });
  beforeEach(() => {
    telegram.calls.length = 0;
  });

  const userRow = (telegramId: number) =>
    database.db.selectFrom('users').selectAll().where('telegram_id', '=', String(telegramId)).executeTakeFirstOrThrow();

  it('/start greets in Russian with a web_app button to PUBLIC_URL and records that the user started the bot', async () => {
    const user = newUser('ru');
    await bot.handleUpdate(textMessage(user, '/start'));
    const [message] = telegram.callsOf('sendMessage');
    expect(message).toMatchObject({ chat_id: user.id, text: ru.bot.start.greeting });
    expect(buttonsOf(message ?? {})).toEqual([{ text: ru.bot.start.open_app, web_app: { url: publicUrl } }]);
    const row = await userRow(user.id);
    expect(row.bot_started_at).not.toBeNull();
    expect(row).toMatchObject({ language: 'ru', bot_unreachable_at: null, telegram_username: 'masha' });
    expect(telegram.callsOf('setChatMenuButton')).toEqual([
      { chat_id: user.id, menu_button: { type: 'web_app', text: ru.bot.menu_button, web_app: { url: publicUrl } } },
    ]);
  });

  it('/start greets an English-speaking user in English and hands a deep-link payload on as startapp', async () => {
    const user = newUser('en-US');
    await bot.handleUpdate(textMessage(user, '/start ref_42-x'));
    const [message] = telegram.callsOf('sendMessage');
    expect(message).toMatchObject({ text: en.bot.start.greeting });
    expect(buttonsOf(message ?? {})).toEqual([
      { text: en.bot.start.open_app, web_app: { url: `${publicUrl}?startapp=ref_42-x` } },
    ]);

    // A payload Telegram would never produce is dropped, not passed to the app.
    await bot.handleUpdate(textMessage(user, '/start <script>'));
    expect(buttonsOf(telegram.callsOf('sendMessage')[1] ?? {})[0]?.web_app?.url).toBe(publicUrl);
  });

  it('/start welcomes back someone who has a profile, with the app and who liked them, not "create your profile"', async () => {
    const user = newUser('en');
    // First contact: no profile yet, so the newcomer's greeting.
    await bot.handleUpdate(textMessage(user, '/start'));
    expect(telegram.callsOf('sendMessage')[0]).toMatchObject({ text: en.bot.start.greeting });
    const { id: userId } = await userRow(user.id);
    const now = new Date().toISOString();
    await database.db
      .insertInto('profiles')
      .values({
        user_id: userId,
        name: 'Masha',
        age: 27,
        gender: 'Female',
        preferred_gender: 'Male',
        bio: '',
        city: 'Moscow',
        created_at: now,
        updated_at: now,
      })
      .execute();

    await bot.handleUpdate(textMessage(user, '/start'));
    const welcome = telegram.callsOf('sendMessage')[1] ?? {};
    expect(welcome).toMatchObject({ text: en.bot.start.greeting_member });
    expect(en.bot.start.greeting_member).not.toBe(en.bot.start.greeting);
    expect(buttonsOf(welcome)).toEqual([
      { text: en.bot.start.open_app, web_app: { url: publicUrl } },
      { text: en.bot.start.open_likes, web_app: { url: `${publicUrl}?startapp=likes` } },
    ]);

    // A deep link keeps its own single button.
    await bot.handleUpdate(textMessage(user, '/start premium'));
    const linked = telegram.callsOf('sendMessage')[2] ?? {};
    expect(linked).toMatchObject({ text: en.bot.start.greeting_member });
    expect(buttonsOf(linked)).toEqual([
      { text: en.bot.start.open_app, web_app: { url: `${publicUrl}?startapp=premium` } },
    ]);
  });

  it('/language offers ru/en and stores the choice, which the bot then speaks', async () => {
    const user = newUser('ru');
    await bot.handleUpdate(textMessage(user, '/language'));
    const [prompt] = telegram.callsOf('sendMessage');
    expect(prompt).toMatchObject({ text: ru.bot.language.choose });
    expect(buttonsOf(prompt ?? {}).map((b) => b.callback_data)).toEqual(['language:ru', 'language:en']);

    await bot.handleUpdate(buttonPress(user, 'language:en'));
    expect((await userRow(user.id)).language).toBe('en');
    expect(telegram.callsOf('answerCallbackQuery')).toHaveLength(1);
    expect(telegram.callsOf('editMessageText')[0]).toMatchObject({ text: en.bot.language.changed });

    await bot.handleUpdate(textMessage(user, '/help'));
    expect(telegram.callsOf('sendMessage').at(-1)).toMatchObject({ text: en.bot.help });
  });

  it('reaches the same account as a Mini App sign-in, which keeps the language chosen in the bot', async () => {
    const app = await createTestApp(dialect, { botToken: testBotToken });
    try {
      const appBot = createBot({
        token: testBotToken,
        users: new TelegramUserService(app.database.db, app.clock),
        logger: createLogger('silent'),
        publicUrl,
        apiRoot: telegram.apiRoot,
        botInfo: testBotInfo,
      });
      const user = newUser('ru');
      await appBot.handleUpdate(textMessage(user, '/start'));
      await appBot.handleUpdate(buttonPress(user, 'language:en'));
      const res = await fetch(`${app.url}/api/auth/telegram`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ initData: await signInitData(user, app.clock.now()) }),
      });
      expect(res.status).toBe(200);
      const { user_id } = (await res.json()) as { user_id: UserId };
      const row = await app.database.db
        .selectFrom('users')
        .selectAll()
        .where('id', '=', user_id)
        .executeTakeFirstOrThrow();
      expect(row).toMatchObject({ telegram_id: String(user.id), language: 'en' });
      expect(row.bot_started_at).not.toBeNull();
    } finally {
      await app.close();
    }
  });

  it("/language en makes the app English on its next load, and the app's switch changes the bot's next message", async () => {
    const app = await createTestApp(dialect, { botToken: testBotToken });
    try {
      const appBot = createBot({
        token: testBotToken,
        users: new TelegramUserService(app.database.db, app.clock),
        logger: createLogger('silent'),
        publicUrl,
        apiRoot: telegram.apiRoot,
        botInfo: testBotInfo,
      });
      const user = newUser('ru');
      const openApp = async () => {
        const res = await fetch(`${app.url}/api/auth/telegram`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ initData: await signInitData(user, app.clock.now()) }),
        });
        expect(res.status).toBe(200);
        return (await res.json()) as { token: string; current_user: { language?: string } };
      };
      expect((await openApp()).current_user.language).toBe('ru');

      await appBot.handleUpdate(textMessage(user, '/language en'));
      expect(telegram.callsOf('sendMessage').at(-1)).toMatchObject({ text: en.bot.language.changed });
      // The app's next load: the account's language, though Telegram still says ru.
      const opened = await openApp();
      expect(opened.current_user.language).toBe('en');

      // The app's switch (a bearer session, as inside Telegram) is the account's too: the bot follows.
      const switched = await fetch(`${app.url}/api/language`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${opened.token}` },
        body: JSON.stringify({ language: 'ru' }),
      });
      expect(switched.status).toBe(200);
      await appBot.handleUpdate(textMessage(user, '/help'));
      expect(telegram.callsOf('sendMessage').at(-1)).toMatchObject({ text: ru.bot.help });
    } finally {
      await app.close();
    }
  });

  it('marks a user who blocked the bot unreachable without failing, and a new /start makes them reachable', async () => {
    const user = newUser('ru');
    await bot.handleUpdate(textMessage(user, '/help'));
    telegram.blocked.add(user.id);
    await expect(bot.handleUpdate(textMessage(user, '/start'))).resolves.toBeUndefined();
    expect((await userRow(user.id)).bot_unreachable_at).not.toBeNull();
    expect(logs.join('\n')).toContain('blocked the bot');
    expect(logs.join('\n')).not.toContain('"level":50');

    telegram.blocked.delete(user.id);
    await bot.handleUpdate(textMessage(user, '/start'));
    expect((await userRow(user.id)).bot_unreachable_at).toBeNull();
  });

  it('retries a message Telegram rate-limited (429 with retry_after)', async () => {
    const user = newUser('en');
    telegram.failNext('sendMessage', {
      error_code: 429,
      description: 'Too Many Requests: retry after 1',
      parameters: { retry_after: 1 },
    });
    await bot.handleUpdate(textMessage(user, '/help'));
    const sends = telegram.callsOf('sendMessage');
    expect(sends).toHaveLength(2);
    expect(sends[1]).toMatchObject({ chat_id: user.id, text: en.bot.help });
  });

  it('stays silent in groups and creates no account there', async () => {
    const user = newUser('en');
    const update = textMessage(user, '/start');
    if (update.message) update.message.chat = { id: -100123, type: 'supergroup', title: 'Group' };
    await bot.handleUpdate(update);
    expect(telegram.calls).toEqual([]);
    const rows = await database.db
      .selectFrom('users')
      .select('id')
      .where('telegram_id', '=', String(user.id))
      .execute();
    expect(rows).toEqual([]);
  });

  it('answers anything else with a pointer to /help and stops unknown buttons from spinning', async () => {
    const user = newUser('en');
    await bot.handleUpdate(textMessage(user, 'hello?'));
    expect(telegram.callsOf('sendMessage')).toEqual([
      expect.objectContaining({ chat_id: user.id, text: en.bot.unhandled }),
    ]);
    await bot.handleUpdate(buttonPress(user, 'something-old'));
    expect(telegram.callsOf('answerCallbackQuery')).toHaveLength(1);
  });
});

describe('the bot webhook route', () => {
  let app: TestApp;
  let telegram: TelegramStandIn;
  const secret = webhookSecret(testBotToken, 'test-secret-that-is-long-enough-for-hmac-and-jwt');

  beforeAll(async () => {
    telegram = new TelegramStandIn();
    const apiRoot = await telegram.start();
    // The bot needs the app's database; build the app first and point the bot at the same database.
    const holder: { handler?: ReturnType<typeof webhookHandler> } = {};
    app = await createTestApp('sqlite', {
      botToken: testBotToken,
      telegramWebhook: async (ctx, next) => {
        if (holder.handler) await holder.handler(ctx, next);
        else await next();
      },
    });
    const logger = createLogger('silent');
    const bot = createBot({
      token: testBotToken,
      users: new TelegramUserService(app.database.db, app.clock),
      logger,
      publicUrl,
      apiRoot,
      botInfo: testBotInfo,
    });
    holder.handler = webhookHandler(bot, secret, logger);
  });
  afterAll(async () => {
    await app.close();
    await telegram.stop();
  });

  const deliver = (update: unknown, headers: Record<string, string>) =>
    fetch(`${app.url}/telegram/webhook`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...headers },
      body: JSON.stringify(update),
    });

  it('refuses a missing or wrong secret header and runs nothing', async () => {
    const update = textMessage({ id: 7_000_000_001 }, '/start');
    expect((await deliver(update, {})).status).toBe(401);
    expect((await deliver(update, { 'X-Telegram-Bot-Api-Secret-Token': `${secret.slice(0, -1)}x` })).status).toBe(401);
    expect(telegram.calls).toEqual([]);
    const users = await app.database.db.selectFrom('users').select('id').execute();
    expect(users).toEqual([]);
  });

  it('handles an update sent with the right secret, without needing a CSRF token', async () => {
    const res = await deliver(textMessage({ id: 7_000_000_002, language_code: 'en' }, '/start'), {
      'X-Telegram-Bot-Api-Secret-Token': secret,
    });
    expect(res.status).toBe(200);
    expect(telegram.callsOf('sendMessage')).toEqual([
      expect.objectContaining({ chat_id: 7_000_000_002, text: en.bot.start.greeting }),
    ]);
    expect((await deliver({ nope: true }, { 'X-Telegram-Bot-Api-Secret-Token': secret })).status).toBe(400);
  });
});
