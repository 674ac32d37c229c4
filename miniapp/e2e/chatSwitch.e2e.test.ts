import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import en from '../../locales/en.json' with { type: 'json' };
import { createPerson, type Person } from '../../server/test/people.ts';
import { expectMessage, matchAndStartChat, sendMessage } from './flows/chat.ts';
import { startSite, type Site } from './harness.ts';
import { signInAs } from './signedIn.ts';

/**
 * One conversation to another without leaving the chat screen (a toast, then the browser's Back): the
 * route stays mounted, so the composer must not carry a draft or an unsent message across.
 */
describe('switching conversations in place', () => {
  let site: Site;
  let ann: Person;
  let boris: Person;
  let carl: Person;
  let withBoris: number;
  let withCarl: number;
  let context: BrowserContext;
  let page: Page;
  const errors: string[] = [];

  beforeAll(async () => {
    site = await startSite();
    ann = await createPerson(site.app, { name: 'Анна', gender: 'Female', premium: true });
    boris = await createPerson(site.app, { name: 'Борис', gender: 'Male', premium: true });
    carl = await createPerson(site.app, { name: 'Карл', gender: 'Male', premium: true });
    withBoris = await matchAndStartChat(ann, boris);
    withCarl = await matchAndStartChat(ann, carl);
    expect(
      (await boris.browser.post(`/api/conversations/${withBoris}/messages`, { content: 'от Бориса' })).status,
    ).toBe(201);
    ({ context, page } = await site.page({ language: 'en', errors, prepare: (c) => signInAs(site, c, ann.browser) }));
  });

  afterAll(async () => {
    await context.close();
    await site.close();
  });

  async function stored(conversation: number, content: string): Promise<number> {
    const res = await ann.browser.get(`/api/conversations/${conversation}/messages?limit=50`);
    const body = (await res.json()) as { messages: { content: string }[] };
    return body.messages.filter((m) => m.content === content).length;
  }

  it('never sends a message left unsent offline in one conversation to the next one', async () => {
    const stream = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/events');
    await page.goto(`/chat/${withBoris}`);
    await expectMessage(page, 'от Бориса');
    await stream;
    // Carl writes: a toast, which opens his conversation on the same screen.
    expect((await carl.browser.post(`/api/conversations/${withCarl}/messages`, { content: 'от Карла' })).status).toBe(
      201,
    );
    await page.getByRole('log', { name: en.app.toasts.label }).getByRole('link', { name: /Карл/ }).click();
    await page.waitForURL(`**/chat/${withCarl}`);
    await expectMessage(page, 'от Карла');
    const box = page.getByLabel(en.app.chat.placeholder, { exact: true });
    const forCarl = 'только для Карла';
    await context.setOffline(true);
    await box.fill(forCarl);
    await box.press('Enter');
    await page.getByRole('alert').filter({ hasText: en.app.chat.offlinePending }).waitFor();
    // Back to Boris (still offline): his box is empty, with no notice about Carl's message.
    await page.goBack();
    await page.waitForURL(`**/chat/${withBoris}`);
    await expectMessage(page, 'от Бориса');
    expect(await box.inputValue()).toBe('');
    expect(await page.getByRole('alert').filter({ hasText: en.app.chat.offlinePending }).count()).toBe(0);
    // Online again: nothing of Carl's goes to Boris (a message sent after it arrives, and it is not there).
    await context.setOffline(false);
    await sendMessage(page, 'en', 'для Бориса');
    expect(await stored(withBoris, 'для Бориса')).toBe(1);
    expect(await stored(withBoris, forCarl)).toBe(0);
    expect(await page.locator('.bubble-text', { hasText: forCarl }).count()).toBe(0);
  });
});
