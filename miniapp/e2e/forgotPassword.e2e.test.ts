import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import en from '../../locales/en.json' with { type: 'json' };
import ru from '../../locales/ru.json' with { type: 'json' };
import { emptyPublicConfig } from '../../server/contract/config.ts';
import { Browser } from '../../server/test/browser.ts';
import { createPerson, type Person } from '../../server/test/people.ts';
import { codeFrom } from '../../server/test/smtpStandIn.ts';
import { expectAccessible, screenshot, startSite, type Site, behaviourLanguages } from './harness.ts';

const texts = { ru, en } as const;
const newPassword = 'reset2026!';

/** The whole forgotten-password flow at phone size (390×844), from «Забыли пароль?» on /login to the deck. */
describe.each(behaviourLanguages)('password reset in %s', (language) => {
  const t = texts[language];
  let site: Site;
  let context: BrowserContext | undefined;
  let page: Page;
  let errors: string[];
  let person: Person;
  let email: string;

  beforeAll(async () => {
    site = await startSite();
    ({ context, page, errors } = await site.page({ language }));
    person = await createPerson(site.app, { name: language === 'ru' ? 'Вера' : 'Vera' });
    const row = await site.app.database.db
      .selectFrom('users')
      .select('email')
      .where('id', '=', person.userId)
      .executeTakeFirstOrThrow();
    email = row.email ?? '';
  });
  afterAll(async () => {
    await context?.close();
    await site.close();
    expect(errors).toEqual([]);
  });

  it('goes from /login to /forgot-password and asks for the e-mail', async () => {
    await page.goto('/login');
    await page.getByRole('link', { name: t.app.login.forgot }).click();
    await page.waitForURL('**/forgot-password');
    await page.getByRole('heading', { name: t.app.forgot.title }).waitFor();
    await page.getByLabel(t.app.auth.email).fill(email);
    await expectAccessible(page, 'forgot: e-mail');
    await screenshot(page, `forgot-password-1-email-${language}`);
  });

  it('mails a code and asks for it; a wrong code comes back to this step with the reason', async () => {
    await page.getByRole('button', { name: t.app.forgot.sendCode }).click();
    await page.getByLabel(t.app.forgot.code).waitFor();
    await page.getByText(t.app.forgot.codeStep.replace('{{email}}', email)).waitFor();
    const code = codeFrom(await site.app.smtp.lastMailTo(email));
    // The resend waits out the server's 60-second cooldown.
    expect(
      await page
        .getByRole('button', { name: new RegExp(t.app.forgot.resendIn.replace('{{seconds}}', '\\d+')) })
        .isDisabled(),
    ).toBe(true);

    await page.getByLabel(t.app.forgot.code).fill(code === '000000' ? '111111' : '000000');
    await page.getByRole('button', { name: t.app.forgot.next }).click();
    await page.getByLabel(t.app.forgot.newPassword).fill(newPassword);
    await page.getByRole('button', { name: t.app.forgot.submit }).click();
    await page.getByText(t.errors.reset_code_invalid).waitFor();
    expect(await page.getByLabel(t.app.forgot.code).isVisible()).toBe(true);
    await expectAccessible(page, 'forgot: code');
    await screenshot(page, `forgot-password-2-wrong-code-${language}`);

    await page.getByLabel(t.app.forgot.code).fill(code);
    await page.getByRole('button', { name: t.app.forgot.next }).click();
  });

  it('checks the password rule before sending, then sets the password and signs in', async () => {
    await page.getByLabel(t.app.forgot.newPassword).fill('short');
    await page.getByRole('button', { name: t.app.forgot.submit }).click();
    await page.locator('.hint-error', { hasText: t.app.register.passwordRule }).waitFor();
    await expectAccessible(page, 'forgot: password');
    await screenshot(page, `forgot-password-3-password-${language}`);

    await page.getByLabel(t.app.forgot.newPassword).fill(newPassword);
    await page.getByRole('button', { name: t.app.forgot.submit }).click();
    await page.waitForURL('**/search');
    await screenshot(page, `forgot-password-4-signed-in-${language}`);

    // The session made before the reset is over; the new password signs in.
    expect((await person.browser.get('/api/profile')).status).toBe(401);
    expect((await new Browser(site.app.url).post('/api/login', { email, password: newPassword })).status).toBe(200);
  });
});

