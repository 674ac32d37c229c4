import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import en from '../../locales/en.json' with { type: 'json' };
import ru from '../../locales/ru.json' with { type: 'json' };
import { createPerson, type Person } from '../../server/test/people.ts';
import { expectMessage, matchAndStartChat } from './flows/chat.ts';
import {
  hostLikeTelegram,
  telegramLaunchHash as launchHash,
  telegramThemes as themes,
  type TelegramLaunch as Launch,
} from './flows/telegram.ts';
import { screenshot, startSite, testConfig, type Site } from './harness.ts';

/**
 * The Mini App as a Telegram user meets it: launch parameters in the URL's hash (as Telegram's Android
 * client passes them), init data signed as Telegram signs them (with Bot API 8.0's `signature` field),
 * and `window.TelegramWebviewProxy.postEvent` receiving the app's calls.
 */
const botUsername = 'iskra_e2e_bot';

let nextTelegramId = 8_100_000_000;

const telegramEvents = (page: Page) =>
  page.evaluate(() => (window as unknown as { __events: [string, unknown][] }).__events);

/** Nothing of the web site: no landing, footer, e-mail form or sign-in link. */
async function expectNoWebSite(page: Page): Promise<void> {
  expect(
    await page.locator('.landing, footer, input[type="email"], a[href="/login"], a[href="/register"]').count(),
  ).toBe(0);
}

