import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import en from '../../locales/en.json' with { type: 'json' };
import ru from '../../locales/ru.json' with { type: 'json' };
import { createPerson, type Person } from '../../server/test/people.ts';
import { matchAndStartChat } from './flows/chat.ts';
import { hostLikeTelegram, telegramEvents, telegramLaunchHash, type TelegramLaunch } from './flows/telegram.ts';
import { recordApiRequests, screenshot, startSite, testConfig, type Site } from './harness.ts';

/**
 * The Mini App's launch from a usability walk: launch data without Bot API 8.0's `signature` (older and
 * third-party clients), launch parameters the app cannot read, a deep link that must fire once per launch
 * (not again on a reload), and the profile wizard without tabs that lead nowhere.
 */
const botUsername = 'iskra_e2e_bot';
let nextTelegramId = 8_300_000_000;

describe('the Mini App launch, edge cases', () => {
  let site: Site;
  const contexts: BrowserContext[] = [];
  const errors: string[] = [];

  async function openInTelegram(launch: TelegramLaunch | { rawHash: string }): Promise<Page> {
    const { context, page } = await site.page({ errors, prepare: hostLikeTelegram });
    contexts.push(context);
    await page.goto(`/${'rawHash' in launch ? launch.rawHash : await telegramLaunchHash(launch)}`);
    return page;
  }

  async function telegramPerson(name: string): Promise<{ person: Person; telegramId: number }> {
    const person = await createPerson(site.app, { name, gender: 'Female' });
    const telegramId = ++nextTelegramId;
    await site.app.database.db
      .updateTable('users')
      .set({ telegram_id: String(telegramId), language: 'ru' })
      .where('id', '=', person.userId)
      .execute();
    return { person, telegramId };
  }

  beforeAll(async () => {
    site = await startSite({ publicConfig: { ...testConfig, bot_username: botUsername } });
  });
  afterEach(async () => {
    for (const context of contexts.splice(0)) await context.close();
  });
  afterAll(async () => {
    await site.close();
    expect(
      errors.filter(
        (e) => !/Telegram sign-in failed|Telegram (environment|init data)|launch parameters|401|400/.test(e),
      ),
    ).toEqual([]);
  });

  for (const theme of ['light', 'dark'] as const) {
    it(`signs in with launch data that carry no signature field (older clients), ${theme}`, async () => {
      const { telegramId } = await telegramPerson(`Ася-${theme}`);
      const page = await openInTelegram({
        user: { id: telegramId, first_name: 'Ася', language_code: 'ru' },
        signature: null,
        theme,
      });
      await page.getByRole('region', { name: ru.app.search.title }).waitFor();
      expect(new URL(page.url()).pathname).toBe('/search');
      await screenshot(page, `telegram-no-signature-ru-${theme}`);
    });
  }

  it('shows the reopen screen, not a blank page, for launch parameters it cannot read', async () => {
    const page = await openInTelegram({
      rawHash: '#tgWebAppData=garbage&tgWebAppVersion=8.0&tgWebAppPlatform=android&tgWebAppThemeParams=%7B%7D',
    });
    await page.getByRole('heading', { name: ru.app.launch.title }).waitFor();
    await page.getByText(ru.app.launch.unreadable).waitFor();
    await screenshot(page, 'telegram-unreadable-launch-ru');
    // The one way on still reaches Telegram: reopening through the bot.
    const reopen = page.getByRole('button', { name: ru.app.launch.reopen });
    await expect.poll(() => reopen.isEnabled()).toBe(true);
    await reopen.click();
    await expect
      .poll(async () => (await telegramEvents(page)).find(([name]) => name === 'web_app_open_tg_link'))
      .toEqual(['web_app_open_tg_link', { path_full: `/${botUsername}?startapp` }]);
  });

  it('opens a deep link (startapp=premium) once per launch: a reload stays where the user went', async () => {
    const { telegramId } = await telegramPerson('Вика');
    const page = await openInTelegram({
      user: { id: telegramId, first_name: 'Вика', language_code: 'ru' },
      startParam: 'premium',
    });
    await page.waitForURL('**/subscription');
    await page.getByRole('navigation', { name: ru.app.nav.label }).getByRole('link', { name: ru.app.nav.menu }).click();
    await page.waitForURL('**/Menu');
    await page.getByRole('heading', { name: ru.app.menu.filters }).waitFor();
    await page.reload();
    await page.getByRole('heading', { name: ru.app.menu.filters }).waitFor();
    // The menu's own data have loaded (the settings switches answer), long after a redirect would have left.
    await page.locator('[data-setting="private_mode"]:not([disabled])').waitFor();
    expect(new URL(page.url()).pathname).toBe('/Menu');
  });

  it("opens a gone partner's chat link once: after leaving the dead chat, a reload does not bring it back", async () => {
    const { person: ann, telegramId } = await telegramPerson('Аня');
    const gone = await createPerson(site.app, { name: 'Глеб', gender: 'Male' });
    const conversation = await matchAndStartChat(ann, gone);
    expect((await gone.browser.post('/api/delete_profile')).status).toBe(200);
    const page = await openInTelegram({
      user: { id: telegramId, first_name: 'Аня', language_code: 'ru' },
      startParam: `chat_${conversation}`,
    });
    await page.waitForURL(`**/chat/${conversation}`);
    await page.getByRole('heading', { name: ru.app.chat.partnerDeletedTitle }).waitFor();
    await page.locator('.chat-departed').getByRole('link', { name: ru.app.chat.backToChats }).click();
    await page.waitForURL('**/ChatList');
    const requests = recordApiRequests(page);
    await page.reload();
    await page.getByRole('heading', { name: ru.app.chat.title, level: 1 }).waitFor();
    await expect.poll(() => requests.calls()).toContain('GET /api/chats');
    expect(requests.calls().filter((call) => call.startsWith(`GET /api/conversations/${conversation}`))).toEqual([]);
    expect(new URL(page.url()).pathname).toBe('/ChatList');
  });

  it('opens the same deep link again when Telegram launches the app anew', async () => {
    const { telegramId } = await telegramPerson('Мила');
    const user = { id: telegramId, first_name: 'Мила', language_code: 'ru' };
    const first = await openInTelegram({ user, startParam: 'premium' });
    await first.waitForURL('**/subscription');
    // A new launch: new launch data (another auth_date), so another hash.
    const hash = await telegramLaunchHash({
      user,
      startParam: 'premium',
      authDate: Math.floor(Date.now() / 1000) - 300,
    });
    await first.goto('about:blank');
    await first.goto(`/${hash}`);
    await first.waitForURL('**/subscription');
  });

  for (const theme of ['light', 'dark'] as const) {
    it(`shows no tab bar on the profile wizard inside Telegram, as on the web (${theme})`, async () => {
      const page = await openInTelegram({
        user: { id: ++nextTelegramId, first_name: 'Emma', language_code: 'en' },
        theme,
      });
      await page.getByRole('heading', { name: en.app.wizard.title }).waitFor();
      expect(new URL(page.url()).pathname).toBe('/CreateProfile');
      expect(await page.locator('nav.tabbar').count()).toBe(0);
      await screenshot(page, `telegram-wizard-no-tabs-en-${theme}`);
    });
  }
});
