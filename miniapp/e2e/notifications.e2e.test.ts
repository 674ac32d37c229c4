import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import en from '../../locales/en.json' with { type: 'json' };
import ru from '../../locales/ru.json' with { type: 'json' };
import { notificationEmail, unsubscribeUrl } from '../../server/features/notifications/emails.ts';
import { UnsubscribeTokens } from '../../server/features/notifications/unsubscribeTokens.ts';
import { createPerson } from '../../server/test/people.ts';
import { testSessionSecret } from '../../server/test/testApp.ts';
import { expectAccessible, screenshot, startSite, testConfig, type Site, behaviourLanguages } from './harness.ts';
import { signInAs } from './signedIn.ts';

const texts = { ru, en } as const;

/**
 * A web-only user's side of issue 22 point 4 and the bot link of point 3, at phone size: the two
 * notification switches in the menu, the Account screen's "Link Telegram via the bot", a notification
 * e-mail as a mail client shows it, and the one-click unsubscribe page.
 */
describe('notification switches, the bot link and the e-mail unsubscribe page', () => {
  let site: Site;
  beforeAll(async () => {
    site = await startSite({ publicConfig: { ...testConfig, bot_username: 'iskra_test_bot' } });
  });
  afterAll(async () => {
    await site.close();
  });

  it('the two switches and the bot link read well in the dark theme', async () => {
    const t = texts.ru;
    const person = await createPerson(site.app, { name: 'Вера' });
    const { context, page, errors } = await site.page({
      language: 'ru',
      dark: true,
      prepare: (c) => signInAs(site, c, person.browser),
    });
    await page.goto('/Menu');
    const mail = page.getByRole('switch', { name: new RegExp(t.app.menu.emailNotifications) });
    await expect.poll(() => mail.isEnabled()).toBe(true);
    await mail.scrollIntoViewIfNeeded();
    await screenshot(page, 'mail-menu-switches-dark-ru');
    await page.goto('/account');
    await page.getByRole('button', { name: t.app.account.linkViaBot }).waitFor();
    await screenshot(page, 'mail-account-dark-ru');
    await expectAccessible(page, 'account dark');
    await context.close();
    expect(errors).toEqual([]);
  });

  for (const language of behaviourLanguages) {
    it(`bot messages and e-mails switch separately; the Account screen offers the bot link (${language})`, async () => {
      const t = texts[language];
      const person = await createPerson(site.app, { name: 'Вера' });
      const { context, page, errors } = await site.page({
        language,
        prepare: (c) => signInAs(site, c, person.browser),
      });
      const settings = async () =>
        (await (await person.browser.get('/api/settings')).json()) as {
          notifications: boolean;
          email_notifications: boolean;
        };

      await page.goto('/Menu');
      const bot = page.getByRole('switch', { name: new RegExp(t.app.menu.notifications) });
      const mail = page.getByRole('switch', { name: new RegExp(t.app.menu.emailNotifications) });
      await expect.poll(() => mail.isEnabled()).toBe(true);
      // No Telegram linked: the bot's switch is off and unusable (the Account screen links Telegram).
      expect(await bot.isChecked()).toBe(false);
      expect(await bot.isDisabled()).toBe(true);
      expect(await mail.isChecked()).toBe(true);
      await mail.uncheck();
      await expect.poll(async () => (await settings()).email_notifications).toBe(false);
      expect((await settings()).notifications).toBe(true);
      await expect.poll(() => mail.isEnabled()).toBe(true);
      await mail.scrollIntoViewIfNeeded();
      await screenshot(page, `mail-menu-switches-${language}`);
      await expectAccessible(page, `menu switches ${language}`);

      await page.goto('/account');
      await page.getByRole('heading', { name: t.app.account.methodsTitle }).waitFor();
      const ask = page.getByRole('button', { name: t.app.account.linkViaBot });
      await ask.waitFor();
      await screenshot(page, `mail-account-${language}`);
      await ask.click();
      const open = page.getByRole('link', { name: t.app.account.openBot });
      await open.waitFor();
      expect(await open.getAttribute('href')).toMatch(/^https:\/\/t\.me\/iskra_test_bot\?start=link_[\w-]{43}$/);
      await screenshot(page, `mail-account-bot-link-${language}`);
      await expectAccessible(page, `account bot link ${language}`);

      await context.close();
      expect(errors).toEqual([]);
    });

    it(`a notification e-mail renders, and its unsubscribe page turns e-mails off with one button (${language})`, async () => {
      const t = texts[language];
      const person = await createPerson(site.app, { name: 'Белла' });
      await site.app.database.db.updateTable('users').set({ language }).where('id', '=', person.userId).execute();
      const link = unsubscribeUrl(site.app.url, new UnsubscribeTokens(testSessionSecret).issue(person.userId));
      const mail = notificationEmail(
        'bella@example.com',
        language,
        { kind: 'message', name: 'Антон', preview: 'Привет! Пойдём в кино?', conversationId: 7 },
        {
          publicUrl: 'https://iskra.example',
          unsubscribeUrl: link,
        },
      );
      const { context, page, errors } = await site.page({ language });
      await page.setContent(mail.html ?? '');
      await page.getByRole('link', { name: t.mail.notify.openChat }).waitFor();
      await screenshot(page, `mail-email-message-${language}`);

      // The page behind the link changes nothing until its button is pressed.
      await page.goto(link);
      await page.getByText(t.mail.unsubscribe.question).waitFor();
      expect(
        ((await (await person.browser.get('/api/settings')).json()) as { email_notifications: boolean })
          .email_notifications,
      ).toBe(true);
      await screenshot(page, `mail-unsubscribe-page-${language}`);
      await page.getByRole('button', { name: t.mail.unsubscribe.button }).click();
      await page.getByText(t.mail.unsubscribe.done).waitFor();
      expect(
        ((await (await person.browser.get('/api/settings')).json()) as { email_notifications: boolean })
          .email_notifications,
      ).toBe(false);
      await screenshot(page, `mail-unsubscribed-${language}`);

      await context.close();
      expect(errors).toEqual([]);
    });
  }
});
