import { mkdirSync } from 'node:fs';
import path from 'node:path';
import i18next from 'i18next';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProfileId } from '../../db/schema.ts';
import { typingIntervalSeconds } from '../../server/contract/chat.ts';
import en from '../../locales/en.json' with { type: 'json' };
import ru from '../../locales/ru.json' with { type: 'json' };
import { createPerson, type Person } from '../../server/test/people.ts';
import { expectMessage, loadedMessages, matchAndStartChat } from './flows/chat.ts';
import { behaviourLanguages, expectAccessible, repoRoot, startSite, type Site } from './harness.ts';
import { signInAs } from './signedIn.ts';
import { excerpt, openerLines } from '../src/screens/Chat/openerLines.ts';

const texts = { ru, en } as const;
/** Issue 38's pictures, beside the other engineers' (outside the repository). */
const shotsDir = path.resolve(repoRoot, '..', 'shots', 'typing');

/** The screen in the light and the dark theme, saved as `<name>-light.png` and `<name>-dark.png`. */
async function shootLightAndDark(page: Page, name: string): Promise<void> {
  mkdirSync(shotsDir, { recursive: true });
  await page.evaluate(() => document.fonts.ready);
  for (const theme of ['light', 'dark'] as const) {
    await page.evaluate((value) => (document.documentElement.dataset.theme = value), theme);
    await page.screenshot({ path: path.join(shotsDir, `${name}-${theme}.png`), scale: 'css' });
  }
}

