import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import en from '../../locales/en.json' with { type: 'json' };
import ru from '../../locales/ru.json' with { type: 'json' };
import { createPerson } from '../../server/test/people.ts';
import { freeLikesPerDay, likeWindowSeconds } from '../../server/features/swipes/rules.ts';
import { dragCard, topCardId } from './flows/search.ts';
import { expectAccessible, screenshotLightAndDark, startSite, type Site, behaviourLanguages } from './harness.ts';
import { signInAs } from './signedIn.ts';

const texts = { ru, en } as const;
/** The oldest of the day's likes leaves the window this long after the test's server clock: 2 h 15 min. */
const backInSeconds = 2 * 3600 + 15 * 60;

describe.each(behaviourLanguages)('the free like limit in %s', (language) => {
  const t = texts[language];
  let site: Site;
  const errors: string[] = [];

  beforeAll(async () => {
    site = await startSite();
  });
  afterAll(async () => {
    await site.close();
    // The like limit answers 429 on purpose.
    expect(errors.filter((e) => !/429/.test(e))).toEqual([]);
  });

  /** Every like and dislike the page sends, in order. */
  function recordSwipes(page: Page): string[] {
    const sent: string[] = [];
    page.on('request', (request) => {
      const path = new URL(request.url()).pathname;
      if (path === '/api/like' || path === '/api/dislike') sent.push(path);
    });
    return sent;
  }

  it('stops the → key, the like button and swipes while its panel is open, and says when the next like is back', async () => {
    const limited = await createPerson(site.app, { name: 'Фёдор', gender: 'Male' });
    for (const name of ['Алла', 'Белла', 'Вика']) await createPerson(site.app, { name, gender: 'Female' });
    // The day's likes, made (24 h − 2 h 15 min) ago: the first is back in 2 h 15 min.
    const at = new Date(site.app.clock.now().getTime() - (likeWindowSeconds - backInSeconds) * 1000).toISOString();
    const db = site.app.database.db;
    for (let i = 0; i < freeLikesPerDay; i++) {
      const target = await createPerson(site.app, { gender: 'Female', at: [43.1, 131.9] });
      await db
        .insertInto('swipes')
        .values({ swiper_id: limited.profileId, target_id: target.profileId, liked: 1, created_at: at })
        .execute();
    }
    const { context, page } = await site.page({ language, errors, prepare: (c) => signInAs(site, c, limited.browser) });
    // The page's clock is the test's: it moves past the 500 ms action guard and to the like's return on demand.
    await page.clock.install();
    const sent = recordSwipes(page);
    await page.goto('/search');
    await page.locator('.swipe-card').waitFor();
    const shown = await topCardId(page);

    const refused = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/like');
    await page.getByRole('button', { name: t.app.search.like, exact: true }).click();
    expect((await refused).status()).toBe(429);
    const panel = page.locator('.like-limit');
    await panel.getByText(t.errors.like_limit).waitFor();
    const time = t.app.search.hoursMinutesLeft.replace('{{hours}}', '2').replace('{{minutes}}', '15');
    await panel.getByText(t.app.search.likesBackIn.replace('{{time}}', time)).waitFor();
    expect(await topCardId(page)).toBe(shown);
    await screenshotLightAndDark(page, `like-limit-${language}`);
    await expectAccessible(page, `like limit ${language}`);

    // While the panel is open: →, the like button (disabled: a click does nothing) and a swipe right.
    await page.clock.runFor(600);
    await page.keyboard.press('ArrowRight');
    await page.clock.runFor(600);
    const like = page.getByRole('button', { name: t.app.search.like, exact: true });
    expect(await like.isDisabled()).toBe(true);
    await like.evaluate((button: HTMLElement) => button.click());
    await page.clock.runFor(600);
    await dragCard(page, 80);
    await page.clock.runFor(600);
    expect(await topCardId(page)).toBe(shown);

    // Closed, a like before the time opens the panel again without asking the server.
    await panel.getByRole('button', { name: t.app.common.close }).click();
    await panel.waitFor({ state: 'detached' });
    await page.clock.runFor(600);
    await page.keyboard.press('ArrowRight');
    await panel.getByText(t.errors.like_limit).waitFor();
    await panel.getByRole('button', { name: t.app.common.close }).click();
    await panel.waitFor({ state: 'detached' });

    // A dislike still goes out: once it has, anything the likes above sent would have been sent before it.
    await page.clock.runFor(600);
    const passed = page.waitForRequest((r) => new URL(r.url()).pathname === '/api/dislike');
    await page.keyboard.press('ArrowLeft');
    await passed;
    expect(sent).toEqual(['/api/like', '/api/dislike']);

    // The time comes: likes go out again.
    await page.clock.runFor(600);
    await expect.poll(() => topCardId(page)).not.toBeNull();
    await page.keyboard.press('ArrowRight');
    await panel.waitFor();
    site.app.clock.advance(backInSeconds + 1);
    await page.clock.fastForward(backInSeconds * 1000);
    await panel.waitFor({ state: 'detached' });
    await expect.poll(() => topCardId(page)).not.toBeNull();
    const accepted = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/like');
    await page.getByRole('button', { name: t.app.search.like, exact: true }).click();
    expect((await accepted).status()).toBe(200);
    await context.close();
  });
});
