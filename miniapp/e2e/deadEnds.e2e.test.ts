import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import en from '../../locales/en.json' with { type: 'json' };
import ru from '../../locales/ru.json' with { type: 'json' };
import { PremiumService } from '../../server/features/premium/service.ts';
import { createPerson, type Person } from '../../server/test/people.ts';
import { testSessionSecret } from '../../server/test/testApp.ts';
import { registerThroughScreens } from './flows/accounts.ts';
import { matchAndStartChat } from './flows/chat.ts';
import { phone, screenshot, startSite, testConfig, type Site, behaviourLanguages, behaviourThemes } from './harness.ts';
import { signInAs } from './signedIn.ts';

const texts = { ru, en } as const;
const botUsername = 'iskra_e2e_bot';
/** Apple's and Google's smallest comfortable touch target, in CSS pixels. */
const minTarget = 44;

/** Dead ends found walking through every screen as a person would (web). */
describe('dead ends on the web', () => {
  let site: Site;
  let premium: PremiumService;
  let nextTelegramId = 8_400_000_000;
  beforeAll(async () => {
    site = await startSite({ publicConfig: { ...testConfig, bot_username: botUsername } });
    premium = new PremiumService(site.app.database.db, 'sqlite', site.app.clock, testSessionSecret, true);
  });
  afterAll(async () => {
    await site.close();
  });

  const open = (person: Person, language: 'ru' | 'en', dark = false) =>
    site.page({ language, dark, prepare: (context) => signInAs(site, context, person.browser) });

  const linkTelegram = (person: Person) =>
    site.app.database.db
      .updateTable('users')
      .set({ telegram_id: String(++nextTelegramId) })
      .where('id', '=', person.userId)
      .execute();

  it('keeps the language chosen on the landing through sign-up: /verify and the wizard are English', async () => {
    // A Russian browser, nothing stored: the landing speaks Russian until the visitor picks English.
    const { context, page, errors } = await site.page();
    await page.goto('/');
    await page.getByRole('heading', { level: 1 }).waitFor();
    expect(await page.getAttribute('html', 'lang')).toBe('ru');
    await page.getByRole('group', { name: ru.app.language.label }).locator('button[lang="en"]').click();
    await expect.poll(() => page.getAttribute('html', 'lang')).toBe('en');
    const email = `chosen-en-${Date.now()}@example.com`;
    await registerThroughScreens(page, site, 'en', email);
    await page.getByRole('heading', { name: en.app.wizard.title }).waitFor();
    expect(await page.getAttribute('html', 'lang')).toBe('en');
    const account = await site.app.database.db
      .selectFrom('users')
      .select('language')
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    expect(account.language).toBe('en');
    await context.close();
    expect(errors).toEqual([]);
  });

  for (const language of behaviourLanguages) {
    for (const dark of behaviourThemes) {
      const mode = dark ? 'dark' : 'light';
      it(`links /telegram to the bot when BOT_USERNAME is set (${language}, ${mode})`, async () => {
        const t = texts[language];
        const { context, page, errors } = await site.page({ language, dark });
        await page.goto('/telegram');
        await page.getByText(t.app.telegram.title).waitFor();
        const link = page.getByRole('link', { name: t.app.telegram.openBot });
        expect(await link.getAttribute('href')).toBe(`https://t.me/${botUsername}`);
        await expectTouchTarget(link);
        await screenshot(page, `telegram-entry-${language}-${mode}`);
        await context.close();
        expect(errors).toEqual([]);
      });

      it(`does not congratulate on /successtrig without the caller's own paid payment (${language}, ${mode})`, async () => {
        const t = texts[language];
        // An anonymous visitor: nothing to confirm, and a way home.
        const visitor = await site.page({ language, dark });
        await visitor.page.goto('/successtrig');
        await visitor.page.getByRole('heading', { name: t.app.result.nothingTitle }).waitFor();
        expect(await visitor.page.getByRole('heading', { name: t.app.result.successTitle }).count()).toBe(0);
        await screenshot(visitor.page, `successtrig-anonymous-${language}-${mode}`);
        await visitor.page.getByRole('link', { name: t.app.result.backHome }).click();
        await visitor.page.waitForURL((url) => url.pathname === '/');
        await visitor.context.close();

        // A member: their own paid payment is confirmed; someone else's, or none, is not.
        const buyer = await createPerson(site.app);
        const other = await createPerson(site.app);
        const own = await premium.createPayment(buyer.userId, 249, 7);
        await premium.credit(own.id);
        const theirs = await premium.createPayment(other.userId, 249, 7);
        await premium.credit(theirs.id);
        const { context, page, errors } = await open(buyer, language, dark);
        await page.goto('/successtrig');
        await page.getByRole('heading', { name: t.app.result.nothingTitle }).waitFor();
        await page.getByRole('link', { name: t.app.result.backToMenu }).waitFor();
        await page.goto(`/successtrig?payment=${theirs.id}`);
        await page.getByRole('heading', { name: t.app.result.notFoundTitle }).waitFor();
        expect(await page.getByRole('heading', { name: t.app.result.successTitle }).count()).toBe(0);
        await page.goto(`/successtrig?payment=${own.id}`);
        await page.getByRole('heading', { name: t.app.result.successTitle }).waitFor();
        await screenshot(page, `successtrig-own-paid-${language}-${mode}`);
        await context.close();
        expect(errors).toEqual([]);
      });

      it(`shows a web-only member the Telegram notifications switch off, with the way to link Telegram (${language}, ${mode})`, async () => {
        const t = texts[language];
        const webOnly = await createPerson(site.app, { name: 'Вера' });
        const { context, page, errors } = await open(webOnly, language, dark);
        await page.goto('/Menu');
        const privateMode = page.getByRole('switch', { name: new RegExp(t.app.menu.privateMode) });
        await expect.poll(() => privateMode.isEnabled()).toBe(true);
        const notifications = page.getByRole('switch', { name: new RegExp(t.app.menu.notifications) });
        expect(await notifications.isChecked()).toBe(false);
        expect(await notifications.isDisabled()).toBe(true);
        await page.getByText(t.app.menu.notificationsNeedTelegram).waitFor();
        const link = page.getByRole('link', { name: t.app.menu.linkTelegram });
        await link.scrollIntoViewIfNeeded();
        await screenshot(page, `menu-web-only-notifications-${language}-${mode}`);
        await link.click();
        await page.waitForURL('**/account');

        // Once Telegram is linked, the switch is the real setting again.
        const linked = await createPerson(site.app, { name: 'Лида' });
        await linkTelegram(linked);
        const second = await open(linked, language, dark);
        await second.page.goto('/Menu');
        const theirs = second.page.getByRole('switch', { name: new RegExp(t.app.menu.notifications) });
        await expect.poll(() => theirs.isEnabled()).toBe(true);
        expect(await theirs.isChecked()).toBe(true);
        await second.context.close();
        await context.close();
        expect(errors).toEqual([]);
      });

      it(`shows Start chat on a match's profile without scrolling, above the tab bar (${language}, ${mode})`, async () => {
        const t = texts[language];
        const me = await createPerson(site.app, { name: 'Оля' });
        const match = await createPerson(site.app, { name: 'Кирилл', gender: 'Male', photos: 3 });
        await matchAndStartChat(me, match);
        const { context, page, errors } = await open(me, language, dark);
        await page.goto(`/UsersProfile/${match.profileId}`);
        const start = page.getByRole('button', { name: t.app.matches.startChat, exact: true });
        await start.waitFor();
        expect(await page.evaluate(() => window.scrollY)).toBe(0);
        const box = await start.boundingBox();
        const tabBar = await page.locator('nav.tabbar').boundingBox();
        expect(box).not.toBeNull();
        expect(tabBar).not.toBeNull();
        if (!box || !tabBar) return;
        expect(box.y + box.height).toBeLessThanOrEqual(tabBar.y);
        expect(box.y).toBeGreaterThanOrEqual(0);
        // Nothing covers it: a tap at its centre lands on it.
        expect(
          await page.evaluate(
            ([x, y]) => document.elementFromPoint(x ?? 0, y ?? 0)?.closest('button')?.textContent ?? null,
            [box.x + box.width / 2, box.y + box.height / 2],
          ),
        ).toBe(t.app.matches.startChat);
        await screenshot(page, `match-profile-start-chat-${language}-${mode}`);
        await context.close();
        expect(errors).toEqual([]);
      });
    }
  }

  it('makes every control on the deck, matches, a chat, the menu and a profile at least 44 px both ways (390×844)', async () => {
    const me = await createPerson(site.app, { name: 'Оля', at: [55.75, 37.61] });
    const match = await createPerson(site.app, { name: 'Кирилл', gender: 'Male', photos: 3, at: [55.76, 37.62] });
    await createPerson(site.app, { name: 'Денис', gender: 'Male', at: [55.75, 37.6] });
    const conversation = await matchAndStartChat(me, match);
    const { context, page, errors } = await open(me, 'ru');
    expect(page.viewportSize()).toEqual(phone);
    const small: string[] = [];

    await page.goto('/search');
    await page.locator('.info-button').first().waitFor();
    small.push(...(await smallTargets(page, '/search')));
    await screenshot(page, 'touch-targets-search-ru');

    await page.goto('/matches');
    await page.getByText('Кирилл').first().waitFor();
    small.push(...(await smallTargets(page, '/matches')));

    await page.goto(`/chat/${conversation}`);
    await page.getByRole('textbox').waitFor();
    small.push(...(await smallTargets(page, '/chat')));

    await page.goto('/Menu');
    await expect
      .poll(() => page.getByRole('switch', { name: new RegExp(ru.app.menu.privateMode) }).isEnabled())
      .toBe(true);
    small.push(...(await smallTargets(page, '/Menu')));
    await screenshot(page, 'touch-targets-menu-ru');

    await page.goto(`/UsersProfile/${match.profileId}`);
    await page.getByRole('button', { name: ru.app.matches.startChat, exact: true }).waitFor();
    small.push(...(await smallTargets(page, '/UsersProfile')));

    expect(small).toEqual([]);
    await context.close();
    expect(errors).toEqual([]);
  });
});

