import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import en from '../../locales/en.json' with { type: 'json' };
import ru from '../../locales/ru.json' with { type: 'json' };
import { createPerson } from '../../server/test/people.ts';
import { dragCard } from './flows/search.ts';
import { expectAccessible, screenshot, startSite, type Site, behaviourLanguages } from './harness.ts';
import { signInAs } from './signedIn.ts';

const texts = { ru, en } as const;

describe('the swipe tutorial', () => {
  let site: Site;
  beforeAll(async () => {
    site = await startSite();
  });
  afterAll(async () => {
    await site.close();
  });

  for (const language of behaviourLanguages) {
    it(`walks through six steps and STARTs the search, with a skip link (${language})`, async () => {
      const t = texts[language];
      const person = await createPerson(site.app, { name: 'Ученик', gender: 'Male' });
      const { context, page, errors } = await site.page({
        language,
        prepare: (context) => signInAs(site, context, person.browser),
      });
      await page.goto('/training');
      await page.getByText(t.app.training.steps.right).waitFor();
      await page.locator('.swipe-card').waitFor();
      await screenshot(page, `training-${language}`);
      await expectAccessible(page, `training ${language}`);
      // A wrong move does not advance.
      await dragCard(page, -80);
      await page.getByText(t.app.training.steps.right).waitFor();
      await dragCard(page, 80);
      await page.getByText(t.app.training.steps.left).waitFor();
      await dragCard(page, -80);
      await page.getByText(t.app.training.steps.up).waitFor();
      await dragCard(page, 0, -80);
      await page.getByText(t.app.training.steps.down).waitFor();
      await dragCard(page, 0, 80);
      await page.getByText(t.app.training.steps.buttons).waitFor();
      await page.getByRole('button', { name: t.app.search.like, exact: true }).click();
      await page.getByText(t.app.training.ready).waitFor();
      // The tutorial swipes nobody.
      expect(
        await site.app.database.db.selectFrom('swipes').selectAll().where('swiper_id', '=', person.profileId).execute(),
      ).toEqual([]);
      await page.getByRole('link', { name: t.app.training.start }).click();
      await page.waitForURL('**/search');
      await page.goto('/training');
      await page.getByRole('link', { name: t.app.training.skip, exact: true }).click();
      await page.waitForURL('**/search');
      expect(errors).toEqual([]);
      await context.close();
    });
  }
});
