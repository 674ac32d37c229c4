import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountResponse } from '../../contract/accounts.ts';
import { signUpVerified, testPassword, uniqueEmail } from '../../test/accounts.ts';
import { Browser, json } from '../../test/browser.ts';
import { codeFrom } from '../../test/smtpStandIn.ts';
import { createTestApp, type TestApp } from '../../test/testApp.ts';
import { maxSendsPerHour } from '../verification/index.ts';
import { passwordTriesPerHour } from './service.ts';
import { testDialects } from '../../test/testDatabase.ts';

const newPassword = 'changed789!';
const androidChrome =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile Safari/537.36';
const iphoneSafari =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';

describe.each(testDialects())('account settings on %s', (dialect) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp(dialect);
  });
  afterAll(async () => {
    await app.close();
  });

  /** Another browser of the same account, signed in with the password from a named device. */
  async function signedInElsewhere(email: string, userAgent: string, password = testPassword): Promise<Browser> {
    const other = new Browser(app.url);
    const res = await other.post('/api/login', { email, password }, { headers: { 'User-Agent': userAgent } });
    expect(res.status).toBe(200);
    return other;
  }
  const account = async (browser: Browser) => json<AccountResponse>(await browser.get('/api/account'));
  const authorized = async (browser: Browser) =>
    (await json<{ authorized: boolean }>(await browser.get('/api/current_user'))).authorized;

  it('changes the password with the current one and ends every other session, keeping this one', async () => {
    const { browser, email } = await signUpVerified(app);
    const phone = await signedInElsewhere(email, androidChrome);
    const wrong = await browser.post('/api/account/password', {
      current_password: 'not-it-123',
      password: newPassword,
    });
    expect([wrong.status, (await json<{ code: string }>(wrong)).code]).toEqual([403, 'wrong_password']);
    expect(await authorized(phone)).toBe(true);

    expect(
      (await browser.post('/api/account/password', { current_password: testPassword, password: newPassword })).status,
    ).toBe(200);
    expect(await authorized(browser)).toBe(true);
    expect(await authorized(phone)).toBe(false);
    expect((await new Browser(app.url).post('/api/login', { email, password: testPassword })).status).toBe(401);
    expect((await new Browser(app.url).post('/api/login', { email, password: newPassword })).status).toBe(200);
  });

  it('lists the signed-in devices by a coarse label, marks this one, and never shows the User-Agent or the IP', async () => {
    const { browser, email } = await signUpVerified(app);
    await signedInElsewhere(email, androidChrome);
    await signedInElsewhere(email, iphoneSafari);
    const { sessions, email: shown, has_password } = await account(browser);
    expect(shown).toBe(email);
    expect(has_password).toBe(true);
    expect(sessions).toHaveLength(3);
    expect(sessions.filter((s) => s.current)).toHaveLength(1);
    expect(sessions.map((s) => s.device).sort()).toEqual([null, 'Chrome · Android', 'Safari · iOS'].sort());
    expect(sessions.every((s) => s.last_seen_at !== null && s.signed_in_at.length > 0)).toBe(true);
    const text = JSON.stringify(sessions);
    expect(text).not.toContain('Pixel');
    expect(text).not.toContain('127.0.0.1');
  });

  it('writes "last seen" when a session is used again after a while', async () => {
    const { browser } = await signUpVerified(app);
    const before = (await account(browser)).sessions.find((s) => s.current)?.last_seen_at ?? '';
    app.clock.advance(10 * 60);
    // Written beside the request, not before its answer: wait for it.
    await expect
      .poll(async () => ((await account(browser)).sessions.find((s) => s.current)?.last_seen_at ?? '') > before)
      .toBe(true);
  });

  it('signs out one device, and everywhere else; another account cannot end a session it does not own', async () => {
    const { browser, email } = await signUpVerified(app);
    const phone = await signedInElsewhere(email, androidChrome);
    const tablet = await signedInElsewhere(email, iphoneSafari);
    const phoneId = (await account(phone)).sessions.find((s) => s.current)?.id ?? '';

    const stranger = (await signUpVerified(app)).browser;
    const foreign = await stranger.post('/api/account/sessions/end', { id: phoneId });
    expect([foreign.status, (await json<{ code: string }>(foreign)).code]).toEqual([404, 'session_not_found']);
    expect(await authorized(phone)).toBe(true);

    expect((await browser.post('/api/account/sessions/end', { id: phoneId })).status).toBe(200);
    expect(await authorized(phone)).toBe(false);
    expect(await authorized(tablet)).toBe(true);

    expect((await browser.post('/api/account/sessions/end_others')).status).toBe(200);
    expect(await authorized(tablet)).toBe(false);
    expect(await authorized(browser)).toBe(true);
    expect((await account(browser)).sessions).toHaveLength(1);
  });

  it('changes the e-mail only with the code mailed to the new address, and tells the old one', async () => {
    const { browser, email } = await signUpVerified(app);
    const next = uniqueEmail('next');
    const noPassword = await browser.post('/api/account/email', { email: next });
    expect([noPassword.status, (await json<{ code: string }>(noPassword)).code]).toEqual([403, 'password_required']);

    expect((await browser.post('/api/account/email', { email: next, current_password: testPassword })).status).toBe(
      200,
    );
    const code = codeFrom(await app.smtp.lastMailTo(next));
    // Until the code comes back nothing changes, and a wrong one is refused.
    expect((await account(browser)).email).toBe(email);
    const wrong = await browser.post('/api/account/email/confirm', { code: code === '123123' ? '321321' : '123123' });
    expect([wrong.status, (await json<{ code: string }>(wrong)).code]).toEqual([400, 'invalid_code']);
    expect((await account(browser)).email).toBe(email);

    const done = await browser.post('/api/account/email/confirm', { code });
    expect(done.status).toBe(200);
    expect(await json(done)).toMatchObject({ email: next });
    expect((await account(browser)).email).toBe(next);
    const notice = await app.smtp.nthMailTo(email, 2);
    expect(notice.text).toContain(next);
    expect((await new Browser(app.url).post('/api/login', { email: next, password: testPassword })).status).toBe(200);
    expect((await new Browser(app.url).post('/api/login', { email, password: testPassword })).status).toBe(401);
  });

  it('lets an unverified account correct its address: the code sent to the new address sets it and verifies the account, and the typo is told nothing', async () => {
    const browser = new Browser(app.url);
    const typo = uniqueEmail('typo');
    expect((await browser.post('/api/register', { email: typo, password: testPassword })).status).toBe(201);
    await app.smtp.lastMailTo(typo);
    expect((await account(browser)).email).toBe(typo);
    const right = uniqueEmail('right');
    expect((await browser.post('/api/account/email', { email: right, current_password: testPassword })).status).toBe(
      200,
    );
    const done = await browser.post('/api/account/email/confirm', { code: codeFrom(await app.smtp.lastMailTo(right)) });
    expect(done.status).toBe(200);
    expect((await json<{ user_verified: boolean }>(await browser.get('/api/current_user'))).user_verified).toBe(true);
    expect((await account(browser)).email).toBe(right);
    // Only the registration's code went to the typo: no notice naming the new address.
    expect(app.smtp.mailsTo(typo).length).toBe(1);
    // The typo is free again.
    expect((await new Browser(app.url).post('/api/register', { email: typo, password: testPassword })).status).toBe(
      201,
    );
  });

  it('refuses an address another account has, before and after the code', async () => {
    const { browser } = await signUpVerified(app);
    const other = await signUpVerified(app);
    const taken = await browser.post('/api/account/email', { email: other.email, current_password: testPassword });
    expect([taken.status, (await json<{ code: string }>(taken)).code]).toEqual([409, 'email_taken']);

    const next = uniqueEmail('race');
    expect((await browser.post('/api/account/email', { email: next, current_password: testPassword })).status).toBe(
      200,
    );
    const code = codeFrom(await app.smtp.lastMailTo(next));
    expect((await new Browser(app.url).post('/api/register', { email: next, password: testPassword })).status).toBe(
      201,
    );
    const late = await browser.post('/api/account/email/confirm', { code });
    expect([late.status, (await json<{ code: string }>(late)).code]).toEqual([409, 'email_taken']);
  });

  it('answers 401 without a session and refuses a cookie POST without the CSRF token', async () => {
    const anonymous = new Browser(app.url);
    expect((await anonymous.get('/api/account')).status).toBe(401);
    const { browser } = await signUpVerified(app);
    expect((await browser.post('/api/account/sessions/end_others', {}, { csrf: false })).status).toBe(403);
  });

  it('stops guessing the current password after a few tries an hour, on the password and the e-mail change alike', async () => {
    const { browser, email } = await signUpVerified(app);
    const codeOf = async (res: Response) => [res.status, (await json<{ code: string }>(res)).code];
    for (let i = 0; i < passwordTriesPerHour; i += 1) {
      const guess =
        i % 2 === 0
          ? browser.post('/api/account/password', { current_password: `guess-${i}-xyz`, password: newPassword })
          : browser.post('/api/account/email', { email: uniqueEmail('guess'), current_password: `guess-${i}-xyz` });
      expect(await codeOf(await guess)).toEqual([403, 'wrong_password']);
    }
    // Past the limit even the right password is not checked: nothing changes, and the answer says to wait.
    const refused = await browser.post('/api/account/password', {
      current_password: testPassword,
      password: newPassword,
    });
    expect(refused.headers.get('retry-after')).not.toBeNull();
    expect(await codeOf(refused)).toEqual([429, 'too_many_password_attempts']);
    expect((await new Browser(app.url).post('/api/login', { email, password: testPassword })).status).toBe(200);
    // Two hours pass (the sliding hour holds none of the tries): the owner may change it again.
    app.clock.advance(7200);
    expect(
      (await browser.post('/api/account/password', { current_password: testPassword, password: newPassword })).status,
    ).toBe(200);
  });

  it('mails at most a few e-mail change codes an hour per account, whatever the addresses', async () => {
    const { browser } = await signUpVerified(app);
    const ask = () =>
      browser.post('/api/account/email', { email: uniqueEmail('stranger'), current_password: testPassword });
    for (let i = 0; i < maxSendsPerHour; i += 1) expect((await ask()).status).toBe(200);
    const refused = await ask();
    expect([refused.status, (await json<{ code: string }>(refused)).code]).toEqual([429, 'too_many_codes']);
  });

  it('tells whether an address is registered only within the cap: past it, a taken address is refused like any other', async () => {
    const { email: taken } = await signUpVerified(app);
    const { browser } = await signUpVerified(app);
    const ask = (email: string) => browser.post('/api/account/email', { email, current_password: testPassword });
    // Within the cap a taken address is told (the owner typed someone else's address), and the ask counts.
    expect([(await ask(taken)).status]).toEqual([409]);
    for (let i = 1; i < maxSendsPerHour; i += 1) expect((await ask(uniqueEmail('fresh'))).status).toBe(200);
    const probe = await ask(taken);
    expect([probe.status, (await json<{ code: string }>(probe)).code]).toEqual([429, 'too_many_codes']);
  });
});
