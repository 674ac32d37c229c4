import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import en from '../../locales/en.json' with { type: 'json' };
import ru from '../../locales/ru.json' with { type: 'json' };
import { createPerson, type Person } from '../../server/test/people.ts';
import { matchAndStartChat } from './flows/chat.ts';
import { dragCard } from './flows/search.ts';
import { expectAccessible, screenshot, startSite, type Site } from './harness.ts';
import { signInAs } from './signedIn.ts';

const texts = { ru, en } as const;

/**
 * The swiping, matches, likers and chat screens in dark mode: what a person sees at night, checked by axe
 * (colour contrast is one of its serious rules) and kept as screenshots to look at.
 */
// In English: its screens are English's pass over the swiping, matches, likers and chat screens (harness.ts).
describe.each(['en'] as const)('dark mode in %s', (language) => {
  const t = texts[language];
  let site: Site;
  let context: BrowserContext | undefined;
  let page: Page;
  let errors: string[];
  let me: Person;
  let friend: Person;

  beforeAll(async () => {
    site = await startSite();
    me = await createPerson(site.app, { name: 'Ночь', gender: 'Female', premium: true });
    friend = await createPerson(site.app, { name: 'Лев', gender: 'Male', photos: 2 });
    const conversation = await matchAndStartChat(me, friend);
    for (const content of ['Привет! Как прошёл день?', 'Отлично, была в горах 🏔']) {
      const sender = content.startsWith('Привет') ? friend : me;
      expect((await sender.browser.post(`/api/conversations/${conversation}/messages`, { content })).status).toBe(201);
    }
    // Someone who liked her (seen by name: she is premium) and someone new nearby, who liked her too.
    const admirer = await createPerson(site.app, { name: 'Марк', gender: 'Male' });
    expect((await admirer.browser.post('/api/like', { profile_id: me.profileId })).status).toBe(200);
    const nearby = await createPerson(site.app, { name: 'Олег', gender: 'Male', photos: 2 });
    expect((await nearby.browser.post('/api/like', { profile_id: me.profileId })).status).toBe(200);

    ({ context, page, errors } = await site.page({
      language,
      dark: true,
      prepare: (dark) => signInAs(site, dark, me.browser),
    }));
  });
  afterAll(async () => {
    await context?.close();
    await site.close();
  });

  it('search: the card, its bio, and the match overlay', async () => {
    await page.goto('/search');
    await page.locator('.swipe-card').waitFor();
    expect(await page.getAttribute('html', 'data-theme')).toBe('dark');
    await screenshot(page, `search-${language}-dark`);
    await expectAccessible(page, `search dark ${language}`);
    await dragCard(page, 0, -80);
    await page.locator('.swipe-bio').waitFor();
    await screenshot(page, `search-expanded-${language}-dark`);
    await dragCard(page, 0, 80);
    await page.locator('.swipe-bio').waitFor({ state: 'detached' });
    // Both people on the cards liked her: the first like is a match.
    await dragCard(page, 80);
    const overlay = page.getByRole('dialog', { name: t.app.matchOverlay.title });
    await overlay.waitFor();
    await screenshot(page, `match-overlay-${language}-dark`);
    await expectAccessible(page, `match overlay dark ${language}`);
    await overlay.getByRole('button', { name: t.app.common.close }).click();
  });

  it('matches, likers, the chat list and a conversation', async () => {
    await page.goto('/matches');
    await page.getByRole('link', { name: /Лев/ }).first().waitFor();
    await screenshot(page, `matches-${language}-dark`);
    await expectAccessible(page, `matches dark ${language}`);

    await page.goto('/WhoLike');
    // One of the two was matched on the search screen; the other still waits here.
    await page
      .getByRole('link', { name: /Марк|Олег/ })
      .first()
      .waitFor();
    await screenshot(page, `likers-${language}-dark`);
    await expectAccessible(page, `likers dark ${language}`);

    await page.goto('/ChatList');
    await page.getByText(t.app.chat.mine.replace('{{text}}', 'Отлично, была в горах 🏔')).waitFor();
    await screenshot(page, `chat-list-${language}-dark`);
    await expectAccessible(page, `chat list dark ${language}`);
    await page.getByRole('link', { name: /Лев/ }).first().click();
    await page.getByText('Привет! Как прошёл день?').waitFor();
    await screenshot(page, `chat-${language}-dark`);
    await expectAccessible(page, `chat dark ${language}`);
    expect(errors).toEqual([]);
  });
});
