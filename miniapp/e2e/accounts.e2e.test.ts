import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import en from '../../locales/en.json' with { type: 'json' };
import ru from '../../locales/ru.json' with { type: 'json' };
import { codeFrom } from '../../server/test/smtpStandIn.ts';
import {
  expectAccessible,
  recordApiRequests,
  screenshot,
  startSite,
  type Site,
  behaviourLanguages,
} from './harness.ts';

const texts = { ru, en } as const;
const password = 'spark2026!';

describe.each(behaviourLanguages)('the web app in %s', (language) => {
  const t = texts[language];
  const email = `anna.${language}@example.com`;
  let site: Site | undefined;
  let context: BrowserContext | undefined;
  let page: Page;
  let errors: string[];

  beforeAll(async () => {
    const started = await startSite();
    site = started;
    ({ context, page, errors } = await started.page({ language }));
  });
  afterAll(async () => {
    await context?.close();
    await site?.close();
    expect(errors).toEqual([]);
  });

  /** The language stored on the account (the app's switch saves it there; it wins when the app starts). */
  async function accountLanguage() {
    const db = site?.app.database.db;
    if (!db) throw new Error('no site');
    return (await db.selectFrom('users').select('language').where('email', '=', email).executeTakeFirst())?.language;
  }

  it('shows the landing with sign-in, try-now, support links and legal details', async () => {
    await page.goto('/');
    await expect.poll(() => page.locator('h1').textContent()).toBe(t.app.landing.title);
    expect(await page.getAttribute('html', 'lang')).toBe(language);
    await page.locator('#main').getByRole('link', { name: t.app.landing.tryNow, exact: true }).waitFor();
    await page.locator('#main').getByRole('link', { name: t.app.landing.signIn, exact: true }).waitFor();
    await page.getByRole('link', { name: t.app.footer.email }).waitFor();
    expect(await page.getByRole('link', { name: t.app.footer.email }).getAttribute('href')).toBe(
      'mailto:support@iskra.test',
    );
    expect(await page.getByRole('link', { name: t.app.footer.telegram }).getAttribute('href')).toBe(
      'https://t.me/iskra_support',
    );
    await page.getByText('771234567890').waitFor();
    expect(await page.evaluate(() => document.documentElement.dataset.ready)).toBe('true');
    await expectAccessible(page, 'landing');
  });

  it('registers: privacy warning for 3 s, the weak-password rule, then /verify', async () => {
    await page.locator('#main').getByRole('link', { name: t.app.landing.tryNow, exact: true }).click();
    await page.waitForURL('**/register');
    await page.getByLabel(t.app.auth.email).fill(email);
    await page.getByLabel(t.app.auth.password).fill('short');
    // The page itself times the warning (a loaded test machine may notice it late, never early).
    await page.evaluate(() => {
      const times: { shown?: number; hidden?: number } = {};
      (window as unknown as { warningTimes: typeof times }).warningTimes = times;
      new MutationObserver(() => {
        const present = document.querySelector('p.warning[role="alert"]') !== null;
        if (present && times.shown === undefined) times.shown = performance.now();
        if (!present && times.shown !== undefined && times.hidden === undefined) times.hidden = performance.now();
      }).observe(document.body, { childList: true, subtree: true });
    });
    await page.getByRole('button', { name: t.app.register.submit }).click();
    const warning = page.getByText(t.app.register.privacyWarning);
    await warning.waitFor();
    await expectAccessible(page, 'register');
    await warning.waitFor({ state: 'detached', timeout: 10_000 });
    const shownFor = await page.evaluate(() => {
      const { shown = 0, hidden = 0 } = (window as unknown as { warningTimes: { shown?: number; hidden?: number } })
        .warningTimes;
      return hidden - shown;
    });
    expect(shownFor).toBeGreaterThan(2900);

    await page.getByRole('checkbox').check();
    await page.getByRole('button', { name: t.app.register.submit }).click();
    await page.locator('.hint-error', { hasText: t.app.register.passwordRule }).waitFor();
    expect(await page.getByLabel(t.app.auth.password).getAttribute('aria-invalid')).toBe('true');

    await page.getByLabel(t.app.auth.password).fill(password);
    await page.getByRole('button', { name: t.app.register.submit }).click();
    await page.waitForURL('**/verify');
    await page.getByRole('heading', { name: t.app.verify.title }).waitFor();
    // Signed in, unverified, no profile: the top bar offers only Logout (spec section 2).
    expect(await page.locator('.topnav a').allTextContents()).toEqual([t.app.nav.logout]);
    // A code was just mailed at registration: Resend waits for its 60 s countdown.
    expect(await page.getByRole('button', { name: /\d+/ }).isDisabled()).toBe(true);
    await expectAccessible(page, 'verify');
  });

  it('verifies with the code from the mail and lands on /CreateProfile', async () => {
    await page.getByLabel(t.app.verify.code).fill('000000');
    await page.getByRole('button', { name: t.app.verify.submit, exact: true }).click();
    await page.getByText(t.errors.invalid_code).waitFor();

    const mail = await (site as Site).app.smtp.lastMailTo(email);
    await page.getByLabel(t.app.verify.code).fill(codeFrom(mail));
    await page.getByRole('button', { name: t.app.verify.submit, exact: true }).click();
    // Verified without a profile: /search sends the user on to the profile wizard (spec section 4).
    await page.waitForURL('**/CreateProfile');
    await page.getByRole('heading', { name: t.app.wizard.title }).waitFor();
  });

  it('signs out, refuses a wrong password with the server message, signs in again', async () => {
    await page.getByRole('link', { name: t.app.nav.logout }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await page.locator('#main').getByRole('link', { name: t.app.landing.signIn, exact: true }).click();
    await page.waitForURL('**/login');
    await page.getByRole('heading', { name: t.app.login.title }).waitFor();
    await expectAccessible(page, 'login');

    await page.getByLabel(t.app.auth.email).fill(email);
    await page.getByLabel(t.app.auth.password).fill('wrong-password1');
    await page.getByRole('button', { name: t.app.login.submit, exact: true }).click();
    await page.getByRole('alert').filter({ hasText: t.errors.invalid_credentials }).waitFor();

    await page.getByLabel(t.app.auth.password).fill(password);
    const requests = recordApiRequests(page);
    await page.getByRole('button', { name: t.app.login.submit, exact: true }).click();
    await page.waitForURL('**/CreateProfile');
    // Signed in as the login's answer says: the user was not asked for again.
    await page.locator('header').getByRole('link', { name: t.app.nav.logout }).waitFor();
    requests.stop();
    expect(requests.calls()).toContain('POST /api/login');
    expect(requests.calls()).not.toContain('GET /api/current_user');
  });

  it('keeps filters, and the language and dark mode across a reload', async () => {
    await page.goto('/Menu');
    await page.getByRole('heading', { name: t.app.menu.filters }).waitFor();
    await expectAccessible(page, 'menu');

    await page.getByRole('button', { name: t.app.menu.genders.Female }).click();
    // The age slider: keyboard moves by one step of 4; the thumbs stop one step apart.
    const from = page.getByRole('slider', { name: t.app.menu.ageFrom });
    const to = page.getByRole('slider', { name: t.app.menu.ageTo });
    await from.focus();
    await page.keyboard.press('ArrowRight');
    expect(await from.getAttribute('aria-valuetext')).toBe('22');
    await to.focus();
    for (let i = 0; i < 30; i++) await page.keyboard.press('ArrowLeft');
    expect(await to.getAttribute('aria-valuetext')).toBe('26');
    await from.focus();
    for (let i = 0; i < 30; i++) await page.keyboard.press('ArrowRight');
    expect(await from.getAttribute('aria-valuetext')).toBe('22');
    expect(await page.evaluate(() => localStorage.getItem('ageRange'))).toBe('[22,26]');
    expect(await page.evaluate(() => localStorage.getItem('selectedGender'))).toBe('Female');

    const other = language === 'ru' ? 'en' : 'ru';
    await page.getByRole('switch', { name: t.app.menu.darkMode }).check();
    await page
      .getByRole('group', { name: t.app.language.label })
      .getByRole('button', { name: new RegExp(texts[other].app.language.short[other]) })
      .click();
    // Reload once the switch has shown and reached the account (whose language wins at the next start), so
    // the test checks what was kept, not a race.
    await page.getByRole('heading', { name: texts[other].app.menu.filters }).waitFor();
    await expect.poll(accountLanguage).toBe(other);
    await page.reload();
    const o = texts[other];
    await page.getByRole('heading', { name: o.app.menu.filters }).waitFor();
    expect(await page.getAttribute('html', 'data-theme')).toBe('dark');
    expect(await page.getAttribute('html', 'lang')).toBe(other);
    expect(await page.getByRole('switch', { name: o.app.menu.darkMode }).isChecked()).toBe(true);
    expect(await page.getByRole('button', { name: o.app.menu.genders.Female }).getAttribute('aria-pressed')).toBe(
      'true',
    );
    expect(await page.evaluate(() => [localStorage.getItem('darkMode'), localStorage.getItem('language')])).toEqual([
      'true',
      other,
    ]);
    await expectAccessible(page, 'menu (dark)');
    // Back to how this language's run started.
    await page.getByRole('switch', { name: o.app.menu.darkMode }).uncheck();
    await page
      .getByRole('group', { name: o.app.language.label })
      .getByRole('button', { name: new RegExp(t.app.language.short[language]) })
      .click();
    expect(await page.getAttribute('html', 'data-theme')).toBe('light');
    await expect.poll(accountLanguage).toBe(language);
  });

  it('shows the offer and the privacy policy in this language in a full-page frame', async () => {
    for (const [path, heading] of [
      ['/offer', language === 'ru' ? 'Публичная оферта' : 'Public offer'],
      ['/privacy-policy', language === 'ru' ? 'Политика конфиденциальности' : 'privacy policy'],
    ] as const) {
      await page.goto(path);
      const title = page.frameLocator('iframe.document-frame').getByRole('heading', { level: 1 });
      await expect.poll(() => title.textContent()).toContain(heading);
    }
  });

  it('buys a month through the test provider, lands on /confirm, and the menu shows the renewal date', async () => {
    await page.goto('/subscription');
    await page.getByRole('button', { name: new RegExp(t.app.premium.plans['30']) }).click();
    await expectAccessible(page, 'subscription (plan details)');
    await page.getByRole('button', { name: t.app.premium.buyNow }).click();
    await page.waitForURL('**/api/payments/test/checkout/**');
    await screenshot(page, `checkout-${language}`);
    await page.getByRole('button', { name: /^(Оплатить|Pay)$/ }).click();
    // The checkout sends the buyer back with the payment's id, and /confirm asks the server what happened to it.
    await page.waitForURL(/\/confirm\?payment=\d+$/);
    await page.getByRole('heading', { name: t.app.result.successTitle }).waitFor();
    await page.getByRole('link', { name: t.app.result.backToMenu }).click();
    await page.waitForURL('**/menu');
    await page
      .getByText(t.app.premium.activeUntil.split('{{')[0]?.trim() ?? 'missing')
      .first()
      .waitFor();
    await screenshot(page, `menu-premium-${language}`);
  });

  it('shows the result pages with a way back to the menu', async () => {
    // Without a payment to check, /confirm never claims success: it says no such payment was found.
    for (const [path, title] of [
      ['/confirm', t.app.result.notFoundTitle],
      ['/fail', t.app.result.failureTitle],
    ] as const) {
      await page.goto(path);
      await page.getByRole('heading', { name: title }).waitFor();
      await expectAccessible(page, path);
      await page.getByRole('link', { name: t.app.result.backToMenu }).click();
      await page.waitForURL('**/menu');
    }
  });
});
