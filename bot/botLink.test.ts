import type { Bot } from 'grammy';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import en from '../locales/en.json' with { type: 'json' };
import ru from '../locales/ru.json' with { type: 'json' };
import { emptyPublicConfig } from '../server/contract/config.ts';
import {
  linkTokenLifetimeSeconds,
  maskEmail,
  TelegramBotLinkService,
  TelegramUserService,
} from '../server/features/telegram/index.ts';
import { createLogger } from '../server/logger.ts';
import { createLogMailer } from '../server/mail/mailer.ts';
import { AccountAlerts } from '../server/features/accountAlerts/index.ts';
import { PasswordHasher, Reauthentication } from '../server/features/accounts/index.ts';
import { RateCounter } from '../server/features/rateLimits/index.ts';
import { json } from '../server/test/browser.ts';
import { createPerson, type Person } from '../server/test/people.ts';
import { testBotToken } from '../server/test/telegramSigning.ts';
import { TelegramStandIn, testBotInfo } from '../server/test/telegramStandIn.ts';
import { buttonPress, textMessage } from '../server/test/telegramUpdates.ts';
import { createTestApp, type TestApp } from '../server/test/testApp.ts';
import { testDialects } from '../server/test/testDatabase.ts';
import { createBot } from './bot.ts';
import type { BotContext } from './context.ts';

let nextTelegramId = 7_100_000_000;
const telegramUser = (language_code = 'ru') => ({
  id: ++nextTelegramId,
  first_name: 'Маша',
  username: `masha${nextTelegramId}`,
  language_code,
});