describe('opening the Mini App inside (faked) Telegram', () => {
  let site: Site;
  const contexts: BrowserContext[] = [];
  const errors: string[] = [];

  async function openInTelegram(launch: Launch, options: { path?: string } = {}): Promise<Page> {
    // No stored language or theme: what the page shows comes from Telegram and the account.
    const { context, page } = await site.page({ errors, prepare: hostLikeTelegram });
    contexts.push(context);
    await page.goto(`${options.path ?? '/'}${await launchHash(launch)}`);
    return page;
  }

  /** A returning Telegram user: an account with a profile, reached by this Telegram id. */
  async function telegramPerson(
    name: string,
    language: 'ru' | 'en' = 'ru',
  ): Promise<{ person: Person; telegramId: number }> {
    const person = await createPerson(site.app, { name, gender: 'Female' });
    const telegramId = ++nextTelegramId;
    await site.app.database.db
      .updateTable('users')
      .set({ telegram_id: String(telegramId), language })
      .where('id', '=', person.userId)
      .execute();
    return { person, telegramId };
  }

  beforeAll(async () => {
    site = await startSite({ publicConfig: { ...testConfig, bot_username: botUsername } });
  });
  // Each test's pages closed when it ends, so a long file does not keep a dozen live apps (each with its event
  // stream) running beside the tests after them.
  afterEach(async () => {
    for (const context of contexts.splice(0)) await context.close();
  });
  afterAll(async () => {
    await site.close();
    expect(errors.filter((e) => !/Telegram sign-in failed|401|400/.test(e))).toEqual([]);
  });

  for (const theme of ['light', 'dark'] as const) {
    it(`opens a new English-speaking user (language_code en) on the profile wizard in English, ${theme} theme`, async () => {
      // The device's own language is Russian (the browser's locale): Telegram's language_code decides.
      const page = await openInTelegram({
        user: { id: ++nextTelegramId, first_name: 'Emma', language_code: 'en' },
        theme,
      });
      await page.getByRole('heading', { name: en.app.wizard.title }).waitFor();
      expect(new URL(page.url()).pathname).toBe('/CreateProfile');
      expect(await page.getAttribute('html', 'lang')).toBe('en');
      expect(await page.getAttribute('html', 'data-theme')).toBe(theme);
      await expectNoWebSite(page);
      await screenshot(page, `telegram-new-user-en-${theme}`);
    });

    it(`opens a returning user straight on the deck, never the landing page, ${theme} theme`, async () => {
      const { telegramId } = await telegramPerson(`Оля-${theme}`);
      const page = await openInTelegram({ user: { id: telegramId, first_name: 'Оля', language_code: 'ru' }, theme });
      await page.getByRole('region', { name: ru.app.search.title }).waitFor();
      expect(new URL(page.url()).pathname).toBe('/search');
      await expectNoWebSite(page);
      await screenshot(page, `telegram-returning-user-ru-${theme}`);
      // The web's sign-in pages do not exist inside Telegram: they lead back to the deck.
      await page.evaluate(() => {
        history.pushState(null, '', '/login');
        dispatchEvent(new PopStateEvent('popstate'));
      });
      await page.waitForURL('**/search');
      await expectNoWebSite(page);
    });
  }

  it("speaks the account's language, not Telegram's, once the account has one", async () => {
    const { telegramId } = await telegramPerson('Вера', 'en');
    const page = await openInTelegram({ user: { id: telegramId, first_name: 'Вера', language_code: 'ru' } });
    await page.getByRole('region', { name: en.app.search.title }).waitFor();
    expect(await page.getAttribute('html', 'lang')).toBe('en');
  });

  for (const theme of ['light', 'dark'] as const) {
    it(`shows the reopen screen for stale launch data, in the user's language, with the bot link (${theme})`, async () => {
      const twoDaysAgo = Math.floor(Date.now() / 1000) - 2 * 86_400;
      const page = await openInTelegram({
        user: { id: ++nextTelegramId, first_name: 'Emma', language_code: 'en' },
        authDate: twoDaysAgo,
        theme,
      });
      await page.getByRole('heading', { name: en.app.launch.title }).waitFor();
      await page.getByText(en.app.launch.expired).waitFor();
      await expectNoWebSite(page);
      await screenshot(page, `telegram-reopen-expired-en-${theme}`);
      const reopen = page.getByRole('button', { name: en.app.launch.reopen });
      await expect.poll(() => reopen.isEnabled()).toBe(true);
      await reopen.click();
      await expect
        .poll(async () => (await telegramEvents(page)).find(([name]) => name === 'web_app_open_tg_link'))
        .toEqual(['web_app_open_tg_link', { path_full: `/${botUsername}?startapp` }]);
    });
  }

  it('shows the reopen screen for wrongly signed launch data, in Russian for a Russian speaker', async () => {
    const page = await openInTelegram({
      user: { id: ++nextTelegramId, first_name: 'Ира', language_code: 'ru' },
      botToken: '987654321:AAnother-bot-token',
      theme: 'dark',
    });
    await page.getByRole('heading', { name: ru.app.launch.title }).waitFor();
    await page.getByText(ru.app.launch.invalid).waitFor();
    await page.getByRole('button', { name: ru.app.launch.reopen }).waitFor();
    await expectNoWebSite(page);
    await screenshot(page, 'telegram-reopen-invalid-ru-dark');
    // A page that needs an account leads back to this screen, not to an e-mail form.
    await page.evaluate(() => {
      history.pushState(null, '', '/Menu');
      dispatchEvent(new PopStateEvent('popstate'));
    });
    // The reopen heading is already on screen before the redirect, so wait for the address itself.
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByRole('heading', { name: ru.app.launch.title }).waitFor();
    await expectNoWebSite(page);
  });

  it('opens the conversation a notification button names (startapp=chat_<id>), with its messages', async () => {
    const { person: ann, telegramId } = await telegramPerson('Анна');
    const boris = await createPerson(site.app, { name: 'Борис', gender: 'Male' });
    const conversation = await matchAndStartChat(ann, boris);
    expect(
      (await boris.browser.post(`/api/conversations/${conversation}/messages`, { content: 'Привет из уведомления' }))
        .status,
    ).toBe(201);
    const page = await openInTelegram({
      user: { id: telegramId, first_name: 'Анна', language_code: 'ru' },
      startParam: `chat_${conversation}`,
    });
    await page.waitForURL(`**/chat/${conversation}`);
    await expectMessage(page, 'Привет из уведомления');
    await expectNoWebSite(page);
  });

  it('falls back to the deck with a short notice for an unknown link and for a chat no longer allowed', async () => {
    const { person: ann, telegramId } = await telegramPerson('Лена');
    const unknown = await openInTelegram({
      user: { id: telegramId, first_name: 'Лена', language_code: 'ru' },
      startParam: 'nonsense_42',
    });
    await unknown.getByText(ru.app.deepLink.unavailable).waitFor();
    await unknown.waitForURL((url) => url.pathname === '/search');
    // A conversation of two other people: not hers to open.
    const kate = await createPerson(site.app, { name: 'Катя' });
    const max = await createPerson(site.app, { name: 'Макс', gender: 'Male' });
    const theirs = await matchAndStartChat(kate, max);
    expect(ann.userId).not.toBe(kate.userId);
    const forbidden = await openInTelegram({
      user: { id: telegramId, first_name: 'Лена', language_code: 'ru' },
      startParam: `chat_${theirs}`,
    });
    await forbidden.getByText(ru.app.deepLink.unavailable).waitFor();
    await forbidden.waitForURL((url) => url.pathname === '/search');
  });

  it('restyles at once when Telegram switches its theme while the app is open (themeChanged)', async () => {
    const { telegramId } = await telegramPerson('Нина');
    const page = await openInTelegram({
      user: { id: telegramId, first_name: 'Нина', language_code: 'ru' },
      theme: 'light',
    });
    await page.getByRole('region', { name: ru.app.search.title }).waitFor();
    const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(await page.getAttribute('html', 'data-theme')).toBe('light');
    const lightBackground = await background();
    await page.evaluate((params) => {
      const webView = (
        window as unknown as { Telegram: { WebView: { receiveEvent(name: string, data: unknown): void } } }
      ).Telegram.WebView;
      webView.receiveEvent('theme_changed', { theme_params: params });
    }, themes.dark);
    await expect.poll(() => page.getAttribute('html', 'data-theme')).toBe('dark');
    // Telegram's own dark colours (secondary_bg_color #232e3c), not the light ones and not the app's.
    await expect.poll(background).toBe('rgb(35, 46, 60)');
    expect(lightBackground).not.toBe('rgb(35, 46, 60)');
  });

  it("opens the app's menu from Telegram's Settings item (SettingsButton)", async () => {
    const { telegramId } = await telegramPerson('Зоя');
    const page = await openInTelegram({ user: { id: telegramId, first_name: 'Зоя', language_code: 'ru' } });
    await page.getByRole('region', { name: ru.app.search.title }).waitFor();
    await expect
      .poll(async () =>
        (await telegramEvents(page)).filter(([name]) => name === 'web_app_setup_settings_button').at(-1),
      )
      .toEqual(['web_app_setup_settings_button', { is_visible: true }]);
    await page.evaluate(() => {
      const webView = (
        window as unknown as { Telegram: { WebView: { receiveEvent(name: string, data: unknown): void } } }
      ).Telegram.WebView;
      webView.receiveEvent('settings_button_pressed', null);
    });
    await page.waitForURL('**/Menu');
    await page.getByRole('heading', { name: ru.app.menu.filters }).waitFor();
  });

  it("stores the app's language switch on the account, so the next load (and the bot) speak it", async () => {
    const { person, telegramId } = await telegramPerson('Дина');
    const launch = { user: { id: telegramId, first_name: 'Дина', language_code: 'ru' } };
    const page = await openInTelegram(launch);
    await page.getByRole('region', { name: ru.app.search.title }).waitFor();
    await page.goto('/Menu');
    await page.locator('button[lang="en"]').click();
    await page.getByRole('heading', { name: en.app.menu.filters }).waitFor();
    const accountLanguage = async () =>
      (
        await site.app.database.db
          .selectFrom('users')
          .select('language')
          .where('id', '=', person.userId)
          .executeTakeFirstOrThrow()
      ).language;
    await expect.poll(accountLanguage).toBe('en');
    // Another device (a fresh profile whose browser speaks Russian) opens in English.
    const other = await openInTelegram(launch);
    await other.getByRole('region', { name: en.app.search.title }).waitFor();
  });

  it('asks Telegram to confirm closing while the wizard or a message box holds unsent text', async () => {
    const closing = async (page: Page) =>
      (await telegramEvents(page)).filter(([name]) => name === 'web_app_setup_closing_behavior').at(-1)?.[1] ?? null;
    const wizard = await openInTelegram({ user: { id: ++nextTelegramId, first_name: 'Emma', language_code: 'en' } });
    await wizard.getByRole('heading', { name: en.app.wizard.title }).waitFor();
    await wizard.getByLabel(en.app.wizard.name).fill('Emma');
    await expect.poll(() => closing(wizard)).toEqual({ need_confirmation: true });
    await wizard.getByLabel(en.app.wizard.name).fill('');
    await expect.poll(() => closing(wizard)).toEqual({ need_confirmation: false });

    const { person: ann, telegramId } = await telegramPerson('Ася');
    const conversation = await matchAndStartChat(ann, await createPerson(site.app, { name: 'Гоша', gender: 'Male' }));
    const chat = await openInTelegram({
      user: { id: telegramId, first_name: 'Ася', language_code: 'ru' },
      startParam: `chat_${conversation}`,
    });
    await chat.waitForURL(`**/chat/${conversation}`);
    await chat.getByRole('textbox').fill('черновик');
    await expect.poll(() => closing(chat)).toEqual({ need_confirmation: true });
  });
});
