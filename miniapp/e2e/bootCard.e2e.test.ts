import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { BrowserContext, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPerson, type Person } from '../../server/test/people.ts';
import { holdEntry, holdRequests, type Held } from './flows/holdRequests.ts';
import { distDir, repoRoot, startSite, type Site } from './harness.ts';
import { signInAs } from './signedIn.ts';

/**
 * Issue 41: on a phone, public/boot.js paints the deck's first photo in the deck's box as soon as it has
 * arrived, before the app's code has run; the app's card takes its place, in the same box, without a shift.
 */
describe("the deck's first photo before the app", () => {
  let site: Site;
  let anna: Person;
  let firstPhoto: string;

  beforeAll(async () => {
    site = await startSite();
    anna = await createPerson(site.app, { name: 'Anna', gender: 'Female' });
    await createPerson(site.app, { name: 'Boris', gender: 'Male' });
    // The card the deck opens with, as the server answers it to Anna.
    const card = (await (await anna.browser.get('/api/search?ageMin=18&ageMax=100&gender=Any')).json()) as {
      photo: string;
    };
    firstPhoto = card.photo.split(',')[0] ?? '';
    expect(firstPhoto).not.toBe('');
  });
  afterAll(async () => {
    await site.close();
  });

  /** Records whether boot.js ever added its card, and the layout shifts, from the page's start. */
  async function watchBootCard(context: BrowserContext): Promise<void> {
    await context.addInitScript(`
      window.__bootCardSeen = false;
      window.__shift = 0;
      new MutationObserver(() => {
        if (document.getElementById('boot-card')) window.__bootCardSeen = true;
      }).observe(document, { childList: true, subtree: true });
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) if (!entry.hadRecentInput) window.__shift += entry.value;
      }).observe({ type: 'layout-shift', buffered: true });
    `);
  }

  /** `locale-en` for a dictionary's whole file (its name and a 10-character hash), not a lazy part's. */
  const dictionaryOf = (url: string) => /\/assets\/(locale-[a-z]+)-[\w-]{10}\.json$/.exec(new URL(url).pathname)?.[1];

  const box = (b: { x: number; y: number; width: number; height: number } | null) =>
    b && [b.x, b.y, b.width, b.height].map(Math.round);

  it('paints the first card’s photo in the deck’s box before the app runs, then the app’s card replaces it in place', async () => {
    let release: () => void = () => undefined;
    const { context, page, errors } = await site.page({
      prepare: async (c) => {
        await signInAs(site, c, anna.browser);
        await watchBootCard(c);
        release = await holdEntry(c);
      },
    });
    await page.goto('/search', { waitUntil: 'commit' });
    const painted = page.locator('#boot-card img');
    await painted.waitFor();
    // Loaded while the app's code is still held back: no deck, no card of the app's yet.
    await page.waitForFunction(
      () => (document.querySelector('#boot-card img') as HTMLImageElement | null)?.complete === true,
    );
    expect(await page.locator('.swipe-card').count()).toBe(0);
    expect(new URL((await painted.getAttribute('src')) ?? '', site.app.url).pathname).toBe(
      `/api/uploads/${firstPhoto}`,
    );
    expect(await painted.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
    // Below the top bar, above the tab bar, edge to edge: the deck's box on a 390x844 phone.
    const before = box(await painted.boundingBox());
    expect(before).toEqual([0, 57, 390, 726]);
    expect(await page.locator('#boot-card').getAttribute('aria-hidden')).toBe('true');

    release();
    const card = page.locator('.swipe-card img').first();
    await card.waitFor();
    expect(await page.locator('#boot-card').count()).toBe(0);
    expect(new URL((await card.getAttribute('src')) ?? '', site.app.url).pathname).toBe(`/api/uploads/${firstPhoto}`);
    expect(box(await card.boundingBox())).toEqual(before);
    await page.waitForLoadState('networkidle');
    expect(await page.evaluate(() => (window as unknown as { __shift: number }).__shift)).toBeLessThanOrEqual(0.01);
    await context.close();
    expect(errors).toEqual([]);
  });

  it('leaves the deck’s chunks until the painted photo has loaded, then preloads them', async () => {
    let release: () => void = () => undefined;
    let photos: Held | undefined;
    const { context, page, errors } = await site.page({
      prepare: async (c) => {
        await signInAs(site, c, anna.browser);
        release = await holdEntry(c);
        photos = await holdRequests(c, /\/api\/uploads\//);
      },
    });
    const deckChunk = 'link[rel="modulepreload"][href*="/assets/search-"]';
    await page.goto('/search', { waitUntil: 'commit' });
    await expect.poll(() => photos?.asked() ?? 0, { timeout: 15_000 }).toBeGreaterThan(0);
    await page.locator('#boot-card img').waitFor({ state: 'attached' });
    // The photo is on its way: nothing of the app's shares the link with it yet.
    expect(await page.locator(deckChunk).count()).toBe(0);
    await photos?.release();
    await page.locator(deckChunk).waitFor({ state: 'attached' });
    release();
    await page.locator('.swipe-card img').first().waitFor();
    await page.waitForLoadState('networkidle');
    await context.close();
    expect(errors).toEqual([]);
  });

  it('leaves the account’s dictionary, in another language than the device’s, until the painted photo has loaded', async () => {
    // Russian on this device (the context's language), English for the account.
    const emma = await createPerson(site.app, { name: 'Emma', gender: 'Female', language: 'en' });
    let release: () => void = () => undefined;
    let photos: Held | undefined;
    const dictionaries: string[] = [];
    const { context, page, errors } = await site.page({
      prepare: async (c) => {
        await signInAs(site, c, emma.browser);
        release = await holdEntry(c);
        photos = await holdRequests(c, /\/api\/uploads\//);
      },
    });
    page.on('request', (request) => {
      const name = dictionaryOf(request.url());
      if (name) dictionaries.push(name);
    });
    const english = 'link[rel="preload"][href*="/assets/locale-en-"]';
    await page.goto('/search', { waitUntil: 'commit' });
    await expect.poll(() => photos?.asked() ?? 0, { timeout: 15_000 }).toBeGreaterThan(0);
    await page.locator('#boot-card img').waitFor({ state: 'attached' });
    // Once boot.js has read the session's answer (its own read of it was under way first, and a page's
    // tasks run in order): the device's dictionary is on its way, the account's waits for the photo.
    await page.evaluate(async () => {
      const early = (window as unknown as { __iskraEarly: { responses: Record<string, Promise<Response>> } })
        .__iskraEarly;
      const session = early.responses['/api/current_user'];
      if (!session) throw new Error('boot.js did not ask for the session');
      await (await session).clone().json();
      await new Promise((resolve) => setTimeout(resolve, 0));
    });
    expect(await page.locator('link[rel="preload"][href*="/assets/locale-ru-"]').count()).toBe(1);
    expect(await page.locator(english).count()).toBe(0);
    await photos?.release();
    await page.locator(english).waitFor({ state: 'attached' });
    release();
    await page.locator('.swipe-card img').first().waitFor();
    await page.waitForLoadState('networkidle');
    // The app speaks the account's language, and took boot.js's preload rather than fetching it again.
    expect(await page.getAttribute('html', 'lang')).toBe('en');
    expect(dictionaries.filter((name) => name === 'locale-en')).toEqual(['locale-en']);
    await context.close();
    expect(errors).toEqual([]);
  });

  it('preloads no dictionary the app has already asked for itself while the photo was loading', async () => {
    const emma = await createPerson(site.app, { name: 'Emma', gender: 'Female', language: 'en' });
    let photos: Held | undefined;
    // The app's own request for the account's texts, held: it has asked, and cannot draw until they come.
    const textsHeld: Route[] = [];
    let english = 0;
    const { context, page, errors } = await site.page({
      prepare: async (c) => {
        await signInAs(site, c, emma.browser);
        photos = await holdRequests(c, /\/api\/uploads\//);
        await c.route(/\/assets\/locale-en-/, async (route) => {
          if (dictionaryOf(route.request().url()) === 'locale-en') english++;
          textsHeld.push(route);
        });
      },
    });
    await page.goto('/search', { waitUntil: 'commit' });
    await expect.poll(() => english, { timeout: 20_000 }).toBe(1);
    await expect.poll(() => photos?.asked() ?? 0, { timeout: 15_000 }).toBeGreaterThan(0);
    // The photo loads now, while the app waits for its texts: boot.js's turn to preload what waited for it
    // (the image's load event, in a task after its response has finished; one more task and it has run).
    const photoLoaded = page.waitForEvent('requestfinished', (request) => request.url().includes('/api/uploads/'));
    await photos?.release();
    await photoLoaded;
    await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 0)));
    expect(english).toBe(1);
    for (const route of textsHeld.splice(0)) await route.continue();
    await page.locator('.swipe-card img').first().waitFor();
    await page.waitForLoadState('networkidle');
    for (const route of textsHeld.splice(0)) await route.continue();
    expect(await page.getAttribute('html', 'lang')).toBe('en');
    expect(english).toBe(1);
    await context.close();
    expect(errors).toEqual([]);
  });

  it('takes the photo away at once when the app asks for another first card than boot.js did', async () => {
    let release: () => void = () => undefined;
    // The app's own first request, held: until it answers, the painted photo is not the card it will show.
    const appAsked: Route[] = [];
    let holding = true;
    const { context, page, errors } = await site.page({
      prepare: async (c) => {
        await signInAs(site, c, anna.browser);
        release = await holdEntry(c);
        await c.route(/\/api\/search\?.*gender=Male/, async (route) => {
          if (holding) appAsked.push(route);
          else await route.continue();
        });
      },
    });
    await page.goto('/search', { waitUntil: 'commit' });
    await page.locator('#boot-card img').waitFor();
    // The stored filters change before the app reads them (another tab, a filter read otherwise than
    // boot.js reads it): the app's first address is not boot.js's.
    await page.evaluate(() => localStorage.setItem('selectedGender', 'Male'));
    release();
    await expect.poll(() => appAsked.length, { timeout: 15_000 }).toBeGreaterThan(0);
    await page.locator('#boot-card').waitFor({ state: 'detached' });
    expect(await page.locator('.swipe-card').count()).toBe(0);
    holding = false;
    for (const route of appAsked.splice(0)) await route.continue();
    await page.locator('.swipe-card, .search-screen [role="alert"], .search-screen .empty-deck').first().waitFor();
    await page.waitForLoadState('networkidle');
    await context.close();
    expect(errors).toEqual([]);
  });

  it('paints nothing for a stale session: the visitor goes to sign-in', async () => {
    const { context, page, errors } = await site.page({
      prepare: async (c) => {
        await c.addCookies([{ name: 'iskra_session', value: 'ended-long-ago', url: site.app.url, httpOnly: true }]);
        await watchBootCard(c);
      },
    });
    await page.goto('/search');
    await page.waitForURL(/\/login/);
    await page.locator('input[type="password"]').waitFor();
    await page.waitForLoadState('networkidle');
    expect(await page.evaluate(() => (window as unknown as { __bootCardSeen: boolean }).__bootCardSeen)).toBe(false);
    await context.close();
    expect(errors).toEqual([]);
  });

  it('takes the photo away when the app sends the visitor elsewhere before drawing the deck', async () => {
    let release: () => void = () => undefined;
    const { context, page, errors } = await site.page({
      prepare: async (c) => {
        await signInAs(site, c, anna.browser);
        release = await holdEntry(c);
      },
    });
    await page.goto('/search', { waitUntil: 'commit' });
    await page.locator('#boot-card img').waitFor();
    // The address changes before the app starts (as a link or the back button would): the menu is drawn instead.
    await page.evaluate(() => history.replaceState(null, '', '/menu'));
    release();
    await page.locator('.tabbar').waitFor();
    await page.waitForLoadState('networkidle');
    expect(await page.locator('#boot-card').count()).toBe(0);
    await context.close();
    expect(errors).toEqual([]);
  });

  it('paints nothing on a wide screen, where the deck is a framed card', async () => {
    const { context, page, errors } = await site.page({
      prepare: async (c) => {
        await signInAs(site, c, anna.browser);
        await watchBootCard(c);
      },
    });
    await page.setViewportSize({ width: 1280, height: 844 });
    await page.goto('/search');
    await page.locator('.swipe-card img').first().waitFor();
    await page.waitForLoadState('networkidle');
    expect(await page.evaluate(() => (window as unknown as { __bootCardSeen: boolean }).__bootCardSeen)).toBe(false);
    await context.close();
    expect(errors).toEqual([]);
  });
});

describe('boot.js as sent', () => {
  it('is the source minified: no comments, under half its size (miniapp/bootScriptPlugin.ts)', () => {
    const source = readFileSync(path.join(repoRoot, 'miniapp', 'public', 'boot.js'), 'utf8');
    const sent = readFileSync(path.join(distDir, 'boot.js'), 'utf8');
    expect(source).toContain('// Runs in <head>');
    expect(sent).not.toMatch(/\/\/ |\/\*/);
    expect(sent.length).toBeLessThan(source.length / 2);
    // Still the same script: it names what the app and the styles rely on.
    for (const name of ['__iskraEarly', 'boot-card', 'iskra-preload', 'iskra-locales', 'jwtToken'])
      expect(sent).toContain(name);
  });

  it('is written into index.html, before the stylesheet, instead of being fetched (issue 41)', () => {
    const html = readFileSync(path.join(distDir, 'index.html'), 'utf8');
    const sent = readFileSync(path.join(distDir, 'boot.js'), 'utf8').trim();
    expect(html).not.toContain('src="/boot.js"');
    const at = html.indexOf(`<script>${sent}</script>`);
    expect(at).toBeGreaterThan(0);
    // A stylesheet above it would hold the script (and the reads it starts) until the sheet had come.
    expect(html.indexOf('rel="stylesheet"')).toBeGreaterThan(at);
    // After the lists it reads.
    expect(html.indexOf('name="iskra-preload"')).toBeLessThan(at);
    expect(html.indexOf('name="iskra-locales"')).toBeLessThan(at);
  });
});
