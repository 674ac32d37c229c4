import path from 'node:path';
import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import en from '../../locales/en.json' with { type: 'json' };
import { createPerson, type Person } from '../../server/test/people.ts';
import { screenshot, startSite, type Site } from './harness.ts';
import { signInAs } from './signedIn.ts';

/** Issue #20, point 5: the city on a deck card is named in the reader's language, whatever its creator typed. */
describe('city names on the deck', () => {
  let site: Site;
  let creator: Person;
  const shotsDir = process.env.CITY_SHOTS_DIR;

  beforeAll(async () => {
    site = await startSite();
    creator = await createPerson(site.app, { name: 'Vera', gender: 'Female', photos: 2 });
    // The creator types the English name, as an English speaker would.
    const typed = await creator.browser.post('/api/edit_profile', { city: 'Moscow' });
    expect(typed.status).toBe(200);
  });
  afterAll(async () => {
    await site.close();
  });

  /** A reader of that language (and theme) with the deck open on the creator's card. */
  async function deckOf(language: 'ru' | 'en', dark: boolean): Promise<Page> {
    const reader = await createPerson(site.app, { name: language === 'ru' ? 'Михаил' : 'Mike', gender: 'Male' });
    const { page } = await site.page({ language, dark, prepare: (context) => signInAs(site, context, reader.browser) });
    await page.goto('/search');
    await page.getByRole('heading', { name: 'Vera, 30' }).waitFor();
    return page;
  }

  async function shot(page: Page, name: string) {
    await screenshot(page, name);
    if (shotsDir) {
      mkdirSync(shotsDir, { recursive: true });
      await page.screenshot({ path: path.join(shotsDir, `${name}.png`), scale: 'css' });
    }
  }

  it.each([
    ['ru', false, 'Москва', 'Moscow'],
    ['ru', true, 'Москва', 'Moscow'],
    ['en', false, 'Moscow', 'Москва'],
  ] as const)(
    'a %s reader (dark: %s) sees %s on the card of a creator who typed Moscow',
    async (language, dark, shown, notShown) => {
      const page = await deckOf(language, dark);
      // By text, not by the card's classes (the card's look is someone else's to change).
      const where = page.getByText(new RegExp(`^${shown}( · |$)`));
      await where.waitFor();
      await expect(page.getByText(notShown, { exact: false }).count()).resolves.toBe(0);
      await shot(page, `city-card-${language}${dark ? '-dark' : ''}`);
      await page.context().close();
    },
  );

  it('the profile form sends the place found by position, and a Russian reader then sees its Russian name', async () => {
    const owner = await createPerson(site.app, { name: 'Sam', gender: 'Male', at: [48, 10] });
    const { page, context } = await site.page({
      language: 'en',
      async prepare(context) {
        await context.grantPermissions(['geolocation']);
        await context.setGeolocation({ latitude: 59.9386, longitude: 30.3141 });
        await signInAs(site, context, owner.browser);
      },
    });
    await page.goto('/edit_profile');
    await page.getByRole('button', { name: en.app.wizard.useLocation }).click();
    const city = page.getByLabel(en.app.wizard.city, { exact: true });
    await expect.poll(() => city.inputValue()).toBe('Saint Petersburg');
    const sent = page.waitForRequest(
      (request) => request.method() === 'POST' && new URL(request.url()).pathname === '/api/edit_profile',
    );
    await page.getByRole('button', { name: en.app.profile.save }).click();
    expect((await sent).postData() ?? '').toMatch(/name="place_id"\r\n\r\n498817\r\n/);
    await page.waitForURL('**/profile');
    await context.close();

    const stored = await site.app.database.db
      .selectFrom('profiles')
      .select(['city', 'place_id'])
      .where('id', '=', owner.profileId)
      .executeTakeFirstOrThrow();
    expect(stored).toEqual({ city: 'Saint Petersburg', place_id: 498817 });
    const reader = await createPerson(site.app, { name: 'Ольга', gender: 'Female', at: [59.9386, 30.3141] });
    const card = await reader.browser.get('/api/search');
    expect(await card.json()).toMatchObject({ profile_id: owner.profileId, city: 'Санкт-Петербург' });
  });
});
