import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import en from '../../locales/en.json' with { type: 'json' };
import ru from '../../locales/ru.json' with { type: 'json' };
import { expectAccessible, screenshot, startSite, watchErrors, type Site } from './harness.ts';
import { signInVerified } from './signedIn.ts';

const texts = { ru, en } as const;

/**
 * The plan contract of spec section 3, served in place of `/api/plans` and `/api/subscription` until the
 * premium API exists, so the screenshots show the plan cards and the banner as users will see them.
 */
const specPlans = {
  plans: [
    { id: 'week', title: '1 Week', price: 249, interval: 7, discount: 10 },
    { id: 'month', title: '1 Month', price: 499, interval: 30, discount: 50 },
    { id: 'half-year', title: '6 Months', price: 2389, interval: 180, discount: 60 },
    { id: 'year', title: '1 Year', price: 3599, interval: 365, discount: 70 },
  ],
};

describe('screenshots at phone size (artifacts/screenshots)', () => {
  let site: Site;
  beforeAll(async () => {
    site = await startSite();
  });
  afterAll(async () => {
    await site.close();
  });

  for (const language of ['ru', 'en'] as const) {
    for (const dark of [false, true]) {
      const theme = dark ? 'dark' : 'light';
      it(`landing, login, menu and subscription in ${language}, ${theme}`, async () => {
        const t = texts[language];
        const context = await site.context({ language, dark });
        const page = await context.newPage();
        page.setDefaultTimeout(8000);
        const errors = watchErrors(page);
        await page.route('**/api/plans', (route) => route.fulfill({ json: specPlans }));
        await page.route('**/api/subscription', (route) => route.fulfill({ json: { isActive: false, end_date: null } }));

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
        await page.getByRole('link', { name: t.app.premium.seePlans }).waitFor();
        await screenshot(page, `menu-${language}-${theme}`);
        await expectAccessible(page, `menu ${language} ${theme}`);

        await page.goto('/subscription');
        await page.getByRole('button', { name: new RegExp(t.app.premium.plans['30']) }).waitFor();
        await screenshot(page, `subscription-${language}-${theme}`);
        await expectAccessible(page, `subscription ${language} ${theme}`);
        await page.getByRole('button', { name: new RegExp(t.app.premium.plans['30']) }).click();
        await page.getByRole('button', { name: t.app.premium.buyNow }).waitFor();
        await screenshot(page, `subscription-details-${language}-${theme}`);

        await context.close();
        expect(errors).toEqual([]);
      });
    }
  }
});
