import type { Page } from 'playwright-core';

/**
 * Drags the top card with the mouse by (dx, dy) in small steps, as a finger would. `whileHeld` runs
 * before the button is released (to look at the indicator mid-drag).
 */
export async function dragCard(page: Page, dx: number, dy = 0, whileHeld?: () => Promise<void>): Promise<void> {
  const card = page.locator('.swipe-card');
  const box = await card.boundingBox();
  if (!box) throw new Error('no card on screen');
  const x = box.x + box.width / 2;
  const y = box.y + box.height / 2;
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x + dx, y + dy, { steps: 8 });
  if (whileHeld) await whileHeld();
  await page.mouse.up();
}

/** The profile id of the card on top, or null when none is shown. */
export async function topCardId(page: Page): Promise<number | null> {
  const card = page.locator('.swipe-card');
  if ((await card.count()) === 0) return null;
  return Number(await card.getAttribute('data-profile-id'));
}