/** A tappable control is at least minTarget × minTarget. */
async function expectTouchTarget(control: Locator): Promise<void> {
  const box = await control.boundingBox();
  expect(box?.width).toBeGreaterThanOrEqual(minTarget);
  expect(box?.height).toBeGreaterThanOrEqual(minTarget);
}

/**
 * The visible controls on the page (buttons, links that are not inside running text, switches, checkboxes
 * and selects, measured by their tappable box: a control's label counts) smaller than minTarget either
 * way, as "screen: name W×H".
 */
function smallTargets(page: Page, screen: string): Promise<string[]> {
  return page.evaluate(
    ([min, where]) => {
      const found: string[] = [];
      const controls = document.querySelectorAll<HTMLElement>(
        'button, a[href], input[type="checkbox"], input[type="radio"], select, [role="button"]',
      );
      for (const control of Array.from(controls)) {
        const style = getComputedStyle(control);
        if (style.visibility === 'hidden' || style.display === 'none') continue;
        // The skip link is off screen until focused; a link inside a sentence is exempt (WCAG 2.5.8).
        if (control.classList.contains('skip-link')) continue;
        if (control.tagName === 'A' && control.closest('p, li.inline, small') && style.display === 'inline') continue;
        // A switch or checkbox is tapped through its whole label row.
        const target = control instanceof HTMLInputElement ? (control.closest('label') ?? control) : control;
        const box = target.getBoundingClientRect();
        if (box.width === 0 && box.height === 0) continue;
        if (box.width < min || box.height < min) {
          const name = control.getAttribute('aria-label') ?? control.textContent.trim().slice(0, 30);
          found.push(
            `${where}: ${control.tagName.toLowerCase()}.${control.className} "${name}" ${Math.round(box.width)}×${Math.round(box.height)}`,
          );
        }
      }
      return found;
    },
    [minTarget, screen] as const,
  );
}
