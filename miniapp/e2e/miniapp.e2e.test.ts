import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ru from '../../locales/ru.json' with { type: 'json' };
import { e2eBotToken, recordApiRequests, startSite, type Site } from './harness.ts';
import { signInitData } from './signedIn.ts';
import { PremiumService } from '../../server/features/premium/service.ts';
import { createPerson } from '../../server/test/people.ts';
import { testSessionSecret } from '../../server/test/testApp.ts';

/**
 * The Mini App path in a normal Chromium, faked the way Telegram's Android client hosts it: launch
 * parameters in the URL's hash and `window.TelegramWebviewProxy.postEvent` receiving the app's calls.
 * The server checks the init data itself (`POST /api/auth/telegram`, signed with the site's test bot token).
 */
/** Telegram's Android client as the page sees it: postEvent receives the app's calls, kept in `__events`. */
async function hostLikeTelegram(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    const events: [string, unknown][] = [];
    Object.assign(window, {
      __events: events,
      TelegramWebviewProxy: {
        postEvent(type: string, data: string) {
          events.push([type, data ? (JSON.parse(data) as unknown) : null]);
        },
      },
    });
  });
}

describe('the Mini App inside (faked) Telegram', () => {
  let site: Site;
  let invoices: string[] = [];
  beforeAll(async () => {
    // Purchases inside Telegram are invoices in Stars; the link is what the bot's createInvoiceLink answers.
    site = await startSite({
      stars: {
        createInvoiceLink: (invoice) => {
          invoices.push(invoice.payload);
          return Promise.resolve(`https://t.me/$iskra_e2e_invoice_${invoices.length}`);
        },
        refund: () => Promise.resolve(),
      },
    });
  });
  afterAll(async () => {
    await site.close();
  });

  it('expands, disables vertical swipes, calls ready(), signs in with init data and keeps jwtToken', async () => {
    // Someone with a profile: a newcomer gets the profile wizard, without the tab bar (telegramEdges.e2e.test.ts).
    const masha = await createPerson(site.app, { name: 'Маша' });
    await site.app.database.db
      .updateTable('users')
      .set({ telegram_id: '4242' })
      .where('id', '=', masha.userId)
      .execute();
    const { context, page, errors } = await site.page({ language: 'ru', prepare: hostLikeTelegram });
    const logs: string[] = [];
    page.on('console', (m) => logs.push(`${m.type()}: ${m.text()}`));
    const sent: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/api/auth/telegram'))
        sent.push((request.postDataJSON() as { initData: string }).initData);
    });
    const requests = recordApiRequests(page);

    const initData = await signInitData(e2eBotToken, { id: 4242, first_name: 'Маша', language_code: 'ru' });
    const launch = new URLSearchParams({
      tgWebAppData: initData,
      tgWebAppVersion: '8.0',
      tgWebAppPlatform: 'android',
      tgWebAppThemeParams: JSON.stringify({
        bg_color: '#17212b',
        text_color: '#f5f5f5',
        hint_color: '#708499',
        button_color: '#5288c1',
        button_text_color: '#ffffff',
        secondary_bg_color: '#232e3c',
      }),
    });
    await page.goto(`/#${launch.toString()}`);

    // Token-only session: the full top bar, no form anywhere.
    await page
      .getByRole('link', { name: ru.app.nav.menu })
      .waitFor()
      .catch(async (error: unknown) => {
        await page.screenshot({ path: 'artifacts/miniapp-failure.png', scale: 'css' });
        throw new Error(
          `${String(error)}\nerrors: ${errors.join('\n')}\nlogs: ${logs.join('\n')}\nsent: ${sent.length}\nhtml: ${(await page.content()).slice(0, 3000)}`,
        );
      });
    expect(sent).toEqual([initData]);
    const token = (await page.evaluate(() => localStorage.getItem('jwtToken'))) ?? '';
    expect(token.split('.')).toHaveLength(3);
    expect(await page.getAttribute('html', 'data-platform')).toBe('telegram');

    const events = async () => page.evaluate(() => (window as unknown as { __events: [string, unknown][] }).__events);
    const names = async () => (await events()).map(([name]) => name);
    expect(await names()).toContain('web_app_expand');
    // ready() comes with the first screen (its own chunk), which can be after the tab bar's Menu link.
    await expect.poll(names).toContain('web_app_ready');
    expect(await events()).toContainEqual(['web_app_setup_swipe_behavior', { allow_vertical_swipe: false }]);

    // Telegram's back button on inner screens, hidden again on the landing.
    await page.getByRole('link', { name: ru.app.nav.menu }).click();
    await page.getByRole('heading', { name: ru.app.menu.filters }).waitFor();
    // The sign-in's answer was the user: not asked for again; what the menu asks for carries the token.
    const afterSignIn = requests.made.slice(requests.calls().indexOf('POST /api/auth/telegram') + 1);
    expect(afterSignIn.map((r) => r.call)).not.toContain('GET /api/current_user');
    await expect
      .poll(() => requests.made.some((r) => r.call.startsWith('GET ') && r.authorization === `Bearer ${token}`))
      .toBe(true);
    await expect
      .poll(async () => (await events()).filter(([n]) => n === 'web_app_setup_back_button').at(-1))
      .toEqual(['web_app_setup_back_button', { is_visible: true }]);
    await context.close();
    expect(errors).toEqual([]);
  });

  it('buys premium with a Stars invoice opened by the invoice call; "paid" turns the subscription screen active without a reload', async () => {
    invoices = [];
    // Someone who already has a profile (people without one are sent to create it first).
    const person = await createPerson(site.app, { name: 'Оля' });
    await site.app.database.db
      .updateTable('users')
      .set({ telegram_id: '4343' })
      .where('id', '=', person.userId)
      .execute();
    const { context, page, errors } = await site.page({ language: 'ru', prepare: hostLikeTelegram });
    const launch = new URLSearchParams({
      tgWebAppData: await signInitData(e2eBotToken, { id: 4343, first_name: 'Оля', language_code: 'ru' }),
      tgWebAppVersion: '8.0',
      tgWebAppPlatform: 'android',
      tgWebAppThemeParams: JSON.stringify({
        bg_color: '#ffffff',
        text_color: '#000000',
        button_color: '#5288c1',
        button_text_color: '#ffffff',
      }),
    });
    const requests = recordApiRequests(page);
    await page.goto(`/#${launch.toString()}`);
    await page.getByRole('link', { name: ru.app.nav.menu }).click();
    // The menu's plan card opens the month's details on /subscription.
    await page.getByRole('button', { name: new RegExp(ru.app.premium.plans['30']) }).click();
    await page.getByRole('heading', { name: ru.app.premium.plans['30'] }).waitFor();
    // Priced in Stars, as Telegram will charge.
    await page.locator('.plan-price', { hasText: '300 ⭐' }).waitFor();
    await page.getByRole('button', { name: ru.app.premium.buyNow }).click();

    // No navigation: Telegram's invoice sheet is asked for by its slug, and the app waits for its answer.
    const events = async () => page.evaluate(() => (window as unknown as { __events: [string, unknown][] }).__events);
    await expect
      .poll(async () => (await events()).find(([n]) => n === 'web_app_open_invoice'))
      .toEqual(['web_app_open_invoice', { slug: 'iskra_e2e_invoice_1' }]);
    expect(invoices).toHaveLength(1);
    expect(new URL(page.url()).pathname).toBe('/subscription');
    await page.getByText(ru.app.premium.processing).waitFor();
    await page.screenshot({ path: 'artifacts/screenshots/stars-invoice-waiting-ru.png', scale: 'css' });

    // Telegram reports the sheet closed after paying.
    // A mark on this document: a reload would lose it.
    await page.evaluate(() => Object.assign(window, { __beforePaid: true }));
    const checksBefore = requests.calls().filter((c) => c === 'GET /api/subscription').length;
    await page.evaluate(() => {
      const webView = (
        window as unknown as { Telegram: { WebView: { receiveEvent(name: string, data: unknown): void } } }
      ).Telegram.WebView;
      webView.receiveEvent('invoice_closed', { slug: 'iskra_e2e_invoice_1', status: 'paid' });
    });
    // Still here: the bot has not yet heard from Telegram, so the payment is confirmed with the server.
    await page.getByText(ru.app.premium.confirming).waitFor();
    expect(new URL(page.url()).pathname).toBe('/subscription');
    // The bot's successful_payment arrives (what the bot does with it: settleStars, tested in stars.test.ts).
    const [row] = await site.app.database.db
      .selectFrom('payments')
      .select(['id'])
      .where('user_id', '=', person.userId)
      .execute();
    await new PremiumService(site.app.database.db, 'sqlite', site.app.clock, testSessionSecret, true).credit(
      row?.id ?? 0,
    );
    // The same screen, no reload: the subscription read again, active, nothing to buy.
    await page.getByRole('heading', { name: ru.app.premium.activeTitle }).waitFor();
    expect(await page.locator('.plan').count()).toBe(0);
    expect(new URL(page.url()).pathname).toBe('/subscription');
    expect(await page.evaluate(() => (window as unknown as { __beforePaid?: boolean }).__beforePaid)).toBe(true);
    expect(requests.calls().filter((c) => c === 'GET /api/subscription').length).toBeGreaterThan(checksBefore);
    await page.screenshot({ path: 'artifacts/screenshots/stars-paid-ru.png', scale: 'css' });
    await context.close();
    expect(errors).toEqual([]);
  });
});
