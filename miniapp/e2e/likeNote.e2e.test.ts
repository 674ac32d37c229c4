import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import en from '../../locales/en.json' with { type: 'json' };
import ru from '../../locales/ru.json' with { type: 'json' };
import { createPerson, type Person, type PersonOptions } from '../../server/test/people.ts';
import { expectMessage, loadedMessages } from './flows/chat.ts';
import { topCardId } from './flows/search.ts';
import { artifactsDir, behaviourLanguages, expectAccessible, screenshot, startSite, type Site } from './harness.ts';
import { signInAs } from './signedIn.ts';

const texts = { ru, en } as const;
const shotsDir = '/work/wt/shots/likenote';

/** Real pictures behind a person's photo names (createPerson only writes the names). */
async function withPhotos(site: Site, options: PersonOptions): Promise<Person> {
  const person = await createPerson(site.app, options);
  const rows = await site.app.database.db
    .selectFrom('photos')
    .select('file_name')
    .where('profile_id', '=', person.profileId)
    .execute();
  const uploads = path.join(site.app.database.dataDir, 'uploads');
  mkdirSync(uploads, { recursive: true });
  for (const row of rows) {
    const hue = (person.profileId * 67) % 360;
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="640" height="852"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="hsl(${hue},70%,72%)"/><stop offset="1" stop-color="hsl(${(hue + 60) % 360},60%,35%)"/></linearGradient></defs><rect width="640" height="852" fill="url(#g)"/><circle cx="320" cy="330" r="150" fill="hsl(${hue},40%,88%)" opacity="0.55"/><rect x="170" y="520" width="300" height="330" rx="150" fill="hsl(${hue},40%,88%)" opacity="0.45"/></svg>`;
    writeFileSync(path.join(uploads, row.file_name), await sharp(Buffer.from(svg)).jpeg({ quality: 80 }).toBuffer());
  }
  return person;
}

/** A screenshot kept with the artifacts and in this task's folder. */
async function shot(page: Page, name: string): Promise<void> {
  await screenshot(page, name);
  mkdirSync(shotsDir, { recursive: true });
  copyFileSync(path.join(artifactsDir, `${name}.png`), path.join(shotsDir, `${name}.png`));
}

/** The screen in the light theme and the dark one (`-dark`), the theme put back. */
async function shotLightAndDark(page: Page, name: string): Promise<void> {
  const before = await page.evaluate(() => document.documentElement.dataset.theme ?? '');
  await page.evaluate(() => (document.documentElement.dataset.theme = 'light'));
  await shot(page, name);
  await page.evaluate(() => (document.documentElement.dataset.theme = 'dark'));
  await shot(page, `${name}-dark`);
  await page.evaluate((theme) => (document.documentElement.dataset.theme = theme), before);
}

describe('likes with a message and undo', () => {
  let site: Site;
  beforeAll(async () => {
    site = await startSite();
  });
  afterAll(async () => {
    await site.close();
  });

  async function open(
    person: Person,
    language: 'ru' | 'en',
  ): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
    return site.page({ language, prepare: (context) => signInAs(site, context, person.browser) });
  }

  const messageOf = async (from: Person, to: Person) =>
    (
      await site.app.database.db
        .selectFrom('swipes')
        .select('message')
        .where('swiper_id', '=', from.profileId)
        .where('target_id', '=', to.profileId)
        .executeTakeFirst()
    )?.message;

  for (const language of behaviourLanguages) {
    const t = texts[language];

    it(`likes with a message from the deck (${language}): the other sees it in likes, on her deck, and as the first chat line`, async () => {
      const him = await withPhotos(site, { name: language === 'ru' ? 'Миша' : 'Mike', gender: 'Male' });
      const her = await withPhotos(site, { name: language === 'ru' ? 'Алина' : 'Alina', gender: 'Female' });
      const words =
        language === 'ru'
          ? 'Привет! Вижу, ты тоже любишь горы. Куда ходила последний раз?'
          : 'Hi! I see you love mountains too. Where did you hike last?';

      const { page } = await open(him, language);
      await page.goto('/search');
      await page.locator(`.swipe-card[data-profile-id="${her.profileId}"]`).waitFor();
      // A long press on Like opens the sheet instead of liking.
      const like = page.getByRole('button', { name: t.app.search.like, exact: true });
      const box = await like.boundingBox();
      if (!box) throw new Error('no like button');
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      await page.mouse.down();
      const sheet = page.getByRole('dialog', { name: t.app.search.messageTitle });
      await sheet.waitFor();
      await page.mouse.up();
      expect(await topCardId(page)).toBe(her.profileId);
      const field = sheet.getByRole('textbox');
      await expect.poll(() => field.evaluate((el) => el === document.activeElement)).toBe(true);
      await expect.poll(() => sheet.getByRole('button', { name: t.app.search.sendLike }).isDisabled()).toBe(true);
      await field.fill(words);
      await sheet
        .getByText(t.app.search.messageCount.replace('{{count}}', String(words.length)).replace('{{max}}', '200'))
        .waitFor();
      await expectAccessible(page, 'like with a message sheet');
      await sheet.getByRole('button', { name: t.app.search.sendLike }).click();
      await sheet.waitFor({ state: 'hidden' });
      await expect.poll(() => messageOf(him, her)).toBe(words);

      // She is on the free plan: the likes list shows him whole, on top, with his words.
      const { page: hers } = await open(her, language);
      await hers.goto('/WhoLike');
      const notes = hers.getByRole('region', { name: t.app.matches.wroteTitle });
      await notes.getByText(words).waitFor();
      await notes.getByText(`${him.name}, 30`).waitFor();
      await expectAccessible(hers, 'likes with a message');

      // On her deck he is the next card, his words over it.
      await hers.goto('/search');
      const card = hers.locator(`.swipe-card[data-profile-id="${him.profileId}"]`);
      await card.locator('.like-note', { hasText: words }).waitFor();
      await card.getByText(t.app.search.wroteYou_male).waitFor();

      // She likes him back: the match, and in the chat his words are the first line, as his.
      await hers.getByRole('button', { name: t.app.search.like, exact: true }).click();
      const overlay = hers.getByRole('dialog', { name: t.app.matchOverlay.title });
      await overlay.getByRole('button', { name: t.app.matchOverlay.write_male }).click();
      await hers.waitForURL(/\/chat\/\d+/);
      await expectMessage(hers, words);
      expect((await loadedMessages(hers))[0]).toBe(words);
      await expect
        .poll(() => hers.locator('.bubble', { hasText: words }).getAttribute('class'))
        .not.toMatch(/\bmine\b/);
    });

    it(`brings the card back with the undo button and the keys, once a day on the free plan (${language})`, async () => {
      const seeker = await withPhotos(site, { name: 'Seeker', gender: 'Male', at: [48.85, 2.35] });
      const near = await withPhotos(site, {
        name: language === 'ru' ? 'Вера' : 'Vera',
        gender: 'Female',
        at: [48.85, 2.35],
      });
      const far = await withPhotos(site, {
        name: language === 'ru' ? 'Ника' : 'Nika',
        gender: 'Female',
        at: [48.95, 2.5],
      });
      const { page } = await open(seeker, language);
      await page.goto('/search');
      await expect.poll(() => topCardId(page)).toBe(near.profileId);
      const undo = page.getByRole('button', { name: t.app.search.undo });
      await expect.poll(() => undo.isDisabled()).toBe(true);
      await page.getByRole('button', { name: t.app.search.dislike, exact: true }).click();
      await expect.poll(() => topCardId(page)).toBe(far.profileId);
      await expect.poll(() => undo.isDisabled()).toBe(false);
      await undo.click();
      await expect.poll(() => topCardId(page)).toBe(near.profileId);
      const swiped = () =>
        site.app.database.db
          .selectFrom('swipes')
          .select('target_id')
          .where('swiper_id', '=', seeker.profileId)
          .execute();
      await expect.poll(swiped).toEqual([]);
      // The card that was on screen comes next.
      await page.getByRole('button', { name: t.app.search.dislike, exact: true }).click();
      await expect.poll(() => topCardId(page)).toBe(far.profileId);
      // Backspace on a computer; the free undo of the day is used, so it says so and nothing changes.
      await page.keyboard.press('Backspace');
      await page.getByRole('alert').getByText(t.errors.undo_limit).waitFor();
      expect(await topCardId(page)).toBe(far.profileId);
      expect((await swiped()).map((s) => s.target_id)).toEqual([near.profileId]);

      // Premium undoes every time, with ⌘Z / Ctrl+Z too.
      await site.app.database.db
        .updateTable('users')
        .set({ premium_until: new Date(Date.now() + 86_400_000).toISOString() })
        .where('id', '=', seeker.userId)
        .execute();
      await page.keyboard.press('Control+z');
      await expect.poll(() => topCardId(page)).toBe(near.profileId);
      await expect.poll(swiped).toEqual([]);
    });

    it(`keeps the sheet, its words and the focus when it is closed before the page has settled (${language})`, async () => {
      const him = await createPerson(site.app, { gender: 'Male' });
      await createPerson(site.app, { gender: 'Female' });
      const words = language === 'ru' ? 'Привет, горы или море?' : 'Hi, mountains or the sea?';
      // An image that never arrives holds back the page's load event, and with it the page's settling
      // (api/contractCheck.ts): the sheet is opened and closed while the deck's extras are not yet kept.
      const { page, errors } = await site.page({
        language,
        prepare: async (context) => {
          await signInAs(site, context, him.browser);
          await context.route('**/hold-the-load.png', () => undefined);
          await context.addInitScript(() =>
            document.addEventListener('DOMContentLoaded', () => {
              const image = new Image();
              image.alt = '';
              image.hidden = true;
              image.src = '/hold-the-load.png';
              document.body.append(image);
            }),
          );
        },
      });
      await page.goto('/search', { waitUntil: 'commit' });
      // Her, or someone an earlier test of the file made: whoever is on top gets no like.
      await page.locator('.swipe-card').waitFor();
      const write = page.getByRole('button', { name: t.app.search.likeWithMessage });
      await write.click();
      const sheet = page.getByRole('dialog', { name: t.app.search.messageTitle });
      await sheet.getByRole('textbox').fill(words);
      await sheet.getByRole('button', { name: t.app.common.close }).click();
      await sheet.waitFor({ state: 'hidden' });
      expect(await page.evaluate(() => document.readyState)).not.toBe('complete');
      await expect.poll(() => write.evaluate((el) => el === document.activeElement)).toBe(true);
      await write.click();
      expect(await sheet.getByRole('textbox').inputValue()).toBe(words);
      const swipes = await site.app.database.db
        .selectFrom('swipes')
        .select('target_id')
        .where('swiper_id', '=', him.profileId)
        .execute();
      expect(swipes).toEqual([]);
      expect(errors).toEqual([]);
    });
  }

  it('takes an undone like off the open likes list of the person liked, live', async () => {
    const him = await withPhotos(site, { name: 'Undoer', gender: 'Male', at: [35.68, 139.69] });
    const her = await withPhotos(site, { name: 'Liked', gender: 'Female', at: [35.68, 139.69] });
    const t = texts[behaviourLanguages[0] ?? 'ru'];
    const { page } = await open(her, behaviourLanguages[0] ?? 'ru');
    await page.goto('/WhoLike');
    await page.getByText(t.app.errors.noLikes).waitFor();
    expect((await him.browser.post('/api/like', { profile_id: her.profileId, message: 'Hello there' })).status).toBe(
      200,
    );
    await page.reload();
    await page.getByRole('region', { name: t.app.matches.wroteTitle }).getByText('Hello there').waitFor();
    expect((await him.browser.post('/api/undo', {})).status).toBe(200);
    await page.getByText(t.app.errors.noLikes).waitFor();
    expect(await page.getByText('Hello there').count()).toBe(0);
  });

  it('looks right: the sheet, the likes list with a message, the card with a message and the deck with undo (RU/EN, light/dark)', async () => {
    for (const language of ['ru', 'en'] as const) {
      const t = texts[language];
      // Each language's people in a city of their own, so neither run's deck shows the other's.
      const at: [number, number] = language === 'ru' ? [43.24, 76.9] : [-33.87, 151.21];
      const him = await withPhotos(site, { name: language === 'ru' ? 'Даниил' : 'Daniel', gender: 'Male', at });
      const her = await withPhotos(site, { name: language === 'ru' ? 'Ева' : 'Eva', gender: 'Female', at });
      const plain = await withPhotos(site, { name: 'Plain', gender: 'Male', at });
      await plain.browser.post('/api/like', { profile_id: her.profileId });
      const words =
        language === 'ru'
          ? 'Привет! Какая у тебя любимая кофейня в городе? ☕️'
          : 'Hi! What is your favourite coffee place in town? ☕️';

      const { page } = await open(him, language);
      await page.goto('/search');
      await page.locator(`.swipe-card[data-profile-id="${her.profileId}"]`).waitFor();
      await page.getByRole('button', { name: t.app.search.likeWithMessage }).click();
      const sheet = page.getByRole('dialog', { name: t.app.search.messageTitle });
      await sheet.getByRole('textbox').fill(words);
      await shotLightAndDark(page, `likenote-sheet-${language}`);
      await sheet.getByRole('button', { name: t.app.search.sendLike }).click();
      await expect.poll(() => messageOf(him, her)).toBe(words);
      await expect.poll(() => page.getByRole('button', { name: t.app.search.undo }).isDisabled()).toBe(false);
      await shotLightAndDark(page, `likenote-deck-undo-${language}`);

      const { page: hers } = await open(her, language);
      await hers.goto('/WhoLike');
      await hers.getByRole('region', { name: t.app.matches.wroteTitle }).getByText(words).waitFor();
      await hers.locator('.person-card.blurred').waitFor();
      await shotLightAndDark(hers, `likenote-likes-${language}`);
      await hers.goto('/search');
      await hers.locator(`.swipe-card[data-profile-id="${him.profileId}"] .like-note`).waitFor();
      await shotLightAndDark(hers, `likenote-card-${language}`);
    }
  });
});
