import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  codesPerEmailPerDay,
  resetRequestsPerIpPerDay,
  wrongCodesPerAccountPerDay,
  wrongCodesPerIpPerDay,
} from '../rateLimits/index.ts';
import { signUpVerified, testPassword, uniqueEmail } from '../../test/accounts.ts';
import { Browser, json } from '../../test/browser.ts';
import { codeFrom } from '../../test/smtpStandIn.ts';
import { createTestApp, type TestApp } from '../../test/testApp.ts';
import { testDialects } from '../../test/testDatabase.ts';
import { maxWrongAttempts } from './codes.ts';

const newPassword = 'fresh456!';

/**
 * The daily caps on codes (rateLimits/clientLimits.ts): wrong codes per account and per client address,
 * reset requests per client address, codes per e-mail address; and one answer for every refused reset code.
 * The app trusts one proxy, so each test speaks from client addresses of its own (X-Forwarded-For).
 */
describe.each(testDialects())('daily caps on e-mail codes on %s', (dialect) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp(dialect, { trustedProxyHops: 1 });
  });
  afterAll(async () => {
    await app.close();
  });

  let clients = 0;
  /** A browser tab at a client address no other test uses. */
  function client(): Browser & { ip: string } {
    clients += 1;
    const ip = `198.51.${Math.floor(clients / 200)}.${clients % 200}`;
    const browser = new Browser(app.url);
    const request = browser.request.bind(browser);
    browser.request = (method, path, body, headers) =>
      request(method, path, body, { ...headers, 'X-Forwarded-For': ip });
    return Object.assign(browser, { ip });
  }
  const wrongOf = (code: string) => (code === '000000' ? '111111' : '000000');
  const answer = async (res: Response) => ({ status: res.status, body: await res.text() });

  /** Asks for a reset code from `browser` and reads it from the mail. */
  async function mailedResetCode(browser: Browser, email: string): Promise<string> {
    const before = app.smtp.mailsTo(email).length;
    expect((await browser.post('/api/password/forgot', { email })).status).toBe(200);
    return codeFrom(await app.smtp.nthMailTo(email, before + 1));
  }
  const reset = (browser: Browser, email: string, code: string) =>
    browser.post('/api/password/reset', { email, code, password: newPassword });

  it(`refuses the ${wrongCodesPerAccountPerDay + 1}th reset code of the day for one address, even a fresh right one from a new client`, async () => {
    const { email } = await signUpVerified(app);
    let wrong = 0;
    while (wrong < wrongCodesPerAccountPerDay) {
      // Each code from its own client address, so only the address's count can refuse.
      const code = await mailedResetCode(client(), email);
      for (let i = 0; i < maxWrongAttempts && wrong < wrongCodesPerAccountPerDay; i++, wrong++) {
        expect((await reset(client(), email, wrongOf(code))).status).toBe(400);
      }
      app.clock.advance(61);
    }
    const fresh = await mailedResetCode(client(), email);
    const refused = await reset(client(), email, fresh);
    expect(refused.status).toBe(429);
    expect(await json(refused)).toMatchObject({ code: 'too_many_code_attempts' });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await new Browser(app.url).post('/api/login', { email, password: testPassword })).status).toBe(200);
  });

  it(`refuses the ${wrongCodesPerAccountPerDay + 1}th verification code of the day for one account, even a fresh right one`, async () => {
    const browser = client();
    const email = uniqueEmail('unverified');
    expect((await browser.post('/api/register', { email, password: testPassword })).status).toBe(201);
    let wrong = 0;
    while (wrong < wrongCodesPerAccountPerDay) {
      const code = codeFrom(await app.smtp.lastMailTo(email));
      for (let i = 0; i < maxWrongAttempts && wrong < wrongCodesPerAccountPerDay; i++, wrong++) {
        expect((await browser.post('/api/verify', { code: wrongOf(code) })).status).toBe(400);
      }
      app.clock.advance(61);
      const before = app.smtp.mailsTo(email).length;
      expect((await browser.get('/api/send_verification_code')).status).toBe(200);
      await app.smtp.nthMailTo(email, before + 1);
    }
    const refused = await browser.post('/api/verify', { code: codeFrom(await app.smtp.lastMailTo(email)) });
    expect([refused.status, (await json(refused)).code]).toEqual([429, 'too_many_code_attempts']);
    expect(await json(await browser.get('/api/current_user'))).toMatchObject({ user_verified: false });
  });

  it(`lets one client address try ${wrongCodesPerIpPerDay} wrong codes a day across many accounts when 40 arrive at once`, async () => {
    const { email: victim } = await signUpVerified(app);
    const code = await mailedResetCode(client(), victim);
    const attacker = client();
    await attacker.csrfToken();
    // 40 addresses, each tried once: the caps per address never trip, only the client address's.
    const answers = await Promise.all(
      Array.from({ length: 40 }, () => reset(attacker, uniqueEmail('sprayed'), '123456')),
    );
    expect(answers.filter((r) => r.status === 400)).toHaveLength(wrongCodesPerIpPerDay);
    expect(answers.filter((r) => r.status === 429)).toHaveLength(40 - wrongCodesPerIpPerDay);
    // Even the victim's right code is refused from there now.
    expect((await reset(attacker, victim, code)).status).toBe(429);
    // Another client is not affected.
    expect((await reset(client(), victim, code)).status).toBe(200);
  });

  it('answers every refused reset code alike, for a registered address and any other', async () => {
    const { email: known } = await signUpVerified(app);
    const { email: withCode } = await signUpVerified(app);
    const code = await mailedResetCode(client(), withCode);
    const unknown = uniqueEmail('nobody');
    const refusals = [
      await answer(await reset(client(), unknown, '123456')),
      await answer(await reset(client(), known, '123456')),
      await answer(await reset(client(), withCode, wrongOf(code))),
    ];
    for (let i = 1; i < maxWrongAttempts; i++) await reset(client(), withCode, wrongOf(code));
    // Its code worn out by wrong tries: still the same answer, even for the right code.
    refusals.push(await answer(await reset(client(), withCode, code)));
    app.clock.advance(11 * 60);
    refusals.push(await answer(await reset(client(), withCode, code)));
    expect(refusals[0]?.status).toBe(400);
    expect(JSON.parse(refusals[0]?.body ?? '{}')).toMatchObject({ code: 'reset_code_invalid' });
    for (const refusal of refusals) expect(refusal).toEqual(refusals[0]);
    // Past the day's cap of an address, a registered one and any other are refused alike as well.
    const spent = async (email: string) => {
      for (let i = 0; i < wrongCodesPerAccountPerDay; i++)
        expect((await reset(client(), email, '123456')).status).toBe(400);
      return answer(await reset(client(), email, '123456'));
    };
    const [unknownSpent, knownSpent] = [
      await spent(uniqueEmail('ghost')),
      await spent((await signUpVerified(app)).email),
    ];
    expect(unknownSpent.status).toBe(429);
    expect(knownSpent).toEqual(unknownSpent);
  });

  it(`answers ${resetRequestsPerIpPerDay} reset requests a day from one client address, registered addresses or not`, async () => {
    const { email } = await signUpVerified(app);
    const asker = client();
    for (let i = 0; i < resetRequestsPerIpPerDay; i++)
      expect((await asker.post('/api/password/forgot', { email: uniqueEmail('asked') })).status).toBe(200);
    const refused = await asker.post('/api/password/forgot', { email });
    expect([refused.status, (await json(refused)).code]).toEqual([429, 'too_many_reset_requests']);
    expect((await asker.post('/api/password/forgot', { email: uniqueEmail('asked') })).status).toBe(429);
    expect(app.smtp.mailsTo(email).filter((m) => /парол|password/i.test(m.subject))).toHaveLength(0);
    expect((await client().post('/api/password/forgot', { email })).status).toBe(200);
  });

  it(`mails an address at most ${codesPerEmailPerDay} reset codes a day, five an hour`, async () => {
    const { email } = await signUpVerified(app);
    const codes = () =>
      app.database.db
        .selectFrom('verification_codes')
        .select('id')
        .where('email', '=', email)
        .where('purpose', '=', 'reset')
        .execute();
    for (let hour = 0; hour < 3; hour++) {
      for (let i = 0; i < 5; i++) {
        expect((await client().post('/api/password/forgot', { email })).status).toBe(200);
        app.clock.advance(61);
      }
      app.clock.advance(3600);
    }
    // Fifteen asked for over three hours (the hourly cap alone allowed them all): ten were made, the rest refused quietly.
    expect(await codes()).toHaveLength(codesPerEmailPerDay);
  });
});
