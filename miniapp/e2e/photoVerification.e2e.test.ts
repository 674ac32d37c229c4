import type { BrowserContext, Page, Request } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import en from '../../locales/en.json' with { type: 'json' };
import ru from '../../locales/ru.json' with { type: 'json' };
import type { ProfileId } from '../../db/schema.ts';
import type { Person } from '../../server/test/people.ts';
import { withPhotos } from './flows/photos.ts';
import { topCardId } from './flows/search.ts';
import { hostLikeTelegram, telegramEvents, telegramLaunchHash } from './flows/telegram.ts';
import { behaviourLanguages, expectAccessible, screenshotLightAndDark, startSite, type Site } from './harness.ts';
import { signInAs } from './signedIn.ts';

/**
 * Issue 40, the member's side: photo verification from the menu (web and Mini App, the selfie through a
 * file input), the verified badge, the "verified only" filter, and photos held for review. In Russian and
 * English: the screen is new, so both languages run its behaviour, not only the English screenshot pass.
 *
 * Every test runs against the real server: what a moderator or the models decided is seeded straight in the
 * database (profiles.verified, photos.moderation, photo_verifications). Each test has its own list of page
 * errors and closes its own browser contexts.
 */
const texts = { ru, en } as const;

/** A selfie-sized JPEG made here (a face is not needed: the server decides what it sees). */
function selfieFile(): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="720" height="960"><rect width="720" height="960" fill="#d9c2a7"/><ellipse cx="360" cy="420" rx="190" ry="250" fill="#f1d3b3"/><circle cx="290" cy="380" r="22" fill="#333"/><circle cx="430" cy="380" r="22" fill="#333"/><path d="M280 540 Q360 600 440 540" stroke="#933" stroke-width="14" fill="none"/></svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 85 }).toBuffer();
}

/** The `verifiedOnly` values `GET /api/search` is asked with from now on (null: left out). */
function searchedVerifiedOnly(page: Page): (string | null)[] {
  const asked: (string | null)[] = [];
  page.on('request', (request: Request) => {
    const url = new URL(request.url());
    if (url.pathname === '/api/search') asked.push(url.searchParams.get('verifiedOnly'));
  });
  return asked;
}

/** A distance limit stored before the page opens: the file's people live in cities of their own. */
async function withinTenKm(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    if (sessionStorage.getItem('distance-preset')) return;
    sessionStorage.setItem('distance-preset', '1');
    localStorage.setItem('maxDistance', '10');
  });
}

