import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ru from '../../locales/ru.json' with { type: 'json' };
import { createPerson, type Person } from '../../server/test/people.ts';
import { matchAndStartChat } from './flows/chat.ts';
import { screenshot, startSite, type Site } from './harness.ts';
import { signInAs } from './signedIn.ts';

/** Resolves once the page's live stream has been answered: later events reach it. */
const streamOpened = (page: Page) =>
  page.waitForResponse((response) => new URL(response.url()).pathname === '/api/events');

describe('message toasts and the match overlay', () => {
  let site: Site;
  const contexts: BrowserContext[] = [];
  const errors: string[] = [];
  beforeAll(async () => {
    site = await startSite();
  });
  afterAll(async () => {
    for (const context of contexts) await context.close();
    await site.close();
    expect(errors).toEqual([]);
  });

  async function open(person: Person, path: string): Promise<Page> {
    const { context, page } = await site.page({
      language: 'ru',
      errors,
      prepare: (c) => signInAs(site, c, person.browser),
    });
    contexts.push(context);
    const stream = streamOpened(page);
    await page.goto(path);
    await stream;
    return page;
  }

  it('keeps a toast while it is focused or hovered, and lets it go some time after', async () => {
    const nina = await createPerson(site.app, { name: 'Нина', gender: 'Female' });
    const oleg = await createPerson(site.app, { name: 'Олег', gender: 'Male' });
    const pavel = await createPerson(site.app, { name: 'Павел', gender: 'Male' });
    const withOleg = await matchAndStartChat(nina, oleg);
    const withPavel = await matchAndStartChat(nina, pavel);
    const page = await open(nina, '/Menu');
    // Time is the page's fake clock from here: the test moves it, rather than waiting it out.
    await page.clock.install();
    const toasts = page.getByRole('log', { name: ru.app.toasts.label });
    expect((await oleg.browser.post(`/api/conversations/${withOleg}/messages`, { content: 'Ты тут?' })).status).toBe(
      201,
    );
    const fromOleg = toasts.getByRole('link', { name: /Олег/ });
    await fromOleg.waitFor();
    await fromOleg.focus();
    await page.clock.runFor(30_000);
    expect(await fromOleg.count()).toBe(1);
    await screenshot(page, 'toast-held-ru');
    // Focus leaves: the toast goes after a while.
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.clock.runFor(6_000);
    await fromOleg.waitFor({ state: 'detached' });

    expect((await pavel.browser.post(`/api/conversations/${withPavel}/messages`, { content: 'Привет!' })).status).toBe(
      201,
    );
    const fromPavel = toasts.getByRole('link', { name: /Павел/ });
    await fromPavel.waitFor();
    await fromPavel.hover();
    await page.clock.runFor(30_000);
    expect(await fromPavel.count()).toBe(1);
    await page.mouse.move(5, 800);
    await page.clock.runFor(6_000);
    await fromPavel.waitFor({ state: 'detached' });
  });

  it('announces a new match with someone whose earlier match ended in this session', async () => {
    const vera = await createPerson(site.app, { name: 'Вера', gender: 'Female' });
    const yuri = await createPerson(site.app, { name: 'Юрий', gender: 'Male' });
    const page = await open(vera, '/Menu');
    const overlay = page.getByRole('dialog', { name: ru.app.matchOverlay.title });
    const match = async () => {
      expect((await vera.browser.post('/api/like', { profile_id: yuri.profileId })).status).toBe(200);
      expect((await yuri.browser.post('/api/like', { profile_id: vera.profileId })).status).toBe(200);
    };
    await match();
    await overlay.waitFor();
    await overlay.getByRole('button', { name: ru.app.common.close }).click();
    await overlay.waitFor({ state: 'detached' });
    // He unmatches: her stream tells her before anything that comes after (one stream, in order).
    expect((await yuri.browser.post('/api/unmatch', { profile_id: vera.profileId })).status).toBe(200);
    // Later they match again: what the server does once their old match and swipes are gone.
    await site.app.database.db
      .deleteFrom('matches')
      .where((eb) => eb.or([eb('profile_low', '=', vera.profileId), eb('profile_high', '=', vera.profileId)]))
      .execute();
    await site.app.database.db
      .deleteFrom('swipes')
      .where((eb) => eb.or([eb('swiper_id', '=', vera.profileId), eb('target_id', '=', vera.profileId)]))
      .execute();
    await match();
    await overlay.waitFor();
    await overlay.getByText(ru.app.matchOverlay.text_female.replace('{{name}}', 'Юрий')).waitFor();
    await screenshot(page, 'match-again-ru');
  });
});
