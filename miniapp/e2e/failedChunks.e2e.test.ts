import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import en from '../../locales/en.json' with { type: 'json' };
import ru from '../../locales/ru.json' with { type: 'json' };
import { createPerson } from '../../server/test/people.ts';
import { startSite, type Site, behaviourLanguages, screenshotLightAndDark } from './harness.ts';
import { topCardId } from './flows/search.ts';
import { withPhotos } from './flows/photos.ts';
import { signInAs } from './signedIn.ts';

const texts = { ru, en } as const;

/**
 * A chunk that does not arrive (offline for a moment, a new deploy) must not blank the app: a screen's
 * failure is the app's error screen with a reload (components/ErrorBoundary.tsx), a deck extra's is that
 * part's own error, and the part loads on Retry (components/retryingLazy.ts: React.lazy keeps a failure); the
 * frame's live connection failing costs the stream only, never the screen under it.
 */
describe.each(behaviourLanguages)('a chunk that fails to load in %s', (language) => {
  const t = texts[language];
  let site: Site;
  const opened: BrowserContext[] = [];

  beforeAll(async () => {
    site = await startSite();
  });
  afterAll(async () => {
    for (const context of opened) await context.close();
    await site.close();
  });

  /** Every request for the chunk `name` (a glob: `{a,b}` for either) fails while `failing.now` holds. */
  async function openPage(name: string, prepare?: (context: BrowserContext) => Promise<unknown>) {
    const failing = { now: true, refused: 0, refusedFiles: [] as string[] };
    const { context, page } = await site.page({
      language,
      prepare: async (context) => {
        await prepare?.(context);
        await context.route(`**/assets/${name}-*.js`, (route) => {
          if (!failing.now) return route.fallback();
          failing.refused += 1;
          failing.refusedFiles.push(new URL(route.request().url()).pathname);
          return route.abort('internetdisconnected');
        });
      },
    });
    opened.push(context);
    return { page, failing };
  }

  it("of a screen shows the app's error with a reload, which brings the screen", async () => {
    const { page, failing } = await openPage('OfferScreen');
    await page.goto('/offer');
    const failed = page.getByRole('alert').filter({ hasText: t.app.errors.appFailed });
    await failed.waitFor();
    await screenshotLightAndDark(page, `app-error-${language}`);
    expect(failing.refused).toBeGreaterThan(0);
    failing.now = false;
    await failed.getByRole('button', { name: t.app.common.retry }).click();
    await page.getByTitle(t.app.footer.offer).waitFor();
    expect(await failed.count()).toBe(0);
  });

  it("of the empty deck shows the deck's part its error, and Retry loads it", async () => {
    const person = await createPerson(site.app, { language });
    const { page, failing } = await openPage('deckExtras', (context) => signInAs(site, context, person.browser));
    await page.goto('/search');
    const failed = page.getByRole('alert').filter({ hasText: t.app.errors.partFailed });
    await failed.waitFor();
    await screenshotLightAndDark(page, `deck-part-error-${language}`);
    // Refused once or twice (the part, the settled page's fetch), not over and over.
    expect(failing.refused).toBeLessThan(4);
    // The deck's frame is still there: only the part failed.
    expect(await page.getByRole('region', { name: t.app.search.title }).isVisible()).toBe(true);
    failing.now = false;
    await failed.getByRole('button', { name: t.app.common.retry }).click();
    await page.getByText(t.app.errors.noMoreProfiles).waitFor();
    expect(await failed.count()).toBe(0);
  });

  it('of the live connection keeps the deck swiping, and the connection loads on the next screen', async () => {
    const seeker = await withPhotos(site, { gender: 'Male', preferred: 'Female', photos: 1, at: [55.75, 37.61] });
    const shown = await withPhotos(site, { gender: 'Female', preferred: 'Male', photos: 1, at: [55.75, 37.61] });
    await withPhotos(site, { gender: 'Female', preferred: 'Male', photos: 1, at: [55.75, 37.61] });
    // The live connection's code and the query cache it brings: on /search both come once the page has
    // settled (Layout.tsx), after the first card.
    const { page, failing } = await openPage('{live,queries}', (context) => signInAs(site, context, seeker.browser));
    await page.goto('/search');
    await page.locator('.swipe-card').waitFor();
    const first = await topCardId(page);
    // The query cache is asked for by the live connection only (the deck's extras, fetched at the same time,
    // share the `live` chunk): once it was refused, the connection has failed.
    await expect
      .poll(() => failing.refusedFiles.some((file) => file.includes('/queries-')), { timeout: 15_000 })
      .toBe(true);
    // The deck still answers: the next person comes, and no error page took the deck's place.
    await page.getByRole('button', { name: t.app.search.dislike, exact: true }).click();
    expect(first).not.toBe(null);
    await expect.poll(() => topCardId(page)).not.toBe(first);
    expect([first, await topCardId(page)]).toContain(shown.profileId);
    expect(await page.locator('.app-failed').count()).toBe(0);
    // Back online, the next screen brings the stream.
    failing.now = false;
    const stream = page.waitForRequest((request) => new URL(request.url()).pathname === '/api/events');
    await page.getByRole('link', { name: t.app.nav.matches }).click();
    await stream;
    expect(await page.locator('.app-failed').count()).toBe(0);
  });
});
