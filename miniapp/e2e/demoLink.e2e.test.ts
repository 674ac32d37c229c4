import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ru from '../../locales/ru.json' with { type: 'json' };
import { demoTelegramLink, demoTelegramUser } from '../../scripts/demoTelegram.ts';
import { createPerson } from '../../server/test/people.ts';
import { e2eBotToken, screenshot, startSite, type Site } from './harness.ts';

/**
 * `npm run demo`'s link in a plain browser tab (no Telegram client around the page): the app runs as
 * inside Telegram, signed in as the demo account, in Telegram's dark theme, without the web site's parts.
 */
describe("npm run demo's Mini App link in a plain browser", () => {
  let site: Site;
  const errors: string[] = [];
  beforeAll(async () => {
    site = await startSite();
  });
  afterAll(async () => {
    await site.close();
    expect(errors).toEqual([]);
  });

  it('opens the deck signed in as the demo account, emulating the Telegram client', async () => {
    const demo = await createPerson(site.app, { name: 'Демо', gender: 'Male' });
    await site.app.database.db
      .updateTable('users')
      .set({ telegram_id: String(demoTelegramUser.id) })
      .where('id', '=', demo.userId)
      .execute();
    // Signed as scripts/demo.ts signs it, with the token this server checks (the demo run makes one up).
    const link = await demoTelegramLink(site.app.url, e2eBotToken);
    const { context, page } = await site.page({ errors });
    try {
      await page.goto(link);
      await page.getByRole('region', { name: ru.app.search.title }).waitFor();
      expect(new URL(page.url()).pathname).toBe('/search');
      expect(await page.getAttribute('html', 'data-platform')).toBe('telegram');
      expect(await page.getAttribute('html', 'data-theme')).toBe('dark');
      expect(await page.locator('.landing, footer, a[href="/login"]').count()).toBe(0);
      // The app's calls to Telegram land in the emulated host (it became ready, for one).
      await expect
        .poll(() =>
          page.evaluate(() => (window as unknown as { __telegramEvents?: unknown[] }).__telegramEvents?.length ?? 0),
        )
        .toBeGreaterThan(0);
      await screenshot(page, 'demo-link-plain-browser');
    } finally {
      await context.close();
    }
  });
});
