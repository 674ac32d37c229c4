import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import en from '../../locales/en.json' with { type: 'json' };
import ru from '../../locales/ru.json' with { type: 'json' };
import type { Person } from '../../server/test/people.ts';
import { withPhotos } from './flows/photos.ts';
import { topCardId } from './flows/search.ts';
import { behaviourLanguages, expectAccessible, pictureVariants, screenshot, startSite, type Site } from './harness.ts';
import { signInAs } from './signedIn.ts';

const texts = { ru, en } as const;

/** The seeker's place (central Moscow) and two women: about 3 km away, and about 38 km away. */
const home: [number, number] = [55.7558, 37.6173];
const near: [number, number] = [55.78, 37.62];
const far: [number, number] = [56.1, 37.62];

/** A text with `{{km, number}}` filled in as the app says it (whole numbers below 1,000: no grouping). */
const withKm = (template: string, km: number) => template.replace('{{km, number}}', String(km));

/** The distance limits `GET /api/search` is asked with, in order, from now on. */
function searchedLimits(page: Page): (string | null)[] {
  const asked: (string | null)[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname === '/api/search') asked.push(url.searchParams.get('maxDistance'));
  });
  return asked;
}

/**
 * Someone signed in and active now: a signed-in request marks the profile active (written beside the
 * request, not before its answer, hence the wait for the mark).
 */
async function activeNow(site: Site, person: Person): Promise<void> {
  const answer = await person.browser.get('/api/settings');
  if (answer.status !== 200) throw new Error(`settings: ${answer.status}`);
  const activeAt = async () =>
    (
      await site.app.database.db
        .selectFrom('profiles')
        .select('active_at')
        .where('id', '=', person.profileId)
        .executeTakeFirstOrThrow()
    ).active_at;
  await expect.poll(activeAt).not.toBeNull();
}

describe.each(behaviourLanguages)('the distance limit and "active today" in %s', (language) => {
  const t = texts[language];
  let site: Site;

  beforeAll(async () => {
    site = await startSite();
  });
  afterAll(async () => {
    await site.close();
  });

  it('narrows the deck with the slider, keeps it across a reload, and widens it from the empty deck', async () => {
    const seeker = await withPhotos(site, {
      name: language === 'ru' ? 'Павел' : 'Paul',
      gender: 'Male',
      at: home,
      photos: 1,
    });
    const close = await withPhotos(site, {
      name: language === 'ru' ? 'Нина' : 'Nina',
      gender: 'Female',
      at: near,
      photos: 1,
    });
    const distant = await withPhotos(site, {
      name: language === 'ru' ? 'Дина' : 'Dina',
      gender: 'Female',
      at: far,
      photos: 2,
    });
    await activeNow(site, distant);
    const { context, page, errors } = await site.page({
      language,
      prepare: async (context) => {
        await signInAs(site, context, seeker.browser);
        // A limit the contract refuses (kept by hand, or by some older version): read as no limit.
        await context.addInitScript(() => {
          if (sessionStorage.getItem('distance-preset')) return;
          sessionStorage.setItem('distance-preset', '1');
          localStorage.setItem('maxDistance', '9000');
        });
      },
    });
    const asked = searchedLimits(page);

    // The menu's slider: any distance at first; Home is its first stop (1 km), each → the next one.
    await page.goto('/Menu');
    const slider = page.getByRole('slider', { name: t.app.menu.distance });
    expect(await slider.getAttribute('aria-valuetext')).toBe(t.app.menu.distanceAny);
    await slider.focus();
    await page.keyboard.press('Home');
    for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
    expect(await slider.getAttribute('aria-valuetext')).toBe(withKm(t.app.menu.distanceValue, 10));
    expect(await page.evaluate(() => localStorage.getItem('maxDistance'))).toBe('10');

    // Within 10 km only Nina: once she is passed, the deck is empty although Dina is 38 km away.
    await page.goto('/search');
    await expect.poll(() => topCardId(page)).toBe(close.profileId);
    expect(asked[0]).toBe('10');
    await page.getByRole('button', { name: t.app.search.dislike, exact: true }).click();
    await page.getByText(t.app.errors.noMoreProfiles).waitFor();
    expect(await page.getByText(withKm(t.app.search.emptyWithin, 10)).count()).toBe(1);

    // A reload keeps the limit: the deck is still empty and still offers the next step.
    await page.reload();
    await page.getByText(t.app.errors.noMoreProfiles).waitFor();
    expect(asked.at(-1)).toBe('10');
    expect(await page.evaluate(() => localStorage.getItem('maxDistance'))).toBe('10');
    await expectAccessible(page, `empty deck with a distance limit ${language}`);

    // Each offer is one step (at least twice as far): 20 km is still too near for Dina, 50 km finds her.
    await page.getByRole('button', { name: withKm(t.app.search.widenDistance, 20) }).click();
    await page.getByRole('button', { name: withKm(t.app.search.widenDistance, 50) }).waitFor();
    expect(asked.at(-1)).toBe('20');
    await page.getByRole('button', { name: withKm(t.app.search.widenDistance, 50) }).click();
    await expect.poll(() => topCardId(page)).toBe(distant.profileId);
    expect(asked.at(-1)).toBe('50');
    expect(await page.evaluate(() => localStorage.getItem('maxDistance'))).toBe('50');

    // She was active a moment ago: the card says so, gendered in Russian, and nothing finer.
    const activity = page.locator('.swipe-card .active-recently');
    await expect.poll(() => activity.textContent()).toBe(t.app.activity.today_female);
    expect(await page.locator('.swipe-card').getByText(t.app.activity.today_female).isVisible()).toBe(true);

    // The menu shows the limit the empty deck chose.
    await page.goto('/Menu');
    expect(await page.getByRole('slider', { name: t.app.menu.distance }).getAttribute('aria-valuetext')).toBe(
      withKm(t.app.menu.distanceValue, 50),
    );
    expect(errors).toEqual([]);
    await context.close();
  });

  it('turns "show when I was active" off on the server from the menu, and the card stops saying it', async () => {
    // In another city, and looking within 10 km: the people of the other tests are not on his deck.
    const seeker = await withPhotos(site, { name: 'Oleg', gender: 'Male', at: [59.93, 30.33], photos: 1 });
    const shy = await withPhotos(site, {
      name: language === 'ru' ? 'Вика' : 'Vika',
      gender: 'Female',
      at: [59.94, 30.35],
      photos: 1,
    });
    const settings = async (person: Person) =>
      ((await (await person.browser.get('/api/settings')).json()) as { show_activity: boolean }).show_activity;
    expect(await settings(shy)).toBe(true);

    const own = await site.page({ language, prepare: (context) => signInAs(site, context, shy.browser) });
    await own.page.goto('/Menu');
    const toggle = own.page.getByRole('switch', { name: t.app.menu.showActivity });
    await expect.poll(() => toggle.isChecked()).toBe(true);
    await expect.poll(() => toggle.isEnabled()).toBe(true);
    await toggle.click();
    await expect.poll(() => settings(shy)).toBe(false);
    // Saved, not only shown: a reload reads it back from the server.
    await own.page.reload();
    await expect.poll(() => own.page.getByRole('switch', { name: t.app.menu.showActivity }).isChecked()).toBe(false);
    await own.context.close();

    const seen = await site.page({
      language,
      prepare: async (context) => {
        await signInAs(site, context, seeker.browser);
        await context.addInitScript(() => localStorage.setItem('maxDistance', '10'));
      },
    });
    await seen.page.goto('/search');
    await expect.poll(() => topCardId(seen.page)).toBe(shy.profileId);
    expect(await seen.page.locator('.swipe-card .active-recently').count()).toBe(0);
    await seen.context.close();
  });
});

