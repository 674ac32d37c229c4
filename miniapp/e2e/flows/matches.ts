import type { Page } from 'playwright-core';
import en from '../../../locales/en.json' with { type: 'json' };
import ru from '../../../locales/ru.json' with { type: 'json' };

const texts = { ru, en } as const;

/** On a match's profile: Unmatch, confirmed in the sheet; ends on /matches. */
export async function unmatchFromProfile(page: Page, language: 'ru' | 'en'): Promise<void> {
  const t = texts[language];
  await page.getByRole('button', { name: t.app.matches.unmatch, exact: true }).click();
  await page.getByRole('dialog').getByRole('button', { name: t.app.matches.unmatchConfirm, exact: true }).click();
  await page.waitForURL('**/matches');
}

/** On a profile or in a chat: the safety menu → Report with a reason (and comment) → sent. */
export async function reportFromSafetyMenu(
  page: Page,
  language: 'ru' | 'en',
  name: string,
  reason: keyof typeof en.app.safety.reasons,
  comment = '',
): Promise<void> {
  const t = texts[language];
  await page.getByRole('button', { name: t.app.safety.open.replace('{{name}}', name) }).click();
  await page.getByRole('dialog').getByRole('button', { name: t.app.safety.report, exact: true }).click();
  await page.getByRole('dialog').getByRole('radio', { name: t.app.safety.reasons[reason] }).check();
  if (comment) await page.getByRole('dialog').getByLabel(t.app.safety.comment).fill(comment);
  await page.getByRole('dialog').getByRole('button', { name: t.app.safety.send }).click();
}

/** The safety menu → Block → confirmed. */
export async function blockFromSafetyMenu(page: Page, language: 'ru' | 'en', name: string): Promise<void> {
  const t = texts[language];
  await page.getByRole('button', { name: t.app.safety.open.replace('{{name}}', name) }).click();
  await page.getByRole('dialog').getByRole('button', { name: t.app.safety.block, exact: true }).click();
  await page.getByRole('dialog').getByRole('button', { name: t.app.safety.blockConfirm, exact: true }).click();
}
