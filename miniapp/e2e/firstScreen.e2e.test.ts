import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPerson, type Person } from '../../server/test/people.ts';
import { matchAndStartChat } from './flows/chat.ts';
import { recordApiRequests, startSite, type Site } from './harness.ts';
import { signInAs } from './signedIn.ts';

/**
 * Issue 41: a signed-in first screen asks for each thing once, and the deck's first card is asked for
 * while the page starts (public/boot.js), its photo first among the images.
 */
describe('a signed-in first screen', () => {
  let site: Site;
  let anna: Person;
  let conversation: number;

  beforeAll(async () => {
    site = await startSite();
    anna = await createPerson(site.app, { name: 'Anna', gender: 'Female', premium: true });
    const boris = await createPerson(site.app, { name: 'Boris', gender: 'Male', premium: true });
    // Someone for the deck to show, with a photo.
    await createPerson(site.app, { name: 'Vera', gender: 'Male' });
    conversation = await matchAndStartChat(anna, boris);
    for (let i = 1; i <= 3; i++)
      await boris.browser.post(`/api/conversations/${conversation}/messages`, { content: `hello ${i}` });
  });
  afterAll(async () => {
    await site.close();
  });

  /**
   * Opens `path` in a fresh profile as Anna and records the API calls until the screen shows `ready` and,
   * with `tabs`, the tab bar shows her unread chat.
   */
  async function open(path: string, ready: (page: Page) => Promise<unknown>, { tabs = false } = {}) {
    // The app's own settling: what comes before the first screen and what after is the point here.
    const { context, page, errors } = await site.page({
      settle: 'production',
      prepare: (c) => signInAs(site, c, anna.browser),
    });
    const requests = recordApiRequests(page);
    const streamOpened = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/events');
    await page.goto(path);
    await ready(page);
    // The live stream's opening reads again what a screen shows when it may have missed something
    // (api/liveCache.ts): the calls are counted once it is open and the network has settled. On the deck
    // the stream, and the counts read once it is open, come after the page has settled (issue 41), so
    // there the counts drawn are the sign that they were read.
    await streamOpened;
    await page.waitForLoadState('networkidle');
    if (tabs) await page.locator('.tab-badge').first().waitFor();
    const calls = requests.calls();
    const count = (call: string) => calls.filter((c) => c === call).length;
    return { context, page, errors, calls, count };
  }

  it('/search asks once for the session, the card and the badges, and the card photo comes first', async () => {
    const { context, page, errors, calls, count } = await open(
      '/search',
      (p) => p.locator('.swipe-card img').first().waitFor(),
      { tabs: true },
    );
    expect(count('GET /api/current_user'), calls.join('\n')).toBe(1);
    expect(count('GET /api/badges'), calls.join('\n')).toBe(1);
    // The first card once (the next one is prefetched with `exclude`).
    expect(calls.filter((c) => c === 'GET /api/search').length, calls.join('\n')).toBeGreaterThanOrEqual(1);
    expect(await page.locator('.swipe-card img').first().getAttribute('fetchpriority')).toBe('high');
    // Started by boot.js: the photo preloaded with a high priority, the deck's chunk beside the entry.
    // At least one each: when the app imports the deck before the photo is in, Vite adds its own preload link
    // of the chunk beside boot.js's (harmless: a module is fetched once).
    expect(await page.locator('link[rel="preload"][as="image"][fetchpriority="high"]').count()).toBeGreaterThanOrEqual(
      1,
    );
    expect(await page.locator('link[rel="modulepreload"][href*="/assets/search-"]').count()).toBeGreaterThanOrEqual(1);
    // The deck's first card reads nothing through the query cache (issue 41): TanStack Query comes with the
    // live connection once the page has settled, after the first screen was drawn (`iskra:ready`).
    const { ready, cache } = await page.evaluate(() => ({
      ready: performance.getEntriesByName('iskra:ready')[0]?.startTime ?? -1,
      cache:
        performance
          .getEntriesByType('resource')
          .find((entry) => new URL(entry.name).pathname.startsWith('/assets/queries-'))?.startTime ?? -1,
    }));
    expect(ready).toBeGreaterThan(0);
    expect(cache).toBeGreaterThan(ready);
    await context.close();
    expect(errors).toEqual([]);
  });

  it('/ChatList asks once for the chats and the badges', async () => {
    const { context, errors, calls, count } = await open(
      '/ChatList',
      (p) => p.getByRole('link', { name: /Boris/ }).waitFor(),
      { tabs: true },
    );
    expect(count('GET /api/chats'), calls.join('\n')).toBe(1);
    expect(count('GET /api/badges'), calls.join('\n')).toBe(1);
    expect(count('GET /api/current_user'), calls.join('\n')).toBe(1);
    await context.close();
    expect(errors).toEqual([]);
  });

  it('a conversation asks once for its messages', async () => {
    const { context, errors, calls, count } = await open(`/chat/${conversation}`, (p) =>
      p.getByText('hello 3').waitFor(),
    );
    expect(count(`GET /api/conversations/${conversation}/messages`), calls.join('\n')).toBe(1);
    expect(count('GET /api/current_user'), calls.join('\n')).toBe(1);
    await context.close();
    expect(errors).toEqual([]);
  });
});
