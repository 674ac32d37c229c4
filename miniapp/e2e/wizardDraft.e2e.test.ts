import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import en from '../../locales/en.json' with { type: 'json' };
import ru from '../../locales/ru.json' with { type: 'json' };
import { createPerson } from '../../server/test/people.ts';
import { Browser, json } from '../../server/test/browser.ts';
import { codeFrom } from '../../server/test/smtpStandIn.ts';
import { addPhoto, answerPrompts, makePhotoFiles } from './flows/profile.ts';
import { screenshot, startSite, type Site, behaviourLanguages, behaviourThemes } from './harness.ts';
import { signInAs } from './signedIn.ts';

const texts = { ru, en } as const;

/** The previews' count, and how many of them hold a decoded, non-empty image. */
function previews(page: Page): Promise<{ count: number; drawn: number }> {
  return page.locator('.photo-previews img').evaluateAll((images) => ({
    count: images.length,
    drawn: images.filter((image) => image instanceof HTMLImageElement && image.complete && image.naturalWidth > 0)
      .length,
  }));
}

/** What the browser keeps of drafts: the sessionStorage keys and the photos in IndexedDB (all drafts'). */
function storedDrafts(page: Page): Promise<{ keys: string[]; photos: number }> {
  return page.evaluate(async () => {
    const keys = Object.keys(sessionStorage).filter((key) => key.startsWith('profileDraft'));
    const photos = await new Promise<number>((resolve) => {
      const open = indexedDB.open('iskra-drafts', 1);
      open.onupgradeneeded = () => open.result.createObjectStore('photos', { keyPath: 'id' });
      open.onsuccess = () => {
        const all = open.result.transaction('photos').objectStore('photos').getAll();
        all.onsuccess = () => {
          resolve((all.result as { photos: unknown[] }[]).reduce((sum, entry) => sum + entry.photos.length, 0));
          open.result.close();
        };
      };
    });
    return { keys, photos };
  });
}

