import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import en from '../../locales/en.json' with { type: 'json' };
import ru from '../../locales/ru.json' with { type: 'json' };
import { createPerson } from '../../server/test/people.ts';
import { hostLikeTelegram, telegramLaunchHash } from './flows/telegram.ts';
import { behaviourLanguages, screenshot, startSite, type Site } from './harness.ts';
import { signInAs } from './signedIn.ts';

const texts = { ru, en } as const;

/** Issue 39, point 1: the web site is installable and opens from its service worker's cache when offline. */
describe('the installable web app', () => {
  let site: Site;
  beforeAll(async () => {
    site = await startSite();
  });
  afterAll(async () => {
    await site.close();
  });

  it('links a manifest with light and dark colours, standalone display and 192, 512 and maskable PNG icons', async () => {
    const { context, page } = await site.page();
    await page.goto('/');
    const href = await page.locator('link[rel="manifest"]').getAttribute('href');
    expect(href).toBe('/manifest.webmanifest');
    const res = await page.request.get(href ?? '');
    expect(res.headers()['content-type']).toMatch(/^application\/manifest\+json/);
    const manifest = (await res.json()) as Record<string, unknown> & {
      icons: { src: string; sizes: string; purpose: string; type: string }[];
    };
    expect(manifest).toMatchObject({
      name: 'Искра · Iskra',
      short_name: 'Искра',
      display: 'standalone',
      start_url: '/search',
      scope: '/',
      theme_color: '#fff7f5',
      background_color: '#fff7f5',
      user_preferences: { color_scheme_dark: { theme_color: '#121016', background_color: '#121016' } },
    });
    expect(manifest.icons.map((i) => [i.sizes, i.purpose])).toEqual([
      ['192x192', 'any'],
      ['512x512', 'any'],
      ['512x512', 'maskable'],
    ]);
    for (const icon of manifest.icons) {
      const image = await page.request.get(icon.src);
      expect(image.headers()['content-type']).toBe('image/png');
      const meta = await sharp(await image.body()).metadata();
      expect(`${meta.width}x${meta.height}`).toBe(icon.sizes);
    }
    await context.close();
  });

  it('takes control through its service worker, and a reload offline still opens the app from the cache (never /api/)', async () => {
    const { context, page, errors } = await site.page({ language: 'en', serviceWorkers: 'allow' });
    await page.goto('/');
    await page.locator('#landing-title').waitFor();
    // Registered once the page loaded, scope "/"; it controls the page from the next load on.
    const scope = await page.evaluate(async () => (await navigator.serviceWorker.ready).scope);
    expect(scope).toBe(`${site.app.url}/`);
    await page.reload();
    await page.locator('#landing-title').waitFor();
    expect(await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL)).toBe(`${site.app.url}/sw.js`);
    // Another screen's own code, loaded while online, is kept too.
    await page.goto('/login');
    await page.getByRole('heading', { level: 1 }).waitFor();

    await context.setOffline(true);
    await page.goto('/');
    await page.locator('#landing-title').waitFor();
    expect(await page.locator('#landing-title').textContent()).toBe(en.app.landing.title);
    await page.getByRole('link', { name: en.app.landing.signIn }).click();
    await page.getByRole('heading', { level: 1 }).waitFor();
    // The API is never answered by the worker: offline, it fails as offline (past the browser's HTTP cache).
    expect(
      await page.evaluate(() =>
        fetch('/api/config', { cache: 'no-store' }).then(
          (r) => r.status,
          () => 'offline',
        ),
      ),
    ).toBe('offline');
    const cached = await page.evaluate(async () => {
      const urls: string[] = [];
      for (const name of await caches.keys())
        for (const request of await (await caches.open(name)).keys()) urls.push(new URL(request.url).pathname);
      return urls;
    });
    expect(cached).toContain('/');
    expect(cached.some((path) => path.startsWith('/assets/'))).toBe(true);
    expect(cached.filter((path) => path.startsWith('/api'))).toEqual([]);
    await context.setOffline(false);
    await context.close();
    expect(errors.filter((e) => !/offline|ERR_INTERNET_DISCONNECTED|Failed to fetch|network/i.test(e))).toEqual([]);
  });

  it('never registers a service worker inside Telegram', async () => {
    const telegramId = 8_900_000_001;
    const { context, page } = await site.page({ serviceWorkers: 'allow', prepare: hostLikeTelegram });
    await page.goto(
      `/${await telegramLaunchHash({ user: { id: telegramId, first_name: 'Тимур', language_code: 'ru' } })}`,
    );
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    await page.waitForFunction(() => document.readyState === 'complete');
    expect(await page.evaluate(async () => (await navigator.serviceWorker.getRegistrations()).length)).toBe(0);
    await context.close();
  });

  for (const language of behaviourLanguages) {
    it(`offers Install in the menu while the browser offers it (${language})`, async () => {
      const t = texts[language];
      const person = await createPerson(site.app, { name: 'Инна' });
      const { context, page, errors } = await site.page({
        language,
        prepare: (c) => signInAs(site, c, person.browser),
      });
      await page.goto('/Menu');
      await page.getByRole('link', { name: t.app.menu.training }).waitFor();
      const install = page.getByRole('button', { name: t.app.menu.install });
      expect(await install.count()).toBe(0);
      // Chromium's offer, as it fires it where the site is installable (headless Chromium never does by itself).
      await page.evaluate(() => {
        const offer = Object.assign(new Event('beforeinstallprompt', { cancelable: true }), {
          prompt: () => {
            (window as unknown as { __prompted: boolean }).__prompted = true;
            return Promise.resolve();
          },
          userChoice: Promise.resolve({ outcome: 'accepted' }),
        });
        window.dispatchEvent(offer);
      });
      await install.waitFor();
      await install.scrollIntoViewIfNeeded();
      await screenshot(page, `reach-install-${language}`);
      await page.evaluate(() => (document.documentElement.dataset.theme = 'dark'));
      await screenshot(page, `reach-install-${language}-dark`);
      await install.click();
      await expect
        .poll(() => page.evaluate(() => (window as unknown as { __prompted?: boolean }).__prompted))
        .toBe(true);
      // The offer is used up: the entry goes until the browser offers again.
      await install.waitFor({ state: 'detached' });
      await context.close();
      expect(errors).toEqual([]);
    });
  }
});
