import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import en from '../../locales/en.json' with { type: 'json' };
import ru from '../../locales/ru.json' with { type: 'json' };
import { json } from '../../server/test/browser.ts';
import { createPerson, type Person, type PersonOptions } from '../../server/test/people.ts';
import { addPhoto, answerPrompts, makePhotoFiles } from './flows/profile.ts';
import { topCardId } from './flows/search.ts';
import {
  artifactsDir,
  expectAccessible,
  screenshotLightAndDark,
  startSite,
  type Site,
  behaviourLanguages,
} from './harness.ts';
import { signInAs, signInVerified } from './signedIn.ts';

const texts = { ru, en } as const;
/** Where the screenshots of this feature are kept to look at (beside the run's artifacts). */
const shotsDir = process.env.PROMPT_SHOTS_DIR ?? path.join(artifactsDir, 'prompts');

/** The answers people give, in the language of the run (the questions come from the server in the reader's). */
const answers = {
  ru: {
    weekend: 'Горы, палатка и никакого интернета',
    lookingFor: 'Того, с кем можно и молчать, и спорить до утра',
    surprise: 'Билеты на концерт в другой город',
  },
  en: {
    weekend: 'Mountains, a tent and no signal at all',
    lookingFor: 'Someone to stay quiet with and argue with till dawn',
    surprise: 'Concert tickets in another city',
  },
};

async function shot(page: Page, name: string): Promise<void> {
  await screenshotLightAndDark(page, name);
  mkdirSync(shotsDir, { recursive: true });
  for (const file of [`${name}.png`, `${name}-dark.png`])
    copyFileSync(path.join(artifactsDir, file), path.join(shotsDir, file));
}

/** A person whose photo is a real picture (createPerson writes only the names), so the card shows it. */
async function withPicture(site: Site, options: PersonOptions): Promise<Person> {
  const person = await createPerson(site.app, options);
  const rows = await site.app.database.db
    .selectFrom('photos')
    .select('file_name')
    .where('profile_id', '=', person.profileId)
    .execute();
  const uploads = path.join(site.app.database.dataDir, 'uploads');
  mkdirSync(uploads, { recursive: true });
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="640" height="852"><defs><linearGradient id="g" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#f9a8d4"/><stop offset="1" stop-color="#7c3aed"/></linearGradient></defs><rect width="640" height="852" fill="url(#g)"/><circle cx="320" cy="320" r="140" fill="#fde68a" opacity="0.7"/></svg>`;
  const jpeg = await sharp(Buffer.from(svg)).jpeg({ quality: 80 }).toBuffer();
  for (const row of rows) writeFileSync(path.join(uploads, row.file_name), jpeg);
  return person;
}

