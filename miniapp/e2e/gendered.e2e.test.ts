import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ru from '../../locales/ru.json' with { type: 'json' };
import { createPerson, type Person } from '../../server/test/people.ts';
import { matchAndStartChat } from './flows/chat.ts';
import { screenshotLightAndDark, startSite, type Site } from './harness.ts';
import { signInAs } from './signedIn.ts';

const named = (text: string, name: string) => text.replace('{{name}}', name);

/**
 * Russian addresses the reader, and speaks of the other person, in their grammatical gender: «напишите
 * первой» to a woman, «первым» to a man, a neutral wording when the gender is Other; «Олег тоже будет
 * заблокирован», «Вера … заблокирована».
 */
describe('gendered Russian lines', () => {
  let site: Site;
  const contexts: BrowserContext[] = [];
  const errors: string[] = [];
  beforeAll(async () => {
    site = await startSite();
  });
  afterAll(async () => {
    for (const context of contexts) await context.close();
    await site.close();
    expect(errors).toEqual([]);
  });

  async function open(person: Person, path: string, dark = false): Promise<Page> {
    const { context, page } = await site.page({
      language: 'ru',
      dark,
      errors,
      prepare: (c) => signInAs(site, c, person.browser),
    });
    contexts.push(context);
    await page.goto(path);
    return page;
  }

  it('says «напишите первой» to a woman and «первым» to a man in the chat list, and neither to Other', async () => {
    const vera = await createPerson(site.app, { name: 'Вера', gender: 'Female', preferred: 'Any' });
    const oleg = await createPerson(site.app, { name: 'Олег', gender: 'Male', preferred: 'Any' });
    const sasha = await createPerson(site.app, { name: 'Саша', gender: 'Other', preferred: 'Any' });
    await matchAndStartChat(vera, oleg);
    await matchAndStartChat(sasha, oleg);

    const hers = await open(vera, '/ChatList');
    await hers.getByText(ru.app.chat.noMessagesYet_female).waitFor();
    await screenshotLightAndDark(hers, 'gendered-chatlist-female-ru');
    const his = await open(oleg, '/ChatList');
    // Two new chats, both addressed to him.
    await expect.poll(() => his.getByText(ru.app.chat.noMessagesYet_male).count()).toBe(2);
    const theirs = await open(sasha, '/ChatList');
    await theirs.getByText(ru.app.chat.noMessagesYet, { exact: true }).waitFor();
  });

  it('speaks of the person reported in their gender, and of a person of gender Other neutrally', async () => {
    const alla = await createPerson(site.app, { name: 'Алла', gender: 'Female', preferred: 'Any' });
    const boris = await createPerson(site.app, { name: 'Борис', gender: 'Male', preferred: 'Any' });
    const kim = await createPerson(site.app, { name: 'Ким', gender: 'Other', preferred: 'Any' });
    const withBoris = await matchAndStartChat(alla, boris);
    const withKim = await matchAndStartChat(alla, kim);
    const reportHint = async (page: Page, name: string) => {
      await page.getByRole('button', { name: named(ru.app.safety.open, name) }).click();
      await page.getByRole('button', { name: ru.app.safety.report, exact: true }).click();
    };

    const aboutHim = await open(alla, `/chat/${withBoris}`);
    await reportHint(aboutHim, 'Борис');
    await aboutHim.getByText(named(ru.app.safety.reportAlsoBlocks_male, 'Борис')).waitFor();
    await screenshotLightAndDark(aboutHim, 'gendered-report-male-ru');
    const aboutHer = await open(boris, `/chat/${withBoris}`);
    await reportHint(aboutHer, 'Алла');
    await aboutHer.getByText(named(ru.app.safety.reportAlsoBlocks_female, 'Алла')).waitFor();
    const aboutKim = await open(alla, `/chat/${withKim}`);
    await reportHint(aboutKim, 'Ким');
    await aboutKim.getByText(ru.app.safety.reportAlsoBlocks, { exact: true }).waitFor();
  });

  it('asks a woman «Напишете первой?» when a match comes', async () => {
    const nina = await createPerson(site.app, { name: 'Нина', gender: 'Female', preferred: 'Any' });
    const pavel = await createPerson(site.app, { name: 'Павел', gender: 'Male', preferred: 'Any' });
    const { context, page } = await site.page({
      language: 'ru',
      errors,
      prepare: (c) => signInAs(site, c, nina.browser),
    });
    contexts.push(context);
    // Her live stream is open before the match, so the overlay comes over the menu.
    const stream = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/events');
    await page.goto('/Menu');
    await stream;
    expect((await nina.browser.post('/api/like', { profile_id: pavel.profileId })).status).toBe(200);
    expect((await pavel.browser.post('/api/like', { profile_id: nina.profileId })).status).toBe(200);
    const overlay = page.getByRole('dialog', { name: ru.app.matchOverlay.title });
    await overlay.getByText(named(ru.app.matchOverlay.text_female, 'Павел')).waitFor();
    // The button speaks of him.
    await overlay.getByRole('button', { name: ru.app.matchOverlay.write_male }).waitFor();
    await screenshotLightAndDark(page, 'gendered-match-female-ru');
  });
});
