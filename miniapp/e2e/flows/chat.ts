import type { Page } from 'playwright-core';
import en from '../../../locales/en.json' with { type: 'json' };
import ru from '../../../locales/ru.json' with { type: 'json' };
import type { Person } from '../../../server/test/people.ts';

const texts = { ru, en } as const;

/** Two people who liked each other (through the real API), and their conversation's id. */
export async function matchAndStartChat(a: Person, b: Person): Promise<number> {
  for (const [from, to] of [
    [a, b],
    [b, a],
  ] as const) {
    const liked = await from.browser.post('/api/like', { profile_id: to.profileId });
    if (liked.status !== 200) throw new Error(`like: ${liked.status} ${await liked.text()}`);
  }
  const started = await a.browser.post('/api/conversations/start', { profile_id: b.profileId });
  if (started.status !== 200) throw new Error(`start: ${started.status}`);
  return ((await started.json()) as { conversation_id: number }).conversation_id;
}

/** Types into the composer and sends with the button. */
export async function sendMessage(page: Page, language: 'ru' | 'en', text: string): Promise<void> {
  const t = texts[language];
  await page.getByLabel(t.app.chat.placeholder, { exact: true }).fill(text);
  await page.getByRole('button', { name: t.app.chat.send }).click();
  await expectMessage(page, text);
}

/** Waits until a message bubble with exactly this text is on the screen. */
export async function expectMessage(page: Page, text: string, timeout = 10_000): Promise<void> {
  await page.locator('.bubble-text', { hasText: text }).first().waitFor({ timeout });
}

/** The texts of the bubbles currently loaded, oldest first. */
export function loadedMessages(page: Page): Promise<string[]> {
  return page.locator('.bubble-text').allTextContents();
}

/**
 * Scrolls the conversation up past half, waits for the older page, and returns how far the message that
 * was on top of the view moved on screen meanwhile (0 when nothing jumped).
 */
export async function scrollUpForOlder(page: Page): Promise<{ loaded: number; jump: number }> {
  const before = await page.locator('.bubble').count();
  const anchor = await page.evaluate(() => {
    const list = document.querySelector<HTMLElement>('.message-list');
    const first = document.querySelector<HTMLElement>('.bubble');
    if (!list || !first) throw new Error('no messages');
    // Up to just above the first loaded message: past half of the scrollable height.
    list.scrollTop = Math.max(0, first.offsetTop - list.offsetTop - 8);
    list.dispatchEvent(new Event('scroll'));
    return { id: first.dataset.messageId ?? '', top: first.getBoundingClientRect().top };
  });
  await page.waitForFunction((n) => document.querySelectorAll('.bubble').length > n, before);
  // One frame for the layout effect that restores the offset.
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(resolve)));
  const top = await page
    .locator(`.bubble[data-message-id="${anchor.id}"]`)
    .evaluate((el) => el.getBoundingClientRect().top);
  return { loaded: await page.locator('.bubble').count(), jump: Math.abs(top - anchor.top) };
}
