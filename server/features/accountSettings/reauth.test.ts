import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UserId } from '../../../db/schema.ts';
import ru from '../../../locales/ru.json' with { type: 'json' };
import { createBot } from '../../../bot/bot.ts';
import { createTelegramNotifier } from '../../../bot/notifier.ts';
import type { AccountResponse } from '../../contract/accounts.ts';
import { emptyPublicConfig } from '../../contract/config.ts';
import { reauthWindowMinutes } from '../../contract/dataRights.ts';
import { createLogger } from '../../logger.ts';
import { signUpVerified, testPassword, uniqueEmail } from '../../test/accounts.ts';
import { Browser, json } from '../../test/browser.ts';
import { GoogleStandIn, testGoogleClientId } from '../../test/googleStandIn.ts';
import { createPerson } from '../../test/people.ts';
import { codeFrom } from '../../test/smtpStandIn.ts';
import { signWidgetPayload, testBotToken } from '../../test/telegramSigning.ts';
import { TelegramStandIn, testBotInfo } from '../../test/telegramStandIn.ts';
import { createTestApp, type TestApp } from '../../test/testApp.ts';
import { testDialects } from '../../test/testDatabase.ts';
import { NotificationWorker } from '../notifications/index.ts';
import { TelegramUserService } from '../telegram/index.ts';

let counter = 0;
const publicUrl = 'https://iskra.example';

