import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import en from '../../locales/en.json' with { type: 'json' };
import ru from '../../locales/ru.json' with { type: 'json' };
import { createPerson, type Person } from '../../server/test/people.ts';
import { matchAndStartChat } from './flows/chat.ts';
import { blockFromSafetyMenu, reportFromSafetyMenu, unmatchFromProfile } from './flows/matches.ts';
import { expectAccessible, screenshot, startSite, type Site, behaviourLanguages } from './harness.ts';
import { signInAs } from './signedIn.ts';

const texts = { ru, en } as const;

describe.each(behaviourLanguages)('matches, likers and safety in %s', (language) => {
  const t = texts[language];
  let site: Site;
  const contexts: BrowserContext[] = [];
  const errors: string[] = [];

  async function pageOf(person: Person): Promise<Page> {
    const { context, page } = await site.page({
      language,
      errors,
      prepare: (context) => signInAs(site, context, person.browser),
    });
    contexts.push(context);
    return page;
  }
  const like = async (from: Person, to: Person) =>
    expect((await from.browser.post('/api/like', { profile_id: to.profileId })).status).toBe(200);
  const matchIds = async (who: Person) =>
    ((await (await who.browser.get('/api/matches')).json()) as { id: number }[]).map((m) => m.id);

  beforeAll(async () => {
    site = await startSite();
  });
  afterAll(async () => {
    for (const context of contexts) await context.close();
    await site.close();
  });

  it('shows empty states with a way on', async () => {
    const lonely = await createPerson(site.app, { name: 'Лена' });
    const page = await pageOf(lonely);
    await page.goto('/matches');
    await page.getByText(t.app.errors.noMatches).waitFor();
    await page.locator('#main').getByRole('link', { name: t.app.matches.toSearch }).waitFor();
    await expectAccessible(page, `matches empty ${language}`);
    await page.goto('/WhoLike');
    await page.getByText(t.app.errors.noLikes).waitFor();
  });

  it('gives a free user blurred likers and an invitation; the liker profile leads to /subscription', async () => {
    const vera = await createPerson(site.app, { name: 'Вера', gender: 'Female' });
    const petr = await createPerson(site.app, { name: 'Пётр', gender: 'Male' });
    await like(petr, vera);
    const page = await pageOf(vera);
    await page.goto('/WhoLike');
    await page.getByRole('link', { name: t.app.matches.seeWhoLiked }).waitFor();
    // No names for free users: the server sends none, the page shows none.
    expect(await page.getByText('Пётр').count()).toBe(0);
    await screenshot(page, `likers-free-${language}`);
    await expectAccessible(page, `likers free ${language}`);
    await page.goto(`/UsersProfileLiker/${petr.profileId}`);
    await page.waitForURL('**/subscription');
    // The spec's other spelling leads to the same screen.
    await page.goto(`/UsersprofileLiker/${petr.profileId}`);
    await page.waitForURL('**/subscription');
  });

  it('lets a premium user like a liker back: match dialog, chat, then unmatch from the profile', async () => {
    const olga = await createPerson(site.app, { name: 'Ольга', gender: 'Female', premium: true });
    const ivan = await createPerson(site.app, { name: 'Иван', gender: 'Male' });
    await like(ivan, olga);
    const page = await pageOf(olga);
    await page.goto('/WhoLike');
    await page.getByRole('link', { name: /Иван/ }).click();
    await page.waitForURL(`**/UsersProfileLiker/${ivan.profileId}`);
    await page.getByRole('heading', { name: /Иван, 30/ }).waitFor();
    await screenshot(page, `liker-profile-${language}`);
    await expectAccessible(page, `liker profile ${language}`);
    await page.getByRole('button', { name: t.app.matches.like, exact: true }).click();
    const overlay = page.getByRole('dialog', { name: t.app.matchOverlay.title });
    await overlay.getByText(t.app.matchOverlay.text_female.replace('{{name}}', 'Иван')).waitFor();
    await screenshot(page, `match-overlay-${language}`);
    await overlay.getByRole('button', { name: t.app.matchOverlay.write_male }).click();
    await page.waitForURL(/\/chat\/\d+$/);
    expect(await matchIds(ivan)).toEqual([olga.profileId]);

    await page.goto('/matches');
    await page.getByRole('link', { name: /Иван/ }).click();
    await page.waitForURL(`**/UsersProfile/${ivan.profileId}`);
    await screenshot(page, `match-profile-${language}`);
    await expectAccessible(page, `match profile ${language}`);
    await unmatchFromProfile(page, language);
    await page.getByText(t.app.errors.noMatches).waitFor();
    expect(await matchIds(ivan)).toEqual([]);
    expect((await ivan.browser.get(`/api/users_profile?profile_id=${olga.profileId}`)).status).toBe(404);
  });

  it('lets a premium user start a chat with a liker straight from the likes list (liking back makes the match)', async () => {
    const zoya = await createPerson(site.app, { name: 'Зоя', gender: 'Female', premium: true });
    const kirill = await createPerson(site.app, { name: 'Кирилл', gender: 'Male' });
    await like(kirill, zoya);
    const page = await pageOf(zoya);
    await page.goto('/WhoLike');
    const start = page.getByRole('button', { name: t.app.matches.startChatWith.replace('{{name}}', 'Кирилл') });
    await start.waitFor();
    await screenshot(page, `likers-premium-${language}`);
    await expectAccessible(page, `likers premium ${language}`);
    await start.click();
    await page.waitForURL(/\/chat\/\d+$/);
    expect(await matchIds(kirill)).toEqual([zoya.profileId]);
    // The conversation is theirs: he finds it in his own list.
    const chats = (await (await kirill.browser.get('/api/chats')).json()) as { conversation_id: number }[];
    expect(chats.map((c) => c.conversation_id)).toEqual([Number(new URL(page.url()).pathname.split('/').pop())]);
    await page.close();
  });

  it('reports a match with a reason (which also blocks) and blocks another from their profile', async () => {
    const nina = await createPerson(site.app, { name: 'Нина', gender: 'Female', premium: true });
    const sergey = await createPerson(site.app, { name: 'Сергей', gender: 'Male', premium: true });
    const oleg = await createPerson(site.app, { name: 'Олег', gender: 'Male', premium: true });
    await matchAndStartChat(nina, sergey);
    await matchAndStartChat(nina, oleg);
    const page = await pageOf(nina);

    await page.goto(`/UsersProfile/${sergey.profileId}`);
    await page.getByRole('heading', { name: /Сергей/ }).waitFor();
    await reportFromSafetyMenu(page, language, 'Сергей', 'fake', 'Фото из интернета');
    await page.waitForURL('**/matches');
    const report = await site.app.database.db
      .selectFrom('reports')
      .selectAll()
      .where('reported_id', '=', sergey.profileId)
      .executeTakeFirstOrThrow();
    expect([report.reporter_id, report.reason, report.comment]).toEqual([nina.profileId, 'fake', 'Фото из интернета']);
    expect(await matchIds(sergey)).toEqual([]);

    await page.goto(`/UsersProfile/${oleg.profileId}`);
    await page.getByRole('heading', { name: /Олег/ }).waitFor();
    await blockFromSafetyMenu(page, language, 'Олег');
    await page.waitForURL('**/matches');
    await page.getByText(t.app.errors.noMatches).waitFor();
    expect(await matchIds(oleg)).toEqual([]);
    expect((await oleg.browser.get('/api/chats')).status).toBe(200);
    expect(((await (await oleg.browser.get('/api/chats')).json()) as unknown[]).length).toBe(0);
  });

  it('has no console errors', () => {
    expect(errors).toEqual([]);
  });
});
