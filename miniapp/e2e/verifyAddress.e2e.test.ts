import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import en from '../../locales/en.json' with { type: 'json' };
import ru from '../../locales/ru.json' with { type: 'json' };
import { testPassword } from '../../server/test/accounts.ts';
import { Browser } from '../../server/test/browser.ts';
import { codeFrom } from '../../server/test/smtpStandIn.ts';
import { expectAccessible, screenshotLightAndDark, startSite, type Site, behaviourLanguages } from './harness.ts';
import { signInAs } from './signedIn.ts';

const texts = { ru, en } as const;

/** `/verify` names the address the code went to, and a mistyped one is corrected there (issue #20). */
describe('the address on /verify', () => {
  let site: Site;
  beforeAll(async () => {
    site = await startSite();
  });
  afterAll(async () => {
    await site.close();
  });

  for (const language of behaviourLanguages) {
    it(`shows where the code went, and a corrected address gets the code that verifies the account (${language})`, async () => {
      const t = texts[language];
      const typo = `typo.${language}@exmaple.com`;
      const right = `right.${language}@example.com`;
      const browser = new Browser(site.app.url);
      expect((await browser.post('/api/register', { email: typo, password: testPassword })).status).toBe(201);
      const { context, page, errors } = await site.page({
        language,
        prepare: (context) => signInAs(site, context, browser),
      });
      await page.goto('/verify');
      await page.getByText(typo).waitFor();
      await screenshotLightAndDark(page, `verify-address-${language}`);
      await expectAccessible(page, `verify address ${language}`);

      await page.getByRole('button', { name: t.app.verify.changeEmail }).click();
      const field = page.getByLabel(t.app.verify.newEmail);
      expect(await field.inputValue()).toBe(typo);
      // Cancel goes back with nothing changed.
      await page.getByRole('button', { name: t.app.matches.cancel }).click();
      await page.getByText(typo).waitFor();
      await page.getByRole('button', { name: t.app.verify.changeEmail }).click();
      await field.fill(right);
      await page.getByLabel(t.app.verify.password).fill(testPassword);
      await screenshotLightAndDark(page, `verify-change-${language}`);
      await page.getByRole('button', { name: t.app.verify.sendToNew }).click();
      // Back on the code, naming the new address; the code from the new address's mail verifies the account.
      await page.getByText(right).waitFor();
      const mail = await site.app.smtp.lastMailTo(right);
      await page.getByLabel(t.app.verify.code).fill(codeFrom(mail));
      await page.getByRole('button', { name: t.app.verify.submit }).click();
      await page.waitForURL('**/CreateProfile');
      const user = await site.app.database.db
        .selectFrom('users')
        .select(['email', 'verified_at'])
        .where('email', '=', right)
        .executeTakeFirst();
      expect(user?.verified_at).not.toBeNull();
      // The mistyped address holds no account any more: it can register.
      expect(
        (await new Browser(site.app.url).post('/api/register', { email: typo, password: testPassword })).status,
      ).toBe(201);
      expect(errors).toEqual([]);
      await context.close();
    });
  }
});
