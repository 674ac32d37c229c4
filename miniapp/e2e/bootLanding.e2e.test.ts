import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import en from '../../locales/en.json' with { type: 'json' };
import ru from '../../locales/ru.json' with { type: 'json' };
import { holdEntry } from './flows/holdRequests.ts';
import { hostLikeTelegram, telegramLaunchHash } from './flows/telegram.ts';
import { pictureVariants, screenshot, startSite, type Site } from './harness.ts';

const texts = { ru, en };

/**
 * Issue 41: index.html carries the landing (miniapp/bootLandingPlugin.ts), which boot.js shows on the web's
 * `/` in the chosen language, so the page's largest paint (the lead paragraph) comes with the HTML and its
 * stylesheet instead of after the entry script has arrived and run. The app's first render puts its own
 * landing in its place: the same boxes, no shift, never a blank or another screen in between.
 */
describe('the landing before the app', () => {
  let site: Site;

  beforeAll(async () => {
    site = await startSite();
  });
  afterAll(async () => {
    await site.close();
  });

  /**
   * From the page's start: the largest-paint entries (with whether their element is the written landing's),
   * the layout shifts, and whether `#root` ever lost its visible lead paragraph once it had one.
   */
  async function watchLanding(context: BrowserContext): Promise<void> {
    await context.addInitScript(`
      window.__lcp = [];
      window.__shift = 0;
      window.__shifts = [];
      window.__leadSeen = false;
      window.__leadLost = false;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries())
          window.__lcp.push({ written: !!(entry.element && entry.element.closest('.boot-landing')), tag: entry.element ? entry.element.tagName : '' });
      }).observe({ type: 'largest-contentful-paint', buffered: true });
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) {
          if (entry.hadRecentInput) continue;
          window.__shift += entry.value;
          // What moved, for the failure's message: each source's element and its box before and after.
          const moved = (entry.sources || []).map((source) => {
            const node = source.node;
            const name = node ? node.nodeName + '.' + ((node.getAttribute && node.getAttribute('class')) || '') + ' "' + (node.textContent || '').slice(0, 20) + '"' : '?';
            const rect = (r) => [r.x, r.y, r.width, r.height].map(Math.round).join(',');
            return name + ' ' + rect(source.previousRect) + ' -> ' + rect(source.currentRect);
          });
          window.__shifts.push(Math.round(entry.startTime) + ' ms ' + entry.value.toFixed(4) + ': ' + moved.join('; '));
        }
      }).observe({ type: 'layout-shift', buffered: true });
      new MutationObserver(() => {
        const lead = [...document.querySelectorAll('#root .lead')].some((p) => p.getClientRects().length > 0);
        if (lead) window.__leadSeen = true;
        else if (window.__leadSeen) window.__leadLost = true;
      }).observe(document, { childList: true, subtree: true, attributes: true });
    `);
  }

  /**
   * The boxes of what the landing shows above the fold, rounded to the pixel (of the shown copy only). The
   * brand by its logo: its name goes once the session has answered and the bar's links need the room.
   */
  const boxes = (page: Page, scope: string) =>
    page.evaluate((scope) => {
      const selectors = [
        '.topbar .brand img',
        '.hero-lang',
        '.hero-mark img',
        'h1',
        '.lead',
        '.benefits li',
        '.actions a',
      ];
      return selectors.flatMap((selector) =>
        Array.from(document.querySelectorAll(`${scope} ${selector}`))
          .filter((element) => element.getClientRects().length > 0)
          .map((element) => {
            const { x, y, width, height } = element.getBoundingClientRect();
            return `${selector} ${[x, y, width, height].map(Math.round).join(',')}`;
          }),
      );
    }, scope);

  for (const { language, dark, name } of pictureVariants) {
    it(`paints the landing with the HTML (${name}), then the app's landing takes its place without a shift`, async () => {
      const t = texts[language];
      let release: () => void = () => undefined;
      const { context, page, errors } = await site.page({
        language,
        dark,
        prepare: async (c) => {
          await watchLanding(c);
          release = await holdEntry(c);
        },
      });
      await page.goto('/', { waitUntil: 'commit' });
      // The app's code is held back: what shows is the page's own copy, in the chosen language only.
      const written = page.locator(`.boot-landing[lang="${language}"]`);
      await written.locator('.lead').waitFor();
      expect(await written.locator('.lead').textContent()).toBe(t.app.landing.description);
      // One copy in the page: the other language's stays in the template, where no selector meets it.
      expect(await page.locator('.boot-landing').count()).toBe(1);
      expect(await page.locator('.boot-landing').isVisible()).toBe(true);
      expect(await page.getAttribute('html', 'data-theme')).toBe(dark ? 'dark' : 'light');
      expect(await page.locator('#landing-title').count()).toBe(0);
      // Its largest paint is the written landing's, before any of the app's code has run.
      await expect
        .poll(() => page.evaluate(() => (window as unknown as { __lcp: { written: boolean }[] }).__lcp.length))
        .toBeGreaterThan(0);
      const lcp = await page.evaluate(
        () => (window as unknown as { __lcp: { written: boolean; tag: string }[] }).__lcp,
      );
      expect(lcp.every((entry) => entry.written)).toBe(true);
      const before = await boxes(page, '#root');
      expect(before.filter((b) => b.startsWith('.benefits li'))).toHaveLength(3);
      expect(before.filter((b) => b.startsWith('.actions a'))).toHaveLength(2);
      await screenshot(page, `boot-landing-${name}`);

      release();
      await page.locator('#landing-title').waitFor();
      expect(await page.locator('.boot-landing').count()).toBe(0);
      expect(await boxes(page, '#root')).toEqual(before);
      await page.waitForLoadState('networkidle');
      const watched = await page.evaluate(() => {
        const w = window as unknown as { __shift: number; __shifts: string[]; __leadLost: boolean };
        return { shift: w.__shift, shifts: w.__shifts.join('\n'), leadLost: w.__leadLost };
      });
      expect(watched.leadLost).toBe(false);
      expect(watched.shift, watched.shifts).toBeLessThanOrEqual(0.01);
      await screenshot(page, `boot-landing-${name}-app`);
      await context.close();
      expect(errors).toEqual([]);
    });
  }

  /** How many copies of the written landing the page shows, once its HTML has been parsed to the end. */
  const shownCopies = async (page: Page) => {
    await expect.poll(() => page.evaluate(() => document.readyState)).not.toBe('loading');
    return page.locator('.boot-landing').count();
  };

  it('shows it on no other page, and never inside Telegram, whose `/` opens the deck', async () => {
    let release: () => void = () => undefined;
    const { context, page, errors } = await site.page({
      prepare: async (c) => {
        release = await holdEntry(c);
      },
    });
    for (const path of ['/login', '/search', '/Menu']) {
      await page.goto(path, { waitUntil: 'commit' });
      expect(await shownCopies(page), path).toBe(0);
    }
    release();
    await context.close();
    expect(errors).toEqual([]);

    let releaseTelegram: () => void = () => undefined;
    const telegram = await site.page({
      prepare: async (c) => {
        await hostLikeTelegram(c);
        releaseTelegram = await holdEntry(c);
      },
    });
    const hash = await telegramLaunchHash({ user: { id: 8_300_000_001, first_name: 'Ира', language_code: 'ru' } });
    await telegram.page.goto(`/${hash}`, { waitUntil: 'commit' });
    expect(await shownCopies(telegram.page)).toBe(0);
    expect(await telegram.page.getAttribute('html', 'data-boot-landing')).toBeNull();
    // A reload later in the same Telegram session has lost the hash; the tab remembers the launch.
    releaseTelegram();
    await telegram.page.getByRole('heading', { name: ru.app.wizard.title }).waitFor();
    await telegram.page.evaluate(() => history.replaceState(null, '', '/'));
    await telegram.page.reload({ waitUntil: 'commit' });
    expect(await shownCopies(telegram.page)).toBe(0);
    expect(await telegram.page.getAttribute('html', 'data-boot-landing')).toBeNull();
    await telegram.page.locator('#main').waitFor();
    expect(await telegram.page.locator('.landing').count()).toBe(0);
    await telegram.context.close();
    expect(telegram.errors).toEqual([]);
  });
});
