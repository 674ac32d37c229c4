import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import en from '../../locales/en.json' with { type: 'json' };
import ru from '../../locales/ru.json' with { type: 'json' };
import { registerThroughScreens } from './flows/accounts.ts';
import { expectMessage, loadedMessages, scrollUpForOlder, sendMessage } from './flows/chat.ts';
import { unmatchFromProfile } from './flows/matches.ts';
import { createProfileThroughWizard, makePhotoFiles } from './flows/profile.ts';
import { dragCard, topCardId } from './flows/search.ts';
import { screenshot, startSite, type Site } from './harness.ts';

/**
 * Two strangers, one in Russian and one in English, from the landing page to a conversation and back
 * apart: every screen of the app in the order a person meets them, against the real server.
 */
describe('two people meet', () => {
  let site: Site;
  const dir = mkdtempSync(path.join(tmpdir(), 'iskra-journey-'));
  const contexts: BrowserContext[] = [];
  const errors: string[] = [];
  let anna: Page;
  let boris: Page;
  let conversation = 0;

  async function person(language: 'ru' | 'en'): Promise<Page> {
    const { context, page } = await site.page({ language, errors });
    contexts.push(context);
    return page;
  }

  beforeAll(async () => {
    site = await startSite();
    anna = await person('ru');
    boris = await person('en');
  });
  afterAll(async () => {
    for (const context of contexts) await context.close();
    await site.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('register and build their profiles through the wizard with real photos', async () => {
    const files = await makePhotoFiles(dir);
    await registerThroughScreens(anna, site, 'ru', 'anna.journey@example.com');
    await createProfileThroughWizard(anna, {
      language: 'ru',
      name: 'Анна',
      age: 28,
      gender: 'Female',
      location: { city: 'Казань' },
      photos: [files.sideways, files.phone],
    });
    await registerThroughScreens(boris, site, 'en', 'boris.journey@example.com');
    await createProfileThroughWizard(boris, {
      language: 'en',
      name: 'Boris',
      age: 31,
      gender: 'Male',
      location: { city: 'Kazan' },
      photos: [files.phone],
    });
  });

  it('find each other by dragging the card, and the second like shows the match', async () => {
    await anna.goto('/search');
    await anna.locator('.swipe-card', { hasText: 'Boris' }).waitFor();
    const borisId = await topCardId(anna);
    await dragCard(anna, 90);
    await anna.getByText(ru.app.errors.noMoreProfiles).waitFor();

    await boris.goto('/search');
    await boris.locator('.swipe-card', { hasText: 'Анна' }).waitFor();
    await dragCard(boris, 90);
    const overlay = boris.getByRole('dialog', { name: en.app.matchOverlay.title });
    await overlay.waitFor();
    await screenshot(boris, 'journey-match');
    await overlay.getByRole('button', { name: en.app.matchOverlay.write_female }).click();
    await boris.waitForURL(/\/chat\/\d+$/);
    conversation = Number(new URL(boris.url()).pathname.split('/').pop());

    // Anna finds him among her matches and opens the same conversation from his profile.
    await anna.goto('/matches');
    await anna.getByRole('link', { name: /Boris/ }).click();
    await anna.waitForURL(`**/UsersProfile/${borisId}`);
    await anna.getByRole('button', { name: ru.app.matches.startChat }).click();
    await anna.waitForURL(`**/chat/${conversation}`);
  });

  it('talk live, and scroll back through the whole conversation', async () => {
    await boris.goto(`/chat/${conversation}`);
    await boris.getByText(en.app.chat.beginning.replace('{{name}}', 'Анна')).waitFor();
    await sendMessage(anna, 'ru', 'Привет! Как дела?');
    await expectMessage(boris, 'Привет! Как дела?');
    await sendMessage(boris, 'en', 'Hi Anna! Great, thanks');
    await expectMessage(anna, 'Hi Anna! Great, thanks');
    for (let i = 3; i <= 45; i++) {
      const [from, language] = i % 2 ? [anna, 'ru' as const] : [boris, 'en' as const];
      await sendMessage(from, language, `message ${i}`);
    }
    await expectMessage(anna, 'message 45');
    await expectMessage(boris, 'message 45');
    await screenshot(anna, 'journey-chat');

    await anna.reload();
    await expectMessage(anna, 'message 45');
    expect((await loadedMessages(anna)).length).toBe(20);
    const second = await scrollUpForOlder(anna);
    expect([second.loaded, second.jump < 2]).toEqual([40, true]);
    const third = await scrollUpForOlder(anna);
    expect([third.loaded, third.jump < 2]).toEqual([45, true]);
    expect((await loadedMessages(anna)).slice(0, 2)).toEqual(['Привет! Как дела?', 'Hi Anna! Great, thanks']);
  });

  it('unmatch, and disappear from each other’s lists', async () => {
    await anna.getByRole('link', { name: ru.app.chat.viewProfile.replace('{{name}}', 'Boris') }).click();
    await anna.waitForURL('**/UsersProfile/*');
    await unmatchFromProfile(anna, 'ru');
    await anna.getByText(ru.app.errors.noMatches).waitFor();
    await anna.goto('/ChatList');
    await anna.getByText(ru.app.errors.noChats).waitFor();
    await boris.goto('/matches');
    await boris.getByText(en.app.errors.noMatches).waitFor();
    await boris.goto('/ChatList');
    await boris.getByText(en.app.errors.noChats).waitFor();
    await boris.goto('/search');
    await boris.getByText(en.app.errors.noMoreProfiles).waitFor();
  });

  it('without a console error on the way', () => {
    expect(errors).toEqual([]);
  });
});
