import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import en from '../../locales/en.json' with { type: 'json' };
import ru from '../../locales/ru.json' with { type: 'json' };
import { PasswordHasher } from '../../server/features/accounts/passwords.ts';
import { Browser } from '../../server/test/browser.ts';
import { createPerson } from '../../server/test/people.ts';
import { e2eBotToken, startSite, type Site, behaviourLanguages } from './harness.ts';
import { signInitData } from './signedIn.ts';

const texts = { ru, en } as const;

describe.each(behaviourLanguages)('members-only screens in %s', (language) => {
  const t = texts[language];
  let site: Site;
  let context: BrowserContext;
  let page: Page;
  let errors: string[];

  beforeAll(async () => {
    site = await startSite();
    ({ context, page, errors } = await site.page({ language }));
  });
  afterAll(async () => {
    await context.close();
    await site.close();
    // The ended session's calls answer 401 on purpose.
    expect(errors.filter((e) => !/401/.test(e))).toEqual([]);
  });

  const path = () => new URL(page.url()).pathname;

  it('sends an anonymous visitor to sign in, and back to the screen they wanted after', async () => {
    for (const wanted of ['/ChatList', '/WhoLike', '/edit_profile', '/chat/12', '/Menu']) {
      await page.goto(wanted);
      await page.getByRole('heading', { name: t.app.login.title }).waitFor();
      expect(path()).toBe('/login');
    }
    const person = await createPerson(site.app, { name: 'Вера' });
    const password = 'spark2026!';
    const hash = await new PasswordHasher(1).hash(password);
    const { email } = await site.app.database.db
      .updateTable('users')
      // The account's language wins once signed in: this test's.
      .set({ password_hash: hash, language })
      .where('id', '=', person.userId)
      .returning('email')
      .executeTakeFirstOrThrow();
    await page.goto('/WhoLike');
    await page.waitForURL('**/login');
    await page.getByLabel(t.app.auth.email).fill(email ?? '');
    await page.getByLabel(t.app.auth.password).fill(password);
    await page.locator('form').getByRole('button', { name: t.app.login.submit }).click();
    await page.waitForURL('**/WhoLike');
    await page.getByRole('heading', { name: t.app.matches.likesTitle }).waitFor();
  });

  it('sends a member whose session ended elsewhere to sign in at their next step', async () => {
    expect(path()).toBe('/WhoLike');
    // Signed out on another device: every session of this browser's user ends on the server.
    await site.app.database.db.deleteFrom('sessions').execute();
    // The next step is a tap on Matches, unless the app noticed first (what the screen shows is read again, and
    // answers 401) and left for sign-in by itself, taking the tab bar away: either way the member lands there.
    const tap = page
      .getByRole('navigation', { name: t.app.nav.label })
      .getByRole('link', { name: t.app.nav.matches })
      .click({ timeout: 5_000 })
      .catch(() => undefined);
    await page.waitForURL('**/login');
    await tap;
    await page.getByRole('heading', { name: t.app.login.title }).waitFor();
  });

  it('takes a session handed over on /token by a one-time code, once asked, and goes on signed in (past the members-only gate)', async () => {
    // A browser of its own, in this test's language.
    const fresh = await site.context({ language });
    const res = await fetch(`${site.app.url}/api/auth/telegram`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        initData: await signInitData(e2eBotToken, { id: language === 'ru' ? 5151 : 5152, first_name: 'Тоня' }),
      }),
    });
    const { token } = (await res.json()) as { token: string };
    // The Mini App's session asks for the link (a token session: no cookie, no CSRF token).
    const miniApp = new Browser(site.app.url);
    miniApp.bearer = token;
    const { url } = (await (await miniApp.post('/api/session/handover')).json()) as { url: string };
    const tab = await fresh.newPage();
    // The session check the app starts on loading goes out before the handover; held back, its anonymous
    // answer arrives after the handover's own (as on a slow network) and must not sign the browser out again.
    const heldBack: Promise<void>[] = [];
    await tab.route('**/api/current_user', (route) => {
      const answer = new Promise((resolve) => setTimeout(resolve, 1500)).then(() => route.continue());
      heldBack.push(answer);
      return answer;
    });
    await tab.goto(`/token${new URL(url).hash}`);
    // Nothing happens until the person agrees to whose account it is.
    await tab.getByRole('heading', { name: t.app.token.title.replace('{{name}}', t.app.token.someone) }).waitFor();
    expect(new URL(tab.url()).hash).toBe('');
    await tab.getByRole('button', { name: t.app.token.continue.replace('{{name}}', t.app.token.someone) }).click();
    // A new Telegram account has no profile yet: past /search to the wizard, not to /login.
    await tab.waitForURL('**/CreateProfile');
    await Promise.all(heldBack);
    const me = (await (await tab.request.get('/api/current_user')).json()) as { authorized: boolean };
    expect(me.authorized).toBe(true);
    expect(new URL(tab.url()).pathname).toBe('/CreateProfile');
    await fresh.close();
  });
});