describe.each(testDialects())('linking Telegram to a web account through the bot on %s', (dialect) => {
  let app: TestApp;
  let telegram: TelegramStandIn;
  let bot: Bot<BotContext>;

  beforeEach(async () => {
    app = await createTestApp(dialect, { publicConfig: { ...emptyPublicConfig, bot_username: testBotInfo.username } });
    telegram = new TelegramStandIn();
    const apiRoot = await telegram.start();
    const db = app.database.db;
    const users = new TelegramUserService(db, app.clock);
    bot = createBot({
      token: testBotToken,
      users,
      links: new TelegramBotLinkService(
        db,
        users,
        app.clock,
        testBotInfo.username,
        new Reauthentication(db, new RateCounter(db, app.clock), new PasswordHasher(1), app.clock),
        new AccountAlerts(
          db,
          createLogMailer(createLogger('silent')),
          app.clock,
          createLogger('silent'),
          'https://iskra.test/',
        ),
      ),
      logger: createLogger('silent'),
      publicUrl: 'https://iskra.test/',
      apiRoot,
      botInfo: testBotInfo,
      limits: { perChatIntervalMs: 0, minGapMs: 0 },
    });
  });
  afterEach(async () => {
    await telegram.stop();
    await app.close();
  });

  /** The web user asks the Account screen for the deep link; answers its /start payload. */
  async function payloadFor(person: Person): Promise<string> {
    const res = await person.browser.post('/api/account/telegram/bot-link', {});
    expect(res.status).toBe(200);
    const { url } = await json<{ url: string }>(res);
    expect(url).toMatch(/^https:\/\/t\.me\/iskra_test_bot\?start=link_[\w-]{43}$/);
    return new URL(url).searchParams.get('start') ?? '';
  }
  /** Start with the link, then press the confirm button the bot answers with (as the person who started). */
  async function startAndConfirm(tg: ReturnType<typeof telegramUser>, payload: string): Promise<void> {
    await bot.handleUpdate(textMessage(tg, `/start ${payload}`));
    await bot.handleUpdate(buttonPress(tg, `link:${payload.slice('link_'.length)}`));
  }
  const setLanguage = (person: Person, language: 'ru' | 'en') =>
    app.database.db.updateTable('users').set({ language }).where('id', '=', person.userId).execute();
  const repliesTo = (chatId: number) => telegram.callsOf('sendMessage').filter((p) => p.chat_id === chatId);
  const methods = async (person: Person) =>
    (await json<{ sign_in_methods: string[] }>(await person.browser.get('/api/account'))).sign_in_methods;
  const accountsWith = async (telegramId: number) =>
    (
      await app.database.db.selectFrom('users').select('id').where('telegram_id', '=', String(telegramId)).execute()
    ).map((r) => r.id);

  it('asks first, naming the account masked, then links the Telegram that confirms, once, and keeps only the token hash', async () => {
    const web = await createPerson(app);
    const payload = await payloadFor(web);
    const token = payload.slice('link_'.length);
    const rows = await app.database.db
      .selectFrom('telegram_link_tokens')
      .selectAll()
      .where('user_id', '=', web.userId)
      .execute();
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(token);

    const tg = telegramUser('en');
    await bot.handleUpdate(textMessage(tg, `/start ${payload}`));
    // Start alone changes nothing: the bot names the account (masked) and asks, in the web account's language.
    const email =
      (await app.database.db.selectFrom('users').select('email').where('id', '=', web.userId).executeTakeFirstOrThrow())
        .email ?? '';
    const account = email ? maskEmail(email) : '—';
    expect(repliesTo(tg.id).map((m) => m.text)).toEqual([ru.bot.link.confirm.replace('{{account}}', account)]);
    expect(account).not.toBe(email);
    expect(await accountsWith(tg.id)).toEqual([]);
    await bot.handleUpdate(buttonPress(tg, `link:${token}`));
    // In the web account's language (Russian), not Telegram's.
    expect(repliesTo(tg.id).map((m) => m.text)).toEqual([
      ru.bot.link.confirm.replace('{{account}}', account),
      ru.bot.link.done,
    ]);
    // The web account now holds this Telegram, no second account was made, and the bot may write to it.
    expect(await accountsWith(tg.id)).toEqual([web.userId]);
    expect(await methods(web)).toContain('telegram');
    const user = await app.database.db
      .selectFrom('users')
      .select(['bot_started_at'])
      .where('id', '=', web.userId)
      .executeTakeFirstOrThrow();
    expect(user.bot_started_at).not.toBeNull();

    // The same link a second time (another Telegram): used up.
    const other = telegramUser('ru');
    await startAndConfirm(other, payload);
    expect(repliesTo(other.id).map((m) => m.text)).toEqual([ru.bot.link.invalid, ru.bot.link.invalid]);
    expect(await accountsWith(tg.id)).toEqual([web.userId]);
  });

  it('refuses a Telegram that belongs to another account, saying so in the web account language, and merges nothing', async () => {
    const tg = telegramUser('ru');
    // This Telegram has its own Iskra account already (it started the bot before).
    await bot.handleUpdate(textMessage(tg, '/start'));
    const [owner] = await accountsWith(tg.id);
    const web = await createPerson(app);
    await setLanguage(web, 'en');
    await startAndConfirm(tg, await payloadFor(web));
    expect(repliesTo(tg.id).at(-1)?.text).toBe(en.bot.link.taken);
    expect(await accountsWith(tg.id)).toEqual([owner]);
    expect(await methods(web)).not.toContain('telegram');
  });

  it('refuses an expired link and a made-up one, and only the newest link of an account works', async () => {
    const web = await createPerson(app);
    const first = await payloadFor(web);
    const second = await payloadFor(web);
    const tg = telegramUser('en');
    await bot.handleUpdate(textMessage(tg, `/start ${first}`));
    await bot.handleUpdate(textMessage(tg, `/start link_${'A'.repeat(43)}`));
    app.clock.advance(linkTokenLifetimeSeconds + 1);
    await bot.handleUpdate(textMessage(tg, `/start ${second}`));
    // No account to take the language from: Telegram's.
    expect(repliesTo(tg.id).map((m) => m.text)).toEqual([
      en.bot.link.invalid,
      en.bot.link.invalid,
      en.bot.link.invalid,
    ]);
    expect(await methods(web)).not.toContain('telegram');
    expect(await accountsWith(tg.id)).toEqual([]);
  });

  it('keeps one live link per account when the Account screen asks several times at once', async () => {
    const web = await createPerson(app);
    const payloads = await Promise.all(Array.from({ length: 6 }, () => payloadFor(web)));
    const live = await app.database.db
      .selectFrom('telegram_link_tokens')
      .select('token_hash')
      .where('user_id', '=', web.userId)
      .where('used_at', 'is', null)
      .execute();
    expect(live).toHaveLength(1);
    // Only one of the answers works: the others' tokens are gone.
    const tg = telegramUser('ru');
    for (const payload of payloads) await startAndConfirm(tg, payload);
    expect(repliesTo(tg.id).filter((m) => m.text === ru.bot.link.done)).toHaveLength(1);
  });

  it('links nothing when the person cancels, or on a confirm button for a link that is not live', async () => {
    const web = await createPerson(app);
    const payload = await payloadFor(web);
    const tg = telegramUser('en');
    await bot.handleUpdate(textMessage(tg, `/start ${payload}`));
    await bot.handleUpdate(buttonPress(tg, 'link_cancel'));
    expect(repliesTo(tg.id).at(-1)?.text).toBe(en.bot.link.cancelled);
    await bot.handleUpdate(buttonPress(tg, `link:${'B'.repeat(43)}`));
    expect(repliesTo(tg.id).at(-1)?.text).toBe(en.bot.link.invalid);
    expect(await accountsWith(tg.id)).toEqual([]);
    expect(await methods(web)).not.toContain('telegram');
  });

  it('gives the link only to a signed-in user, and answers 503 without a bot', async () => {
    expect((await fetch(`${app.url}/api/account/telegram/bot-link`, { method: 'POST' })).status).toBe(403);
    const withoutBot = await createTestApp(dialect);
    try {
      const web = await createPerson(withoutBot);
      const res = await web.browser.post('/api/account/telegram/bot-link', {});
      expect(res.status).toBe(503);
      expect(await json(res)).toMatchObject({ code: 'bot_unavailable' });
    } finally {
      await withoutBot.close();
    }
  });
});
