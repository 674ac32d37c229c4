import { copyFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import en from '../../locales/en.json' with { type: 'json' };
import ru from '../../locales/ru.json' with { type: 'json' };
import type { Person } from '../../server/test/people.ts';
import { withPhotos } from './flows/photos.ts';
import { topCardId } from './flows/search.ts';
import {
  artifactsDir,
  expectAccessible,
  phone,
  screenshot,
  startSite,
  type Site,
  behaviourLanguages,
} from './harness.ts';
import { signInAs } from './signedIn.ts';

const texts = { ru, en } as const;
const desktop = { width: 1280, height: 800 };
const shotsDir = '/work/notes/shots/deck';

async function shot(page: Page, name: string): Promise<void> {
  await screenshot(page, name);
  mkdirSync(shotsDir, { recursive: true });
  copyFileSync(path.join(artifactsDir, `${name}.png`), path.join(shotsDir, `${name}.png`));
}

const shownPhoto = (page: Page, scope: string) => page.locator(`${scope} .gallery-photo`).getAttribute('src');

/** Taps the right third of a gallery until the last photo: every photo's src, in order. */
async function walkGallery(page: Page, scope: string, count: number, nextLabel: string): Promise<string[]> {
  const seen = [(await shownPhoto(page, scope)) ?? ''];
  for (let i = 1; i < count; i++) {
    await page.locator(scope).getByRole('button', { name: nextLabel }).click();
    await expect.poll(() => page.locator(`${scope} .gallery`).getAttribute('data-photo-index')).toBe(String(i));
    await expect
      .poll(() =>
        page
          .locator(`${scope} .gallery-segments span.on`)
          .evaluate((on) => Array.prototype.indexOf.call(on.parentElement?.children ?? [], on)),
      )
      .toBe(i);
    seen.push((await shownPhoto(page, scope)) ?? '');
  }
  return seen;
}

describe.each(behaviourLanguages)('the full-height deck and the galleries in %s', (language) => {
  const t = texts[language];
  let site: Site;

  beforeAll(async () => {
    site = await startSite();
  });
  afterAll(async () => {
    await site.close();
  });

  async function open(
    person: Person,
    dark = false,
  ): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
    return site.page({ language, dark, prepare: (context) => signInAs(site, context, person.browser) });
  }

  it('fills the screen with the card, its buttons over its lower edge, and steps through every photo', async () => {
    const seeker = await withPhotos(site, { name: language === 'ru' ? 'Миша' : 'Mike', gender: 'Male', photos: 1 });
    const shown = await withPhotos(site, {
      name: language === 'ru' ? 'Алина' : 'Alina',
      gender: 'Female',
      photos: 3,
      at: [55.75, 37.61],
    });
    const { context, page } = await open(seeker);
    await page.goto('/search');
    await page.locator('.swipe-card').waitFor();
    expect(await topCardId(page)).toBe(shown.profileId);
    const card = await page.locator('.swipe-card').boundingBox();
    const buttons = await page.locator('.deck-buttons').boundingBox();
    const like = await page.getByRole('button', { name: t.app.search.like, exact: true }).boundingBox();
    if (!card || !buttons || !like) throw new Error('no card or buttons');
    expect(card.height).toBeGreaterThan(0.7 * phone.height);
    // Edge to edge, and the buttons inside the card's lower part, large enough for a thumb.
    expect(card.width).toBeGreaterThanOrEqual(phone.width - 1);
    expect(buttons.y).toBeGreaterThan(card.y + card.height / 2);
    expect(buttons.y + buttons.height).toBeLessThanOrEqual(card.y + card.height);
    expect(like.width).toBeGreaterThanOrEqual(64);
    // Nothing under the card but the tab bar: the page does not scroll.
    expect(await page.evaluate(() => document.documentElement.scrollHeight <= window.innerHeight + 1)).toBe(true);
    await shot(page, `deck-phone-${language}-light`);
    await expectAccessible(page, `deck ${language}`);

    const seen = await walkGallery(page, '.swipe-card', 3, t.app.gallery.next);
    expect(new Set(seen).size).toBe(3);
    expect(seen.map((src) => src.split('/').pop())).toEqual(shown.photos);
    // The left third steps back; the middle opens the details.
    await page.locator('.swipe-card').getByRole('button', { name: t.app.gallery.previous }).click();
    await expect.poll(() => shownPhoto(page, '.swipe-card')).toBe(seen[1]);
    await page.locator('.swipe-card .gallery-zone.middle').click();
    await expect.poll(() => page.locator('.swipe-card').getAttribute('class')).toContain('expanded');
    await context.close();
  });

  it('on a wide screen: a phone-width column, the keys said, and → likes, ← dislikes, but not while typing', async () => {
    const seeker = await withPhotos(site, { name: 'Desk', gender: 'Male', photos: 1 });
    await withPhotos(site, { name: language === 'ru' ? 'Вера' : 'Vera', gender: 'Female', photos: 2 });
    await withPhotos(site, { name: language === 'ru' ? 'Гала' : 'Gala', gender: 'Female', photos: 2 });
    const { context, page } = await open(seeker, true);
    await page.setViewportSize(desktop);
    await page.goto('/search');
    await page.locator('.swipe-card').waitFor();
    const card = await page.locator('.swipe-card').boundingBox();
    if (!card) throw new Error('no card');
    expect(card.width).toBeLessThanOrEqual(480);
    expect(Math.abs(card.x + card.width / 2 - desktop.width / 2)).toBeLessThan(2);
    expect(card.height).toBeGreaterThan(0.6 * desktop.height);
    const hint = page.locator('.deck-keys');
    await expect.poll(() => hint.isVisible()).toBe(true);
    expect(await hint.textContent()).toContain(t.app.search.keyLike);
    await shot(page, `deck-desktop-${language}-dark`);

    const top = await topCardId(page);
    expect(top).not.toBeNull();
    await page.keyboard.press('ArrowUp');
    await page.locator('.swipe-bio').waitFor();
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => topCardId(page)).not.toBe(top);
    const swipes = () =>
      site.app.database.db
        .selectFrom('swipes')
        .select(['target_id', 'liked'])
        .where('swiper_id', '=', seeker.profileId)
        .execute();
    await expect.poll(swipes).toEqual([{ target_id: top, liked: 1 }]);
    await context.close();
  });

  it("decides once for a held arrow: the keyboard's auto-repeat is not another swipe", async () => {
    const seeker = await withPhotos(site, { name: 'Holder', gender: 'Male', photos: 1 });
    await withPhotos(site, { name: 'Una', gender: 'Female', photos: 1 });
    await withPhotos(site, { name: 'Ida', gender: 'Female', photos: 1 });
    const { context, page } = await open(seeker);
    await page.setViewportSize(desktop);
    await page.goto('/search');
    await page.locator('.swipe-card').waitFor();
    const top = await topCardId(page);
    // → held down from before the deck had focus: only its auto-repeats arrive here, none of them a decision.
    await page.evaluate(() =>
      window.dispatchEvent(
        new KeyboardEvent('keydown', { key: 'ArrowRight', repeat: true, bubbles: true, cancelable: true }),
      ),
    );
    await page.keyboard.press('ArrowLeft');
    const swipes = () =>
      site.app.database.db
        .selectFrom('swipes')
        .select(['target_id', 'liked'])
        .where('swiper_id', '=', seeker.profileId)
        .execute();
    await expect.poll(swipes).toEqual([{ target_id: top, liked: 0 }]);
    await context.close();
  });

  it('keeps the arrows for the text while typing in a field', async () => {
    const seeker = await withPhotos(site, { name: 'Typist', gender: 'Male', photos: 1 });
    await withPhotos(site, { name: 'Zoe', gender: 'Female', photos: 1 });
    const { context, page } = await open(seeker);
    await page.setViewportSize(desktop);
    await page.goto('/search');
    await page.locator('.swipe-card').waitFor();
    const top = await topCardId(page);
    // A field over the deck (as an extension's or the page's own would be): the arrows move its caret.
    await page.evaluate(() => {
      const input = document.createElement('input');
      input.id = 'typing';
      document.body.append(input);
    });
    await page.locator('#typing').fill('abc');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowRight');
    expect(await topCardId(page)).toBe(top);
    expect(
      await site.app.database.db
        .selectFrom('swipes')
        .select('target_id')
        .where('swiper_id', '=', seeker.profileId)
        .execute(),
    ).toEqual([]);
    await context.close();
  });

  it('offers ways on from an empty deck: widening the age range brings people back, and Other is a choice', async () => {
    const seeker = await withPhotos(site, { name: 'Empty', gender: 'Other', preferred: 'Any', photos: 1 });
    const older = await withPhotos(site, {
      name: language === 'ru' ? 'Ольга' : 'Olga',
      gender: 'Female',
      preferred: 'Any',
      age: 52,
      photos: 2,
    });
    const other = await withPhotos(site, { name: 'Sam', gender: 'Other', preferred: 'Other', age: 30, photos: 1 });
    const { context, page } = await site.page({
      language,
      prepare: async (context) => {
        await signInAs(site, context, seeker.browser);
        // A narrow range kept from an earlier visit: nobody in it.
        await context.addInitScript(() => {
          if (!sessionStorage.getItem('deck-preset')) {
            sessionStorage.setItem('deck-preset', '1');
            localStorage.setItem('ageRange', JSON.stringify([18, 22]));
            localStorage.setItem('selectedGender', 'Female');
          }
        });
      },
    });
    await page.goto('/search');
    await page.getByText(t.app.errors.noMoreProfiles).waitFor();
    // No faded like/dislike on the empty deck: the offers stand in their place.
    expect(await page.locator('.deck-buttons').count()).toBe(0);
    await shot(page, `deck-empty-phone-${language}-light`);
    await expectAccessible(page, `empty deck ${language}`);

    await page.getByRole('button', { name: t.app.search.widenAge }).click();
    await expect.poll(() => topCardId(page)).toBe(older.profileId);
    expect(await page.evaluate(() => localStorage.getItem('ageRange'))).toBe('[18,100]');
    await page.locator('.deck-buttons').waitFor();

    await page.getByRole('button', { name: t.app.search.dislike, exact: true }).click();
    await page.getByText(t.app.errors.noMoreProfiles).waitFor();
    // Refresh asks the server again (someone may have joined since).
    const asked = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/search');
    await page.getByRole('button', { name: t.app.search.refresh }).click();
    expect((await asked).status()).toBe(404);
    await page.getByText(t.app.errors.noMoreProfiles).waitFor();

    // Other: the filter reaches the server and finds the person of that gender who looks for Other.
    await page.getByRole('button', { name: t.app.menu.genders.Other, exact: true }).click();
    await expect.poll(() => topCardId(page)).toBe(other.profileId);
    expect(await page.evaluate(() => localStorage.getItem('selectedGender'))).toBe('Other');
    await expect
      .poll(
        async () =>
          (
            await site.app.database.db
              .selectFrom('profiles')
              .select('preferred_gender')
              .where('id', '=', seeker.profileId)
              .executeTakeFirstOrThrow()
          ).preferred_gender,
      )
      .toBe('Other');
    // The menu's filter says the same: Other chosen.
    await page.goto('/Menu');
    const filters = page.getByRole('group', { name: t.app.menu.gender });
    await expect
      .poll(() =>
        filters.getByRole('button', { name: t.app.menu.genders.Other, exact: true }).getAttribute('aria-pressed'),
      )
      .toBe('true');
    await filters.scrollIntoViewIfNeeded();
    await shot(page, `menu-filters-phone-${language}-light`);
    await context.close();
  });

  it('shows every photo of a person on /profile, /UsersProfile/:id and /UsersProfileLiker/:id', async () => {
    const me = await withPhotos(site, {
      name: language === 'ru' ? 'Катя' : 'Kate',
      gender: 'Female',
      photos: 3,
      premium: true,
    });
    const matched = await withPhotos(site, { name: language === 'ru' ? 'Лев' : 'Leo', gender: 'Male', photos: 3 });
    const liker = await withPhotos(site, { name: language === 'ru' ? 'Марк' : 'Mark', gender: 'Male', photos: 4 });
    expect((await matched.browser.post('/api/like', { profile_id: me.profileId })).status).toBe(200);
    expect((await me.browser.post('/api/like', { profile_id: matched.profileId })).status).toBe(200);
    expect((await liker.browser.post('/api/like', { profile_id: me.profileId })).status).toBe(200);
    for (const dark of [false, true]) {
      const { context, page } = await open(me, dark);
      for (const [url, person] of [
        ['/profile', me],
        [`/UsersProfile/${matched.profileId}`, matched],
        [`/UsersProfileLiker/${liker.profileId}`, liker],
      ] as const) {
        await page.goto(url);
        await page.locator('.other-profile .gallery-photo').waitFor();
        if (!dark) {
          const seen = await walkGallery(page, '.other-profile', person.photos.length, t.app.gallery.next);
          expect(seen.map((src) => src.split('/').pop())).toEqual(person.photos);
        }
      }
      await page.goto(`/UsersProfile/${matched.profileId}`);
      await page.locator('.other-profile .gallery-photo').waitFor();
      await shot(page, `profile-phone-${language}-${dark ? 'dark' : 'light'}`);
      if (!dark) await expectAccessible(page, `profile gallery ${language}`);
      await page.setViewportSize(desktop);
      await shot(page, `profile-desktop-${language}-${dark ? 'dark' : 'light'}`);
      await page.setViewportSize(phone);
      await context.close();
    }
  });

  it('looks right in the other theme at both sizes', async () => {
    const seeker = await withPhotos(site, { name: 'Shots', gender: 'Male', photos: 1 });
    await withPhotos(site, {
      name: language === 'ru' ? 'Дарья' : 'Daria',
      gender: 'Female',
      photos: 3,
      at: [55.75, 37.61],
    });
    const { context, page } = await open(seeker, true);
    await page.goto('/search');
    await page.locator('.swipe-card .gallery-photo').waitFor();
    await shot(page, `deck-phone-${language}-dark`);
    await page.setViewportSize(desktop);
    await page.locator('.deck-keys').waitFor();
    await shot(page, `deck-desktop-${language}-dark-2`);
    await context.close();
    const light = await open(seeker, false);
    await light.page.setViewportSize(desktop);
    await light.page.goto('/search');
    await light.page.locator('.swipe-card .gallery-photo').waitFor();
    await shot(light.page, `deck-desktop-${language}-light`);
    await light.context.close();
  });
});
