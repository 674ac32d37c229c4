import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import en from '../../locales/en.json' with { type: 'json' };
import ru from '../../locales/ru.json' with { type: 'json' };
import type { UserId } from '../../db/schema.ts';
import { codeFrom } from '../../server/test/smtpStandIn.ts';
import { createPerson, type Person } from '../../server/test/people.ts';
import {
  hostLikeTelegram,
  telegramEvents,
  telegramLaunchHash,
  telegramThemes,
  type TelegramLaunch,
  type TelegramTheme,
} from './flows/telegram.ts';
import { screenshot, startSite, testConfig, type Site, behaviourLanguages, watchErrors } from './harness.ts';
import { signInAs } from './signedIn.ts';

/**
 * Invite a friend (issue 21): the menu's share button hands Telegram's share sheet the t.me link that opens
 * the Mini App with the inviter's code; on the web the browser's share sheet or the clipboard gets the
 * site's `?ref=` link, and a sign-up through it counts for the inviter. Also: turning notifications on
 * inside Telegram asks for write access when the bot may not write yet.
 */
const botUsername = 'iskra_e2e_bot';
const texts = { ru, en } as const;
let nextTelegramId = 8_200_000_000;

describe('inviting a friend from the menu', () => {
  let site: Site;
  const contexts: BrowserContext[] = [];
  const errors: string[] = [];

  beforeAll(async () => {
    site = await startSite({ publicConfig: { ...testConfig, bot_username: botUsername } });
  });
  afterAll(async () => {
    for (const context of contexts) await context.close();
    await site.close();
    expect(errors).toEqual([]);
  });

  const codeOf = async (userId: UserId) =>
    (
      await site.app.database.db
        .selectFrom('referral_codes')
        .select('code')
        .where('user_id', '=', userId)
        .executeTakeFirstOrThrow()
    ).code;

  /** A returning Telegram user (a profile, reached by this Telegram id) speaking `language`. */
  async function telegramPerson(name: string, language: 'ru' | 'en'): Promise<{ person: Person; telegramId: number }> {
    const person = await createPerson(site.app, { name, gender: 'Female' });
    const telegramId = ++nextTelegramId;
    await site.app.database.db
      .updateTable('users')
      .set({ telegram_id: String(telegramId), language })
      .where('id', '=', person.userId)
      .execute();
    return { person, telegramId };
  }

  async function openInTelegram(launch: TelegramLaunch, path = '/Menu'): Promise<Page> {
    const { context, page } = await site.page({ errors, prepare: hostLikeTelegram });
    contexts.push(context);
    await page.goto(`${path}${await telegramLaunchHash(launch)}`);
    return page;
  }

  for (const language of behaviourLanguages) {
    for (const theme of ['dark', 'light'] as const satisfies TelegramTheme[]) {
      it(`inside Telegram shares the t.me link with the user's code through Telegram's share sheet (${language}, ${theme})`, async () => {
        const t = texts[language];
        const { person, telegramId } = await telegramPerson(language === 'ru' ? 'Инна' : 'Ivy', language);
        const page = await openInTelegram({
          user: { id: telegramId, first_name: 'Ivy', language_code: language, allows_write_to_pm: true },
          theme,
        });
        await page.getByRole('heading', { name: t.app.invite.title }).waitFor();
        await page.getByRole('button', { name: t.app.invite.button }).scrollIntoViewIfNeeded();
        await screenshot(page, `invite-telegram-${language}-${theme}`);
        // Form fields take Telegram's palette: its secondary background and text colour.
        const field = await page.evaluate(() => {
          const style = getComputedStyle(document.documentElement);
          return [style.getPropertyValue('--surface-2').trim(), style.getPropertyValue('--text').trim()];
        });
        expect(field).toEqual([telegramThemes[theme].secondary_bg_color, telegramThemes[theme].text_color]);
        await page.getByRole('button', { name: t.app.invite.button }).click();
        const shared = async () =>
          (await telegramEvents(page)).find(([name]) => name === 'web_app_open_tg_link')?.[1] as
            { path_full: string } | undefined;
        await expect.poll(shared).toBeDefined();
        const { path_full } = (await shared()) ?? { path_full: '' };
        // shareURL opens Telegram's share link: t.me/share/url?url=<our link>&text=<the invitation>.
        const share = new URL(path_full, 'https://t.me');
        expect(share.pathname).toBe('/share/url');
        expect(share.searchParams.get('url')).toBe(
          `https://t.me/${botUsername}?startapp=ref_${await codeOf(person.userId)}`,
        );
        expect(share.searchParams.get('text')).toBe(t.app.invite.text);
      });
    }
  }

  for (const language of behaviourLanguages) {
    it(`on the web copies the site's ?ref= link and says so where there is no share sheet (${language})`, async () => {
      const t = texts[language];
      const person = await createPerson(site.app, { name: language === 'ru' ? 'Вика' : 'Vicky' });
      const context = await site.context({ language });
      contexts.push(context);
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: site.app.url });
      // Headless Chromium on Linux has no share sheet; make sure, so the clipboard path is the one tested.
      await context.addInitScript(() => {
        Object.defineProperty(navigator, 'share', { value: undefined, configurable: true });
      });
      await signInAs(site, context, person.browser);
      const page = await context.newPage();
      page.setDefaultTimeout(20_000);
      // As the harness does: a 404 the app expects (a member asking whether they are an admin) is no error.
      watchErrors(page, errors);
      await page.goto('/Menu');
      await page.getByRole('button', { name: t.app.invite.button }).click();
      await page.getByRole('status').filter({ hasText: t.app.invite.copied }).waitFor();
      const link = await page.evaluate(() => navigator.clipboard.readText());
      expect(link).toBe(`http://localhost:8080/?ref=${await codeOf(person.userId)}`);
      await page.getByRole('button', { name: t.app.invite.button }).scrollIntoViewIfNeeded();
      await screenshot(page, `invite-web-${language}`);
    });
  }

  it("on the web hands the browser's share sheet (Web Share API) the ?ref= link where there is one", async () => {
    const person = await createPerson(site.app, { name: 'Ника' });
    const context = await site.context({ language: 'ru' });
    contexts.push(context);
    await context.addInitScript(() => {
      const shared: unknown[] = [];
      Object.assign(window, { __shared: shared });
      Object.defineProperty(navigator, 'share', {
        configurable: true,
        value: (data: unknown) => {
          shared.push(data);
          return Promise.resolve();
        },
      });
    });
    await signInAs(site, context, person.browser);
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    await page.goto('/Menu');
    await page.getByRole('button', { name: ru.app.invite.button }).click();
    const shared = () => page.evaluate(() => (window as unknown as { __shared: unknown[] }).__shared);
    // The code is made by the tap's request: read it only once the share sheet was handed the link.
    await expect.poll(async () => (await shared()).length).toBe(1);
    expect(await shared()).toEqual([
      { url: `http://localhost:8080/?ref=${await codeOf(person.userId)}`, text: ru.app.invite.text },
    ]);
    expect(await page.getByText(ru.app.invite.copied).count()).toBe(0);
  });

  it('counts a web visitor who arrived with ?ref= and then signed up, for the inviter', async () => {
    const inviter = await createPerson(site.app, { name: 'Рита' });
    const { code } = (await (await inviter.browser.post('/api/referral')).json()) as { code: string };
    const context = await site.context({ language: 'ru' });
    contexts.push(context);
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    // The code arrives on the landing page; the sign-up happens two screens later.
    await page.goto(`/?ref=${code}`);
    await page.locator('#main').getByRole('link', { name: ru.app.landing.tryNow, exact: true }).click();
    await page.waitForURL('**/register');
    const email = `invited-${Date.now()}@example.com`;
    await page.getByLabel(ru.app.auth.email).fill(email);
    await page.getByLabel(ru.app.auth.password).fill('spark2026!');
    await page.getByRole('checkbox').check();
    await page.getByRole('button', { name: ru.app.register.submit }).click();
    await page.waitForURL('**/verify');
    expect(codeFrom(await site.app.smtp.lastMailTo(email))).toMatch(/^\d{6}$/);
    const referral = await site.app.database.db
      .selectFrom('referrals')
      .innerJoin('users', 'users.id', 'referrals.referred_user_id')
      .select(['referrals.referrer_user_id', 'referrals.code'])
      .where('users.email', '=', email)
      .executeTakeFirst();
    expect(referral).toEqual({ referrer_user_id: inviter.userId, code });
  });

  it('counts the invitation once: the next person signing up in the same browser is not counted for the inviter', async () => {
    const inviter = await createPerson(site.app, { name: 'Вера' });
    const { code } = (await (await inviter.browser.post('/api/referral')).json()) as { code: string };
    const context = await site.context({ language: 'ru' });
    contexts.push(context);
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    const signUp = async (email: string) => {
      await page.getByLabel(ru.app.auth.email).fill(email);
      await page.getByLabel(ru.app.auth.password).fill('spark2026!');
      await page.getByRole('checkbox').check();
      await page.getByRole('button', { name: ru.app.register.submit }).click();
      await page.waitForURL('**/verify');
    };
    const referrerOf = async (email: string) =>
      (
        await site.app.database.db
          .selectFrom('referrals')
          .innerJoin('users', 'users.id', 'referrals.referred_user_id')
          .select('referrals.referrer_user_id')
          .where('users.email', '=', email)
          .executeTakeFirst()
      )?.referrer_user_id ?? null;
    await page.goto(`/register?ref=${code}`);
    const invited = `invited-first-${Date.now()}@example.com`;
    await signUp(invited);
    expect(await referrerOf(invited)).toBe(inviter.userId);
    // Signed out; a flatmate opens the site on the same browser, without any invitation, and signs up.
    await page.goto('/logout');
    await page.waitForURL((url) => url.pathname !== '/logout');
    await page.goto('/register');
    const flatmate = `flatmate-${Date.now()}@example.com`;
    await signUp(flatmate);
    expect(
      await site.app.database.db.selectFrom('users').select('id').where('email', '=', flatmate).executeTakeFirst(),
    ).toBeDefined();
    expect(await referrerOf(flatmate)).toBeNull();
  });

  it('asks Telegram for write access when notifications are turned on and the bot may not write yet', async () => {
    const writeAccessAsked = async (page: Page) =>
      (await telegramEvents(page)).some(([name]) => name === 'web_app_request_write_access');
    for (const allows of [false, true]) {
      const { person, telegramId } = await telegramPerson(allows ? 'Лиза' : 'Мила', 'ru');
      expect((await person.browser.post('/api/settings', { notifications: false })).status).toBe(200);
      const page = await openInTelegram({
        user: { id: telegramId, first_name: 'Мила', language_code: 'ru', allows_write_to_pm: allows },
      });
      const toggle = page.locator('input[data-setting="notifications"]');
      await expect.poll(() => toggle.isEnabled()).toBe(true);
      expect(await toggle.isChecked()).toBe(false);
      expect(await writeAccessAsked(page)).toBe(false);
      const saved = page.waitForResponse((r) => r.url().endsWith('/api/settings') && r.request().method() === 'POST');
      await toggle.check();
      expect((await saved).status()).toBe(200);
      if (allows) expect(await writeAccessAsked(page)).toBe(false);
      else await expect.poll(() => writeAccessAsked(page)).toBe(true);
    }
  });
});
