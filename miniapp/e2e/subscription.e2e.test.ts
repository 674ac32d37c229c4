import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import en from '../../locales/en.json' with { type: 'json' };
import ru from '../../locales/ru.json' with { type: 'json' };
import { PremiumService } from '../../server/features/premium/service.ts';
import { createPerson, type Person } from '../../server/test/people.ts';
import { testSessionSecret } from '../../server/test/testApp.ts';
import { expectAccessible, screenshot, startSite, type Site, behaviourLanguages, behaviourThemes } from './harness.ts';
import { signInAs } from './signedIn.ts';

const texts = { ru, en } as const;
const day = 86_400_000;

/** `/subscription` knowing the subscriber, the test checkout, and `/confirm` asking the server (issue 20). */
describe('the subscription screen and the payment outcome', () => {
  let site: Site;
  let premium: PremiumService;
  beforeAll(async () => {
    site = await startSite();
    premium = new PremiumService(site.app.database.db, 'sqlite', site.app.clock, testSessionSecret, true);
  });
  afterAll(async () => {
    await site.close();
  });

  const setPremiumUntil = (person: Person, until: Date | null) =>
    site.app.database.db
      .updateTable('users')
      .set({ premium_until: until?.toISOString() ?? null })
      .where('id', '=', person.userId)
      .execute();
  const open = (person: Person, language: 'ru' | 'en', dark = false) =>
    site.page({ language, dark, prepare: (context) => signInAs(site, context, person.browser) });
  /** The date as the page's own Intl writes it. */
  const pageDate = (page: Page, iso: string, language: string) =>
    page.evaluate(([d, l]) => new Date(d ?? '').toLocaleDateString(l, { dateStyle: 'long' }), [iso, language]);

  for (const language of behaviourLanguages) {
    for (const dark of behaviourThemes) {
      const mode = dark ? 'dark' : 'light';
      it(`a free user sees the plans with the best value marked; an active one the end date and nothing to buy (${language}, ${mode})`, async () => {
        const t = texts[language];
        const person = await createPerson(site.app, { name: 'Нина' });
        const { context, page, errors } = await open(person, language, dark);
        await page.goto('/subscription');
        await page.getByRole('heading', { name: t.app.premium.heading }).waitFor();
        const best = page.locator('.plan.best');
        await best.waitFor();
        expect(await best.count()).toBe(1);
        // The year: the largest discount.
        expect(await best.textContent()).toContain(t.app.premium.plans['365']);
        expect(await best.textContent()).toContain(t.app.premium.bestValue);
        await screenshot(page, `subscription-free-${language}-${mode}`);
        await expectAccessible(page, `subscription free ${language} ${mode}`);

        const end = new Date(site.app.clock.now().getTime() + 30 * day);
        await setPremiumUntil(person, end);
        await page.reload();
        await page.getByRole('heading', { name: t.app.premium.activeTitle }).waitFor();
        const date = await pageDate(page, end.toISOString(), language);
        await page.getByText(t.app.premium.until.replace('{{date}}', date)).waitFor();
        await page.getByRole('heading', { name: t.app.premium.includes }).waitFor();
        expect(await page.locator('.plan').count()).toBe(0);
        expect(await page.getByRole('button', { name: t.app.premium.buyNow }).count()).toBe(0);
        await screenshot(page, `subscription-active-${language}-${mode}`);
        await expectAccessible(page, `subscription active ${language} ${mode}`);
        await context.close();
        expect(errors).toEqual([]);
      });
    }
  }

  it('on a desktop the plans and the active card keep to the app column (1280x800)', async () => {
    const person = await createPerson(site.app);
    const { context, page, errors } = await open(person, 'en');
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto('/subscription');
    const best = page.locator('.plan.best');
    await best.waitFor();
    expect((await best.boundingBox())?.width ?? 0).toBeLessThan(800);
    await screenshot(page, 'subscription-free-en-light-desktop');
    await setPremiumUntil(person, new Date(site.app.clock.now().getTime() + 7 * day));
    await page.reload();
    await page.getByRole('heading', { name: en.app.premium.activeTitle }).waitFor();
    await screenshot(page, 'subscription-active-en-light-desktop');
    await context.close();
    expect(errors).toEqual([]);
  });

  it('offers a lapsed subscriber renewal, naming when it ended', async () => {
    const person = await createPerson(site.app);
    const ended = new Date(site.app.clock.now().getTime() - 3 * day);
    await setPremiumUntil(person, ended);
    const { context, page, errors } = await open(person, 'en');
    await page.goto('/subscription');
    await page.getByRole('heading', { name: en.app.premium.lapsedTitle }).waitFor();
    await page
      .getByText(en.app.premium.lapsedText.replace('{{date}}', await pageDate(page, ended.toISOString(), 'en')))
      .waitFor();
    await page.locator('.plan.best').click();
    await page.getByRole('button', { name: en.app.premium.renewNow }).waitFor();
    await screenshot(page, 'subscription-lapsed-en-light');
    await context.close();
    expect(errors).toEqual([]);
  });

  it('says "Error checking subscription" when the check fails, offers no plans, and Retry recovers', async () => {
    const person = await createPerson(site.app);
    const { context, page, errors } = await open(person, 'en');
    // The outside failure of the request: the check answers 500 (until the route is let through again).
    let failing = true;
    await page.route('**/api/subscription', (route) =>
      failing ? route.fulfill({ status: 500, json: { error: 'Internal error', code: 'internal' } }) : route.fallback(),
    );
    await page.goto('/subscription');
    await page.getByText(en.app.errors.subscriptionCheck).waitFor();
    expect(await page.locator('.plan').count()).toBe(0);
    await screenshot(page, 'subscription-error-en-light');
    failing = false;
    await page.getByRole('button', { name: en.app.common.retry }).click();
    await page.locator('.plan.best').waitFor();
    await context.close();
    expect(errors).toEqual([]);
  });

  it('Russian: the same failure in Russian', async () => {
    const person = await createPerson(site.app);
    const { context, page } = await open(person, 'ru');
    await page.route('**/api/subscription', (route) => route.fulfill({ status: 500, body: '' }));
    await page.goto('/subscription');
    await page.getByText(ru.app.errors.subscriptionCheck).waitFor();
    await context.close();
  });

  for (const language of behaviourLanguages) {
    for (const dark of behaviourThemes) {
      const mode = dark ? 'dark' : 'light';
      it(`pays through the test checkout (in the app's look) and /confirm says paid; unknown and failed payments say so (${language}, ${mode})`, async () => {
        const t = texts[language];
        const person = await createPerson(site.app);
        const { context, page, errors } = await open(person, language, dark);
        // The checkout is the server's own page: it follows the system's colour scheme.
        await page.emulateMedia({ colorScheme: dark ? 'dark' : 'light' });
        await page.goto('/subscription');
        await page.getByRole('button', { name: new RegExp(t.app.premium.plans['30']) }).click();
        await page.getByRole('button', { name: t.app.premium.buyNow }).click();
        await page.waitForURL('**/api/payments/test/checkout/**');
        const pay = page.getByRole('button', { name: t.premium.checkout.pay });
        await pay.waitFor();
        // The app's accent on its pill button, and the page's background as the scheme asks.
        expect(await pay.evaluate((b) => getComputedStyle(b).borderRadius)).toBe('999px');
        const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
        expect(background).toBe(dark ? 'rgb(18, 16, 22)' : 'rgb(255, 247, 245)');
        await screenshot(page, `checkout-${language}-${mode}`);
        await pay.click();

        await page.waitForURL(/\/confirm\?payment=\d+$/);
        await page.getByRole('heading', { name: t.app.result.successTitle }).waitFor();
        const sub = (await (await person.browser.get('/api/subscription')).json()) as { end_date: string };
        await page
          .getByText(t.app.result.paidUntil.replace('{{date}}', await pageDate(page, sub.end_date, language)))
          .waitFor();
        await screenshot(page, `confirm-paid-${language}-${mode}`);

        // An id that is nobody's, or no id at all: not found, never "paid".
        await page.goto('/confirm?payment=2000000000');
        await page.getByRole('heading', { name: t.app.result.notFoundTitle }).waitFor();
        expect(await page.getByRole('heading', { name: t.app.result.successTitle }).count()).toBe(0);
        await screenshot(page, `confirm-unknown-${language}-${mode}`);
        await page.goto('/confirm');
        await page.getByRole('heading', { name: t.app.result.notFoundTitle }).waitFor();

        // A cancelled payment: not completed, with a way back to the plans.
        const failed = await premium.createPayment(person.userId, 249, 7);
        await premium.cancel(failed.id);
        await page.goto(`/confirm?payment=${failed.id}`);
        await page.getByRole('heading', { name: t.app.result.failureTitle }).waitFor();
        await page.getByRole('link', { name: t.app.result.choosePlan }).waitFor();
        await screenshot(page, `confirm-failed-${language}-${mode}`);
        await context.close();
        expect(errors).toEqual([]);
      });
    }
  }

  it("shows someone else's payment as not found, and a pending one turns paid by itself once it is credited", async () => {
    const person = await createPerson(site.app);
    const stranger = await createPerson(site.app);
    const theirs = await premium.createPayment(stranger.userId, 499, 30);
    await premium.credit(theirs.id);
    const { context, page, errors } = await open(person, 'en');
    await page.goto(`/confirm?payment=${theirs.id}`);
    await page.getByRole('heading', { name: en.app.result.notFoundTitle }).waitFor();
    expect(await page.getByRole('heading', { name: en.app.result.successTitle }).count()).toBe(0);

    const mine = await premium.createPayment(person.userId, 249, 7);
    const asked = page.waitForResponse((r) => r.url().endsWith(`/api/payments/${mine.id}`));
    await page.goto(`/confirm?payment=${mine.id}`);
    await page.getByRole('heading', { name: en.app.result.pendingTitle }).waitFor();
    await asked;
    await screenshot(page, 'confirm-pending-en-light');
    // The provider's word arrives: the page, asking again, says paid without a reload.
    await premium.credit(mine.id);
    await page.getByRole('heading', { name: en.app.result.successTitle }).waitFor();
    await context.close();
    expect(errors).toEqual([]);
  });
});
