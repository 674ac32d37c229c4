import { Writable } from 'node:stream';
import { Api, type Bot } from 'grammy';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import en from '../locales/en.json' with { type: 'json' };
import ru from '../locales/ru.json' with { type: 'json' };
import { TelegramUserService } from '../server/features/telegram/index.ts';
import { createLogger } from '../server/logger.ts';
import { testBotToken } from '../server/test/telegramSigning.ts';
import { TelegramStandIn, testBotInfo } from '../server/test/telegramStandIn.ts';
import { textMessage } from '../server/test/telegramUpdates.ts';
import { TestClock } from '../server/test/testClock.ts';
import { createTestDatabase, testDialects, type TestDatabase } from '../server/test/testDatabase.ts';
import { createBot } from './bot.ts';
import type { BotContext } from './context.ts';
import { configureBot } from './setup.ts';

const publicUrl = 'https://iskra.test/';
let nextTelegramId = 6_300_000_000;

interface InlineButton {
  text: string;
  web_app?: { url: string };
}
const buttonsOf = (payload: Record<string, unknown> | undefined) =>
  ((payload?.reply_markup as { inline_keyboard?: InlineButton[][] } | undefined)?.inline_keyboard ?? []).flat();

/** The bot's menu: /likes and /premium open those screens of the Mini App (startapp=likes, startapp=premium). */
describe.each(testDialects())("the bot's shortcuts to the likes and premium screens on %s", (dialect) => {
  let database: TestDatabase;
  let telegram: TelegramStandIn;
  let apiRoot: string;
  let bot: Bot<BotContext>;

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    telegram = new TelegramStandIn();
    apiRoot = await telegram.start();
    bot = createBot({
      token: testBotToken,
      users: new TelegramUserService(database.db, new TestClock()),
      logger: createLogger('info', new Writable({ write: (_chunk, _encoding, callback) => callback() })),
      publicUrl,
      apiRoot,
      botInfo: testBotInfo,
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

  for (const [language, texts] of [
    ['ru', ru],
    ['en', en],
  ] as const) {
    it(`/likes and /premium answer with a button that opens that screen (${language})`, async () => {
      const user = { id: ++nextTelegramId, first_name: 'Ада', language_code: language };
      await bot.handleUpdate(textMessage(user, '/likes'));
      await bot.handleUpdate(textMessage(user, '/premium'));
      const [likes, premium] = telegram.callsOf('sendMessage');
      expect(likes).toMatchObject({ chat_id: user.id, text: texts.bot.shortcuts.likes });
      expect(buttonsOf(likes)).toEqual([
        { text: texts.bot.shortcuts.open_likes, web_app: { url: `${publicUrl}?startapp=likes` } },
      ]);
      expect(premium).toMatchObject({ chat_id: user.id, text: texts.bot.shortcuts.premium });
      expect(buttonsOf(premium)).toEqual([
        { text: texts.bot.shortcuts.open_premium, web_app: { url: `${publicUrl}?startapp=premium` } },
      ]);
    });
  }

  it("lists /likes and /premium in the bot's command menu in both languages", async () => {
    await configureBot(new Api(testBotToken, { apiRoot }), publicUrl);
    const lists = telegram.callsOf('setMyCommands');
    const russian = lists.find((call) => call.language_code === undefined);
    const english = lists.find((call) => call.language_code === 'en');
    expect(russian?.commands).toEqual(
      expect.arrayContaining([
        { command: 'likes', description: ru.bot.commands.likes },
        { command: 'premium', description: ru.bot.commands.premium },
      ]),
    );
    expect(english?.commands).toEqual(
      expect.arrayContaining([
        { command: 'likes', description: en.bot.commands.likes },
        { command: 'premium', description: en.bot.commands.premium },
      ]),
    );
    expect(telegram.callsOf('setChatMenuButton').at(-1)).toMatchObject({
      menu_button: { type: 'web_app', web_app: { url: publicUrl } },
    });
  });
});
