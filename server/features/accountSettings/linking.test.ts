import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountResponse } from '../../contract/accounts.ts';
import { signUpVerified, testPassword, uniqueEmail } from '../../test/accounts.ts';
import { Browser, json } from '../../test/browser.ts';
import { GoogleStandIn, testGoogleClientId } from '../../test/googleStandIn.ts';
import { createPerson } from '../../test/people.ts';
import { codeFrom } from '../../test/smtpStandIn.ts';
import { signWidgetPayload, testBotToken } from '../../test/telegramSigning.ts';
import { createTestApp, type TestApp } from '../../test/testApp.ts';
import { testDialects } from '../../test/testDatabase.ts';

let counter = 0;

describe.each(testDialects())('linking and unlinking sign-in methods on %s', (dialect) => {
  let app: TestApp;
  const google = new GoogleStandIn();
  beforeAll(async () => {
    const jwksUrl = await google.start();
    app = await createTestApp(dialect, { google: { clientId: testGoogleClientId, jwksUrl }, botToken: testBotToken });
  });
  afterAll(async () => {
    await app.close();
    await google.stop();
  });

  /** An account that signs in only through Telegram (no e-mail, no password), with a live session. */
  async function telegramAccount() {
    const person = await createPerson(app);
    counter += 1;
    await app.database.db
      .updateTable('users')
      .set({ email: null, password_hash: null, telegram_id: String(7_000_000_000 + counter * 1000 + process.pid) })
      .where('id', '=', person.userId)
      .execute();
    return person.browser;
  }
  const methods = async (browser: Browser) =>
    (await json<AccountResponse>(await browser.get('/api/account'))).sign_in_methods;
  const code = async (res: Response) => [res.status, (await json<{ code: string }>(res)).code];
  const googleToken = (sub: string) =>
    google.idToken({ sub, email: `${sub}@gmail.com`, email_verified: true }, app.clock.now());

  it('lets a Telegram account add an e-mail (confirmed by code) and then a password to sign in with', async () => {
    const browser = await telegramAccount();
    expect(await methods(browser)).toEqual(['telegram']);
    expect(await code(await browser.post('/api/account/password/add', { password: testPassword }))).toEqual([
      400,
      'no_email',
    ]);

    const email = uniqueEmail('tg');
    expect((await browser.post('/api/account/email', { email })).status).toBe(200);
    const mailed = codeFrom(await app.smtp.lastMailTo(email));
    expect((await browser.post('/api/account/email/confirm', { code: mailed })).status).toBe(200);
    expect((await browser.post('/api/account/password/add', { password: testPassword })).status).toBe(200);
    expect(await code(await browser.post('/api/account/password/add', { password: testPassword }))).toEqual([
      409,
      'password_exists',
    ]);

    expect(await methods(browser)).toEqual(['password', 'telegram']);
    expect((await new Browser(app.url).post('/api/login', { email, password: testPassword })).status).toBe(200);
  });

  it('links a Google account, and refuses one that another account holds without moving it', async () => {
    const owner = new Browser(app.url);
    const taken = `sub-taken-${++counter}`;
    const ownerLogin = await json<{ user_id: number }>(
      await owner.post('/api/googlelogin', { id_token: await googleToken(taken) }),
    );

    const { browser, userId } = await signUpVerified(app);
    expect(
      await code(
        await browser.post('/api/account/google', {
          id_token: await googleToken(taken),
          current_password: testPassword,
        }),
      ),
    ).toEqual([409, 'identity_taken']);
    expect(await methods(browser)).toEqual(['password']);
    const again = await json<{ user_id: number }>(
      await new Browser(app.url).post('/api/googlelogin', { id_token: await googleToken(taken) }),
    );
    expect(again.user_id).toBe(ownerLogin.user_id);

    const free = `sub-free-${++counter}`;
    expect(
      (await browser.post('/api/account/google', { id_token: await googleToken(free), current_password: testPassword }))
        .status,
    ).toBe(200);
    expect(await methods(browser)).toEqual(['password', 'google']);
    const viaGoogle = await json<{ user_id: number }>(
      await new Browser(app.url).post('/api/googlelogin', { id_token: await googleToken(free) }),
    );
    expect(viaGoogle.user_id).toBe(userId);
  });

  it('links a Telegram account through the Login Widget, and refuses one that another account holds', async () => {
    counter += 1;
    const heldId = 8_000_000_000 + counter * 1000 + process.pid;
    const holder = new Browser(app.url);
    const held = await json<{ user_id: number }>(
      await holder.post('/api/auth', await signWidgetPayload({ id: heldId, first_name: 'Held' }, app.clock.now())),
    );

    const { browser, userId } = await signUpVerified(app);
    const refused = await browser.post('/api/account/telegram', {
      ...(await signWidgetPayload({ id: heldId, first_name: 'Held' }, app.clock.now())),
      current_password: testPassword,
    });
    expect(await code(refused)).toEqual([409, 'identity_taken']);
    const stillThere = await json<{ user_id: number }>(
      await new Browser(app.url).post('/api/auth', await signWidgetPayload({ id: heldId }, app.clock.now())),
    );
    expect(stillThere.user_id).toBe(held.user_id);

    const forged = { ...(await signWidgetPayload({ id: heldId + 1 }, app.clock.now())), first_name: 'Changed' };
    expect((await browser.post('/api/account/telegram', { ...forged, current_password: testPassword })).status).toBe(
      401,
    );

    const ownId = heldId + 2;
    expect(
      (
        await browser.post('/api/account/telegram', {
          ...(await signWidgetPayload({ id: ownId, username: 'own_tg' }, app.clock.now())),
          current_password: testPassword,
        })
      ).status,
    ).toBe(200);
    expect(await methods(browser)).toEqual(['password', 'telegram']);
    const viaTelegram = await json<{ user_id: number }>(
      await new Browser(app.url).post('/api/auth', await signWidgetPayload({ id: ownId }, app.clock.now())),
    );
    expect(viaTelegram.user_id).toBe(userId);
  });

  it('never removes the last way to sign in, also when two removals arrive at once', async () => {
    const { browser } = await signUpVerified(app);
    expect(await code(await browser.post('/api/account/unlink', { method: 'password' }))).toEqual([
      409,
      'last_sign_in_method',
    ]);
    expect(await code(await browser.post('/api/account/unlink', { method: 'telegram' }))).toEqual([400, 'not_linked']);

    const telegram = await telegramAccount();
    expect(await code(await telegram.post('/api/account/unlink', { method: 'telegram' }))).toEqual([
      409,
      'last_sign_in_method',
    ]);

    const both = (await signUpVerified(app)).browser;
    expect(
      (
        await both.post('/api/account/google', {
          id_token: await googleToken(`sub-both-${++counter}`),
          current_password: testPassword,
        })
      ).status,
    ).toBe(200);
    await both.csrfToken();
    const answers = await Promise.all([
      both.post('/api/account/unlink', { method: 'password' }),
      both.post('/api/account/unlink', { method: 'google' }),
    ]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(await methods(both)).toHaveLength(1);
  });
});
