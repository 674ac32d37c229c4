import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import en from '../../locales/en.json' with { type: 'json' };
import ru from '../../locales/ru.json' with { type: 'json' };
import { Browser } from '../../server/test/browser.ts';
import {
  expectAccessible,
  screenshot,
  screenshotLightAndDark,
  startSite,
  type Site,
  behaviourLanguages,
} from './harness.ts';
import { signInVerified } from './signedIn.ts';

const texts = { ru, en } as const;

describe('data rights in the menu', () => {
  let site: Site;
  beforeAll(async () => {
    site = await startSite();
  });
  afterAll(async () => {
    await site.close();
  });

  for (const language of behaviourLanguages) {
    it(`downloads my data, then deletes the account after the password (${language})`, async () => {
      const t = texts[language];
      const email = `rights.${language}@example.com`;
      const { context, page, errors } = await site.page({
        language,
        prepare: (context) => signInVerified(site, context, email),
      });
      await page.goto('/Menu');
      const download = page.waitForEvent('download');
      await page.getByRole('button', { name: t.app.dataRights.export }).click();
      // Saved where the test reads it: Chromium keeps its downloads in a temporary folder of its own.
      const file = path.join(mkdtempSync(path.join(tmpdir(), 'iskra-export-')), 'export.json');
      await (await download).saveAs(file);
      const data = JSON.parse(readFileSync(file, 'utf8')) as { account: { email: string } };
      expect(data.account.email).toBe(email);

      // Cancel closes the sheet and changes nothing: the account still signs in, and the sheet opens empty again.
      await page.getByRole('button', { name: t.app.dataRights.delete }).click();
      const sheet = page.getByRole('dialog');
      await sheet.getByLabel(t.app.dataRights.password).fill('spark2026!');
      await screenshotLightAndDark(page, `delete-account-sheet-${language}`);
      await sheet.getByRole('button', { name: t.app.matches.cancel }).click();
      await sheet.waitFor({ state: 'hidden' });
      expect((await new Browser(site.app.url).post('/api/login', { email, password: 'spark2026!' })).status).toBe(200);
      expect(new URL(page.url()).pathname).toBe('/Menu');
      await page.getByRole('button', { name: t.app.dataRights.delete }).click();
      expect(await sheet.getByLabel(t.app.dataRights.password).inputValue()).toBe('');
      await sheet.getByLabel(t.app.dataRights.password).fill('wrong-password1');
      await sheet.getByRole('button', { name: t.app.dataRights.deleteConfirm }).click();
      await sheet.getByText(t.errors.wrong_password).waitFor();
      await screenshot(page, `delete-account-${language}`);
      await expectAccessible(page, `delete account ${language}`);
      await sheet.getByLabel(t.app.dataRights.password).fill('spark2026!');
      await sheet.getByRole('button', { name: t.app.dataRights.deleteConfirm }).click();
      await expect.poll(() => new URL(page.url()).pathname, { timeout: 20_000 }).toBe('/');
      // It says so, then the landing page with sign-up and sign-in.
      await page.getByRole('status').filter({ hasText: t.app.dataRights.deletedTitle }).waitFor();
      await page.getByRole('link', { name: t.app.landing.signIn }).first().waitFor();
      await screenshotLightAndDark(page, `account-deleted-${language}`);
      await expectAccessible(page, `account deleted ${language}`);
      const login = await new Browser(site.app.url).post('/api/login', { email, password: 'spark2026!' });
      expect(login.status).toBe(401);
      expect(errors.filter((e) => !/40[13]/.test(e))).toEqual([]);
      await context.close();
    });
  }
});