describe('the link of the reset mail', () => {
  it('opens the new-password step at once, leaves no token in the address bar, and refuses a used link', async () => {
    const site = await startSite();
    const { context, page, errors } = await site.page({ language: 'ru' });
    try {
      const person = await createPerson(site.app, { name: 'Лена' });
      const { email } = await site.app.database.db
        .selectFrom('users')
        .select('email')
        .where('id', '=', person.userId)
        .executeTakeFirstOrThrow();
      expect((await new Browser(site.app.url).post('/api/password/forgot', { email })).status).toBe(200);
      const mail = await site.app.smtp.lastMailTo(email ?? '');
      const link = new URL(/https?:\/\/\S+/.exec(mail.text)?.[0] ?? 'http://missing.invalid');

      await page.goto(link.pathname + link.hash);
      await page.getByLabel(ru.app.forgot.newPassword).waitFor();
      expect(await page.getByLabel(ru.app.forgot.code).count()).toBe(0);
      await expect.poll(() => new URL(page.url()).hash).toBe('');
      await screenshot(page, 'forgot-password-link-ru');
      await page.getByLabel(ru.app.forgot.newPassword).fill(newPassword);
      await page.getByRole('button', { name: ru.app.forgot.submit }).click();
      await page.waitForURL('**/search');
      expect((await new Browser(site.app.url).post('/api/login', { email, password: newPassword })).status).toBe(200);

      // The same link again, signed out: it is used up, so the screen asks for a new mail, address filled in.
      const again = await site.page({ language: 'ru' });
      await again.page.goto(link.pathname + link.hash);
      await again.page.getByLabel(ru.app.forgot.newPassword).fill('another2026!');
      await again.page.getByRole('button', { name: ru.app.forgot.submit }).click();
      await again.page.getByText(ru.app.forgot.linkExpired).waitFor();
      expect(await again.page.getByLabel(ru.app.auth.email).inputValue()).toBe(email);
      await screenshot(again.page, 'forgot-password-link-used-ru');
      // A link a mail client cut short: said the same way at once, without asking for a password first.
      await again.page.goto(link.pathname + link.hash.slice(0, -5));
      await again.page.getByText(ru.app.forgot.linkExpired).waitFor();
      expect(await again.page.getByLabel(ru.app.auth.email).inputValue()).toBe(email);
      await expect.poll(() => new URL(again.page.url()).hash).toBe('');
      await again.context.close();
      expect(again.errors).toEqual([]);
    } finally {
      await context.close();
      await site.close();
    }
    expect(errors).toEqual([]);
  });
});

describe('the support line of the reset screen', () => {
  it('shows the contacts when set, and nothing at all (never a link to /) when unset', async () => {
    const withSupport = await startSite();
    const without = await startSite({ publicConfig: emptyPublicConfig });
    try {
      const opened = await withSupport.page({ language: 'ru' });
      await opened.page.goto('/forgot-password');
      await opened.page.getByRole('link', { name: 'support@iskra.test' }).waitFor();
      expect(await opened.page.getByRole('link', { name: '@iskra_support' }).getAttribute('href')).toBe(
        'https://t.me/iskra_support',
      );
      await opened.context.close();

      const bare = await without.page({ language: 'ru' });
      const configArrived = bare.page.waitForResponse((r) => r.url().endsWith('/api/config'));
      await bare.page.goto('/forgot-password');
      await bare.page.getByRole('heading', { name: ru.app.forgot.title }).waitFor();
      // The absence counts only once the screen has the (empty) config and has drawn a frame with it.
      await configArrived;
      await bare.page.evaluate(
        () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
      );
      expect(await bare.page.getByText(ru.app.forgot.support).count()).toBe(0);
      expect(await bare.page.locator('main a[href="/"]').count()).toBe(0);
      await bare.page.goto('/login');
      expect(await bare.page.getByRole('link', { name: ru.app.login.forgot }).getAttribute('href')).toBe(
        '/forgot-password',
      );
      await bare.context.close();
      expect([...opened.errors, ...bare.errors]).toEqual([]);
    } finally {
      await withSupport.close();
      await without.close();
    }
  });
});
