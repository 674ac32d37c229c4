import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ru from '../../locales/ru.json' with { type: 'json' };
import { createPerson } from '../../server/test/people.ts';
import { recordApiRequests, startSite, type Site } from './harness.ts';
import { signInAs } from './signedIn.ts';

const eventsAnswered = (page: Page, status: number) =>
  page.waitForResponse(
    (response) => new URL(response.url()).pathname === '/api/events' && response.status() === status,
  );

describe('the live stream of a session that ended', () => {
  let site: Site;
  beforeAll(async () => {
    site = await startSite();
  });
  afterAll(async () => {
    await site.close();
  });

  it('stops at the 401 and lets the session layer sign the member out, rather than retrying it forever', async () => {
    const person = await createPerson(site.app, { name: 'Лиза' });
    const { context, page, errors } = await site.page({
      language: 'ru',
      prepare: (c) => signInAs(site, c, person.browser),
    });
    const opened = eventsAnswered(page, 200);
    await page.goto('/Menu');
    await page.getByRole('heading', { name: ru.app.menu.title }).waitFor();
    await opened;
    const requests = recordApiRequests(page);
    // Signed out on another device, and the stream cut (a restart): the browser's reconnection is answered 401.
    await site.app.database.db.deleteFrom('sessions').where('user_id', '=', person.userId).execute();
    // Whether the browser's own reconnection is answered 401 first, or Chromium gives the cut stream up at once
    // (a cut mid-response can end it as a failure), the app's one session check is what must notice.
    site.app.dropConnections();
    // Nothing else on the menu asks the server: only the stream's own check can tell the session layer.
    await page.waitForURL('**/login');
    await page.getByRole('heading', { name: ru.app.login.title }).waitFor();
    const streams = requests.calls().filter((c) => c === 'GET /api/events');
    requests.stop();
    // The browser's one reconnection, and no retry of an ended session after it.
    expect(streams.length).toBeLessThanOrEqual(2);
    expect(errors.filter((e) => !/401/.test(e))).toEqual([]);
    await context.close();
  });
});
