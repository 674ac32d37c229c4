import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import en from '../../locales/en.json' with { type: 'json' };
import ru from '../../locales/ru.json' with { type: 'json' };
import { createPerson } from '../../server/test/people.ts';
import { expectAccessible, screenshot, startSite, type Site, behaviourLanguages } from './harness.ts';

const texts = { ru, en } as const;

/**
 * Login CSRF through the token page: an attacker sends a link that would sign the victim's browser in to
 * the attacker's account (so what the victim then types, uploads or pays lands there). The victim's
 * browser here has no session of its own.
 */
describe.each(behaviourLanguages)('a crafted sign-in link in %s', (language) => {
  const t = texts[language];
  let site: Site;
  beforeAll(async () => {
    site = await startSite();
  });
  afterAll(async () => {
    await site.close();
  });

  const authorized = async (page: import('playwright-core').Page) =>
    ((await (await page.request.get('/api/current_user')).json()) as { authorized: boolean }).authorized;

  it("with the attacker's session token (/token#token=…) stores nothing and signs nobody in", async () => {
    const attacker = await createPerson(site.app, { name: 'Мэллори' });
    const token = attacker.browser.cookie('iskra_session') ?? '';
    const { context, page, errors } = await site.page({ language });
    await page.goto(`/token#token=${token}`);
    await page.getByTestId('handover-invalid').getByText(t.app.token.invalid).waitFor();
    expect(await page.evaluate(() => localStorage.getItem('jwtToken'))).toBeNull();
    expect(new URL(page.url()).hash).toBe('');
    expect(await authorized(page)).toBe(false);
    await page.getByRole('link', { name: t.app.token.toLogin }).click();
    await page.waitForURL('**/login');
    await context.close();
    expect(errors).toEqual([]);
  });

  it('with the attacker\'s one-time code asks "Continue as <name>?" and, refused, leaves the browser signed out', async () => {
    const attacker = await createPerson(site.app, { name: 'Мэллори' });
    const { url } = (await (await attacker.browser.post('/api/session/handover')).json()) as { url: string };
    const { context, page, errors } = await site.page({ language });
    await page.goto(`/token${new URL(url).hash}`);
    const ask = page.getByTestId('handover-confirm');
    await ask.getByRole('heading', { name: t.app.token.title.replace('{{name}}', 'Мэллори') }).waitFor();
    await ask.getByText(t.app.token.text.replace('{{name}}', 'Мэллори')).waitFor();
    // Shown, not redeemed: no session, no token, and the code is out of the address bar.
    expect(await authorized(page)).toBe(false);
    expect(await page.evaluate(() => localStorage.getItem('jwtToken'))).toBeNull();
    expect(new URL(page.url()).hash).toBe('');
    await expectAccessible(page, `handover question ${language}`);
    await screenshot(page, `handover-question-${language}`);

    await ask.getByRole('button', { name: t.app.token.cancel }).click();
    await page.waitForURL((u) => u.pathname === '/');
    expect(await authorized(page)).toBe(false);
    // Opened again, the same link still only asks; a code the owner redeemed elsewhere is gone for good.
    expect(
      (
        await attacker.browser.post('/api/session/handover/redeem', {
          code: new URLSearchParams(new URL(url).hash.slice(1)).get('code'),
        })
      ).status,
    ).toBe(200);
    await page.goto(`/token${new URL(url).hash}`);
    await page.getByTestId('handover-invalid').waitFor();
    expect(await authorized(page)).toBe(false);
    await context.close();
    // The spent code's preview answers 404 on purpose.
    expect(errors.filter((e) => !/404/.test(e))).toEqual([]);
  });
});