describe.each(behaviourLanguages)('typing, openers and unmatch in a chat, in %s', (language) => {
  const t = texts[language];
  let site: Site;
  const contexts: BrowserContext[] = [];
  let errors: string[];

  async function open(person: Person, as: 'ru' | 'en' = language): Promise<Page> {
    const { context, page } = await site.page({
      language: as,
      errors,
      prepare: (context) => signInAs(site, context, person.browser),
    });
    contexts.push(context);
    return page;
  }

  async function setProfile(person: Person, fields: { bio?: string; city?: string }): Promise<void> {
    await site.app.database.db
      .updateTable('profiles')
      .set(fields)
      .where('id', '=', person.profileId as ProfileId)
      .execute();
  }

  /**
   * Opens the conversation and waits for the page's live stream to be answered: a typing signal is never
   * stored, so one sent before the stream is subscribed would reach nobody.
   */
  async function openChat(page: Page, conversation: number): Promise<void> {
    const stream = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/events');
    await page.goto(`/chat/${conversation}`);
    expect((await stream).status()).toBe(200);
  }

  /** The server's clock stands still in these tests: moved past a sender's typing interval, their next signal goes out. */
  const pastTypingInterval = () => site.app.clock.advance(typingIntervalSeconds + 1);

  beforeAll(async () => {
    site = await startSite();
    errors = [];
  });

  afterAll(async () => {
    for (const context of contexts) await context.close();
    await site.close();
    expect(errors).toEqual([]);
  });

  it('shows "typing…" while the other person types, and clears it when the message comes or after a while', async () => {
    const dana = await createPerson(site.app, { name: 'Дана', gender: 'Female' });
    const egor = await createPerson(site.app, { name: 'Егор', gender: 'Male' });
    const conversation = await matchAndStartChat(dana, egor);
    const danaPage = await open(dana);
    const egorPage = await open(egor);
    await openChat(danaPage, conversation);
    await egorPage.goto(`/chat/${conversation}`);
    const danaTyping = danaPage.locator('.chat-peer-typing');
    await danaPage.getByRole('link', { name: t.app.chat.viewProfile.replace('{{name}}', 'Егор') }).waitFor();
    expect(await danaTyping.count()).toBe(0);

    // Egor types (key by key, as a person does): Dana sees it under his name.
    const egorBox = egorPage.getByLabel(t.app.chat.placeholder, { exact: true });
    await egorBox.pressSequentially('Привет, Дана');
    await danaTyping.waitFor();
    expect(await danaTyping.textContent()).toBe(t.app.chat.typing);
    await danaPage.getByRole('status').filter({ hasText: t.app.chat.typing }).waitFor({ state: 'attached' });
    // His own screen says nothing of it.
    expect(await egorPage.locator('.chat-peer-typing').count()).toBe(0);

    // His message arrives: the line goes at once, long before its 5 s are up.
    await egorPage.getByRole('button', { name: t.app.chat.send }).click();
    await expectMessage(danaPage, 'Привет, Дана');
    await danaTyping.waitFor({ state: 'detached', timeout: 2000 });

    // He types again and stops: the line shows, and goes by itself.
    pastTypingInterval();
    await egorPage.reload();
    await egorPage.getByLabel(t.app.chat.placeholder, { exact: true }).pressSequentially('ещё');
    await danaTyping.waitFor();
    await danaTyping.waitFor({ state: 'detached', timeout: 10_000 });
    expect(await loadedMessages(danaPage)).toEqual(['Привет, Дана']);
  });

  it('shows "typing…" in place of the last message in the chat list, and the message once it comes', async () => {
    const inna = await createPerson(site.app, { name: 'Инна', gender: 'Female' });
    const gleb = await createPerson(site.app, { name: 'Глеб', gender: 'Male' });
    const conversation = await matchAndStartChat(inna, gleb);
    const innaPage = await open(inna);
    const glebPage = await open(gleb);
    const stream = innaPage.waitForResponse((response) => new URL(response.url()).pathname === '/api/events');
    await innaPage.goto('/ChatList');
    expect((await stream).status()).toBe(200);
    const row = innaPage.locator('.chat-row', { hasText: 'Глеб' });
    await row.waitFor();
    expect(await row.locator('.chat-row-last.typing').count()).toBe(0);

    await glebPage.goto(`/chat/${conversation}`);
    await glebPage.getByLabel(t.app.chat.placeholder, { exact: true }).pressSequentially('Как дела?');
    await row.locator('.chat-row-last.typing', { hasText: t.app.chat.typing }).waitFor();
    await shootLightAndDark(innaPage, `chat-list-typing-${language}`);

    await glebPage.getByRole('button', { name: t.app.chat.send }).click();
    await row.locator('.chat-row-last', { hasText: 'Как дела?' }).waitFor();
    expect(await row.locator('.chat-row-last.typing').count()).toBe(0);
  });

  it('offers three first lines from their profile in an empty chat; a tap fills the box and sends nothing', async () => {
    const vera = await createPerson(site.app, { name: 'Вера', gender: 'Female' });
    const fedor = await createPerson(site.app, { name: 'Фёдор', gender: 'Male' });
    await setProfile(fedor, { bio: 'Люблю горные походы и хороший кофе. Ищу компанию на выходные.', city: 'Казань' });
    const conversation = await matchAndStartChat(vera, fedor);
    const page = await open(vera);
    await page.goto(`/chat/${conversation}`);
    const openers = page.getByRole('region', { name: t.app.chat.openers.title }).getByRole('button');
    await openers.first().waitFor();
    const lines = await openers.allTextContents();
    expect(lines).toHaveLength(3);
    // From his bio (its first sentence), his city and his name.
    expect(lines[0]).toContain('Люблю горные походы и хороший кофе');
    expect(lines[1]).toContain('Казань');
    expect(lines[2]).toContain('Фёдор');
    await expectAccessible(page, `openers ${language}`);

    await openers.nth(1).click();
    const box = page.getByLabel(t.app.chat.placeholder, { exact: true });
    expect(await box.inputValue()).toBe(lines[1]);
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('message-input');
    // Nothing was sent: the box holds it, the conversation is still empty.
    const stored = (await (await vera.browser.get(`/api/conversations/${conversation}/messages`)).json()) as {
      messages: unknown[];
    };
    expect(stored.messages).toEqual([]);

    // Another one replaces it; once sent, the conversation has begun and the openers go.
    await openers.nth(0).click();
    expect(await box.inputValue()).toBe(lines[0]);
    await page.getByRole('button', { name: t.app.chat.send }).click();
    await expectMessage(page, lines[0] ?? '');
    await page.locator('.openers').waitFor({ state: 'detached' });
  });

  it("unmatches from the chat's ⋯ menu after the same question as on the profile", async () => {
    const gleb = await createPerson(site.app, { name: 'Глеб', gender: 'Male' });
    const zoya = await createPerson(site.app, { name: 'Зоя', gender: 'Female' });
    const conversation = await matchAndStartChat(gleb, zoya);
    const page = await open(gleb);
    await page.goto(`/chat/${conversation}`);
    await page.getByRole('button', { name: t.app.safety.open.replace('{{name}}', 'Зоя') }).click();
    const menu = page.getByRole('dialog', { name: t.app.safety.title });
    // Beside report and block.
    for (const label of [t.app.matches.unmatch, t.app.safety.report, t.app.safety.block])
      await menu.getByRole('button', { name: label, exact: true }).waitFor();
    await menu.getByRole('button', { name: t.app.matches.unmatch, exact: true }).click();
    const confirm = page.getByRole('dialog', { name: t.app.matches.unmatchTitle.replace('{{name}}', 'Зоя') });
    await confirm.getByText(t.app.matches.unmatchText.replace('{{name}}', 'Зоя')).waitFor();
    await expectAccessible(page, `unmatch from chat ${language}`);

    // Cancel first: nothing changes, the chat stays.
    await confirm.getByRole('button', { name: t.app.matches.cancel, exact: true }).click();
    await confirm.waitFor({ state: 'hidden' });
    expect(((await (await gleb.browser.get('/api/matches')).json()) as { id: number }[]).map((m) => m.id)).toContain(
      zoya.profileId,
    );

    await page.getByRole('button', { name: t.app.safety.open.replace('{{name}}', 'Зоя') }).click();
    await menu.getByRole('button', { name: t.app.matches.unmatch, exact: true }).click();
    await confirm.getByRole('button', { name: t.app.matches.unmatchConfirm, exact: true }).click();
    await page.waitForURL('**/ChatList');
    // His only chat was hers: the list says he has none.
    await page.getByText(t.app.chat.emptyHint).waitFor();
    expect(await page.getByRole('link', { name: /Зоя/ }).count()).toBe(0);
    expect(
      ((await (await gleb.browser.get('/api/matches')).json()) as { id: number }[]).map((m) => m.id),
    ).not.toContain(zoya.profileId);
    expect((await zoya.browser.get(`/api/conversations/${conversation}/messages`)).status).toBe(404);
  });

  it('is pictured with openers and "typing…", and its menu, in Russian and English, light and dark', async () => {
    for (const shown of ['ru', 'en'] as const) {
      const names = shown === 'ru' ? ['Ирина', 'Кирилл'] : ['Iris', 'Kirill'];
      const reader = await createPerson(site.app, { name: names[0], gender: 'Female' });
      const writer = await createPerson(site.app, { name: names[1], gender: 'Male', photos: 1 });
      await setProfile(writer, {
        bio:
          shown === 'ru'
            ? 'Фотографирую закаты и пеку хлеб по выходным.'
            : 'I photograph sunsets and bake bread on weekends.',
        city: shown === 'ru' ? 'Санкт-Петербург' : 'Saint Petersburg',
      });
      const conversation = await matchAndStartChat(reader, writer);
      const page = await open(reader, shown);
      await openChat(page, conversation);
      await page.locator('.opener').first().waitFor();
      pastTypingInterval();
      expect((await writer.browser.post(`/api/conversations/${conversation}/typing`, {})).status).toBe(200);
      await page.locator('.chat-peer-typing').waitFor();
      await shootLightAndDark(page, `chat-typing-openers-${shown}`);
      // The ⋯ menu with Unmatch beside report and block, and its question.
      await page
        .getByRole('button', { name: texts[shown].app.safety.open.replace('{{name}}', names[1] ?? '') })
        .click();
      await page
        .getByRole('dialog')
        .getByRole('button', { name: texts[shown].app.matches.unmatch, exact: true })
        .waitFor();
      await shootLightAndDark(page, `chat-menu-${shown}`);
      await page
        .getByRole('dialog')
        .getByRole('button', { name: texts[shown].app.matches.unmatch, exact: true })
        .click();
      await page
        .getByRole('dialog', { name: texts[shown].app.matches.unmatchTitle.replace('{{name}}', names[1] ?? '') })
        .waitFor();
      await shootLightAndDark(page, `chat-unmatch-confirm-${shown}`);
    }
  });
});