describe.each(behaviourLanguages)('the profile wizard draft in %s', (language) => {
  const t = texts[language];
  let site: Site;
  let files: Awaited<ReturnType<typeof makePhotoFiles>>;
  const dir = mkdtempSync(path.join(tmpdir(), 'iskra-draft-'));
  const contexts: BrowserContext[] = [];
  const errors: string[] = [];

  /** A verified account without a profile, made through the real API; its client holds the session. */
  async function verifiedAccount(email: string): Promise<Browser> {
    const client = new Browser(site.app.url);
    expect((await client.post('/api/register', { email, password: 'spark2026!' })).status).toBe(201);
    const code = codeFrom(await site.app.smtp.lastMailTo(email));
    expect((await client.post('/api/verify', { code })).status).toBe(200);
    return client;
  }

  async function pageOf(client: Browser, dark = false): Promise<{ page: Page; context: BrowserContext }> {
    const opened = await site.page({ language, dark, errors, prepare: (context) => signInAs(site, context, client) });
    contexts.push(opened.context);
    return opened;
  }

  async function reload(page: Page): Promise<void> {
    await page.reload();
    await page.getByRole('heading', { name: t.app.wizard.title }).waitFor();
  }

  const stepHeading = (page: Page, title: string) => page.getByRole('heading', { name: title });

  beforeAll(async () => {
    site = await startSite();
    files = await makePhotoFiles(dir);
  });
  afterAll(async () => {
    for (const context of contexts) await context.close();
    await site.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps the fields, the step and the cropped photos across a reload at every step, and Create uploads them and clears the draft', async () => {
    const { page } = await pageOf(await verifiedAccount(`draft.${language}@example.com`));
    await page.goto('/CreateProfile');
    await stepHeading(page, t.app.wizard.aboutTitle).waitFor();

    // Step 1.
    await page.getByLabel(t.app.wizard.name).fill('Дарья');
    await page.getByLabel(t.app.wizard.age).fill('27');
    await page.getByRole('button', { name: t.app.wizard.genders.Female, exact: true }).click();
    await reload(page);
    await stepHeading(page, t.app.wizard.aboutTitle).waitFor();
    expect(await page.getByLabel(t.app.wizard.name).inputValue()).toBe('Дарья');
    expect(await page.getByLabel(t.app.wizard.age).inputValue()).toBe('27');
    expect(
      await page.getByRole('button', { name: t.app.wizard.genders.Female, exact: true }).getAttribute('aria-pressed'),
    ).toBe('true');
    await screenshot(page, `wizard-draft-about-${language}`);
    await page.getByRole('button', { name: t.app.wizard.next }).click();

    // Step 2: the step, the typed city, then the found city survive.
    await stepHeading(page, t.app.wizard.locationTitle).waitFor();
    await reload(page);
    await stepHeading(page, t.app.wizard.locationTitle).waitFor();
    await page.getByRole('button', { name: t.app.wizard.enterCity }).click();
    await page.getByLabel(t.app.wizard.city, { exact: true }).fill('Казань');
    await reload(page);
    expect(await page.getByLabel(t.app.wizard.city, { exact: true }).inputValue()).toBe('Казань');
    await page.getByRole('button', { name: t.app.wizard.checkCity }).click();
    await page.locator('.wizard-city').waitFor();
    const found = await page.locator('.wizard-city').textContent();
    await reload(page);
    expect(await page.locator('.wizard-city').textContent()).toBe(found);
    // The found city's place id is kept too, so the profile is created with it after the reload.
    const storedPlace = await page.evaluate(() => {
      const key = Object.keys(sessionStorage).find((k) => k.startsWith('profileDraft'));
      return key
        ? (JSON.parse(sessionStorage.getItem(key) ?? '{}') as { fields?: { placeId?: unknown } }).fields?.placeId
        : undefined;
    });
    expect(typeof storedPlace).toBe('number');
    await screenshot(page, `wizard-draft-location-${language}`);
    await page.getByRole('button', { name: t.app.wizard.next }).click();

    // Step 3: two cropped photos come back after a reload, drawn.
    await stepHeading(page, t.app.wizard.photosTitle).waitFor();
    await reload(page);
    await stepHeading(page, t.app.wizard.photosTitle).waitFor();
    await addPhoto(page, language, files.phone);
    await addPhoto(page, language, files.sideways, 1.5);
    await expect.poll(() => previews(page)).toEqual({ count: 2, drawn: 2 });
    // The photos are written to IndexedDB after the preview shows: wait until the store has them.
    await expect.poll(async () => (await storedDrafts(page)).photos).toBe(2);
    await reload(page);
    await stepHeading(page, t.app.wizard.photosTitle).waitFor();
    await expect.poll(() => previews(page)).toEqual({ count: 2, drawn: 2 });
    await screenshot(page, `wizard-draft-photos-${language}`);
    await page.getByRole('button', { name: t.app.wizard.next }).click();

    // Step 4: a chosen prompt and its answer survive.
    await answerPrompts(page, language, [{ question: t.prompts.idealWeekend, answer: 'Горы' }]);
    await reload(page);
    await stepHeading(page, t.app.prompts.title).waitFor();
    expect(
      await page.getByLabel(t.app.prompts.answerLabel.replace('{{question}}', t.prompts.idealWeekend)).inputValue(),
    ).toBe('Горы');
    await page.getByRole('button', { name: t.app.wizard.next }).click();

    // Step 5: the bio, and the photos again.
    await stepHeading(page, t.app.wizard.reviewTitle).waitFor();
    await page.getByLabel(t.app.wizard.bio).fill('Люблю горы');
    await reload(page);
    await stepHeading(page, t.app.wizard.reviewTitle).waitFor();
    expect(await page.getByLabel(t.app.wizard.bio).inputValue()).toBe('Люблю горы');
    await expect.poll(() => previews(page)).toEqual({ count: 2, drawn: 2 });
    expect(await page.locator('.wizard-summary').textContent()).toContain('Дарья, 27');
    await screenshot(page, `wizard-draft-review-${language}`);

    await page.getByRole('button', { name: t.app.wizard.create, exact: true }).click();
    await page.waitForURL('**/training');
    const own = (await page.evaluate(async (): Promise<unknown> => (await fetch('/api/profile')).json())) as {
      name: string;
      age: number;
      bio: string;
      photos: string[];
      place_id: number | null;
      prompts: { prompt_id: number; answer: string }[];
    };
    expect([own.name, own.age, own.bio, own.photos.length, own.place_id]).toEqual([
      'Дарья',
      27,
      'Люблю горы',
      2,
      storedPlace,
    ]);
    expect(own.prompts.map((p) => [p.prompt_id, p.answer])).toEqual([[1, 'Горы']]);
    await expect.poll(() => storedDrafts(page)).toEqual({ keys: [], photos: 0 });
    // Nothing comes back: the wizard opened again is empty.
    await page.goto('/CreateProfile');
    await stepHeading(page, t.app.wizard.aboutTitle).waitFor();
    expect(await page.getByLabel(t.app.wizard.name).inputValue()).toBe('');
  });

  it('is the user’s own: another account on the same browser starts empty; Cancel throws the draft away', async () => {
    const first = await verifiedAccount(`first.${language}@example.com`);
    const second = await verifiedAccount(`second.${language}@example.com`);
    const { page, context } = await pageOf(first);
    await page.goto('/CreateProfile');
    await page.getByLabel(t.app.wizard.name).fill('Первая');
    await page.getByLabel(t.app.wizard.age).fill('30');
    await page.getByRole('button', { name: t.app.wizard.genders.Female, exact: true }).click();
    await page.getByRole('button', { name: t.app.wizard.next }).click();
    await page.getByRole('button', { name: t.app.wizard.enterCity }).click();
    await page.getByLabel(t.app.wizard.city, { exact: true }).fill('Казань');
    await page.getByRole('button', { name: t.app.wizard.checkCity }).click();
    await page.locator('.wizard-city').waitFor();
    await page.getByRole('button', { name: t.app.wizard.next }).click();
    await addPhoto(page, language, files.phone);
    await expect.poll(async () => (await storedDrafts(page)).photos).toBe(1);

    // The second account signs in in the same tab: an empty wizard, none of the first one's photos.
    await signInAs(site, context, second);
    await reload(page);
    await stepHeading(page, t.app.wizard.aboutTitle).waitFor();
    expect(await page.getByLabel(t.app.wizard.name).inputValue()).toBe('');
    expect((await previews(page)).count).toBe(0);

    // The first account back: its draft is still there.
    await signInAs(site, context, first);
    await reload(page);
    await stepHeading(page, t.app.wizard.photosTitle).waitFor();
    await expect.poll(() => previews(page)).toEqual({ count: 1, drawn: 1 });

    // Cancel asks once, then the draft is gone: the menu, and an empty wizard even after a reload.
    await page.getByRole('button', { name: t.app.wizard.cancel, exact: true }).click();
    await page.getByRole('dialog').getByRole('button', { name: t.app.wizard.cancelConfirm }).click();
    await page.waitForURL('**/Menu');
    await expect.poll(() => storedDrafts(page)).toEqual({ keys: [], photos: 0 });
    await page.goto('/CreateProfile');
    await stepHeading(page, t.app.wizard.aboutTitle).waitFor();
    await reload(page);
    await stepHeading(page, t.app.wizard.aboutTitle).waitFor();
    expect(await page.getByLabel(t.app.wizard.name).inputValue()).toBe('');
  });

  it('explains, where "Other" is chosen, who will be seen and who will see', async () => {
    const owner = await createPerson(site.app, { name: 'Алекс', gender: 'Female' });
    for (const dark of behaviourThemes) {
      const { page } = await pageOf(owner.browser, dark);
      await page.goto('/edit_profile');
      await page.getByRole('button', { name: t.app.profile.genders.Other, exact: true }).waitFor();
      expect(await page.getByRole('note').count()).toBe(0);
      await page.getByRole('button', { name: t.app.profile.genders.Other, exact: true }).click();
      await page.getByRole('note').getByText(t.app.profile.otherGenderNote).waitFor();
      await screenshot(page, `edit-profile-other-${language}-${dark ? 'dark' : 'light'}`);
      await page.getByRole('button', { name: t.app.profile.genders.Male, exact: true }).click();
      expect(await page.getByRole('note').count()).toBe(0);
    }
    expect((await json<{ gender: string }>(await owner.browser.get('/api/profile'))).gender).toBe('Female');
  });

  it('looks right in the dark at every step', async () => {
    const { page } = await pageOf(await verifiedAccount(`dark.${language}@example.com`), true);
    await page.goto('/CreateProfile');
    await page.getByLabel(t.app.wizard.name).fill('Ника');
    await page.getByLabel(t.app.wizard.age).fill('24');
    await page.getByRole('button', { name: t.app.wizard.genders.Female, exact: true }).click();
    await screenshot(page, `wizard-draft-about-${language}-dark`);
    await page.getByRole('button', { name: t.app.wizard.next }).click();
    await page.getByRole('button', { name: t.app.wizard.enterCity }).click();
    await page.getByLabel(t.app.wizard.city, { exact: true }).fill('Казань');
    await page.getByRole('button', { name: t.app.wizard.checkCity }).click();
    await page.locator('.wizard-city').waitFor();
    await screenshot(page, `wizard-draft-location-${language}-dark`);
    await page.getByRole('button', { name: t.app.wizard.next }).click();
    await addPhoto(page, language, files.phone);
    await expect.poll(async () => (await storedDrafts(page)).photos).toBe(1);
    await reload(page);
    await expect.poll(() => previews(page)).toEqual({ count: 1, drawn: 1 });
    await screenshot(page, `wizard-draft-photos-${language}-dark`);
    await page.getByRole('button', { name: t.app.wizard.next }).click();
    await answerPrompts(page, language, [{ question: t.prompts.lookingFor, answer: 'Тепло' }]);
    await screenshot(page, `wizard-draft-prompts-${language}-dark`);
    await page.getByRole('button', { name: t.app.wizard.next }).click();
    await page.getByLabel(t.app.wizard.bio).fill('Люблю горы');
    await screenshot(page, `wizard-draft-review-${language}-dark`);
    await page.getByRole('button', { name: t.app.wizard.cancel, exact: true }).click();
    await page.getByRole('dialog').waitFor();
    await screenshot(page, `wizard-draft-cancel-${language}-dark`);
  });

  it('has no console errors', () => {
    expect(errors.filter((e) => !/40[04]/.test(e))).toEqual([]);
  });
});
