import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Browser } from '../../server/test/browser.ts';
import { createPerson, type Person } from '../../server/test/people.ts';
import { matchAndStartChat } from './flows/chat.ts';
import { screenshot, startSite, testConfig, type Site } from './harness.ts';
import { signInAs, signInVerified } from './signedIn.ts';

/**
 * The behaviour tests run in Russian, the default (harness.ts behaviourLanguages). This is English's one
 * pass over every screen: each opens, speaks English (no Cyrillic anywhere on it: every name here is
 * English), asks for no key the dictionary lacks (the harness fails the file on one) and is kept as a
 * screenshot (artifacts/screenshots/en-*.png).
 */
describe('every screen in English', () => {
  let site: Site;
  let me: Person;
  let friend: Person;
  let admirer: Person;
  let conversation: number;

  beforeAll(async () => {
    site = await startSite();
    me = await createPerson(site.app, { name: 'Nora', gender: 'Female', premium: true, photos: 2 });
    friend = await createPerson(site.app, { name: 'Leo', gender: 'Male', photos: 2 });
    conversation = await matchAndStartChat(me, friend);
    expect(
      (await friend.browser.post(`/api/conversations/${conversation}/messages`, { content: 'Hi! How was your day?' }))
        .status,
    ).toBe(201);
    admirer = await createPerson(site.app, { name: 'Mark', gender: 'Male', photos: 1 });
    expect((await admirer.browser.post('/api/like', { profile_id: me.profileId })).status).toBe(200);
    await createPerson(site.app, { name: 'Oscar', gender: 'Male', photos: 1 });
  });
  afterAll(async () => {
    await site.close();
  });

  /**
   * The screen has drawn its data: the app has drawn its first screen (not the landing's copy in the HTML,
   * bootLandingPlugin.ts), something is in its root and no loading state is left.
   */
  async function settled(page: Page): Promise<void> {
    await page.waitForFunction(() => {
      const root = document.getElementById('root');
      return (
        document.documentElement.dataset.ready === 'true' &&
        Boolean(root?.textContent?.trim()) &&
        !document.querySelector('.spinner, [role="status"] .spinner')
      );
    });
  }

  async function expectEnglish(page: Page, name: string): Promise<void> {
    await settled(page);
    expect(await page.getAttribute('html', 'lang'), name).toBe('en');
    // What is Russian on purpose: the legal name in the footer, the language switcher's own name for Russian,
    // and the city people typed (createPerson's, with no place to translate it by).
    let text = await page.evaluate(() => document.body.innerText);
    for (const allowed of [testConfig.legal_name ?? '', 'Русский', 'Москва']) text = text.replaceAll(allowed, '');
    expect(text.match(/[А-Яа-яЁё][^\n]*/g) ?? [], `${name}: Russian on an English screen`).toEqual([]);
    await screenshot(page, `en-${name}`);
  }

  it('the screens of a visitor', async () => {
    const { context, page, errors } = await site.page({ language: 'en' });
    for (const [route, name] of [
      ['/', 'landing'],
      ['/login', 'login'],
      ['/register', 'register'],
      ['/forgot-password', 'forgot-password'],
      ['/telegram', 'telegram'],
      ['/no-such-page', 'not-found'],
    ] as const) {
      await page.goto(route);
      await expectEnglish(page, name);
    }
    expect(errors).toEqual([]);
    await context.close();
  });

  it('the screens of a new account: the code and the profile wizard', async () => {
    const { context, page, errors } = await site.page({ language: 'en' });
    const unverified = new Browser(site.app.url);
    expect(
      (await unverified.post('/api/register', { email: 'english.unverified@example.com', password: 'spark2026!' }))
        .status,
    ).toBe(201);
    await signInAs(site, context, unverified);
    await page.goto('/verify');
    await expectEnglish(page, 'verify');
    await context.clearCookies();
    await signInVerified(site, context, 'english.newcomer@example.com');
    await page.goto('/CreateProfile');
    await expectEnglish(page, 'create-profile');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('the screens of a member', async () => {
    const { context, page, errors } = await site.page({
      language: 'en',
      prepare: (member) => signInAs(site, member, me.browser),
    });
    for (const [route, name] of [
      ['/search', 'search'],
      ['/matches', 'matches'],
      ['/WhoLike', 'likers'],
      [`/UsersProfile/${friend.profileId}`, 'match-profile'],
      [`/UsersProfileLiker/${admirer.profileId}`, 'liker-profile'],
      ['/ChatList', 'chat-list'],
      [`/chat/${conversation}`, 'chat'],
      ['/profile', 'own-profile'],
      ['/edit_profile', 'edit-profile'],
      ['/edit_photo', 'edit-photos'],
      ['/Menu', 'menu'],
      ['/account', 'account'],
      ['/subscription', 'subscription'],
      ['/training', 'training'],
      ['/verification', 'verification'],
      ['/successtrig', 'payment-success'],
      ['/failtrig', 'payment-failure'],
    ] as const) {
      await page.goto(route);
      await expectEnglish(page, name);
    }
    expect(errors).toEqual([]);
    await context.close();
  });
});