/**
 * The lines themselves, from a profile with prompts (which profiles carry once issue 38's prompts are in:
 * the screen above is tested without them), in both languages.
 */
describe('opener lines', () => {
  async function translator(language: 'ru' | 'en') {
    const i18n = i18next.createInstance();
    await i18n.init({
      lng: language,
      resources: { [language]: { translation: texts[language] } },
      interpolation: { escapeValue: false },
    });
    return i18n.t;
  }

  it("start from their prompts (an answer, then another question), then their bio, in the reader's language", async () => {
    const person = {
      name: 'Лев',
      city: 'Казань',
      bio: 'Играю на виолончели.',
      prompts: [
        { question: 'Мой идеальный выходной…', answer: 'Поход в горы, а вечером баня. Без телефона!' },
        { question: 'Лучший способ меня удивить…', answer: 'Билеты на концерт' },
        { question: 'Я ищу…', answer: 'Человека с чувством юмора' },
      ],
    };
    expect(openerLines(await translator('ru'), person)).toEqual([
      '«Поход в горы, а вечером баня» — звучит интересно! Расскажешь подробнее?',
      'Зацепил твой ответ на «Лучший способ меня удивить». Почему именно так?',
      'В твоей анкете: «Играю на виолончели» — расскажи об этом подробнее?',
    ]);
    const english = {
      ...person,
      name: 'Leo',
      bio: '',
      prompts: [{ question: 'I am looking for…', answer: 'Someone to cook with' }],
    };
    expect(openerLines(await translator('en'), english)).toEqual([
      '“Someone to cook with” sounds interesting! Tell me more?',
      "Hi! What's your favourite spot in Казань?",
      "Hi Leo! How's your day going?",
    ]);
  });

  it('fall back on lines for anyone when the profile says little, and never repeat one', async () => {
    const t = await translator('ru');
    expect(openerLines(t, { name: 'Ян', city: ' ', bio: '', prompts: [] })).toEqual([
      'Привет, Ян! Как проходит твой день?',
      'Как ты любишь проводить выходные?',
      'Что тебя порадовало на этой неделе?',
    ]);
    expect(openerLines(t, { name: 'Ян' })).toHaveLength(3);
  });

  it('quote a long text up to a word, with an ellipsis', () => {
    const long = 'Обожаю долгие прогулки по набережной вечером, особенно когда начинается дождь и город пустеет';
    const quoted = excerpt(long);
    expect(quoted.endsWith('…')).toBe(true);
    expect(quoted.length).toBeLessThanOrEqual(61);
    expect(long.startsWith(quoted.slice(0, -1))).toBe(true);
    expect(quoted.at(-2)).not.toBe(' ');
  });
});
