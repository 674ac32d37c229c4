import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpVerified, testPassword, uniqueEmail } from '../../test/accounts.ts';
import { Browser, json } from '../../test/browser.ts';
import { codeFrom } from '../../test/smtpStandIn.ts';
import { createTestApp, type TestApp } from '../../test/testApp.ts';
import { testDialects } from '../../test/testDatabase.ts';

const newPassword = 'fresh456!';

describe.each(testDialects())('password reset by e-mail code on %s', (dialect) => {
  let app: TestApp;
  beforeAll(async () => {
    // Behind one trusted proxy: a test that asks many times speaks from a client address of its own
    // (X-Forwarded-For), within the daily cap of reset requests per address.
    app = await createTestApp(dialect, { trustedProxyHops: 1 });
  });
  afterAll(async () => {
    await app.close();
  });

  /** A verified account, signed out: the person who forgot the password. */
  async function account() {
    const { email, userId } = await signUpVerified(app);
    return { email, userId, browser: new Browser(app.url) };
  }

  const resetCodes = (email: string) =>
    app.database.db
      .selectFrom('verification_codes')
      .selectAll()
      .where('email', '=', email)
      .where('purpose', '=', 'reset')
      .execute();

  /** Asks for a reset code and reads it from the mail that arrives over SMTP. */
  async function mailedCode(browser: Browser, email: string): Promise<string> {
    const before = app.smtp.mailsTo(email).length;
    expect((await browser.post('/api/password/forgot', { email })).status).toBe(200);
    const mail = await app.smtp.nthMailTo(email, before + 1);
    expect(mail.subject).toMatch(/парол|password/i);
    return codeFrom(mail);
  }

  /** Asks for a reset and reads the link's fields from the mail: the reset screen's address and token. */
  async function mailedLink(browser: Browser, email: string): Promise<{ url: URL; email: string; token: string }> {
    const before = app.smtp.mailsTo(email).length;
    expect((await browser.post('/api/password/forgot', { email })).status).toBe(200);
    const mail = await app.smtp.nthMailTo(email, before + 1);
    const url = new URL(/https?:\/\/\S+/.exec(mail.text)?.[0] ?? 'http://missing.invalid');
    const fields = new URLSearchParams(url.hash.slice(1));
    return { url, email: fields.get('email') ?? '', token: fields.get('token') ?? '' };
  }

  /** A reset from another client address (the app trusts one proxy hop). */
  const resetFrom = (ip: string, body: Record<string, string>) =>
    new Browser(app.url).post('/api/password/reset', body, { headers: { 'X-Forwarded-For': ip } });

  async function signsIn(email: string, password: string): Promise<number> {
    return (await new Browser(app.url).post('/api/login', { email, password })).status;
  }

  it('answers a known and an unknown address identically, and mails a code only to the known one', async () => {
    const { email } = await account();
    const unknown = uniqueEmail('nobody');
    const unverified = uniqueEmail('unverified');
    expect(
      (await new Browser(app.url).post('/api/register', { email: unverified, password: testPassword })).status,
    ).toBe(201);

    const answers = await Promise.all(
      [email, unknown, unverified].map(async (address) => {
        const res = await new Browser(app.url).post('/api/password/forgot', { email: address });
        return { status: res.status, body: await res.text(), cookies: res.headers.getSetCookie().length };
      }),
    );
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[2]).toEqual(answers[0]);
    expect(answers[0]?.status).toBe(200);

    const mail = await app.smtp.lastMailTo(email);
    expect(mail.subject).toContain(codeFrom(mail));
    expect(await resetCodes(email)).toHaveLength(1);
    expect(await resetCodes(unknown)).toHaveLength(0);
    expect(await resetCodes(unverified)).toHaveLength(0);
    // The code is kept as a keyed hash, never as the six digits.
    expect(JSON.stringify(await resetCodes(email))).not.toContain(codeFrom(mail));
  });

  it('also answers the same inside the resend cooldown, without a second code', async () => {
    const { email, browser } = await account();
    await mailedCode(browser, email);
    const again = await browser.post('/api/password/forgot', { email });
    expect(again.status).toBe(200);
    expect(await json(again)).toEqual({ message: 'If this address belongs to an account, a code has been sent to it' });
    expect(await resetCodes(email)).toHaveLength(1);
  });

  it('sets the new password with the mailed code and signs this device in', async () => {
    const { email, userId, browser } = await account();
    const code = await mailedCode(browser, email);
    const res = await browser.post('/api/password/reset', { email: email.toUpperCase(), code, password: newPassword });
    expect(res.status).toBe(200);
    expect(await json(res)).toMatchObject({
      message: 'Password changed',
      user_id: userId,
      current_user: { authorized: true, user_id: userId },
    });
    expect(await json(await browser.get('/api/current_user'))).toMatchObject({ authorized: true, user_id: userId });
    expect(await signsIn(email, testPassword)).toBe(401);
    expect(await signsIn(email, newPassword)).toBe(200);
  });

  it('ends every earlier cookie session and jwtToken of the account', async () => {
    const { email, browser } = await account();
    const cookieClient = new Browser(app.url);
    expect((await cookieClient.post('/api/login', { email, password: testPassword })).status).toBe(200);
    const tokenClient = new Browser(app.url);
    tokenClient.bearer = (
      await json<{ token: string }>(
        await tokenClient.post('/api/login', { email, password: testPassword, session: 'token' }),
      )
    ).token;
    expect(await json(await tokenClient.get('/api/current_user'))).toMatchObject({ authorized: true });

    const code = await mailedCode(browser, email);
    expect((await browser.post('/api/password/reset', { email, code, password: newPassword })).status).toBe(200);
    expect(await json(await cookieClient.get('/api/current_user'))).toMatchObject({ authorized: false });
    expect(await json(await tokenClient.get('/api/current_user'))).toMatchObject({ authorized: false });
    expect((await tokenClient.get('/api/profile')).status).toBe(401);
    expect(await json(await browser.get('/api/current_user'))).toMatchObject({ authorized: true });
  });

  it('refuses a wrong code and leaves the password as it was', async () => {
    const { email, browser } = await account();
    const code = await mailedCode(browser, email);
    const wrong = await browser.post('/api/password/reset', {
      email,
      code: code === '111111' ? '222222' : '111111',
      password: newPassword,
    });
    expect(wrong.status).toBe(400);
    expect(await json(wrong)).toMatchObject({ code: 'reset_code_invalid' });
    expect(browser.cookie('iskra_session')).toBeUndefined();
    expect(await signsIn(email, testPassword)).toBe(200);
  });

  it('refuses a code mailed to the address the account had before an e-mail change', async () => {
    const { email, browser } = await account();
    const code = await mailedCode(browser, email);
    // Signed in elsewhere, the owner moves the account to a new address (the old mailbox may be someone else's now).
    const owner = new Browser(app.url);
    expect((await owner.post('/api/login', { email, password: testPassword })).status).toBe(200);
    const next = uniqueEmail('moved');
    expect((await owner.post('/api/account/email', { email: next, current_password: testPassword })).status).toBe(200);
    expect(
      (await owner.post('/api/account/email/confirm', { code: codeFrom(await app.smtp.lastMailTo(next)) })).status,
    ).toBe(200);
    const late = await browser.post('/api/password/reset', { email: next, code, password: newPassword });
    expect([late.status, await json(late)]).toMatchObject([400, { code: 'reset_code_invalid' }]);
    expect(browser.cookie('iskra_session')).toBeUndefined();
    expect(await signsIn(next, testPassword)).toBe(200);
  });

  it('mails a link to the reset screen that sets the password without the code, the token only in the fragment', async () => {
    const { email, browser } = await account();
    const link = await mailedLink(browser, email);
    expect(link.url.pathname).toBe('/forgot-password');
    expect(link.url.search).toBe('');
    expect(link.email).toBe(email);
    expect(link.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(JSON.stringify(await resetCodes(email))).not.toContain(link.token);

    const res = await browser.post('/api/password/reset', { email, token: link.token, password: newPassword });
    expect(res.status).toBe(200);
    expect(await signsIn(email, newPassword)).toBe(200);
    // Used up with its code: neither opens the account again.
    const again = await browser.post('/api/password/reset', { email, token: link.token, password: 'another789!' });
    expect(await json(again)).toMatchObject({ code: 'reset_code_invalid' });
    expect(await signsIn(email, newPassword)).toBe(200);
  });

  it('keeps the link working after a stranger wore out the code and the daily wrong-code cap of the address', async () => {
    const { email, browser } = await account();
    const link = await mailedLink(browser, email);
    // Ten wrong codes from ten addresses: the code is dead after five, the address's day after ten.
    for (let i = 0; i < 10; i++) {
      const wrong = await resetFrom(`198.51.100.${i + 1}`, { email, code: '000000', password: 'intruder1!' });
      expect(wrong.status).toBeGreaterThanOrEqual(400);
    }
    const capped = await resetFrom('198.51.100.99', { email, code: '000000', password: 'intruder1!' });
    expect(await json(capped)).toMatchObject({ code: 'too_many_code_attempts' });

    const owner = await resetFrom('203.0.113.7', { email, token: link.token, password: newPassword });
    expect(owner.status).toBe(200);
    expect(await signsIn(email, newPassword)).toBe(200);
  });

  it('refuses a wrong token, an expired link, a link for another address, and a code with a token', async () => {
    const { email, browser } = await account();
    const other = await account();
    const link = await mailedLink(browser, email);
    const otherLink = await mailedLink(other.browser, other.email);
    const wrongToken = (link.token.startsWith('A') ? 'B' : 'A') + link.token.slice(1);
    const refused = [
      await browser.post('/api/password/reset', { email, token: wrongToken, password: newPassword }),
      await browser.post('/api/password/reset', { email, token: otherLink.token, password: newPassword }),
    ];
    for (const res of refused) expect(await json(res)).toMatchObject({ code: 'reset_code_invalid' });
    const both = await browser.post('/api/password/reset', {
      email,
      code: '123456',
      token: link.token,
      password: newPassword,
    });
    expect(both.status).toBe(400);
    const malformed = await browser.post('/api/password/reset', { email, token: 'short', password: newPassword });
    expect(await json(malformed)).toMatchObject({ code: 'invalid_input' });
    // Wrong tokens cost the code nothing: the right one still works...
    for (let i = 0; i < 6; i++)
      await browser.post('/api/password/reset', { email, token: wrongToken, password: newPassword });
    expect(await resetCodes(email).then((rows) => rows.map((row) => row.attempts))).toEqual([0]);
    // ...until the code's ten minutes are over.
    app.clock.advance(10 * 60 + 1);
    const expired = await browser.post('/api/password/reset', { email, token: link.token, password: newPassword });
    expect(await json(expired)).toMatchObject({ code: 'reset_code_invalid' });
    expect(await signsIn(email, testPassword)).toBe(200);
    expect(await signsIn(other.email, testPassword)).toBe(200);
  });

  it('refuses a code after its 10 minutes', async () => {
    const { email, browser } = await account();
    const code = await mailedCode(browser, email);
    app.clock.advance(10 * 60 + 1);
    const expired = await browser.post('/api/password/reset', { email, code, password: newPassword });
    expect(expired.status).toBe(400);
    expect(await json(expired)).toMatchObject({ code: 'reset_code_invalid' });
    expect(await signsIn(email, testPassword)).toBe(200);
  });

  it('kills a code after 5 wrong tries: the sixth is refused even when right', async () => {
    const { email, browser } = await account();
    const code = await mailedCode(browser, email);
    const wrongCode = code === '999999' ? '888888' : '999999';
    for (let i = 0; i < 5; i++)
      expect(
        (await browser.post('/api/password/reset', { email, code: wrongCode, password: newPassword })).status,
      ).toBe(400);
    const sixth = await browser.post('/api/password/reset', { email, code, password: newPassword });
    expect(sixth.status).toBe(400);
    expect(await json(sixth)).toMatchObject({ code: 'reset_code_invalid' });
    expect(await signsIn(email, testPassword)).toBe(200);
  });

  it('refuses a code used once already', async () => {
    const { email, browser } = await account();
    const code = await mailedCode(browser, email);
    expect((await browser.post('/api/password/reset', { email, code, password: newPassword })).status).toBe(200);
    const again = await new Browser(app.url).post('/api/password/reset', { email, code, password: 'another789!' });
    expect(again.status).toBe(400);
    expect(await json(again)).toMatchObject({ code: 'reset_code_invalid' });
    expect(await signsIn(email, newPassword)).toBe(200);
  });

  it('refuses an unknown address as one that asked for no code, and a weak password before the code is tried', async () => {
    const unknown = await new Browser(app.url).post('/api/password/reset', {
      email: uniqueEmail('ghost'),
      code: '123456',
      password: newPassword,
    });
    expect(unknown.status).toBe(400);
    expect(await json(unknown)).toMatchObject({ code: 'reset_code_invalid' });

    const { email, browser } = await account();
    const code = await mailedCode(browser, email);
    const weak = await browser.post('/api/password/reset', { email, code, password: 'short' });
    expect(weak.status).toBe(400);
    expect(await json(weak)).toMatchObject({ code: 'invalid_input' });
    expect((await resetCodes(email))[0]).toMatchObject({ attempts: 0, used_at: null });
    expect((await browser.post('/api/password/reset', { email, code, password: newPassword })).status).toBe(200);
  });

  it('mails exactly one code when 30 requests for one arrive at once, and answers each the same', async () => {
    const { email } = await account();
    const browser = new Browser(app.url);
    await browser.csrfToken();
    const from = { headers: { 'X-Forwarded-For': '203.0.113.30' } };
    const answers = await Promise.all(
      Array.from({ length: 30 }, () => browser.post('/api/password/forgot', { email }, from)),
    );
    expect(answers.map((r) => r.status)).toEqual(Array.from({ length: 30 }, () => 200));
    expect(await resetCodes(email)).toHaveLength(1);
  });

  it('refuses a cookie POST without the CSRF token', async () => {
    const res = await new Browser(app.url).post('/api/password/forgot', { email: uniqueEmail() }, { csrf: false });
    expect(res.status).toBe(403);
  });

  it('does not count a reset against the login throttle of the address', async () => {
    const { email } = await account();
    const guesser = new Browser(app.url);
    for (let i = 0; i < 9; i++)
      expect((await guesser.post('/api/login', { email, password: `wrong${i}abc` })).status).toBe(401);
    const code = await mailedCode(guesser, email);
    expect((await guesser.post('/api/password/reset', { email, code, password: newPassword })).status).toBe(200);
    // The tenth attempt from this address (a browser without the device cookie) is still allowed.
    expect(await signsIn(email, newPassword)).toBe(200);
  });
});