describe.each(testDialects())('re-authentication and notices for the ways into an account on %s', (dialect) => {
  let app: TestApp;
  let telegram: TelegramStandIn;
  let worker: NotificationWorker;
  const google = new GoogleStandIn();
  beforeAll(async () => {
    const jwksUrl = await google.start();
    app = await createTestApp(dialect, {
      google: { clientId: testGoogleClientId, jwksUrl },
      botToken: testBotToken,
      publicConfig: { ...emptyPublicConfig, bot_username: testBotInfo.username },
    });
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
  afterAll(async () => {
    await telegram.stop();
    await app.close();
    await google.stop();
  });

  const nextTelegramId = () => 6_000_000_000 + ++counter * 1000 + process.pid;
  const code = async (res: Response) => [res.status, (await json<{ code: string }>(res)).code];
  const account = async (browser: Browser) => json<AccountResponse>(await browser.get('/api/account'));
  const googleToken = (sub: string) =>
    google.idToken({ sub, email: `${sub}@gmail.com`, email_verified: true }, app.clock.now());
  const widget = (id: number) => signWidgetPayload({ id, first_name: 'Тг' }, app.clock.now());
  const linkTokens = async (userId: UserId) =>
    (await app.database.db.selectFrom('telegram_link_tokens').select('user_id').where('user_id', '=', userId).execute())
      .length;
  /** Past the window in which a sign-in counts as recent. */
  const staleNow = () => app.clock.advance(reauthWindowMinutes * 60 + 1);

  /** An account without a password (Telegram only), optionally with a proven e-mail, signed in now. */
  async function passwordless(options: { email?: boolean } = {}) {
    const person = await createPerson(app);
    const email = options.email ? uniqueEmail('nopw') : null;
    await app.database.db
      .updateTable('users')
      .set({
        email,
        password_hash: null,
        telegram_id: String(nextTelegramId()),
        verified_at: app.clock.now().toISOString(),
      })
      .where('id', '=', person.userId)
      .execute();
    return { browser: person.browser, userId: person.userId, email };
  }

  describe('asks for the password, or a recent sign-in, before a way in is added or the e-mail changes', () => {
    it('refuses a password account without its password, or with a wrong one, and changes nothing', async () => {
      const { browser, userId, email } = await signUpVerified(app);
      const attempts: [string, Record<string, unknown>][] = [
        ['/api/account/google', { id_token: await googleToken(`sub-reauth-${++counter}`) }],
        ['/api/account/telegram', await widget(nextTelegramId())],
        ['/api/account/email', { email: uniqueEmail('planted') }],
        ['/api/account/telegram/bot-link', {}],
      ];
      for (const [route, body] of attempts) {
        expect(await code(await browser.post(route, body)), route).toEqual([403, 'password_required']);
        expect(await code(await browser.post(route, { ...body, current_password: 'not-it-123' })), route).toEqual([
          403,
          'wrong_password',
        ]);
      }
      const after = await account(browser);
      expect(after.sign_in_methods).toEqual(['password']);
      expect(after.email).toBe(email);
      expect(await linkTokens(userId)).toBe(0);
      // No code went to the address a thief would have planted.
      expect(app.smtp.received.some((m) => m.to.some((to) => to.startsWith('planted')))).toBe(false);
    });

    it('accepts a password account with its password, even long after signing in', async () => {
      const { browser } = await signUpVerified(app);
      staleNow();
      const withPassword = { current_password: testPassword };
      expect(
        (
          await browser.post('/api/account/google', {
            id_token: await googleToken(`sub-ok-${++counter}`),
            ...withPassword,
          })
        ).status,
      ).toBe(200);
      // The app's own fields beside the widget's (as the sign-in route takes them) stay out of the signed data.
      const ours = { ...withPassword, language: 'en', ref: 'friend1' };
      expect(
        (await browser.post('/api/account/telegram', { ...(await widget(nextTelegramId())), ...ours })).status,
      ).toBe(200);
      expect((await browser.post('/api/account/telegram/bot-link', withPassword)).status).toBe(200);
      const next = uniqueEmail('moved');
      expect((await browser.post('/api/account/email', { email: next, ...withPassword })).status).toBe(200);
      expect(codeFrom(await app.smtp.lastMailTo(next))).toMatch(/^\d{6}$/);
      expect((await account(browser)).sign_in_methods).toEqual(['password', 'telegram', 'google']);
    });

    it('refuses a password-less account whose sign-in is older than the window, and changes nothing', async () => {
      const { browser, userId } = await passwordless({ email: true });
      staleNow();
      const planted = uniqueEmail('planted');
      for (const [route, body] of [
        ['/api/account/google', { id_token: await googleToken(`sub-stale-${++counter}`) }],
        ['/api/account/password/add', { password: 'Planted123!' }],
        ['/api/account/email', { email: planted }],
        ['/api/account/telegram/bot-link', {}],
      ] as const) {
        expect(await code(await browser.post(route, body)), route).toEqual([403, 'reauth_required']);
      }
      const after = await account(browser);
      expect(after.sign_in_methods).toEqual(['telegram']);
      expect(after.has_password).toBe(false);
      expect(await linkTokens(userId)).toBe(0);
      expect(app.smtp.mailsTo(planted)).toEqual([]);
    });

    it('accepts a password-less account that signed in within the window', async () => {
      const { browser } = await passwordless({ email: true });
      app.clock.advance(reauthWindowMinutes * 60 - 60);
      expect(
        (await browser.post('/api/account/google', { id_token: await googleToken(`sub-fresh-${++counter}`) })).status,
      ).toBe(200);
      expect((await browser.post('/api/account/password/add', { password: 'Fresh1234!' })).status).toBe(200);
      expect((await account(browser)).sign_in_methods).toEqual(['password', 'telegram', 'google']);
    });

    it('takes a password-less web account (Google) through the Telegram widget only when fresh', async () => {
      const person = await createPerson(app);
      await app.database.db
        .updateTable('users')
        .set({ password_hash: null, google_sub: `sub-w-${++counter}` })
        .where('id', '=', person.userId)
        .execute();
      staleNow();
      expect(await code(await person.browser.post('/api/account/telegram', await widget(nextTelegramId())))).toEqual([
        403,
        'reauth_required',
      ]);
      expect((await account(person.browser)).sign_in_methods).toEqual(['google']);
    });
  });

  describe('tells the owner of every change to the ways in, by e-mail and through the bot', () => {
    /** A verified e-mail and password account that also has Telegram and has started the bot. */
    async function ownerWithBot() {
      const owner = await signUpVerified(app);
      const chatId = nextTelegramId();
      await app.database.db
        .updateTable('users')
        .set({ telegram_id: String(chatId), bot_started_at: app.clock.now().toISOString(), language: 'en' })
        .where('id', '=', owner.userId)
        .execute();
      return { ...owner, chatId };
    }
    const botMessagesTo = async (chatId: number) => {
      await worker.drainOnce();
      return telegram
        .callsOf('sendMessage')
        .filter((p) => p.chat_id === chatId)
        .map((p) => String(p.text));
    };
    const noticesTo = (email: string) =>
      app.smtp.mailsTo(email).filter((m) => /^(Iskra|Искра): /.test(m.subject) && !/code|код/i.test(m.subject));

    it('for a Google account added and removed, and the password changed', async () => {
      const { browser, email, chatId } = await ownerWithBot();
      expect(
        (
          await browser.post('/api/account/google', {
            id_token: await googleToken(`sub-n-${++counter}`),
            current_password: testPassword,
          })
        ).status,
      ).toBe(200);
      const [added] = noticesTo(email);
      expect(added?.subject).toBe('Iskra: Google was added as a way to sign in');
      // What changed, when, and what to do if it was not them.
      expect(added?.text).toMatch(/Google was added as a way to sign in on your Iskra account \(.+ UTC\)/);
      expect(added?.text).toContain('Sign out on all other devices');
      expect(added?.text).toContain('http://localhost:8080/account');
      const [toBot] = await botMessagesTo(chatId);
      expect(toBot).toMatch(/^🔐 Google was added as a way to sign in on your Iskra account \(.+ UTC\)/);
      expect(toBot).toContain('If this was not you');
      const button = telegram.callsOf('sendMessage').find((p) => p.chat_id === chatId)?.reply_markup as {
        inline_keyboard: { web_app?: { url: string } }[][];
      };
      expect(button.inline_keyboard[0]?.[0]?.web_app?.url).toBe(`${publicUrl}/?startapp=account`);

      expect((await browser.post('/api/account/unlink', { method: 'google' })).status).toBe(200);
      expect(noticesTo(email).at(-1)?.subject).toBe('Iskra: Google was removed from the ways to sign in');
      expect((await botMessagesTo(chatId)).at(-1)).toContain('Google was removed from the ways to sign in');

      expect(
        (await browser.post('/api/account/password', { current_password: testPassword, password: 'Changed789!' }))
          .status,
      ).toBe(200);
      expect(noticesTo(email).at(-1)?.subject).toBe('Iskra: The password was changed');
      expect((await botMessagesTo(chatId)).at(-1)).toContain('The password was changed');
      expect(await botMessagesTo(chatId)).toHaveLength(3);
    });

    it('for the e-mail changed: the old address and the bot, in Russian for a Russian account', async () => {
      const { browser, email, chatId, userId } = await ownerWithBot();
      await app.database.db.updateTable('users').set({ language: 'ru' }).where('id', '=', userId).execute();
      const next = uniqueEmail('next');
      expect((await browser.post('/api/account/email', { email: next, current_password: testPassword })).status).toBe(
        200,
      );
      expect(await botMessagesTo(chatId)).toEqual([]);
      expect(
        (await browser.post('/api/account/email/confirm', { code: codeFrom(await app.smtp.lastMailTo(next)) })).status,
      ).toBe(200);
      expect(app.smtp.mailsTo(email).at(-1)?.subject).toBe('Искра: почта аккаунта изменена');
      const [toBot] = await botMessagesTo(chatId);
      expect(toBot).toMatch(/^🔐 В вашем аккаунте Искры: Изменена почта \(.+ UTC\)/);
      expect(toBot).toContain('Если это были не вы');
    });

    it('for a password added and a Telegram linked by the widget (told by e-mail, not to the Telegram just added)', async () => {
      const { browser, email } = await passwordless({ email: true });
      if (!email) throw new Error('no e-mail');
      expect((await browser.post('/api/account/password/add', { password: 'Fresh1234!' })).status).toBe(200);
      expect(noticesTo(email).at(-1)?.subject).toBe(`Искра: Добавлен способ входа: ${ru.app.account.method.password}`);
      expect(noticesTo(email).at(-1)?.text).toContain('Если это были не вы');

      const web = await signUpVerified(app);
      const tgId = nextTelegramId();
      expect(
        (await web.browser.post('/api/account/telegram', { ...(await widget(tgId)), current_password: testPassword }))
          .status,
      ).toBe(200);
      expect(noticesTo(web.email).at(-1)?.text).toContain('Telegram');
      expect(await botMessagesTo(tgId)).toEqual([]);
    });
  });
});
