import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import en from '../../locales/en.json' with { type: 'json' };
import ru from '../../locales/ru.json' with { type: 'json' };
import { createPerson, type Person } from '../../server/test/people.ts';
import { blockFromSafetyMenu } from './flows/matches.ts';
import { expectMessage, loadedMessages, matchAndStartChat, scrollUpForOlder, sendMessage } from './flows/chat.ts';
import { testPassword } from '../../server/test/accounts.ts';
import {
  expectAccessible,
  screenshot,
  screenshotLightAndDark,
  startSite,
  type Site,
  behaviourLanguages,
} from './harness.ts';
import { signInAs } from './signedIn.ts';

const texts = { ru, en } as const;

describe.each(behaviourLanguages)('chat in %s', (language) => {
  const t = texts[language];
  let site: Site;
  let ann: Person;
  let boris: Person;
  let conversation: number;
  const contexts: BrowserContext[] = [];
  let annPage: Page;
  let borisPage: Page;
  let errors: string[];

  async function open(person: Person): Promise<Page> {
    const { context, page } = await site.page({
      language,
      errors,
      prepare: (context) => signInAs(site, context, person.browser),
    });
    contexts.push(context);
    return page;
  }

  beforeAll(async () => {
    site = await startSite();
    errors = [];
    ann = await createPerson(site.app, { name: 'Анна', gender: 'Female', premium: true });
    boris = await createPerson(site.app, { name: 'Борис', gender: 'Male', premium: true });
    conversation = await matchAndStartChat(ann, boris);
    // 45 messages, the last one from Boris (so Ann has something unread).
    for (let i = 1; i <= 45; i++) {
      const from = i % 2 ? boris : ann;
      const sent = await from.browser.post(`/api/conversations/${conversation}/messages`, { content: `message ${i}` });
      expect(sent.status).toBe(201);
    }
    annPage = await open(ann);
    borisPage = await open(boris);
  });

  afterAll(async () => {
    for (const context of contexts) await context.close();
    await site.close();
  });

  it('lists the conversation with its last message and an unread mark, and clears it once read', async () => {
    await annPage.goto('/ChatList');
    const row = annPage.getByRole('link', { name: /Борис/ });
    await row.waitFor();
    expect(await row.textContent()).toContain('message 45');
    expect(await row.getByRole('img', { name: t.app.chat.unread }).count()).toBe(1);
    await screenshot(annPage, `chat-list-${language}`);
    await expectAccessible(annPage, `chat list ${language}`);
    await row.click();
    await annPage.waitForURL(`**/chat/${conversation}`);
    await expectMessage(annPage, 'message 45');
    await annPage.goto('/ChatList');
    await annPage.getByRole('link', { name: /Борис/ }).waitFor();
    expect(await annPage.getByRole('img', { name: t.app.chat.unread }).count()).toBe(0);
  });

  it('opens on the latest 20 at the bottom and scrolls back through all 45 without jumping', async () => {
    await annPage.goto(`/chat/${conversation}`);
    await expectMessage(annPage, 'message 45');
    expect(await loadedMessages(annPage)).toEqual(Array.from({ length: 20 }, (_, i) => `message ${i + 26}`));
    const atBottom = await annPage
      .locator('.message-list')
      .evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight);
    expect(atBottom).toBeLessThan(2);
    await screenshot(annPage, `chat-${language}`);
    await expectAccessible(annPage, `chat ${language}`);

    const second = await scrollUpForOlder(annPage);
    expect(second.loaded).toBe(40);
    expect(second.jump).toBeLessThan(2);
    const third = await scrollUpForOlder(annPage);
    expect(third.loaded).toBe(45);
    expect(third.jump).toBeLessThan(2);
    expect(await loadedMessages(annPage)).toEqual(Array.from({ length: 45 }, (_, i) => `message ${i + 1}`));
    await annPage.getByText(t.app.chat.beginning.replace('{{name}}', 'Борис')).waitFor();
  });

  it('delivers messages live both ways, with read marks, and never sends an empty one', async () => {
    await borisPage.goto(`/chat/${conversation}`);
    await expectMessage(borisPage, 'message 45');
    await annPage.goto(`/chat/${conversation}`);
    await expectMessage(annPage, 'message 45');

    const fromAnn = `${language}: привет, Борис!`;
    await sendMessage(annPage, language, fromAnn);
    await expectMessage(borisPage, fromAnn);
    // Boris has it on screen, so it is read: Ann's tick turns into "read" without a reload.
    const annBubble = annPage.locator('.bubble.mine', { hasText: fromAnn });
    await annBubble.getByRole('img', { name: t.app.chat.read }).waitFor();

    const fromBoris = `${language}: привет, Анна!\nкак дела?`;
    await borisPage.getByLabel(t.app.chat.placeholder, { exact: true }).fill(fromBoris);
    await borisPage.getByLabel(t.app.chat.placeholder, { exact: true }).press('Enter');
    await expectMessage(annPage, 'как дела?');
    // The box empties when the send is answered, which may come after the live event reached Ann.
    await expect.poll(() => borisPage.getByLabel(t.app.chat.placeholder, { exact: true }).inputValue()).toBe('');

    // Whitespace only: the button stays disabled and Enter sends nothing.
    const count = (await loadedMessages(annPage)).length;
    await annPage.getByLabel(t.app.chat.placeholder, { exact: true }).fill('   \n  ');
    expect(await annPage.getByRole('button', { name: t.app.chat.send }).isDisabled()).toBe(true);
    await annPage.getByLabel(t.app.chat.placeholder, { exact: true }).press('Enter');
    await annPage.waitForTimeout(300);
    expect((await loadedMessages(annPage)).length).toBe(count);
    const stored = (await (await ann.browser.get(`/api/conversations/${conversation}/messages?limit=1`)).json()) as {
      messages: { content: string }[];
    };
    expect(stored.messages[0]?.content).toBe(fromBoris);
    await screenshot(borisPage, `chat-live-${language}`);
  });

  it('catches up by itself after the connection drops', async () => {
    await annPage.goto(`/chat/${conversation}`);
    await expectMessage(annPage, 'message 45');
    // The server cuts every connection; a message sent before the tab reconnects must still arrive.
    site.app.dropConnections();
    // Our own test client's pooled connection was cut too: let it notice before the next request.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const whileAway = `${language}: пока тебя не было`;
    expect(
      (await boris.browser.post(`/api/conversations/${conversation}/messages`, { content: whileAway })).status,
    ).toBe(201);
    await expectMessage(annPage, whileAway, 20_000);
    // And the stream works again afterwards.
    const after = `${language}: снова на связи`;
    expect((await boris.browser.post(`/api/conversations/${conversation}/messages`, { content: after })).status).toBe(
      201,
    );
    await expectMessage(annPage, after, 10_000);
  });

  it('counts a message read when the person leaves the moment it shows', async () => {
    await annPage.goto(`/chat/${conversation}`);
    await expectMessage(annPage, 'message 45');
    const unreadChats = async () =>
      ((await (await ann.browser.get('/api/badges')).json()) as { unread_chats: number }).unread_chats;
    await expect.poll(unreadChats).toBe(0);
    // Ann taps back in the same task that shows Boris's message: well inside the marks' 300 ms wait.
    const text = `${language}: я на минутку`;
    await annPage.evaluate(
      ({ text, back }) => {
        const observer = new MutationObserver(() => {
          const shown = Array.from(document.querySelectorAll('.bubble-text')).some((b) =>
            b.textContent?.includes(text),
          );
          if (!shown) return;
          observer.disconnect();
          document.querySelector<HTMLElement>(`a[aria-label="${back}"]`)?.click();
        });
        observer.observe(document.body, { childList: true, subtree: true, characterData: true });
      },
      { text, back: t.app.chat.backToChats },
    );
    expect((await boris.browser.post(`/api/conversations/${conversation}/messages`, { content: text })).status).toBe(
      201,
    );
    await annPage.waitForURL('**/ChatList');
    // She saw it: the server has it read, so neither her badge nor Boris's ticks say otherwise.
    await expect.poll(unreadChats).toBe(0);
  });

  it('lands in the conversation when opened from a bot notification button (startapp=chat_<id>)', async () => {
    await borisPage.goto(`/?startapp=chat_${conversation}`);
    await borisPage.waitForURL(`**/chat/${conversation}`);
    await expectMessage(borisPage, 'message 45');
    // Once only: going home afterwards stays home.
    await borisPage.getByRole('link', { name: t.app.chat.backToChats }).click();
    await borisPage.waitForURL('**/ChatList');
  });

  it('blocks from the chat header: the conversation leaves both lists', async () => {
    const kate = await createPerson(site.app, { name: 'Катя', gender: 'Female', premium: true });
    const max = await createPerson(site.app, { name: 'Макс', gender: 'Male', premium: true });
    const id = await matchAndStartChat(kate, max);
    const page = await open(kate);
    await page.goto(`/chat/${id}`);
    await page.getByText(t.app.chat.beginning.replace('{{name}}', 'Макс')).waitFor();
    await blockFromSafetyMenu(page, language, 'Макс');
    await page.waitForURL('**/ChatList');
    await page.getByText(t.app.errors.noChats).waitFor();
    expect((await max.browser.get(`/api/conversations/${id}/messages`)).status).toBe(404);
  });

  /** How many of the conversation's newest 50 messages have exactly this text (as the server holds them). */
  async function storedCount(content: string): Promise<number> {
    const res = await ann.browser.get(`/api/conversations/${conversation}/messages?limit=50`);
    const page = (await res.json()) as { messages: { content: string }[] };
    return page.messages.filter((m) => m.content === content).length;
  }

  it('keeps text sent while offline, says so, and delivers it once when the connection is back', async () => {
    const context = contexts[1];
    if (!context) throw new Error('no context for Boris');
    await annPage.goto(`/chat/${conversation}`);
    await expectMessage(annPage, 'message 45');
    await borisPage.goto(`/chat/${conversation}`);
    await expectMessage(borisPage, 'message 45');
    const box = borisPage.getByLabel(t.app.chat.placeholder, { exact: true });
    const text = `${language}: написано без сети`;
    await context.setOffline(true);
    await box.fill(text);
    await box.press('Enter');
    const notice = borisPage.getByRole('alert').filter({ hasText: t.app.chat.offlinePending });
    await notice.waitFor();
    expect(await box.inputValue()).toBe(text);
    await borisPage.getByRole('button', { name: t.app.chat.sendAgain }).waitFor();
    await screenshotLightAndDark(borisPage, `chat-offline-${language}`);
    // Back online: the notice goes, the text is sent by itself, and Ann sees it.
    await context.setOffline(false);
    await notice.waitFor({ state: 'detached' });
    await expectMessage(annPage, text);
    await expect.poll(() => box.inputValue()).toBe('');
    await expectMessage(borisPage, text);
    expect(await borisPage.locator('.bubble-text', { hasText: text }).count()).toBe(1);
    expect(await annPage.locator('.bubble-text', { hasText: text }).count()).toBe(1);
    expect(await storedCount(text)).toBe(1);
  });

  it('sends again under the same key when the answer was lost, so the message arrives once', async () => {
    // The live stream open first, and no new one until "Send again" is tapped: a stream opening resends by
    // itself, and one opening just after the unroute below would take the button away before the click.
    const stream = borisPage.waitForResponse((response) => new URL(response.url()).pathname === '/api/events');
    await borisPage.goto(`/chat/${conversation}`);
    await expectMessage(borisPage, 'message 45');
    await stream;
    await borisPage.route('**/api/events*', (route) => route.abort());
    const text = `${language}: ответ потерялся`;
    // The request reaches the real server and is written; its answer never reaches the page.
    let reached = 0;
    await borisPage.route(`**/api/conversations/${conversation}/messages`, async (route) => {
      if (route.request().method() !== 'POST') return route.fallback();
      reached++;
      await route.fetch();
      await route.abort('connectionreset');
    });
    const box = borisPage.getByLabel(t.app.chat.placeholder, { exact: true });
    await box.fill(text);
    await box.press('Enter');
    await borisPage.getByRole('alert').filter({ hasText: t.app.chat.offlinePending }).waitFor();
    expect(reached).toBeGreaterThanOrEqual(1);
    expect(await storedCount(text)).toBe(1);
    expect(await box.inputValue()).toBe(text);
    await borisPage.unroute(`**/api/conversations/${conversation}/messages`);
    await borisPage.getByRole('button', { name: t.app.chat.sendAgain }).click();
    await borisPage.unroute('**/api/events*');
    await expect.poll(() => box.inputValue()).toBe('');
    await expect.poll(() => borisPage.getByRole('alert').count()).toBe(0);
    await expectMessage(borisPage, text);
    expect(await borisPage.locator('.bubble-text', { hasText: text }).count()).toBe(1);
    expect(await storedCount(text)).toBe(1);
  });

  it('says so when the other person deletes their account, with no composer and no retry', async () => {
    const lena = await createPerson(site.app, { name: 'Лена', gender: 'Female', premium: true });
    const oleg = await createPerson(site.app, { name: 'Олег', gender: 'Male', premium: true });
    const id = await matchAndStartChat(lena, oleg);
    expect((await oleg.browser.post(`/api/conversations/${id}/messages`, { content: 'привет' })).status).toBe(201);
    const page = await open(lena);
    await page.goto(`/chat/${id}`);
    await expectMessage(page, 'привет');
    // Oleg deletes his account while Lena has the conversation open: it says so at once (the live event).
    expect((await oleg.browser.post('/api/delete_account', { password: testPassword })).status).toBe(200);
    const notice = page.getByRole('heading', { name: t.app.chat.partnerDeletedTitle });
    await notice.waitFor();
    expect(await page.getByLabel(t.app.chat.placeholder, { exact: true }).count()).toBe(0);
    expect(await page.getByRole('button', { name: t.app.common.retry }).count()).toBe(0);
    expect(await page.locator('.bubble').count()).toBe(0);
    expect(page.url()).toContain(`/chat/${id}`);
    await screenshotLightAndDark(page, `chat-partner-deleted-${language}`);
    await expectAccessible(page, `partner deleted ${language}`);
    // Opened later (a notification's link): the same, from the server's answer.
    await page.reload();
    await notice.waitFor();
    expect(await page.getByLabel(t.app.chat.placeholder, { exact: true }).count()).toBe(0);
    expect(await page.getByRole('button', { name: t.app.common.retry }).count()).toBe(0);
    await page.getByRole('link', { name: t.app.chat.backToChats }).first().click();
    await page.waitForURL('**/ChatList');
  });

  it('has no console errors', () => {
    expect(errors.filter((e) => !/ERR_INTERNET_DISCONNECTED|net::ERR_/.test(e))).toEqual([]);
  });
});
