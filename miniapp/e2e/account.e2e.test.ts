import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import en from '../../locales/en.json' with { type: 'json' };
import ru from '../../locales/ru.json' with { type: 'json' };
import { Browser } from '../../server/test/browser.ts';
import { codeFrom } from '../../server/test/smtpStandIn.ts';
import { expectAccessible, screenshot, startSite, type Site, behaviourLanguages } from './harness.ts';
import { signInVerified } from './signedIn.ts';

const texts = { ru, en } as const;
const password = 'spark2026!';
const phoneUserAgent =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile Safari/537.36';

/** Menu → Account at phone size: the devices list, signing a device out, the e-mail and the password. */
describe.each(behaviourLanguages)('the account screen in %s', (language) => {
  const t = texts[language];
  const email = `account.${language}.${process.pid}@example.com`;
  const nextEmail = `account.next.${language}.${process.pid}@example.com`;
  let site: Site;
  let context: BrowserContext | undefined;
  let page: Page;
  let errors: string[];
  let phone: Browser;

  beforeAll(async () => {
    site = await startSite();
    ({ context, page, errors } = await site.page({ language, prepare: (c) => signInVerified(site, c, email) }));
    phone = new Browser(site.app.url);
    expect(
      (await phone.post('/api/login', { email, password }, { headers: { 'User-Agent': phoneUserAgent } })).status,
    ).toBe(200);
  });
  afterAll(async () => {
    await context?.close();
    await site.close();
    expect(errors).toEqual([]);
  });

  it('opens from the menu and lists the devices; signing the phone out ends its session', async () => {
    await page.goto('/Menu');
    await page.getByRole('link', { name: t.app.menu.account }).click();
    await page.waitForURL('**/account');
    await page.getByRole('heading', { name: t.app.account.devicesTitle }).waitFor();
    const phoneRow = page.locator('.device', { hasText: 'Chrome · Android' });
    await phoneRow.waitFor();
    await page.locator('.device', { hasText: t.app.account.thisDevice }).waitFor();
    // The only way in cannot be removed: its button is off and the screen says why.
    const passwordMethod = page.locator('.device', { hasText: t.app.account.method.password });
    expect(await passwordMethod.getByRole('button', { name: t.app.account.remove }).isDisabled()).toBe(true);
    await page.getByText(t.app.account.lastMethod).waitFor();
    await expectAccessible(page, 'account');
    await page.getByRole('heading', { name: t.app.account.devicesTitle }).scrollIntoViewIfNeeded();
    await screenshot(page, `account-devices-${language}`);

    await phoneRow.getByRole('button', { name: t.app.account.signOut }).click();
    await phoneRow.waitFor({ state: 'detached' });
    expect((await phone.get('/api/profile')).status).toBe(401);
  });

  it('changes the e-mail with the code sent to the new address', async () => {
    await page.getByLabel(t.app.account.newEmail).fill(nextEmail);
    await page
      .locator('section', { hasText: t.app.account.emailTitle })
      .getByLabel(t.app.account.currentPassword)
      .fill(password);
    await page.getByRole('button', { name: t.app.account.sendCode }).click();
    const code = codeFrom(await site.app.smtp.lastMailTo(nextEmail));
    await page.getByLabel(t.app.forgot.code).fill(code);
    await page.getByRole('button', { name: t.app.account.confirmEmail }).click();
    await page.getByText(t.app.account.emailChanged).waitFor();
    await page.getByText(t.app.account.emailNow.replace('{{email}}', nextEmail)).waitFor();
    expect((await site.app.smtp.nthMailTo(email, 2)).text).toContain(nextEmail);
    await page.getByRole('heading', { name: t.app.account.emailTitle }).scrollIntoViewIfNeeded();
    await screenshot(page, `account-email-changed-${language}`);
  });

  it('changes the password: a weak one shows the rule as an alert, a good one is saved', async () => {
    const section = page.getByRole('region', { name: t.app.account.passwordTitle, exact: true });
    const newPassword = section.getByLabel(t.app.forgot.newPassword);
    await section.getByLabel(t.app.account.currentPassword).fill(password);
    await newPassword.fill('short');
    await section.getByRole('button', { name: t.app.account.changePassword }).click();
    await section.getByRole('alert').filter({ hasText: t.app.register.passwordRule }).waitFor();
    expect(await newPassword.getAttribute('aria-invalid')).toBe('true');

    await newPassword.fill('spark2027!');
    await section.getByRole('button', { name: t.app.account.changePassword }).click();
    await section.getByText(t.app.account.passwordChanged).waitFor();
    expect(await newPassword.inputValue()).toBe('');
    expect(await newPassword.getAttribute('aria-invalid')).toBe('false');
    expect(
      (await new Browser(site.app.url).post('/api/login', { email: nextEmail, password: 'spark2027!' })).status,
    ).toBe(200);
  });
});
