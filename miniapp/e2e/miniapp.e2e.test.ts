import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ru from '../../locales/ru.json' with { type: 'json' };
import { e2eBotToken, startSite, watchErrors, type Site } from './harness.ts';
import { signInitData } from './signedIn.ts';

/**
 * The Mini App path in a normal Chromium, faked the way Telegram's Android client hosts it: launch
 * parameters in the URL's hash and `window.TelegramWebviewProxy.postEvent` receiving the app's calls.
 * The server checks the init data itself (`POST /api/auth/telegram`, signed with the site's test bot token).
 */
describe('the Mini App inside (faked) Telegram', () => {
  let site: Site;
  beforeAll(async () => {
    site = await startSite();
  });
  afterAll(async () => {
    await site.close();
  });

  it('expands, disables vertical swipes, calls ready(), signs in with init data and keeps jwtToken', async () => {
    const context = await site.context({ language: 'ru' });
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
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    const errors = watchErrors(page);
    const logs: string[] = [];
    page.on('console', (m) => logs.push(`${m.type()}: ${m.text()}`));
    const sent: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/api/auth/telegram')) sent.push((request.postDataJSON() as { initData: string }).initData);
    });
    const authorizations: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/api/current_user')) authorizations.push(request.headers().authorization ?? '');
    });

    const initData = signInitData(e2eBotToken, { id: 4242, first_name: 'Маша', language_code: 'ru' });
    const launch = new URLSearchParams({
      tgWebAppData: initData,
      tgWebAppVersion: '8.0',
      tgWebAppPlatform: 'android',
      tgWebAppThemeParams: JSON.stringify({ bg_color: '#17212b', text_color: '#f5f5f5', hint_color: '#708499', button_color: '#5288c1', button_text_color: '#ffffff', secondary_bg_color: '#232e3c' }),
    });
    await page.goto(`/#${launch.toString()}`);

    // Token-only session: the full top bar, no form anywhere.
    await page
      .getByRole('link', { name: ru.app.nav.menu })
      .waitFor()
      .catch(async (error: unknown) => {
        await page.screenshot({ path: 'artifacts/miniapp-failure.png' });
        throw new Error(`${String(error)}\nerrors: ${errors.join('\n')}\nlogs: ${logs.join('\n')}\nsent: ${sent.length}\nhtml: ${(await page.content()).slice(0, 3000)}`);
      });
    expect(sent).toEqual([initData]);
    const token = (await page.evaluate(() => localStorage.getItem('jwtToken'))) ?? '';
    expect(token.split('.')).toHaveLength(3);
    expect(authorizations.at(-1)).toBe(`Bearer ${token}`);
    expect(await page.getAttribute('html', 'data-platform')).toBe('telegram');

    const events = async () => page.evaluate(() => (window as unknown as { __events: [string, unknown][] }).__events);
    const names = (await events()).map(([name]) => name);
    expect(names).toContain('web_app_expand');
    expect(names).toContain('web_app_ready');
    expect(await events()).toContainEqual(['web_app_setup_swipe_behavior', { allow_vertical_swipe: false }]);

    // Telegram's back button on inner screens, hidden again on the landing.
    await page.getByRole('link', { name: ru.app.nav.menu }).click();
    await page.getByRole('heading', { name: ru.app.menu.filters }).waitFor();
    await expect.poll(async () => (await events()).filter(([n]) => n === 'web_app_setup_back_button').at(-1)).toEqual([
      'web_app_setup_back_button',
      { is_visible: true },
    ]);
    await context.close();
    expect(errors).toEqual([]);
  });
});
