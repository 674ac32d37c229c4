import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import en from '../../locales/en.json' with { type: 'json' };
import ru from '../../locales/ru.json' with { type: 'json' };
import { expectAccessible, pictureVariants, screenshot, startSite, type Site } from './harness.ts';
import { signInVerified } from './signedIn.ts';

const texts = { ru, en } as const;

describe('screenshots at phone size (artifacts/screenshots)', () => {
  let site: Site;
  beforeAll(async () => {
    site = await startSite();
  });
  afterAll(async () => {
    await site.close();
  });

  for (const { language, dark } of pictureVariants) {
    const theme = dark ? 'dark' : 'light';
    it(`landing, login, menu and subscription in ${language}, ${theme}`, async () => {
      const t = texts[language];
      const { context, page, errors } = await site.page({ language, dark });

      await page.goto('/');
      await page.getByRole('heading', { name: t.app.landing.title, level: 1 }).waitFor();
      await page.getByText('771234567890').waitFor();
      expect(await page.getAttribute('html', 'data-theme')).toBe(theme);
      await screenshot(page, `landing-${language}-${theme}`);

      await page.goto('/login');
      await page.getByRole('heading', { name: t.app.login.title }).waitFor();
      await screenshot(page, `login-${language}-${theme}`);

      await signInVerified(site, context, `shot.${language}.${theme}@example.com`);
      await page.goto('/Menu');
      // Not subscribed: the plan cards themselves, and (test provider on) the test link to the outcome page.
      const monthCard = page.getByRole('button', { name: new RegExp(t.app.premium.plans['30']) });
      await monthCard.waitFor();
      await screenshot(page, `menu-${language}-${theme}`);
      await expectAccessible(page, `menu ${language} ${theme}`);
      // The test link names no payment of hers: nothing to confirm (only a paid payment of the caller's is).
      await page.getByRole('link', { name: t.app.premium.testOutcome }).click();
      await page.getByRole('heading', { name: t.app.result.nothingTitle }).waitFor();
      await page.goto('/failtrig');
      await page.getByRole('heading', { name: t.app.result.failureTitle }).waitFor();

      await page.goto('/subscription');
      await page.getByRole('button', { name: new RegExp(t.app.premium.plans['30']) }).waitFor();
      await screenshot(page, `subscription-${language}-${theme}`);
      await expectAccessible(page, `subscription ${language} ${theme}`);
      await page.getByRole('button', { name: new RegExp(t.app.premium.plans['30']) }).click();
      await page.getByRole('button', { name: t.app.premium.buyNow }).waitFor();
      await screenshot(page, `subscription-details-${language}-${theme}`);
      // A card opens that plan's details straight away.
      await page.goto('/Menu');
      await monthCard.click();
      await page.getByRole('heading', { name: t.app.premium.plans['30'] }).waitFor();
      await page.getByRole('button', { name: t.app.premium.buyNow }).waitFor();
      expect(new URL(page.url()).pathname).toBe('/subscription');

      await context.close();
      expect(errors).toEqual([]);
    });
  }
});