describe.each(behaviourLanguages)('photo verification, the badge and "verified only" in %s', (language) => {
  const t = texts[language];
  let site: Site;
  /** This test's page errors (a fresh list each test, so one test's failure is not blamed on the next). */
  let errors: string[] = [];
  let nextTelegramId = language === 'ru' ? 40_400 : 40_500;

  beforeAll(async () => {
    site = await startSite();
  });
  beforeEach(() => {
    errors = [];
  });
  afterAll(async () => {
    await site.close();
  });

  /** Closed when the test that opened it ends, passed or failed. */
  function closeAfterTest(context: BrowserContext): void {
    onTestFinished(() => context.close());
  }

  async function open(person: Person, prepare?: (context: BrowserContext) => Promise<void>): Promise<Page> {
    const { context, page } = await site.page({
      language,
      errors,
      prepare: async (context) => {
        await signInAs(site, context, person.browser);
        await prepare?.(context);
      },
    });
    closeAfterTest(context);
    return page;
  }

  /** A returning Telegram user with a profile and a photo, reached by a Telegram id of their own. */
  async function telegramPerson(name: string): Promise<{ person: Person; telegramId: number }> {
    const person = await withPhotos(site, { name, gender: 'Female', at: [61.25, 73.4], photos: 1, language });
    const telegramId = ++nextTelegramId;
    await site.app.database.db
      .updateTable('users')
      .set({ telegram_id: String(telegramId) })
      .where('id', '=', person.userId)
      .execute();
    return { person, telegramId };
  }

  async function openInTelegram(telegramId: number, path: string): Promise<Page> {
    const { context, page } = await site.page({ language, errors, prepare: hostLikeTelegram });
    closeAfterTest(context);
    const user = { id: telegramId, first_name: 'Ira', language_code: language, allows_write_to_pm: true };
    await page.goto(`${path}${await telegramLaunchHash({ user })}`);
    return page;
  }

  const verificationRow = (page: Page) =>
    page.getByRole('navigation', { name: t.verification.title }).getByRole('link', { name: t.verification.title });
  const heading = (page: Page) => page.getByRole('heading', { name: t.verification.title, level: 1 });
  const consentBox = (page: Page) => page.getByRole('checkbox', { name: t.verification.consent });
  const statusCard = (page: Page) => page.locator('.verification-status');

  /** The latest selfie check of a profile, as the server stored it. */
  const latestCheck = (profileId: ProfileId) =>
    site.app.database.db
      .selectFrom('photo_verifications')
      .select(['status', 'pose_id', 'reason'])
      .where('profile_id', '=', profileId)
      .orderBy('id', 'desc')
      .executeTakeFirst();

  it('opens photo verification from the menu on the web: the explanation, the pose, consent before the camera', async () => {
    const person = await withPhotos(site, {
      name: language === 'ru' ? 'Алиса' : 'Alice',
      at: [43.12, 131.9],
      photos: 1,
    });
    const page = await open(person);
    await page.goto('/Menu');
    await verificationRow(page).click();
    await page.waitForURL('**/verification');
    await heading(page).waitFor();
    await statusCard(page).getByText(t.verification.status.none).waitFor();
    await page.getByText(t.verification.intro).waitFor();
    // The pose comes from the server, in the reader's language: one of the texts of the locale.
    const pose = await page.locator('.verification-pose').textContent();
    expect(Object.values(t.verification.pose)).toContain(pose);
    // Nothing can be sent before the explicit consent to biometric processing.
    expect(await consentBox(page).isChecked()).toBe(false);
    const camera = page.locator('input[type=file][name=selfie]');
    expect(await camera.getAttribute('accept')).toBe('image/*');
    expect(await camera.getAttribute('capture')).toBe('user');
    expect(await camera.isDisabled()).toBe(true);
    await page.getByText(t.verification.consentRequired).waitFor();
    await screenshotLightAndDark(page, `verification-none-${language}`);
    await consentBox(page).check();
    expect(await camera.isDisabled()).toBe(false);
    expect(await page.getByText(t.verification.consentRequired).count()).toBe(0);
    // A reconnect reads the state again, and each read offers a new random pose: the form keeps the pose it
    // showed and the ticked box (three times: a same pose drawn by chance cannot hide a reset).
    const shownPose = await page.locator('.verification-pose').getAttribute('data-pose');
    for (let i = 0; i < 3; i++) {
      const reread = page.waitForResponse(
        (res) => new URL(res.url()).pathname === '/api/verification' && res.request().method() === 'GET',
      );
      await page.context().setOffline(true);
      await page.context().setOffline(false);
      await reread;
      // The answer went into the cache and the screen rendered it (the status card stays).
      await statusCard(page).getByText(t.verification.status.none).waitFor();
      expect(await page.locator('.verification-pose').getAttribute('data-pose')).toBe(shownPose);
      expect(await consentBox(page).isChecked()).toBe(true);
    }
    await expectAccessible(page, `verification screen ${language}`);
    expect(await latestCheck(person.profileId)).toBeUndefined();
    expect(errors).toEqual([]);
  });

  it("opens photo verification from the menu in the Mini App, with Telegram's back button leading back", async () => {
    const { telegramId } = await telegramPerson(language === 'ru' ? 'Ира' : 'Ira');
    const page = await openInTelegram(telegramId, '/Menu');
    await verificationRow(page).click();
    await page.waitForURL('**/verification');
    await heading(page).waitFor();
    expect(await page.getAttribute('html', 'data-platform')).toBe('telegram');
    const backButton = async () =>
      (await telegramEvents(page)).filter(([name]) => name === 'web_app_setup_back_button').at(-1);
    await expect.poll(backButton).toEqual(['web_app_setup_back_button', { is_visible: true }]);
    await statusCard(page).waitFor();
    await screenshotLightAndDark(page, `verification-miniapp-${language}`);
    // Telegram's back button (its event, as the client sends it) goes back to the menu.
    await page.evaluate(() =>
      (
        window as unknown as { Telegram: { WebView: { receiveEvent(name: string, data: unknown): void } } }
      ).Telegram.WebView.receiveEvent('back_button_pressed', {}),
    );
    await page.waitForURL((url) => url.pathname === '/Menu');
    expect(errors).toEqual([]);
  });

  for (const where of ['web', 'telegram'] as const) {
    it(`sends a selfie through the file input with consent and the pose, and shows the answer (${where})`, async () => {
      let page: Page;
      let profileId: ProfileId;
      if (where === 'web') {
        const person = await withPhotos(site, { name: 'Selfie', at: [43.13, 131.91], photos: 1, language });
        profileId = person.profileId;
        page = await open(person);
        await page.goto('/Menu');
        await verificationRow(page).click();
      } else {
        const { person, telegramId } = await telegramPerson('Селфи');
        profileId = person.profileId;
        page = await openInTelegram(telegramId, '/verification');
      }
      await heading(page).waitFor();
      await statusCard(page).getByText(t.verification.status.none).waitFor();
      const poseId = await page.locator('.verification-pose').getAttribute('data-pose');
      let sent = 0;
      page.on('request', (request) => {
        if (new URL(request.url()).pathname === '/api/verification' && request.method() === 'POST') sent += 1;
      });
      await consentBox(page).check();
      await page.locator('input[type=file][name=selfie]').setInputFiles({
        name: 'selfie.jpg',
        mimeType: 'image/jpeg',
        buffer: await selfieFile(),
      });
      // The server's answer, whatever it decided: no longer "not verified yet", never stuck checking.
      await expect
        .poll(() => statusCard(page).getAttribute('data-status'), { timeout: 60_000 })
        .toMatch(/^(pending|verified|rejected)$/);
      // One selfie, checked in the pose shown (the server refuses a form without consent='true').
      expect(sent).toBe(1);
      const check = await latestCheck(profileId);
      expect(check?.pose_id).toBe(poseId);
      const status = await statusCard(page).getAttribute('data-status');
      expect(check?.status).toBe(status);
      if (status === 'rejected') {
        // The reason the server gave, and a new attempt offered with the pose it asks for now.
        await statusCard(page)
          .getByText(t.verification.reason[check?.reason as keyof typeof t.verification.reason])
          .waitFor();
        await page.getByText(t.verification.retry).waitFor();
      }
      if (status === 'pending') await statusCard(page).getByText(t.verification.status.pending).waitFor();
      if (where === 'telegram') {
        const haptics = async () =>
          (await telegramEvents(page)).filter(([name]) => name === 'web_app_trigger_haptic_feedback');
        await expect.poll(async () => (await haptics()).length).toBeGreaterThan(0);
      }
      await screenshotLightAndDark(page, `verification-sent-${where}-${language}`);
      expect(errors).toEqual([]);
    });
  }

  it('opened straight at /verification inside Telegram, waits for the launch sign-in before reading (telegram)', async () => {
    const { telegramId } = await telegramPerson('Ожидание');
    // The sign-in is held at the server's door until the app has shown what it does meanwhile: a screen
    // that reads at once sends its read without a token (refused, and the session's check that refusal
    // sets off used to send the user via `/` to the deck); one that waits shows the loading state.
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const { context, page } = await site.page({
      language,
      errors,
      prepare: async (context) => {
        await hostLikeTelegram(context);
        await context.route('**/api/auth/telegram', async (route) => {
          await held;
          await route.continue();
        });
      },
    });
    closeAfterTest(context);
    const reads: (string | undefined)[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/api/verification') reads.push(request.headers().authorization);
    });
    const screenCode = page.waitForEvent('requestfinished', (request) =>
      /\/VerificationScreen-[^/]*\.js$/.test(new URL(request.url()).pathname),
    );
    const user = { id: telegramId, first_name: 'Ira', language_code: language, allows_write_to_pm: true };
    await page.goto(`/verification${await telegramLaunchHash({ user })}`);
    const readEarly = page.waitForRequest((request) => new URL(request.url()).pathname === '/api/verification');
    const waiting = screenCode.then(async () => {
      // The screen's code is there, yet the screen waits: the loading state, not the screen.
      await page.getByRole('main').getByRole('status').waitFor();
      await expect.poll(() => heading(page).count()).toBe(0);
    });
    // Whichever comes first; the one left over settles unheard (the assertions below judge).
    const settled = () => undefined;
    await Promise.race([readEarly.then(settled, settled), waiting.then(settled, settled)]);
    release();
    await statusCard(page).getByText(t.verification.status.none).waitFor();
    expect(new URL(page.url()).pathname).toBe('/verification');
    // Every read of the screen carried the token the sign-in gave.
    expect(reads.length).toBeGreaterThan(0);
    expect(reads.every((authorization) => authorization?.startsWith('Bearer '))).toBe(true);
    expect(errors).toEqual([]);
  });

  it('shows what the server decided: rejected with its reason and a new pose, a moderator looking, verified with consent to withdraw', async () => {
    const person = await withPhotos(site, { name: 'Decided', at: [43.14, 131.92], photos: 1, language });
    const db = site.app.database.db;
    const decided = (status: 'rejected' | 'pending' | 'verified', reason: string | null) =>
      db
        .insertInto('photo_verifications')
        .values({
          profile_id: person.profileId,
          status,
          pose_id: 'turn_left',
          selfie_name: null,
          similarity: null,
          pose_ok: null,
          faces: 1,
          reason,
          created_at: new Date().toISOString(),
          decided_at: status === 'pending' ? null : new Date().toISOString(),
          decided_by: status === 'pending' ? null : 'model',
        })
        .execute();

    await decided('rejected', 'no_match');
    const page = await open(person);
    await page.goto('/verification');
    await statusCard(page).getByText(t.verification.status.rejected).waitFor();
    await statusCard(page).getByText(t.verification.reason.no_match).waitFor();
    await page.getByText(t.verification.retry).waitFor();
    await screenshotLightAndDark(page, `verification-rejected-${language}`);

    await decided('pending', 'review');
    await page.reload();
    await statusCard(page).getByText(t.verification.status.pending).waitFor();
    await statusCard(page).getByText(t.verification.statusText.pending).waitFor();
    expect(await page.locator('input[type=file]').count()).toBe(0);
    await screenshotLightAndDark(page, `verification-pending-${language}`);

    await decided('verified', null);
    await db
      .updateTable('profiles')
      .set({ verified: 1, face_consent_at: new Date().toISOString() })
      .where('id', '=', person.profileId)
      .execute();
    await page.reload();
    await statusCard(page).getByText(t.verification.status.verified).waitFor();
    await statusCard(page).getByRole('img', { name: t.verification.badge }).waitFor();
    await page.getByText(t.verification.consentGiven).waitFor();
    await screenshotLightAndDark(page, `verification-verified-${language}`);
    await expectAccessible(page, `verification verified ${language}`);

    // Withdrawing consent deletes the face data on the server; the badge stays.
    await page.getByRole('button', { name: t.verification.withdraw }).click();
    await page.getByRole('dialog').getByRole('button', { name: t.verification.withdrawConfirm, exact: true }).click();
    await expect
      .poll(
        async () =>
          (
            await db
              .selectFrom('profiles')
              .select('face_consent_at')
              .where('id', '=', person.profileId)
              .executeTakeFirst()
          )?.face_consent_at,
      )
      .toBeNull();
    await expect.poll(() => page.getByText(t.verification.consentGiven).count()).toBe(0);
    await statusCard(page).getByText(t.verification.status.verified).waitFor();
    expect(errors).toEqual([]);
  });

  it('switches "verified only" in the menu: kept across a reload, asked of the search, explained and undone on the empty deck', async () => {
    // Alone within 10 km: the deck is empty whatever the server makes of the filter.
    const seeker = await withPhotos(site, { name: 'Pavel', gender: 'Male', at: [69.35, 88.19], photos: 1 });
    const page = await open(seeker, withinTenKm);
    const asked = searchedVerifiedOnly(page);
    await page.goto('/Menu');
    const menuSwitch = page.getByRole('switch', { name: t.verification.filter.label });
    expect(await menuSwitch.isChecked()).toBe(false);
    await menuSwitch.check();
    expect(await page.evaluate(() => localStorage.getItem('verifiedOnly'))).toBe('true');
    await menuSwitch.scrollIntoViewIfNeeded();
    await screenshotLightAndDark(page, `verified-only-menu-${language}`);
    await expectAccessible(page, `menu with "verified only" ${language}`);

    await page.reload();
    expect(await page.getByRole('switch', { name: t.verification.filter.label }).isChecked()).toBe(true);

    await page.goto('/search');
    await page.getByText(t.app.errors.noMoreProfiles).waitFor();
    expect(asked.at(-1)).toBe('true');
    // The deck says that "verified only" is on, and offers everyone first.
    await page.getByText(t.verification.empty.text).waitFor();
    const deckSwitch = page.getByRole('switch', { name: t.verification.filter.label });
    expect(await deckSwitch.isChecked()).toBe(true);
    await screenshotLightAndDark(page, `verified-only-empty-deck-${language}`);
    await expectAccessible(page, `empty deck with "verified only" ${language}`);

    const searches = asked.length;
    await page.getByRole('button', { name: t.verification.empty.showAll }).click();
    await expect.poll(() => asked.length).toBeGreaterThan(searches);
    expect(asked.at(-1)).toBeNull();
    expect(await page.evaluate(() => localStorage.getItem('verifiedOnly'))).toBeNull();
    await page.getByText(t.app.errors.noMoreProfiles).waitFor();
    expect(await page.getByText(t.verification.empty.text).count()).toBe(0);

    // The empty deck's own switch turns it on again, and the menu shows it.
    await page.getByRole('switch', { name: t.verification.filter.label }).check();
    await expect.poll(() => asked.at(-1)).toBe('true');
    await page.goto('/Menu');
    expect(await page.getByRole('switch', { name: t.verification.filter.label }).isChecked()).toBe(true);
    expect(errors).toEqual([]);
  });

  it('narrows the deck to verified people, with the badge on the card, their profile and the own menu card', async () => {
    const here: [number, number] = [54.71, 20.51];
    const seeker = await withPhotos(site, { name: 'Oleg', gender: 'Male', at: here, photos: 1 });
    const trusted = await withPhotos(site, { name: language === 'ru' ? 'Вера' : 'Vera', at: here, photos: 1 });
    const other = await withPhotos(site, { name: language === 'ru' ? 'Нина' : 'Nina', at: here, photos: 1 });
    const db = site.app.database.db;
    await db
      .updateTable('profiles')
      .set({ verified: 1 })
      .where('id', 'in', [trusted.profileId, seeker.profileId])
      .execute();
    // Vera liked Oleg: his like makes a match, whose profile then shows her badge.
    expect((await trusted.browser.post('/api/like', { profile_id: seeker.profileId })).status).toBe(200);
    const page = await open(seeker, async (context) => {
      await withinTenKm(context);
      await context.addInitScript(() => {
        if (sessionStorage.getItem('verified-preset')) return;
        sessionStorage.setItem('verified-preset', '1');
        localStorage.setItem('verifiedOnly', 'true');
      });
    });
    await page.goto('/search');
    await expect.poll(() => topCardId(page)).toBe(trusted.profileId);
    const card = page.locator('.swipe-card');
    await card.getByRole('img', { name: t.verification.badge }).waitFor();
    await screenshotLightAndDark(page, `verified-card-${language}`);
    await expectAccessible(page, `card with the verified badge ${language}`);
    await page.getByRole('button', { name: t.app.search.like, exact: true }).click();
    // She had liked him: the match overlay, closed to go on.
    await page.locator('.match-overlay').getByRole('button', { name: t.app.common.close }).click();
    // Nina is not verified: nobody is left, and the deck says why.
    await page.getByText(t.verification.empty.text).waitFor({ timeout: 30_000 });
    await page.getByRole('button', { name: t.verification.empty.showAll }).click();
    await expect.poll(() => topCardId(page)).toBe(other.profileId);
    expect(await page.locator('.swipe-card').getByRole('img', { name: t.verification.badge }).count()).toBe(0);

    await page.goto(`/UsersProfile/${trusted.profileId}`);
    await page.locator('.other-profile h1').getByRole('img', { name: t.verification.badge }).waitFor();
    await page.goto('/Menu');
    await page.locator('.own').getByRole('img', { name: t.verification.badge }).waitFor();
    await verificationRow(page).getByText(t.verification.menuHintVerified).waitFor();
    expect(errors).toEqual([]);
  });

  it('marks photos held for review "under review" in the own photo editor, and counts them on the own profile', async () => {
    const owner = await withPhotos(site, { name: 'Held', at: [43.15, 131.93], photos: 3, language });
    await site.app.database.db
      .updateTable('photos')
      .set({ moderation: 'held' })
      .where('file_name', '=', owner.photos[1] ?? '')
      .execute();
    const page = await open(owner);
    await page.goto('/profile');
    await page.getByText(t.verification.underReviewCount_one.replace('{{count}}', '1')).waitFor();
    await page.goto('/edit_photo');
    const thumbnails = page.locator('.photo-previews li');
    await expect.poll(() => thumbnails.count()).toBe(3);
    expect(await thumbnails.nth(1).getByText(t.verification.underReview).count()).toBe(1);
    expect(await page.locator('.photo-previews').getByText(t.verification.underReview).count()).toBe(1);
    await page.getByText(t.verification.underReviewNote).waitFor();
    await screenshotLightAndDark(page, `under-review-${language}`);
    await expectAccessible(page, `photo editor with a held photo ${language}`);
    expect(errors).toEqual([]);
  });
});
