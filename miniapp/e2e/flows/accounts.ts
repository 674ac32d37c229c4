import type { Page } from 'playwright-core';
import en from '../../../locales/en.json' with { type: 'json' };
import ru from '../../../locales/ru.json' with { type: 'json' };
import { codeFrom } from '../../../server/test/smtpStandIn.ts';
import type { Site } from '../harness.ts';

const texts = { ru, en } as const;

/**
 * Registers through the screens a person uses: landing → Try now → /register (privacy ticked) → the code
 * from the real SMTP server typed into /verify. Ends wherever the app sends a verified user without a
 * profile (the wizard).
 */
export async function registerThroughScreens(
  page: Page,
  site: Site,
  language: 'ru' | 'en',
  email: string,
  password = 'spark2026!',
): Promise<void> {
  const t = texts[language];
  await page.goto('/');
  await page.locator('#main').getByRole('link', { name: t.app.landing.tryNow, exact: true }).click();
  await page.waitForURL('**/register');
  await page.getByLabel(t.app.auth.email).fill(email);
  await page.getByLabel(t.app.auth.password).fill(password);
  await page.getByRole('checkbox').check();
  await page.getByRole('button', { name: t.app.register.submit }).click();
  await page.waitForURL('**/verify');
  const mail = await site.app.smtp.lastMailTo(email);
  await page.getByLabel(t.app.verify.code).fill(codeFrom(mail));
  await page.getByRole('button', { name: t.app.verify.submit, exact: true }).click();
  await page.waitForURL('**/CreateProfile');
}