describe.each(behaviourLanguages)('profile prompts in %s', (language) => {
  const t = texts[language];
  const said = answers[language];
  let site: Site;
  let files: Awaited<ReturnType<typeof makePhotoFiles>>;
  const dir = mkdtempSync(path.join(tmpdir(), 'iskra-prompts-'));
  const contexts: BrowserContext[] = [];
  const errors: string[] = [];

  async function open(signIn: (context: BrowserContext) => Promise<unknown>): Promise<Page> {
    const { context, page } = await site.page({ language, errors, prepare: signIn });
    contexts.push(context);
    return page;
  }
  const answerBox = (page: Page, question: string) =>
    page.getByLabel(t.app.prompts.answerLabel.replace('{{question}}', question));

  beforeAll(async () => {
    site = await startSite();
    files = await makePhotoFiles(dir);
  });
  afterAll(async () => {
    for (const context of contexts) await context.close();
    await site.close();
    rmSync(dir, { recursive: true, force: true });
    expect(errors).toEqual([]);
  });

  it('answers up to three prompts in the wizard’s optional step, each answered before going on', async () => {
    const page = await open((context) => signInVerified(site, context, `prompts.${language}@example.com`));
    await page.goto('/CreateProfile');
    await page.getByLabel(t.app.wizard.name).fill('Вера');
    await page.getByLabel(t.app.wizard.age).fill('29');
    await page.getByRole('button', { name: t.app.wizard.genders.Female, exact: true }).click();
    await page.getByRole('button', { name: t.app.wizard.next }).click();
    await page.getByRole('button', { name: t.app.wizard.enterCity }).click();
    await page.getByLabel(t.app.wizard.city, { exact: true }).fill('Казань');
    await page.getByRole('button', { name: t.app.wizard.checkCity }).click();
    await page.locator('.wizard-city').waitFor();
    await page.getByRole('button', { name: t.app.wizard.next }).click();
    await addPhoto(page, language, files.phone);
    await page.getByRole('button', { name: t.app.wizard.next }).click();

    // Step 4: nothing chosen yet; the list of prompts comes in a sheet.
    await page.getByRole('heading', { name: t.app.prompts.title }).waitFor();
    await page.getByText(t.app.prompts.wizardText.replace('{{max}}', '3')).waitFor();
    await page.getByRole('button', { name: t.app.prompts.add }).click();
    const sheet = page.getByRole('dialog', { name: t.app.prompts.choose });
    await sheet.getByRole('button', { name: t.prompts.lookingFor, exact: true }).waitFor();
    expect(await sheet.getByRole('button').count()).toBeGreaterThanOrEqual(30);
    await shot(page, `wizard-prompts-sheet-${language}`);
    await sheet.getByRole('button', { name: t.prompts.idealWeekend, exact: true }).click();
    await answerBox(page, t.prompts.idealWeekend).fill(said.weekend);

    // A prompt chosen and left unanswered stops Next with a message.
    await page.getByRole('button', { name: t.app.prompts.add }).click();
    // The one already chosen is not offered again.
    await expect.poll(() => sheet.getByRole('button', { name: t.prompts.idealWeekend, exact: true }).count()).toBe(0);
    await sheet.getByRole('button', { name: t.prompts.lookingFor, exact: true }).click();
    await page.getByRole('button', { name: t.app.wizard.next }).click();
    await page.getByText(t.app.prompts.answerRequired).waitFor();
    await answerBox(page, t.prompts.lookingFor).fill(said.lookingFor);

    // A third, then no fourth: the add button gives way to a note; removing one brings it back.
    await answerPrompts(page, language, [{ question: t.prompts.surpriseMe, answer: said.surprise }]);
    await page.getByText(t.app.prompts.full.replace('{{max}}', '3')).waitFor();
    expect(await page.getByRole('button', { name: t.app.prompts.add }).count()).toBe(0);
    await page
      .getByRole('button', { name: t.app.prompts.remove.replace('{{question}}', t.prompts.surpriseMe) })
      .click();
    await page.getByRole('button', { name: t.app.prompts.add }).waitFor();
    await shot(page, `wizard-prompts-${language}`);
    await expectAccessible(page, `wizard prompts ${language}`);

    await page.getByRole('button', { name: t.app.wizard.next }).click();
    await page.getByRole('heading', { name: t.app.wizard.reviewTitle }).waitFor();
    await page.getByRole('button', { name: t.app.wizard.create, exact: true }).click();
    await page.waitForURL('**/training');
    const own = (await page.evaluate(async (): Promise<unknown> => (await fetch('/api/profile')).json())) as {
      prompts: { prompt_id: number; question: string; answer: string }[];
    };
    expect(own.prompts).toEqual([
      { prompt_id: 1, question: t.prompts.idealWeekend, answer: said.weekend },
      { prompt_id: 2, question: t.prompts.lookingFor, answer: said.lookingFor },
    ]);
  });

  it('shows the first answer over the card’s photo and every answer in the card’s details and the profile', async () => {
    const seeker = await createPerson(site.app, { name: 'Миша', gender: 'Male', language });
    const shown = await withPicture(site, {
      name: language === 'ru' ? 'Алина' : 'Alina',
      gender: 'Female',
      age: 27,
      prompts: [
        { prompt_id: 1, answer: said.weekend },
        { prompt_id: 2, answer: said.lookingFor },
        { prompt_id: 3, answer: said.surprise },
      ],
    });
    const page = await open((context) => signInAs(site, context, seeker.browser));
    await page.goto('/search');
    await page.locator('.swipe-card').waitFor();
    expect(await topCardId(page)).toBe(shown.profileId);
    const onCard = page.locator('.swipe-card .prompt-answer');
    await expect.poll(() => onCard.count()).toBe(1);
    expect(await onCard.locator('.prompt-answer-question').textContent()).toBe(t.prompts.idealWeekend);
    expect(await onCard.locator('.prompt-answer-text').textContent()).toBe(said.weekend);
    // Over the photo: inside the card, above the name.
    const answerBox_ = await onCard.boundingBox();
    const title = await page.locator('.swipe-card .swipe-title').boundingBox();
    const card = await page.locator('.swipe-card').boundingBox();
    if (!answerBox_ || !title || !card) throw new Error('no card, answer or title');
    expect(answerBox_.y + answerBox_.height).toBeLessThanOrEqual(title.y + 1);
    expect(answerBox_.y).toBeGreaterThan(card.y);
    await shot(page, `card-prompt-${language}`);
    await expectAccessible(page, `card with a prompt ${language}`);

    // The details on the card: the bio and all three answers.
    await page.locator('.swipe-card .info-button').click();
    await expect.poll(() => onCard.count()).toBe(3);
    expect(await onCard.locator('.prompt-answer-text').allTextContents()).toEqual([
      said.weekend,
      said.lookingFor,
      said.surprise,
    ]);
    await shot(page, `card-details-${language}`);

    // A match's profile page lists them too.
    expect((await shown.browser.post('/api/like', { profile_id: seeker.profileId })).status).toBe(200);
    expect(await json(await seeker.browser.post('/api/like', { profile_id: shown.profileId }))).toMatchObject({
      match: true,
    });
    await page.goto(`/UsersProfile/${shown.profileId}`);
    const listed = page.locator('.other-profile .prompt-answer');
    await expect.poll(() => listed.count()).toBe(3);
    expect(await listed.locator('.prompt-answer-question').allTextContents()).toEqual([
      t.prompts.idealWeekend,
      t.prompts.lookingFor,
      t.prompts.surpriseMe,
    ]);
    // The answers under the photo, in sight (above the sticky chat button).
    await listed.first().evaluate((first) => first.scrollIntoView({ block: 'start' }));
    await shot(page, `profile-details-${language}`);
    await expectAccessible(page, `profile details with prompts ${language}`);
  });

  it('edits the prompts on /edit_profile: an answer changed, one removed, one added', async () => {
    const owner = await createPerson(site.app, {
      name: 'Соня',
      language,
      prompts: [
        { prompt_id: 1, answer: said.weekend },
        { prompt_id: 2, answer: said.lookingFor },
      ],
    });
    const page = await open((context) => signInAs(site, context, owner.browser));
    await page.goto('/edit_profile');
    await answerBox(page, t.prompts.idealWeekend).fill(said.surprise);
    await page
      .getByRole('button', { name: t.app.prompts.remove.replace('{{question}}', t.prompts.lookingFor) })
      .click();
    await answerPrompts(page, language, [{ question: t.prompts.greenFlag, answer: said.lookingFor }]);
    await page.getByRole('button', { name: t.app.profile.save }).click();
    await page.waitForURL('**/profile');
    await expect
      .poll(() => page.locator('.other-profile .prompt-answer-text').allTextContents())
      .toEqual([said.surprise, said.lookingFor]);
    const own = await json<{ prompts: { prompt_id: number; answer: string }[] }>(
      await owner.browser.get('/api/profile'),
    );
    expect(own.prompts.map((p) => [p.prompt_id, p.answer])).toEqual([
      [1, said.surprise],
      [5, said.lookingFor],
    ]);
  });
});
