import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import en from '../../../locales/en.json' with { type: 'json' };
import ru from '../../../locales/ru.json' with { type: 'json' };
import { jpegWithGps, sidewaysJpeg } from '../../../server/test/images.ts';

const texts = { ru, en } as const;

/** Real image files: a phone photo with GPS EXIF, a sideways one (EXIF orientation 6), and a "HEIC" the browser cannot read. */
export async function makePhotoFiles(dir: string): Promise<{ phone: string; sideways: string; unreadable: string }> {
  const phone = path.join(dir, 'phone.jpg');
  const sideways = path.join(dir, 'sideways.jpg');
  const unreadable = path.join(dir, 'IMG_0001.heic');
  writeFileSync(phone, await jpegWithGps());
  writeFileSync(sideways, await sidewaysJpeg());
  // The ftyp box of a HEIC file and nothing a browser decodes.
  writeFileSync(unreadable, Buffer.concat([Buffer.from([0, 0, 0, 24]), Buffer.from('ftypheic'), Buffer.alloc(64)]));
  return { phone, sideways, unreadable };
}

export interface WizardInput {
  language: 'ru' | 'en';
  name: string;
  age: number;
  gender: 'Male' | 'Female';
  /** 'geolocation' needs the context to grant it and set a position. */
  location: 'geolocation' | { city: string };
  photos: string[];
  bio?: string;
  /** Prompts to choose in step 4 (by their text in `language`) and answer; none skips the step. */
  prompts?: { question: string; answer: string }[];
}

/** Step 4: chooses each prompt from the sheet and answers it. */
export async function answerPrompts(
  page: Page,
  language: 'ru' | 'en',
  prompts: { question: string; answer: string }[],
): Promise<void> {
  const t = texts[language];
  await page.getByRole('heading', { name: t.app.prompts.title }).waitFor();
  for (const prompt of prompts) {
    await page.getByRole('button', { name: t.app.prompts.add }).click();
    await page
      .getByRole('dialog', { name: t.app.prompts.choose })
      .getByRole('button', { name: prompt.question, exact: true })
      .click();
    await page.getByLabel(t.app.prompts.answerLabel.replace('{{question}}', prompt.question)).fill(prompt.answer);
  }
}

/** Adds one photo in step 3: choose the file, zoom a little, confirm the crop. */
export async function addPhoto(page: Page, language: 'ru' | 'en', file: string, zoom = 1.2): Promise<void> {
  const t = texts[language];
  const before = await page.locator('.photo-previews img').count();
  await page.locator('input[type=file]').setInputFiles(file);
  await page.locator('.cropper-area img').waitFor();
  await page.getByLabel(t.app.wizard.zoom).fill(String(zoom));
  await page.getByRole('button', { name: t.app.wizard.confirmCrop }).click();
  await page.waitForFunction((n) => document.querySelectorAll('.photo-previews img').length > n, before);
}

/** The whole wizard from /CreateProfile to /training, as a person goes through it. */
export async function createProfileThroughWizard(page: Page, input: WizardInput): Promise<void> {
  const t = texts[input.language];
  await page.goto('/CreateProfile');
  await page.getByLabel(t.app.wizard.name).fill(input.name);
  await page.getByLabel(t.app.wizard.age).fill(String(input.age));
  await page.getByRole('button', { name: t.app.wizard.genders[input.gender], exact: true }).click();
  await page.getByRole('button', { name: t.app.wizard.next }).click();

  if (input.location === 'geolocation') {
    await page.getByRole('button', { name: t.app.wizard.useLocation }).click();
    // A city found automatically jumps to the photos step.
    await page.getByRole('heading', { name: t.app.wizard.photosTitle }).waitFor();
  } else {
    await page.getByRole('button', { name: t.app.wizard.enterCity }).click();
    await page.getByLabel(t.app.wizard.city, { exact: true }).fill(input.location.city);
    await page.getByRole('button', { name: t.app.wizard.checkCity }).click();
    await page.locator('.wizard-city').waitFor();
    await page.getByRole('button', { name: t.app.wizard.next }).click();
  }

  for (const photo of input.photos) await addPhoto(page, input.language, photo);
  await page.getByRole('button', { name: t.app.wizard.next }).click();
  await answerPrompts(page, input.language, input.prompts ?? []);
  await page.getByRole('button', { name: t.app.wizard.next }).click();
  if (input.bio) await page.getByLabel(t.app.wizard.bio).fill(input.bio);
  await page.getByRole('button', { name: t.app.wizard.create, exact: true }).click();
  await page.waitForURL('**/training');
}
