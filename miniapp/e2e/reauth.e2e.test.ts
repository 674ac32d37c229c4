import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import en from '../../locales/en.json' with { type: 'json' };
import ru from '../../locales/ru.json' with { type: 'json' };
import { reauthWindowMinutes } from '../../server/contract/dataRights.ts';
import { createPerson } from '../../server/test/people.ts';
import { expectAccessible, screenshot, startSite, type Site, behaviourLanguages } from './harness.ts';
import { signInAs } from './signedIn.ts';

const texts = { ru, en } as const;
let telegramIds = 9_300_000_000;

/** Menu → Account: the ways in listed beside "sign out everywhere", and the re-authentication a new way in asks for. */
describe.each(behaviourLanguages)('the ways into an account in %s', (language) => {
  const t = texts[language];
  let site: Site;
  beforeAll(async () => {
    site = await startSite();
  });
  afterAll(async () => {
    await site.close();
  });

  /** A password-less account (Telegram and Google) with a proven e-mail, signed in now, on a phone-sized page. */
  async function openAccount() {
    const person = await createPerson(site.app, { name: 'Ира' });
    await site.app.database.db
      .updateTable('users')
      .set({ telegram_id: String(++telegramIds), google_sub: `e2e-sub-${telegramIds}` })
      .where('id', '=', person.userId)
      .execute();
    const opened = await site.page({ language, prepare: (c) => signInAs(site, c, person.browser) });
    return { person, ...opened };
  }

  it('lists the linked ways in beside "sign out on all other devices", naming no identifier', async () => {
    const { person, context, page, errors } = await openAccount();
    // A second device, so "sign out on all other devices" is offered.
    const now = site.app.clock.now();
    await site.app.database.db
      .insertInto('sessions')
      .values({
        id_hash: `e2e-other-device-${person.userId}`,
        user_id: person.userId,
        created_at: now.toISOString(),
        expires_at: new Date(now.getTime() + 86_400_000).toISOString(),
        device_hash: 'e2e',
        device_label: 'Chrome · Android',
        last_seen_at: now.toISOString(),
      })
      .execute();
    await page.goto('/account');
    const devices = page.getByRole('region', { name: t.app.account.devicesTitle });
    await devices.getByRole('button', { name: t.app.account.signOutOthers }).waitFor();
    const listed = devices.getByTestId('linked-methods');
    await listed.waitFor();
    expect(await listed.textContent()).toBe(
      t.app.account.linkedMethods.replace(
        '{{methods}}',
        [t.app.account.method.telegram, t.app.account.method.google].join(', '),
      ),
    );
    await devices.getByText(t.app.account.linkedMethodsHint).waitFor();
    // Which methods, never their identifiers.
    const text = (await page.locator('main, body').first().textContent()) ?? '';
    expect(text).not.toContain(String(telegramIds));
    expect(text).not.toContain('e2e-sub-');
    await expectAccessible(page, `account methods ${language}`);
    await devices.scrollIntoViewIfNeeded();
    await screenshot(page, `account-linked-methods-${language}`);
    await context.close();
    expect(errors).toEqual([]);
  });

  it('asks a password-less account that signed in long ago to sign in again before adding a password, and adds nothing', async () => {
    const { person, context, page, errors } = await openAccount();
    await page.goto('/account');
    const field = page.getByLabel(t.app.account.addPassword);
    await field.waitFor();
    site.app.clock.advance(reauthWindowMinutes * 60 + 1);
    await field.fill('Planted123!');
    await page.getByRole('button', { name: t.app.account.savePassword }).click();
    const prompt = page.getByTestId('reauth-prompt');
    await prompt.waitFor();
    expect(await prompt.getAttribute('role')).toBe('alert');
    expect(await prompt.locator('strong').textContent()).toBe(t.app.account.reauthTitle);
    expect(await prompt.textContent()).toContain(t.app.account.reauthText);
    const account = (await (await person.browser.get('/api/account')).json()) as {
      has_password: boolean;
      sign_in_methods: string[];
    };
    expect(account.has_password).toBe(false);
    expect(account.sign_in_methods).toEqual(['telegram', 'google']);
    await screenshot(page, `account-reauth-${language}`);

    // "Sign in again" signs this browser out and leads to the sign-in form, which comes back here after.
    await prompt.getByRole('button', { name: t.app.account.signInAgain }).click();
    await page.waitForURL('**/login');
    await page.getByRole('heading', { name: t.app.login.title }).waitFor();
    await context.close();
    // The refused change answers 403 on purpose.
    expect(errors.filter((e) => !/403/.test(e))).toEqual([]);
  });
});
