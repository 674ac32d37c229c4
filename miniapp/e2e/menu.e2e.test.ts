import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import en from '../../locales/en.json' with { type: 'json' };
import ru from '../../locales/ru.json' with { type: 'json' };
import { createPerson } from '../../server/test/people.ts';
import { expectAccessible, screenshot, startSite, type Site, behaviourLanguages } from './harness.ts';
import { signInAs } from './signedIn.ts';

const texts = { ru, en } as const;

describe('menu settings stored on the server', () => {
  let site: Site;
  beforeAll(async () => {
    site = await startSite();
  });
  afterAll(async () => {
    await site.close();
  });

  for (const language of behaviourLanguages) {
    it(`private mode and notifications flip, persist and are honoured (${language})`, async () => {
      const t = texts[language];
      const person = await createPerson(site.app, { name: 'Вера' });
      // Telegram linked: the bot's notifications switch is usable (a web-only account's is off, see deadEnds).
      await site.app.database.db
        .updateTable('users')
        .set({ telegram_id: String(8_500_000_000 + person.userId) })
        .where('id', '=', person.userId)
        .execute();
      const seeker = await createPerson(site.app, { gender: 'Male' });
      const { context, page, errors } = await site.page({
        language,
        prepare: (context) => signInAs(site, context, person.browser),
      });

      await page.goto('/Menu');
      const privateMode = page.getByRole('switch', { name: new RegExp(t.app.menu.privateMode) });
      const notifications = page.getByRole('switch', { name: new RegExp(t.app.menu.notifications) });
      await expect.poll(() => privateMode.isEnabled()).toBe(true);
      expect(await privateMode.isChecked()).toBe(false);
      expect(await notifications.isChecked()).toBe(true);
      await page.getByText('Вера').waitFor();
      // The test checkout is on (the default test site): the menu offers its test link to the outcome page.
      await page.getByRole('link', { name: t.app.premium.testOutcome }).waitFor();
      await screenshot(page, `menu-profile-${language}`);
      await expectAccessible(page, `menu with profile ${language}`);

      // Before: the seeker finds her; after private mode: nobody new does.
      const before = await seeker.browser.get('/api/search');
      expect(((await before.json()) as { user_id: number }).user_id).toBe(person.userId);
      await privateMode.check();
      await expect
        .poll(
          async () =>
            ((await (await person.browser.get('/api/settings')).json()) as { private_mode: boolean }).private_mode,
        )
        .toBe(true);
      expect((await seeker.browser.get('/api/search')).status).toBe(404);

      await notifications.uncheck();
      await expect
        .poll(
          async () =>
            ((await (await person.browser.get('/api/settings')).json()) as { notifications: boolean }).notifications,
        )
        .toBe(false);

      await page.reload();
      await expect.poll(() => privateMode.isEnabled()).toBe(true);
      expect(await privateMode.isChecked()).toBe(true);
      expect(await notifications.isChecked()).toBe(false);

      // A refused save springs back and says so.
      await page.route('**/api/settings', (route) =>
        route.request().method() === 'POST'
          ? route.fulfill({ status: 500, json: { error: 'Internal error', code: 'internal' } })
          : route.fallback(),
      );
      await privateMode.uncheck();
      await page.getByText(t.app.menu.settingsFailed).waitFor();
      expect(await privateMode.isChecked()).toBe(true);

      await context.close();
      expect(errors.filter((e) => !/500/.test(e))).toEqual([]);
    });
  }
});

describe('the menu of a live site without web payments (no test checkout)', () => {
  let site: Site;
  beforeAll(async () => {
    site = await startSite({ testPaymentProvider: false });
  });
  afterAll(async () => {
    await site.close();
  });

  it('shows the plans but no test link, and says plainly that payments are unavailable', async () => {
    const t = texts.en;
    const person = await createPerson(site.app);
    const { context, page, errors } = await site.page({
      language: 'en',
      prepare: (context) => signInAs(site, context, person.browser),
    });

    await page.goto('/Menu');
    const monthCard = page.getByRole('button', { name: new RegExp(t.app.premium.plans['30']) });
    await monthCard.waitFor();
    expect(await page.getByRole('link', { name: t.app.premium.testOutcome }).count()).toBe(0);
    await monthCard.click();
    await page.getByRole('button', { name: t.app.premium.buyNow }).click();
    await page.getByText(t.errors.payments_unavailable).waitFor();

    await context.close();
    expect(errors.filter((e) => !/503/.test(e))).toEqual([]);
  });
});
