import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import en from '../../locales/en.json' with { type: 'json' };
import ru from '../../locales/ru.json' with { type: 'json' };
import { createPerson } from '../../server/test/people.ts';
import { behaviourLanguages, screenshotLightAndDark, startSite, type Site } from './harness.ts';
import { signInAs } from './signedIn.ts';

const texts = { ru, en } as const;

/**
 * Issue 39, Web Push in the app: the menu's per-browser switch. The sandbox reaches no browser push service,
 * so PushManager.subscribe cannot succeed here: the server half is proven against a push-service stand-in
 * (server/features/push/push.test.ts); this checks the switch a person sees and what a refusal does.
 */
describe('Web Push in the menu', () => {
  let site: Site;
  beforeAll(async () => {
    // The full browser: the headless shell the other files share always denies notifications.
    site = await startSite({ chromium: 'full' });
  });
  afterAll(async () => {
    await site.close();
  });

  for (const language of behaviourLanguages) {
    it(`offers notifications in this browser once its service worker runs, and says so when the browser blocks them (${language})`, async () => {
      const t = texts[language].app.menu;
      const person = await createPerson(site.app, { name: 'Вера' });
      const { context, page } = await site.page({
        language,
        serviceWorkers: 'allow',
        prepare: (c) => signInAs(site, c, person.browser),
      });
      await page.goto('/Menu');
      await page.evaluate(async () => navigator.serviceWorker.ready);
      // The switch reads the worker's subscription: shown once the worker is there (a reload finds it at once).
      await page.reload();
      const push = page.getByRole('switch', { name: new RegExp(t.pushNotifications) });
      await expect.poll(() => push.isEnabled()).toBe(true);
      expect(await push.isChecked()).toBe(false);
      await push.scrollIntoViewIfNeeded();
      await screenshotLightAndDark(page, `web-push-switch-${language}`);
      // The browser refuses the permission: the switch stays off and says where to allow it.
      await page.evaluate(() => {
        Object.defineProperty(Notification, 'requestPermission', { value: () => Promise.resolve('denied') });
      });
      await push.click();
      await page.getByText(t.pushNotificationsDenied).waitFor();
      expect(await push.isChecked()).toBe(false);
      await context.close();
    });
  }

  it('counts what waits in the tab title, and drops the count once it is seen', async () => {
    const person = await createPerson(site.app, { name: 'Вера' });
    const admirer = await createPerson(site.app, { gender: 'Male' });
    expect((await admirer.browser.post('/api/like', { profile_id: person.profileId })).status).toBe(200);
    const { context, page } = await site.page({ language: 'ru', prepare: (c) => signInAs(site, c, person.browser) });
    await page.goto('/Menu');
    // One new liker: a background tab says so.
    await expect.poll(() => page.title()).toBe('(1) Искра · Iskra');
    // The Likes screen marks them seen: nothing waits any more.
    await page.goto('/WhoLike');
    await expect.poll(() => page.title()).toBe('Искра · Iskra');
    await context.close();
  });
});
