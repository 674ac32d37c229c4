import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import en from '../../locales/en.json' with { type: 'json' };
import ru from '../../locales/ru.json' with { type: 'json' };
import { signWidgetPayload } from '../../server/test/telegramSigning.ts';
import {
  e2eBotToken,
  expectAccessible,
  screenshot,
  startSite,
  testConfig,
  type Site,
  behaviourLanguages,
} from './harness.ts';

const texts = { ru, en } as const;
const botId = Number(e2eBotToken.split(':')[0]);

/**
 * Telegram's Login Widget script stands in for telegram.org (unreachable here) with the same JS API,
 * `Telegram.Login.auth(options, callback)`: it records what it was asked and answers what the test set,
 * a user signed with the site's bot token as Telegram signs it, or false when the person closes the window.
 */
const widgetStandIn = `
  window.Telegram = window.Telegram || {};
  window.Telegram.Login = {
    auth: function (options, callback) {
      window.telegramAsked = options;
      setTimeout(function () { callback(window.telegramAnswer || false); }, 50);
    },
  };`;

describe.each(behaviourLanguages)('signing in with Telegram on the web in %s', (language) => {
  const t = texts[language];
  let site: Site;
  let context: BrowserContext;
  let page: Page;
  let errors: string[];
  const telegramUser = {
    id: language === 'ru' ? 7_100_000_001 : 7_100_000_002,
    first_name: 'Оля',
    username: `olya_${language}`,
  };

  beforeAll(async () => {
    site = await startSite({ publicConfig: { ...testConfig, bot_username: 'iskra_test_bot', telegram_bot_id: botId } });
    ({ context, page, errors } = await site.page({
      language,
      prepare: (context) =>
        context.route('https://telegram.org/js/telegram-widget.js*', (route) =>
          route.fulfill({ status: 200, contentType: 'text/javascript', body: widgetStandIn }),
        ),
    }));
  });
  afterAll(async () => {
    await context.close();
    await site.close();
    expect(errors).toEqual([]);
  });

  const telegramIdOf = async (id: number) =>
    site.app.database.db
      .selectFrom('users')
      .select(['id', 'telegram_id'])
      .where('telegram_id', '=', String(id))
      .executeTakeFirst();

  it("does nothing when the person closes Telegram's window", async () => {
    await page.goto('/login');
    const button = page.getByRole('button', { name: t.app.auth.telegram });
    await button.waitFor();
    await screenshot(page, `login-telegram-${language}`);
    await expectAccessible(page, `login with Telegram ${language}`);
    await button.click();
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { telegramAsked?: unknown }).telegramAsked))
      .toEqual({
        bot_id: botId,
        request_access: 'write',
        lang: language,
      });
    await page.waitForTimeout(300);
    expect(new URL(page.url()).pathname).toBe('/login');
    expect(await button.isEnabled()).toBe(true);
    expect(await page.locator('.error-line').textContent()).toBe('');
    expect(await telegramIdOf(telegramUser.id)).toBeUndefined();
  });

  it('refuses a forged answer with the translated error and signs nobody in', async () => {
    const forged = {
      ...(await signWidgetPayload(telegramUser, site.app.clock.now(), e2eBotToken)),
      first_name: 'Подмена',
    };
    await page.evaluate((answer) => Object.assign(window, { telegramAnswer: answer }), forged);
    await page.getByRole('button', { name: t.app.auth.telegram }).click();
    await page.getByText(t.errors.telegram_auth_failed).waitFor();
    expect(await telegramIdOf(telegramUser.id)).toBeUndefined();
  });

  it('posts the signed user to /api/auth and lands the new person on their profile wizard', async () => {
    const signed = await signWidgetPayload(telegramUser, site.app.clock.now(), e2eBotToken);
    await page.evaluate((answer) => Object.assign(window, { telegramAnswer: answer }), signed);
    await page.getByRole('button', { name: t.app.auth.telegram }).click();
    await page.waitForURL('**/CreateProfile');
    const user = await telegramIdOf(telegramUser.id);
    expect(user?.telegram_id).toBe(String(telegramUser.id));
    // A cookie session: a reload keeps them signed in.
    await page.reload();
    await page.waitForURL('**/CreateProfile');
  });
});