/** The filters with the slider, the switch, and a card and a profile saying "active today", in each language and theme (`pictureVariants`). */
describe('the distance slider and "active today" as they look', () => {
  let site: Site;

  beforeAll(async () => {
    site = await startSite();
  });
  afterAll(async () => {
    await site.close();
  });

  it('in Russian and English, light and dark', async () => {
    const seeker = await withPhotos(site, { name: 'Shots', gender: 'Male', at: home, photos: 1 });
    const shown = await withPhotos(site, { name: 'Алиса', gender: 'Female', at: near, age: 29, photos: 2 });
    await activeNow(site, shown);
    const open = (language: 'ru' | 'en', dark: boolean) =>
      site.page({
        language,
        dark,
        prepare: async (context) => {
          await signInAs(site, context, seeker.browser);
          await context.addInitScript(() => localStorage.setItem('maxDistance', '30'));
        },
      });

    for (const { language, dark, name } of pictureVariants) {
      const t = texts[language];
      const { context, page } = await open(language, dark);
      await page.goto('/Menu');
      await page.getByRole('slider', { name: t.app.menu.distance }).waitFor();
      // The filters' card just below the sticky header.
      await page
        .getByRole('heading', { name: t.app.menu.filters })
        .evaluate((heading) =>
          window.scrollBy(0, (heading.closest('section') ?? heading).getBoundingClientRect().top - 72),
        );
      await screenshot(page, `distance-filters-${name}`);
      const toggle = page.getByRole('switch', { name: t.app.menu.showActivity });
      await expect.poll(() => toggle.isEnabled()).toBe(true);
      await toggle.evaluate((element) => element.scrollIntoView({ block: 'center' }));
      await screenshot(page, `activity-switch-${name}`);
      if (!dark) await expectAccessible(page, `filters with the distance slider ${language}`);

      await page.goto('/search');
      await expect.poll(() => topCardId(page)).toBe(shown.profileId);
      await page.locator('.swipe-card .active-recently').waitFor();
      await page.locator('.swipe-card .gallery-photo').waitFor();
      await screenshot(page, `active-today-card-${name}`);
      await context.close();
    }

    // A match: her profile says it too.
    expect((await shown.browser.post('/api/like', { profile_id: seeker.profileId })).status).toBe(200);
    expect((await seeker.browser.post('/api/like', { profile_id: shown.profileId })).status).toBe(200);
    // Its overlay counts as shown already: the pictures are of the profile, not of the overlay over it.
    expect((await seeker.browser.post('/api/matches/seen', { profile_id: shown.profileId })).status).toBe(200);
    for (const { language, dark, name } of pictureVariants) {
      const { context, page } = await open(language, dark);
      await page.goto(`/UsersProfile/${shown.profileId}`);
      await page.locator('.other-profile .active-recently').waitFor();
      await page.locator('.other-profile .gallery-photo').waitFor();
      await page.locator('.other-profile h1').evaluate((heading) => heading.scrollIntoView({ block: 'center' }));
      await screenshot(page, `active-today-profile-${name}`);
      await context.close();
    }
  });
});
