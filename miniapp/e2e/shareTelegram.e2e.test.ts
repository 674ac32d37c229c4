import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import en from '../../locales/en.json' with { type: 'json' };
import ru from '../../locales/ru.json' with { type: 'json' };
import { createPerson, type Person } from '../../server/test/people.ts';
import { matchAndStartChat } from './flows/chat.ts';
import { behaviourLanguages, expectAccessible, screenshotLightAndDark, startSite, type Site } from './harness.ts';
import { signInAs } from './signedIn.ts';

const texts = { ru, en } as const;
/** The profile's end, where the Telegram card sits above Unmatch, in view for a screenshot. */
const scrollToEnd = (page: Page) => page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));

/** Issue 39, point 5: "Share my Telegram" on a match's profile and in the chat's ⋯ menu. */
describe('the @username swap in the app', () => {
  let site: Site;
  beforeAll(async () => {
    site = await startSite();
  });
  afterAll(async () => {
    await site.close();
  });

  let usernames = 0;
  const withUsername = async (person: Person, username: string | null) => {
    await site.app.database.db
      .updateTable('users')
      .set({ telegram_id: String(8_700_000_000 + person.userId), telegram_username: username })
      .where('id', '=', person.userId)
      .execute();
  };

  for (const language of behaviourLanguages) {
    it(`shares, shows the other's @username once both did, and takes it back from the chat menu (${language})`, async () => {
      const t = texts[language].app.usernameShare;
      const masha = await createPerson(site.app, { name: 'Маша' });
      const petya = await createPerson(site.app, { name: 'Петя', gender: 'Male' });
      const petyaUsername = `petya_${language}_${++usernames}`;
      await withUsername(masha, `masha_${language}_${usernames}`);
      await withUsername(petya, petyaUsername);
      const conversation = await matchAndStartChat(masha, petya);
      const { context, page, errors } = await site.page({ language, prepare: (c) => signInAs(site, c, masha.browser) });

      await page.goto(`/UsersProfile/${petya.profileId}`);
      const card = page.locator('section.share-telegram');
      await card.getByText(t.intro.replace('{{name}}', 'Петя')).waitFor();
      await scrollToEnd(page);
      await screenshotLightAndDark(page, `reach-share-none-${language}`);
      await expectAccessible(page, `share telegram ${language}`);

      await card.getByRole('button', { name: t.share }).click();
      await card.getByText(t.waiting.replace('{{name}}', 'Петя')).waitFor();
      expect(await card.getByRole('link').count()).toBe(0);

      // Petya shares too: Masha sees his username and a link to write to him.
      expect((await petya.browser.post('/api/share_username', { profile_id: masha.profileId })).status).toBe(200);
      await page.reload();
      const link = card.getByRole('link', { name: t.open.replace('{{username}}', petyaUsername) });
      await link.waitFor();
      expect(await link.getAttribute('href')).toBe(`https://t.me/${petyaUsername}`);
      await scrollToEnd(page);
      await screenshotLightAndDark(page, `reach-share-swapped-${language}`);

      // The chat's ⋯ menu holds the same control: taking it back there hides both usernames.
      await page.goto(`/chat/${conversation}`);
      await page.getByRole('button', { name: texts[language].app.safety.open.replace('{{name}}', 'Петя') }).click();
      const inMenu = page.locator('dialog section.share-telegram');
      await inMenu.getByRole('link', { name: t.open.replace('{{username}}', petyaUsername) }).waitFor();
      await screenshotLightAndDark(page, `reach-share-chat-menu-${language}`);
      await inMenu.getByRole('button', { name: t.revoke }).click();
      await inMenu.getByRole('button', { name: t.share }).waitFor();
      expect(await inMenu.getByRole('link').count()).toBe(0);
      const seenByPetya = (await (
        await petya.browser.get(`/api/users_profile?profile_id=${masha.profileId}`)
      ).json()) as {
        users_profile: { telegram_username: string | null };
      };
      expect(seenByPetya.users_profile.telegram_username).toBeNull();
      await context.close();
      expect(errors).toEqual([]);
    });
  }

  it('tells someone without a Telegram username how to set one, with no share button', async () => {
    const t = texts.ru.app.usernameShare;
    const web = await createPerson(site.app, { name: 'Оля' });
    const other = await createPerson(site.app, { name: 'Гриша', gender: 'Male' });
    await withUsername(other, 'grisha_here');
    await matchAndStartChat(web, other);
    const { context, page } = await site.page({ language: 'ru', prepare: (c) => signInAs(site, c, web.browser) });
    await page.goto(`/UsersProfile/${other.profileId}`);
    const card = page.locator('section.share-telegram');
    await card.getByText(t.noUsername).waitFor();
    expect(await card.getByRole('button', { name: t.share }).count()).toBe(0);
    await scrollToEnd(page);
    await screenshotLightAndDark(page, 'reach-share-no-username-ru');
    await context.close();
  });
});
