import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import en from '../../locales/en.json' with { type: 'json' };
import ru from '../../locales/ru.json' with { type: 'json' };
import { addPhoto, createProfileThroughWizard, makePhotoFiles } from './flows/profile.ts';
import {
  expectAccessible,
  recordApiRequests,
  screenshot,
  startSite,
  type Site,
  behaviourLanguages,
} from './harness.ts';
import { signInVerified, signInAs } from './signedIn.ts';
import { createPerson, type Person } from '../../server/test/people.ts';
import { json } from '../../server/test/browser.ts';

const texts = { ru, en } as const;

describe.each(behaviourLanguages)('the profile wizard in %s', (language) => {
  const t = texts[language];
  let site: Site;
  let files: Awaited<ReturnType<typeof makePhotoFiles>>;
  const dir = mkdtempSync(path.join(tmpdir(), 'iskra-photos-'));
  const contexts: BrowserContext[] = [];
  const errors: string[] = [];

  /** A fresh browser profile signed in by `signIn`, optionally somewhere (geolocation granted). */
  async function pageWith(
    signIn: (context: BrowserContext) => Promise<unknown>,
    geolocation?: { latitude: number; longitude: number },
  ): Promise<Page> {
    const { context, page } = await site.page({
      language,
      errors,
      async prepare(context) {
        if (geolocation) {
          await context.grantPermissions(['geolocation']);
          await context.setGeolocation(geolocation);
        }
        await signIn(context);
      },
    });
    contexts.push(context);
    return page;
  }
  /** Someone registering through the real sign-up and e-mail verification. */
  const newUser = (email: string, geolocation?: { latitude: number; longitude: number }) =>
    pageWith((context) => signInVerified(site, context, email), geolocation);
  /** Someone made straight in the database, signed in with their session cookie. */
  const pageOf = (owner: Person, geolocation?: { latitude: number; longitude: number }) =>
    pageWith((context) => signInAs(site, context, owner.browser), geolocation);

  beforeAll(async () => {
    site = await startSite();
    files = await makePhotoFiles(dir);
  });
  afterAll(async () => {
    for (const context of contexts) await context.close();
    await site.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('checks each step, refuses an unreadable photo, crops an EXIF-rotated photo upright and creates the profile', async () => {
    const page = await newUser(`wizard.${language}@example.com`);
    await page.goto('/search');
    await page.waitForURL('**/CreateProfile');
    await page.getByRole('heading', { name: t.app.wizard.title }).waitFor();
    await expectAccessible(page, `wizard step 1 ${language}`);

    // Step 1: everything required, age 18..100.
    await page.getByRole('button', { name: t.app.wizard.next }).click();
    await page.getByText(t.app.wizard.required).waitFor();
    await page.getByLabel(t.app.wizard.name).fill('Дарья');
    await page.getByLabel(t.app.wizard.age).fill('17');
    await page.getByRole('button', { name: t.app.wizard.genders.Female, exact: true }).click();
    await page.getByRole('button', { name: t.app.wizard.next }).click();
    await page.getByText(t.app.wizard.minAge).waitFor();
    await page.getByLabel(t.app.wizard.age).fill('101');
    await page.getByRole('button', { name: t.app.wizard.next }).click();
    await page.getByText(t.app.wizard.maxAge).waitFor();
    await page.getByLabel(t.app.wizard.age).fill('27');
    await page.getByRole('button', { name: t.app.wizard.next }).click();

    // Step 2: no city yet; an unknown one; then a real one. Back returns to step 1 with the fields kept.
    await page.getByRole('button', { name: t.app.wizard.next }).click();
    await page.getByText(t.app.wizard.cityRequired).waitFor();
    await page.getByRole('button', { name: t.app.common.back }).click();
    expect(await page.getByLabel(t.app.wizard.name).inputValue()).toBe('Дарья');
    await page.getByRole('button', { name: t.app.wizard.next }).click();
    await page.getByRole('button', { name: t.app.wizard.enterCity }).click();
    await page.getByRole('button', { name: t.app.wizard.checkCity }).click();
    await page.getByText(t.app.wizard.cityMissing, { exact: true }).waitFor();
    await page.getByLabel(t.app.wizard.city, { exact: true }).fill('Нетакогограда');
    await page.getByRole('button', { name: t.app.wizard.checkCity }).click();
    await page.getByText(t.errors.city_not_found).waitFor();
    await page.getByLabel(t.app.wizard.city, { exact: true }).fill('Казань');
    await page.getByRole('button', { name: t.app.wizard.checkCity }).click();
    await page.locator('.wizard-city').waitFor();
    await screenshot(page, `wizard-location-${language}`);
    await page.getByRole('button', { name: t.app.wizard.next }).click();

    // Step 3: at least one photo; HEIC gets a message; the sideways phone photo is cropped.
    await page.getByRole('button', { name: t.app.wizard.next }).click();
    await page.getByText(t.app.wizard.photoRequired).waitFor();
    await page.locator('input[type=file]').setInputFiles(files.unreadable);
    await page.getByText(t.app.wizard.unreadable).waitFor();
    await page.locator('input[type=file]').setInputFiles(files.sideways);
    await page.locator('.cropper-area img').waitFor();
    await screenshot(page, `wizard-crop-${language}`);
    await page.getByRole('button', { name: t.app.wizard.confirmCrop }).click();
    await page.locator('.photo-previews img').first().waitFor();
    await addPhoto(page, language, files.phone, 2);
    await screenshot(page, `wizard-photos-${language}`);
    await expectAccessible(page, `wizard photos ${language}`);
    await page.getByRole('button', { name: t.app.wizard.next }).click();
    // Step 4, the prompts: optional, passed over here (prompts.e2e.test.ts answers them).
    await page.getByRole('heading', { name: t.app.prompts.title }).waitFor();
    await page.getByRole('button', { name: t.app.wizard.next }).click();

    await page.getByLabel(t.app.wizard.bio).fill('Люблю горы');
    await screenshot(page, `wizard-review-${language}`);
    await page.getByRole('button', { name: t.app.wizard.create, exact: true }).click();
    await page.waitForURL('**/training');

    const own = (await page.evaluate(async (): Promise<unknown> => (await fetch('/api/profile')).json())) as {
      name: string;
      age: number;
      city: string;
      bio: string;
      photos: string[];
    };
    expect([own.name, own.age, own.bio, own.photos.length]).toEqual(['Дарья', 27, 'Люблю горы', 2]);
    expect(own.city).toMatch(/Казань|Kazan/);
    // The first photo came out 640x852 and upright: red (the EXIF top) above blue.
    const response = await fetch(`${site.app.url}/api/uploads/${own.photos[0] ?? ''}`);
    const image = sharp(Buffer.from(await response.arrayBuffer()));
    const { width, height } = await image.metadata();
    expect([width, height]).toEqual([640, 852]);
    const { data } = await image.raw().toBuffer({ resolveWithObject: true });
    const pixel = (x: number, y: number) => [...data.subarray((y * 640 + x) * 3, (y * 640 + x) * 3 + 3)];
    const [topRed, , topBlue] = pixel(320, 100);
    const [bottomRed, , bottomBlue] = pixel(320, 750);
    expect((topRed ?? 0) > 200 && (topBlue ?? 255) < 60).toBe(true);
    expect((bottomBlue ?? 0) > 200 && (bottomRed ?? 255) < 60).toBe(true);
  });

  it('finds the city from the browser position', async () => {
    const page = await newUser(`geo.${language}@example.com`, { latitude: 59.9386, longitude: 30.3141 });
    await createProfileThroughWizard(page, {
      language,
      name: 'Гоша',
      age: 33,
      gender: 'Male',
      location: 'geolocation',
      photos: [files.phone],
    });
    const own = (await page.evaluate(async (): Promise<unknown> => (await fetch('/api/profile')).json())) as {
      city: string;
    };
    expect(own.city).toMatch(/Санкт-Петербург|Saint Petersburg|St\.? Petersburg/);
  });

  it('says so when the location is denied and offers the manual entry', async () => {
    const page = await newUser(`denied.${language}@example.com`);
    await page.goto('/CreateProfile');
    await page.getByLabel(t.app.wizard.name).fill('Ира');
    await page.getByLabel(t.app.wizard.age).fill('25');
    await page.getByRole('button', { name: t.app.wizard.genders.Female, exact: true }).click();
    await page.getByRole('button', { name: t.app.wizard.next }).click();
    await page.getByRole('button', { name: t.app.wizard.useLocation }).click();
    await page.getByText(t.app.errors.locationDenied).waitFor();
    await page.getByLabel(t.app.wizard.city, { exact: true }).waitFor();
  });

  it('shows the own profile, edits its fields, and deletes it after confirmation', async () => {
    const owner = await createPerson(site.app, { name: 'Соня', gender: 'Female', age: 24 });
    const page = await pageOf(owner);
    await page.goto('/profile');
    await page.getByRole('heading', { name: 'Соня, 24' }).waitFor();
    await expectAccessible(page, `own profile ${language}`);
    await page.getByRole('link', { name: t.app.profile.edit }).click();
    await page.waitForURL('**/edit_profile');
    await page.getByLabel(t.app.wizard.age).fill('17');
    await page.getByRole('button', { name: t.app.profile.save }).click();
    await page.getByText(t.app.wizard.minAge).waitFor();
    await page.getByLabel(t.app.wizard.name).fill('Софья');
    await page.getByLabel(t.app.wizard.age).fill('25');
    await page.getByLabel(t.app.wizard.bio).fill('Новая строчка о себе');
    await screenshot(page, `edit-profile-${language}`);
    const requests = recordApiRequests(page);
    await page.getByRole('button', { name: t.app.profile.save }).click();
    await page.waitForURL('**/profile');
    await page.getByRole('heading', { name: 'Софья, 25' }).waitFor();
    await page.getByText('Новая строчка о себе').waitFor();
    await screenshot(page, `own-profile-${language}`);
    // The menu's card (the session's summary) has the new name and age too.
    await page
      .getByRole('navigation', { name: t.app.nav.label })
      .getByRole('link', { name: t.app.nav.menu, exact: true })
      .click();
    await page.locator('.card.own').getByText('Софья').waitFor();
    expect(await page.locator('.card.own').textContent()).toContain('Софья, 25');
    await page.locator('.card.own').getByRole('link').click();
    await page.getByRole('heading', { name: 'Софья, 25' }).waitFor();
    // Everything came with the save's answer: neither the profile nor the user was asked for again.
    requests.stop();
    expect(requests.calls()).toContain('POST /api/edit_profile');
    expect(requests.calls().filter((call) => call === 'GET /api/profile' || call === 'GET /api/current_user')).toEqual(
      [],
    );

    await page.getByRole('button', { name: t.app.profile.delete }).click();
    await page.getByRole('dialog').getByRole('button', { name: t.app.profile.deleteConfirm, exact: true }).click();
    // Polled: a same-document navigation can finish before a navigation waiter is attached on a busy machine.
    await expect.poll(() => new URL(page.url()).pathname, { timeout: 20_000 }).toBe('/');
    expect((await owner.browser.get('/api/profile')).status).toBe(404);
  });

  it('moves the profile: the browser position, or a city typed by hand, changes where search measures from', async () => {
    const owner = await createPerson(site.app, { name: 'Вера', gender: 'Female', at: [55.7558, 37.6173] });
    const page = await pageOf(owner, { latitude: 55.7963, longitude: 49.1088 });
    const stored = async () =>
      json<{ city: string; latitude: number; longitude: number }>(await owner.browser.get('/api/profile'));

    await page.goto('/edit_profile');
    await page.getByRole('button', { name: t.app.wizard.useLocation }).click();
    await expect.poll(() => page.getByLabel(t.app.wizard.city, { exact: true }).inputValue()).toMatch(/Казань|Kazan/);
    await screenshot(page, `edit-profile-located-${language}`);
    await page.getByRole('button', { name: t.app.profile.save }).click();
    await page.waitForURL('**/profile');
    let place = await stored();
    expect(place.city).toMatch(/Казань|Kazan/);
    expect(Math.abs(place.latitude - 55.79)).toBeLessThan(0.05);
    expect(Math.abs(place.longitude - 49.11)).toBeLessThan(0.1);

    await page.goto('/edit_profile');
    await page.getByLabel(t.app.wizard.city, { exact: true }).fill('Новосибирск');
    await page.getByRole('button', { name: t.app.profile.save }).click();
    await page.waitForURL('**/profile');
    place = await stored();
    expect(place.city).toMatch(/Новосибирск|Novosibirsk/);
    expect(Math.abs(place.latitude - 55.03)).toBeLessThan(0.1);

    // A city that does not exist is refused and changes nothing.
    await page.goto('/edit_profile');
    await page.getByLabel(t.app.wizard.city, { exact: true }).fill('Нетакогогорода');
    await page.getByRole('button', { name: t.app.profile.save }).click();
    await expect.poll(async () => (await page.locator('.error-line').textContent()) ?? '').not.toBe('');
    await screenshot(page, `edit-profile-unknown-city-${language}`);
    expect(new URL(page.url()).pathname).toBe('/edit_profile');
    expect((await stored()).city).toMatch(/Новосибирск|Novosibirsk/);
  });

  it('reorders, removes and adds photos on /edit_photo', async () => {
    const owner = await createPerson(site.app, { name: 'Фото', gender: 'Female', photos: 2 });
    const before = await json<{ photos: string[] }>(await owner.browser.get('/api/profile'));
    const page = await pageOf(owner);
    await page.goto('/profile');
    await page.getByRole('link', { name: t.app.profile.editPhotos }).click();
    await page.waitForURL('**/edit_photo');
    await page.getByRole('button', { name: t.app.profile.moveEarlier.replace('{{n}}', '2') }).click();
    // Now the old second photo is first; remove the other one and add a new, cropped photo.
    await page.getByRole('button', { name: t.app.wizard.removePhoto.replace('{{n}}', '2') }).click();
    await addPhoto(page, language, files.phone);
    await screenshot(page, `edit-photos-${language}`);
    await expectAccessible(page, `edit photos ${language}`);
    const requests = recordApiRequests(page);
    await page.getByRole('button', { name: t.app.profile.save }).click();
    await page.waitForURL('**/profile');
    const after = await json<{ photos: string[] }>(await owner.browser.get('/api/profile'));
    expect(after.photos).toHaveLength(2);
    expect(after.photos[0]).toBe(before.photos[1]);
    expect(after.photos).not.toContain(before.photos[0]);
    // The screen shows the saved photos, and the menu's card the new first one, from the save's answer alone.
    const shown = async () =>
      ((await page.locator('.other-profile .gallery-photo').getAttribute('src')) ?? '').split('/').pop();
    await expect.poll(() => page.locator('.other-profile .gallery-segments span').count()).toBe(2);
    await expect.poll(shown).toBe(after.photos[0]);
    await page.locator('.other-profile').getByRole('button', { name: t.app.gallery.next }).click();
    await expect.poll(shown).toBe(after.photos[1]);
    await page
      .getByRole('navigation', { name: t.app.nav.label })
      .getByRole('link', { name: t.app.nav.menu, exact: true })
      .click();
    await expect
      .poll(() => page.locator('.card.own .avatar img').getAttribute('src'))
      .toContain((after.photos[0] ?? '?').replace('.jpg', ''));
    requests.stop();
    expect(requests.calls().filter((call) => call === 'GET /api/profile' || call === 'GET /api/current_user')).toEqual(
      [],
    );
  });

  it('has no console errors', () => {
    expect(errors.filter((e) => !/40[04]/.test(e))).toEqual([]);
  });
});
