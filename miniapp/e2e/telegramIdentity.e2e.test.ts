import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import en from '../../locales/en.json' with { type: 'json' };
import ru from '../../locales/ru.json' with { type: 'json' };
import { jpegWithGps } from '../../server/test/images.ts';
import { answerPrompts } from './flows/profile.ts';
import { hostLikeTelegram, telegramLaunchHash, type TelegramTheme } from './flows/telegram.ts';
import { screenshot, startSite, testConfig, type Site } from './harness.ts';

const texts = { ru, en } as const;
let nextTelegramId = 8_800_000_000;

/** Issue 39, point 4: the Mini App uses who Telegram says the user is; the landing leads into Telegram. */
describe('Telegram identity in the app', () => {
  let site: Site;
  beforeAll(async () => {
    site = await startSite({ publicConfig: { ...testConfig, bot_username: 'iskra_e2e_bot' } });
  });
  afterAll(async () => {
    await site.close();
  });

  const wizardShot = async (page: Page, name: string) => {
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, name);
  };

  for (const [language, theme, firstName] of [
    ['ru', 'light', 'Тимур'],
    ['en', 'dark', 'Tim'],
  ] as const satisfies readonly (readonly ['ru' | 'en', TelegramTheme, string])[]) {
    it(`pre-fills the wizard's name and offers the Telegram photo, which goes through the cropper into the profile (${language}, ${theme})`, async () => {
      const t = texts[language].app.wizard;
      const telegramId = ++nextTelegramId;
      site.telegram.profilePhotos.set(telegramId, await jpegWithGps(800, 800));
      const { context, page, errors } = await site.page({ prepare: hostLikeTelegram });
      await page.goto(
        `/${await telegramLaunchHash({ user: { id: telegramId, first_name: firstName, language_code: language }, theme })}`,
      );
      const name = page.getByLabel(t.name);
      await name.waitFor();
      expect(await name.inputValue()).toBe(firstName);
      await wizardShot(page, `reach-wizard-name-${language}-${theme}`);

      await page.getByLabel(t.age).fill('27');
      await page.getByRole('button', { name: t.genders.Male, exact: true }).click();
      await page.getByRole('button', { name: t.next }).click();
      await page.getByRole('button', { name: t.enterCity }).click();
      await page.getByLabel(t.city, { exact: true }).fill(language === 'ru' ? 'Москва' : 'Moscow');
      await page.getByRole('button', { name: t.checkCity }).click();
      await page.locator('.wizard-city').waitFor();
      await page.getByRole('button', { name: t.next }).click();

      const offer = page.getByRole('button', { name: t.telegramPhoto });
      await offer.waitFor();
      await page.getByRole('img', { name: t.telegramPhotoAlt }).waitFor();
      await wizardShot(page, `reach-wizard-photo-${language}-${theme}`);
      await offer.click();
      await page.locator('.cropper-area img').waitFor();
      await page.getByRole('button', { name: t.confirmCrop }).click();
      await page.locator('.photo-previews img').first().waitFor();
      // Taken: the offer is gone (one photo is there now).
      expect(await offer.count()).toBe(0);
      await page.getByRole('button', { name: t.next }).click();
      // The prompts step (optional): skipped.
      await answerPrompts(page, language, []);
      await page.getByRole('button', { name: t.next }).click();
      await page.getByRole('button', { name: t.create, exact: true }).click();
      await page.waitForURL('**/training');

      const user = await site.app.database.db
        .selectFrom('users')
        .select('id')
        .where('telegram_id', '=', String(telegramId))
        .executeTakeFirstOrThrow();
      const profile = await site.app.database.db
        .selectFrom('profiles')
        .select(['id', 'name'])
        .where('user_id', '=', user.id)
        .executeTakeFirstOrThrow();
      expect(profile.name).toBe(firstName);
      const photos = await site.app.database.db
        .selectFrom('photos')
        .select('file_name')
        .where('profile_id', '=', profile.id)
        .execute();
      expect(photos).toHaveLength(1);
      expect(site.telegram.callsOf('getUserProfilePhotos').some((call) => call.user_id === telegramId)).toBe(true);
      await context.close();
      expect(errors).toEqual([]);
    });
  }

  it('offers nothing when Telegram has no photo of the user', async () => {
    const telegramId = ++nextTelegramId;
    const { context, page } = await site.page({ prepare: hostLikeTelegram });
    await page.goto(
      `/${await telegramLaunchHash({ user: { id: telegramId, first_name: 'Ира', language_code: 'ru' } })}`,
    );
    const t = texts.ru.app.wizard;
    await page.getByLabel(t.age).fill('25');
    await page.getByRole('button', { name: t.genders.Female, exact: true }).click();
    await page.getByRole('button', { name: t.next }).click();
    await page.getByRole('button', { name: t.enterCity }).click();
    await page.getByLabel(t.city, { exact: true }).fill('Москва');
    await page.getByRole('button', { name: t.checkCity }).click();
    await page.locator('.wizard-city').waitFor();
    await page.getByRole('button', { name: t.next }).click();
    await page.getByRole('heading', { name: t.photosTitle }).waitFor();
    // The photo request has been answered (no photo) before the offer is looked for.
    await expect
      .poll(() => site.telegram.callsOf('getUserProfilePhotos').some((call) => call.user_id === telegramId))
      .toBe(true);
    expect(await page.getByRole('button', { name: t.telegramPhoto }).count()).toBe(0);
    await context.close();
  });

  for (const language of ['ru', 'en'] as const) {
    it(`the landing opens the Mini App through the bot (${language})`, async () => {
      const { context, page } = await site.page({ language });
      await page.goto('/');
      const open = page.getByRole('link', { name: texts[language].app.landing.openTelegram });
      await open.waitFor();
      expect(await open.getAttribute('href')).toBe('https://t.me/iskra_e2e_bot?startapp');
      await screenshot(page, `reach-landing-${language}`);
      await page.evaluate(() => (document.documentElement.dataset.theme = 'dark'));
      await screenshot(page, `reach-landing-${language}-dark`);
      await context.close();
    });
  }
});
