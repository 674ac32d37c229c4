import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpVerified, testPassword } from '../../test/accounts.ts';
import { Browser, json } from '../../test/browser.ts';
import { jpegWithGps } from '../../test/images.ts';
import { codeFrom } from '../../test/smtpStandIn.ts';
import { createTestApp, type TestApp } from '../../test/testApp.ts';
import { hash as argon2Hash } from '@node-rs/argon2';
import { argon2Options, PasswordHasher } from './passwords.ts';
import { testDialects } from '../../test/testDatabase.ts';

const password = 'secret123!';
let counter = 0;
const newEmail = () => `user${++counter}-${Date.now()}@example.com`;

function profileForm(photo: Buffer): FormData {
  const form = new FormData();
  for (const [key, value] of Object.entries({ name: 'Анна', age: '27', gender: 'Female', city: 'Москва' }))
    form.append(key, value);
  form.append('photos', new Blob([new Uint8Array(photo)], { type: 'image/jpeg' }), 'me.jpg');
  return form;
}

describe.each(testDialects())('accounts and sessions on %s', (dialect) => {
  let app: TestApp;
  /** The same database with the real argon2id parameters, for the two tests that check them (a hash costs ~50 ms). */
  let hashing: TestApp;
  beforeAll(async () => {
    // Behind one trusted proxy, so `registered()` signs up from client addresses of its own: the file makes
    // more accounts than one address may in an hour (rateLimits/clientLimits.ts). Requests without
    // X-Forwarded-For come from the loopback address as before.
    app = await createTestApp(dialect, { trustedProxyHops: 1 });
    hashing = await createTestApp(dialect, {
      database: app.database,
      trustedProxyHops: 1,
      passwords: new PasswordHasher(),
    });
  });
  afterAll(async () => {
    await hashing.close();
    await app.close();
  });

  const countUsers = async () =>
    Number(
      (
        await app.database.db
          .selectFrom('users')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  let registrations = 0;
  async function registered(email = newEmail(), url = app.url) {
    const browser = new Browser(url);
    registrations += 1;
    const res = await browser.post(
      '/api/register',
      { email, password },
      { headers: { 'X-Forwarded-For': `192.0.2.${registrations}` } },
    );
    expect(res.status).toBe(201);
    return { browser, email };
  }

  it('registers, signs in at once, mails a code over SMTP and verifies with it', async () => {
    const email = newEmail();
    const browser = new Browser(app.url);
    const res = await browser.post('/api/register', { email: `  ${email.toUpperCase()} `, password });
    expect(res.status).toBe(201);
    const body = await json(res);
    expect(body).toMatchObject({ message: 'Registration successful' });
    expect(body).not.toHaveProperty('token');

    const before = await json(await browser.get('/api/current_user'));
    expect(before).toEqual({
      authorized: true,
      user_verified: false,
      userprofile: null,
      user_id: body.user_id,
      language: 'ru',
    });

    const mail = await app.smtp.lastMailTo(email);
    const code = codeFrom(mail);
    expect(mail.subject).toContain(code);

    const verify = await browser.post('/api/verify', { code });
    expect(verify.status).toBe(200);
    expect(await json(await browser.get('/api/current_user'))).toMatchObject({ authorized: true, user_verified: true });
  });

  it('answers every sign-in with the user exactly as GET /api/current_user gives it next', async () => {
    const fresh = new Browser(app.url);
    const register = await json<{ current_user: unknown }>(
      await fresh.post('/api/register', { email: newEmail(), password }),
    );
    expect(register.current_user).toEqual(await json(await fresh.get('/api/current_user')));
    expect(register.current_user).toMatchObject({ authorized: true, user_verified: false, userprofile: null });

    // A verified account with a profile: the answer names the profile the top bar shows.
    const { browser: owner, email } = await signUpVerified(app);
    const created = await owner.postForm('/api/create_profile', profileForm(await jpegWithGps()));
    expect(created.status).toBe(201);
    const cookie = new Browser(app.url);
    const login = await json<{ current_user: unknown }>(
      await cookie.post('/api/login', { email, password: testPassword }),
    );
    expect(login.current_user).toMatchObject({
      authorized: true,
      user_verified: true,
      userprofile: { name: 'Анна', age: 27 },
    });
    expect(login.current_user).toEqual(await json(await cookie.get('/api/current_user')));
    const tokenLogin = await json<{ token: string; current_user: unknown }>(
      await new Browser(app.url).post('/api/login', { email, password: testPassword, session: 'token' }),
    );
    const bearer = new Browser(app.url);
    bearer.bearer = tokenLogin.token;
    expect(tokenLogin.current_user).toEqual(await json(await bearer.get('/api/current_user')));
    expect(tokenLogin.current_user).toEqual(login.current_user);
  });

  it('stores the language switch on the account, which every later current_user (any device) then names', async () => {
    const { browser } = await registered();
    expect(await json(await browser.get('/api/current_user'))).toMatchObject({ language: 'ru' });
    const res = await browser.post('/api/language', { language: 'en' });
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({ language: 'en' });
    expect(await json(await browser.get('/api/current_user'))).toMatchObject({ language: 'en' });
    // Only the two languages; nothing changes on a bad one, and a visitor has no account to change.
    expect((await browser.post('/api/language', { language: 'de' })).status).toBe(400);
    expect(await json(await browser.get('/api/current_user'))).toMatchObject({ language: 'en' });
    expect((await new Browser(app.url).post('/api/language', { language: 'ru' })).status).toBe(401);
  });

  it("gives a new account the language chosen in the app over the browser's Accept-Language, and mails in it", async () => {
    const email = newEmail();
    const browser = new Browser(app.url);
    const res = await browser.post(
      '/api/register',
      { email, password, language: 'en' },
      { headers: { 'Accept-Language': 'ru-RU,ru;q=0.9' } },
    );
    expect(res.status).toBe(201);
    expect(await json(await browser.get('/api/current_user'))).toMatchObject({ language: 'en' });
    expect((await app.smtp.lastMailTo(email)).subject).toMatch(/^Iskra: your verification code \d{6}$/);

    // Absent: the browser's language, as before.
    const russian = new Browser(app.url);
    expect(
      (
        await russian.post(
          '/api/register',
          { email: newEmail(), password },
          { headers: { 'Accept-Language': 'ru-RU' } },
        )
      ).status,
    ).toBe(201);
    expect(await json(await russian.get('/api/current_user'))).toMatchObject({ language: 'ru' });
    const english = new Browser(app.url);
    expect(
      (
        await english.post(
          '/api/register',
          { email: newEmail(), password },
          { headers: { 'Accept-Language': 'en-GB' } },
        )
      ).status,
    ).toBe(201);
    expect(await json(await english.get('/api/current_user'))).toMatchObject({ language: 'en' });

    // Only the two languages: anything else is refused and creates nobody.
    const users = await countUsers();
    const bad = await new Browser(app.url).post('/api/register', { email: newEmail(), password, language: 'de' });
    expect(bad.status).toBe(400);
    expect(await json(bad)).toMatchObject({ code: 'invalid_input' });
    expect(await countUsers()).toBe(users);
  });

  it('sets an httpOnly SameSite=Lax session cookie of at least 128 random bits, and the answer is never cached', async () => {
    const browser = new Browser(app.url);
    await browser.csrfToken();
    const res = await browser.request('POST', '/api/register', JSON.stringify({ email: newEmail(), password }), {
      'Content-Type': 'application/json',
      'X-CSRF-Token': await browser.csrfToken(),
    });
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('iskra_session='));
    expect(cookie).toBeDefined();
    expect(cookie).toMatch(/httponly/i);
    expect(cookie).toMatch(/samesite=lax/i);
    expect(cookie).toMatch(/expires=/i);
    const value = /^iskra_session=([^;]+)/.exec(cookie ?? '')?.[1] ?? '';
    expect(Buffer.from(value, 'base64url').length).toBeGreaterThanOrEqual(16);
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('stores sessions and codes hashed, and the password as argon2id with m=7168, t=5, p=1', async () => {
    const { browser, email } = await registered(newEmail(), hashing.url);
    const user = await app.database.db
      .selectFrom('users')
      .selectAll()
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    expect(user.password_hash).toMatch(/^\$argon2id\$v=19\$m=7168,t=5,p=1\$/);
    const sessionId = browser.cookie('iskra_session') ?? '';
    const sessions = await app.database.db.selectFrom('sessions').selectAll().where('user_id', '=', user.id).execute();
    expect(sessions).toHaveLength(1);
    expect(sessions[0]?.id_hash).not.toBe(sessionId);
    const code = codeFrom(await hashing.smtp.lastMailTo(email));
    const codes = await app.database.db
      .selectFrom('verification_codes')
      .selectAll()
      .where('user_id', '=', user.id)
      .execute();
    expect(codes).toHaveLength(1);
    expect(codes[0]?.code_hash).not.toContain(code);
  });

  it('refuses a bad e-mail and a weak password with the spec message, creating nothing', async () => {
    const users = await countUsers();
    const browser = new Browser(app.url);
    const badEmail = await browser.post('/api/register', { email: 'not-an-email', password });
    expect(badEmail.status).toBe(400);
    expect(await json(badEmail)).toMatchObject({
      code: 'invalid_input',
      fields: { email: expect.any(String) as unknown },
    });
    for (const weak of ['short1', 'lettersonly', '1234567890', 'пароль12345', 'with space 123']) {
      const res = await browser.post('/api/register', { email: newEmail(), password: weak });
      expect(res.status).toBe(400);
      expect((await json(res)).error).toBe(
        'Password must contain at least 8 characters, including a letter, a number.',
      );
    }
    const unknownField = await browser.post('/api/register', { email: newEmail(), password, verified: true });
    expect(unknownField.status).toBe(400);
    const notJson = await browser.post('/api/register', '{"email":', {});
    expect(notJson.status).toBe(400);
    expect(await json(notJson)).toMatchObject({ code: 'bad_request' });
    expect(await countUsers()).toBe(users);
  });

  it('answers "Email already registered" for a taken address, also when two registrations race', async () => {
    const { email } = await registered();
    const again = await new Browser(app.url).post('/api/register', { email, password });
    expect(again.status).toBe(409);
    expect(await json(again)).toEqual({ error: 'Email already registered', code: 'email_taken' });

    const racing = newEmail();
    const results = await Promise.all(
      [0, 1, 2].map(() => new Browser(app.url).post('/api/register', { email: racing, password })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409]);
    const rows = await app.database.db.selectFrom('users').select('id').where('email', '=', racing).execute();
    expect(rows).toHaveLength(1);
  });

  it('refuses a cookie POST without the CSRF token, with a wrong one, or from a foreign Origin', async () => {
    const users = await countUsers();
    const browser = new Browser(app.url);
    const missing = await browser.post('/api/register', { email: newEmail(), password }, { csrf: false });
    expect(missing.status).toBe(403);
    expect(await json(missing)).toMatchObject({ code: 'csrf_failed' });
    const wrong = await browser.post(
      '/api/register',
      { email: newEmail(), password },
      { csrf: false, headers: { 'X-CSRF-Token': 'x'.repeat(43) } },
    );
    expect(wrong.status).toBe(403);
    const foreign = await browser.post(
      '/api/register',
      { email: newEmail(), password },
      { headers: { Origin: 'https://evil.example' } },
    );
    expect(foreign.status).toBe(403);
    expect(await json(foreign)).toMatchObject({ code: 'foreign_origin' });
    // A token from another browser (another CSRF cookie) does not fit this browser's cookie.
    const other = new Browser(app.url);
    const stolen = await browser.post(
      '/api/register',
      { email: newEmail(), password },
      { csrf: false, headers: { 'X-CSRF-Token': await other.csrfToken() } },
    );
    expect(stolen.status).toBe(403);
    expect(await countUsers()).toBe(users);

    const { browser: signedIn } = await registered();
    const logout = await signedIn.post('/api/logout', {}, { csrf: false });
    expect(logout.status).toBe(403);
    expect(await json(await signedIn.get('/api/current_user'))).toMatchObject({ authorized: true });
    const sameOrigin = await signedIn.post('/api/logout', {}, { headers: { Origin: 'http://localhost:8080' } });
    expect(sameOrigin.status).toBe(200);
  });

  it('logs in with the right password, renewing the session id, and says nothing about which part was wrong', async () => {
    const { browser, email } = await registered();
    const firstSession = browser.cookie('iskra_session');
    const wrong = await browser.post('/api/login', { email, password: 'wrong1234' });
    const unknown = await browser.post('/api/login', { email: newEmail(), password });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(await json(wrong)).toEqual(await json(unknown));

    const ok = await browser.post('/api/login', { email, password });
    expect(ok.status).toBe(200);
    expect(browser.cookie('iskra_session')).not.toBe(firstSession);
    const old = new Browser(app.url);
    old.setCookie('iskra_session', firstSession ?? '');
    expect(await json(await old.get('/api/current_user'))).toMatchObject({ authorized: false });
    expect(await json(await browser.get('/api/current_user'))).toMatchObject({ authorized: true });
  });

  it('re-hashes a password stored with the earlier parameters at sign-in, which then still works', async () => {
    const { email } = await registered(newEmail(), hashing.url);
    const earlier = await argon2Hash(password, { ...argon2Options, memoryCost: 19_456, timeCost: 2 });
    const storedHash = async () =>
      (
        await app.database.db
          .selectFrom('users')
          .select('password_hash')
          .where('email', '=', email)
          .executeTakeFirstOrThrow()
      ).password_hash;
    await app.database.db.updateTable('users').set({ password_hash: earlier }).where('email', '=', email).execute();
    // A wrong password changes nothing.
    expect((await new Browser(hashing.url).post('/api/login', { email, password: 'wrong1234' })).status).toBe(401);
    expect(await storedHash()).toBe(earlier);
    expect((await new Browser(hashing.url).post('/api/login', { email, password })).status).toBe(200);
    const upgraded = await storedHash();
    expect(upgraded).toMatch(/^\$argon2id\$v=19\$m=7168,t=5,p=1\$/);
    expect((await new Browser(hashing.url).post('/api/login', { email, password })).status).toBe(200);
    expect(await storedHash()).toBe(upgraded);
  });

  it('locks an unknown client out per (e-mail, IP) after 10 failed logins for 15 minutes, even with the right password', async () => {
    const { email } = await registered();
    const browser = new Browser(app.url);
    for (let i = 0; i < 10; i++) {
      expect((await browser.post('/api/login', { email, password: `wrong${i}abc` })).status).toBe(401);
    }
    const locked = await browser.post('/api/login', { email, password });
    expect(locked.status).toBe(429);
    expect(await json(locked)).toMatchObject({ code: 'too_many_login_attempts' });
    const retryAfter = Number(locked.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    expect(browser.cookie('iskra_session')).toBeUndefined();

    app.clock.advance(15 * 60 + 1);
    const after = await browser.post('/api/login', { email, password });
    expect(after.status).toBe(200);
  });

  it('never locks the owner out of a browser that signed in before, whatever others try from the same address', async () => {
    const { email } = await registered();
    const owner = new Browser(app.url);
    const first = await owner.post('/api/login', { email, password });
    expect(first.status).toBe(200);
    const deviceCookie = first.headers.getSetCookie().find((c) => c.startsWith('iskra_device=')) ?? '';
    expect(deviceCookie).toMatch(/httponly/i);
    expect(deviceCookie).toMatch(/samesite=lax/i);
    expect(deviceCookie).not.toContain(email.split('@')[0] ?? email);

    // Someone else at the same IP (a shared office or carrier address) guesses until throttled.
    const attacker = new Browser(app.url);
    for (let i = 0; i < 10; i++)
      expect((await attacker.post('/api/login', { email, password: `guess${i}abc` })).status).toBe(401);
    expect((await attacker.post('/api/login', { email, password: 'guess-more1' })).status).toBe(429);
    // A made-up device cookie, or the owner's own from another address, does not get the attacker out of it.
    attacker.setCookie('iskra_device', `${'A'.repeat(22)}.${'B'.repeat(43)}`);
    expect((await attacker.post('/api/login', { email, password: 'guess-more2' })).status).toBe(429);
    const { email: otherEmail } = await registered();
    const other = new Browser(app.url);
    expect((await other.post('/api/login', { email: otherEmail, password })).status).toBe(200);
    attacker.setCookie('iskra_device', other.cookie('iskra_device') ?? '');
    expect((await attacker.post('/api/login', { email, password: 'guess-more3' })).status).toBe(429);

    // The owner's browser signs in with the right password all the same.
    const again = await owner.post('/api/login', { email, password });
    expect(again.status).toBe(200);
    expect(await json(await owner.get('/api/current_user'))).toMatchObject({ authorized: true });
    expect((await attacker.post('/api/login', { email, password: 'guess-more4' })).status).toBe(429);

    // A known browser guessing wrong is throttled too, on its own count.
    for (let i = 0; i < 10; i++)
      expect((await owner.post('/api/login', { email, password: `typo${i}abc` })).status).toBe(401);
    expect((await owner.post('/api/login', { email, password })).status).toBe(429);
  });

  it('behind a trusted proxy, counts failures by the hop our proxy added, not by what the client wrote', async () => {
    const proxied = await createTestApp(dialect, { database: app.database, trustedProxyHops: 1 });
    try {
      const email = newEmail();
      expect((await new Browser(proxied.url).post('/api/register', { email, password })).status).toBe(201);
      const attacker = new Browser(proxied.url);
      // A fresh made-up address on the left every time; the proxy's own entry (the real peer) stays the same.
      const through = (i: number) => ({ headers: { 'X-Forwarded-For': `10.0.${i}.1, 198.51.100.7` } });
      for (let i = 0; i < 10; i++) {
        expect((await attacker.post('/api/login', { email, password: `wrong${i}abc` }, through(i))).status).toBe(401);
      }
      const locked = await attacker.post('/api/login', { email, password: 'wrong-again1' }, through(10));
      expect(locked.status).toBe(429);
      expect(await json(locked)).toMatchObject({ code: 'too_many_login_attempts' });
      // Another client behind the same proxy, seen from elsewhere, is not affected.
      const elsewhere = await new Browser(proxied.url).post(
        '/api/login',
        { email, password },
        { headers: { 'X-Forwarded-For': '203.0.113.5' } },
      );
      expect(elsewhere.status).toBe(200);
    } finally {
      await proxied.close();
    }
  });

  it('refuses a wrong code and leaves the account unverified; the right one then verifies', async () => {
    const { browser, email } = await registered();
    const code = codeFrom(await app.smtp.lastMailTo(email));
    const wrongCode = code === '000000' ? '111111' : '000000';
    const wrong = await browser.post('/api/verify', { code: wrongCode });
    expect(wrong.status).toBe(400);
    expect(await json(wrong)).toEqual({ error: 'Invalid verification code. Please try again.', code: 'invalid_code' });
    expect(await json(await browser.get('/api/current_user'))).toMatchObject({ user_verified: false });
    const malformed = await browser.post('/api/verify', { code: '12ab' });
    expect(malformed.status).toBe(400);
    expect((await browser.post('/api/verify', { code })).status).toBe(200);
    expect(await json(await browser.get('/api/current_user'))).toMatchObject({ user_verified: true });
  });

  it('refuses an expired code (10 minutes) and accepts a fresh one', async () => {
    const { browser, email } = await registered();
    const code = codeFrom(await app.smtp.lastMailTo(email));
    app.clock.advance(10 * 60 + 1);
    const expired = await browser.post('/api/verify', { code });
    expect(expired.status).toBe(400);
    expect(await json(expired)).toMatchObject({ code: 'code_expired' });
    expect(await json(await browser.get('/api/current_user'))).toMatchObject({ user_verified: false });

    expect((await browser.get('/api/send_verification_code')).status).toBe(200);
    const fresh = codeFrom(app.smtp.mailsTo(email).at(-1) ?? (await app.smtp.lastMailTo(email)));
    expect((await browser.post('/api/verify', { code: fresh })).status).toBe(200);
  });

  it('kills a code after 5 wrong attempts: the sixth is refused even when right', async () => {
    const { browser, email } = await registered();
    const code = codeFrom(await app.smtp.lastMailTo(email));
    const wrongCode = code === '999999' ? '888888' : '999999';
    for (let i = 0; i < 5; i++) expect((await browser.post('/api/verify', { code: wrongCode })).status).toBe(400);
    const sixth = await browser.post('/api/verify', { code });
    expect(sixth.status).toBe(429);
    expect(await json(sixth)).toMatchObject({ code: 'too_many_attempts' });
    expect(sixth.headers.get('retry-after')).toBeTruthy();
    expect(await json(await browser.get('/api/current_user'))).toMatchObject({ user_verified: false });
  });

  it('refuses a resend within 60 s with Retry-After, and more than 5 codes an hour', async () => {
    const { browser, email } = await registered();
    await app.smtp.lastMailTo(email);
    const tooSoon = await browser.get('/api/send_verification_code');
    expect(tooSoon.status).toBe(429);
    expect(await json(tooSoon)).toMatchObject({ code: 'resend_too_soon' });
    const wait = Number(tooSoon.headers.get('retry-after'));
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(60);
    expect(app.smtp.mailsTo(email)).toHaveLength(1);

    for (let sent = 2; sent <= 5; sent++) {
      app.clock.advance(61);
      expect((await browser.get('/api/send_verification_code')).status).toBe(200);
      expect(app.smtp.mailsTo(email)).toHaveLength(sent);
    }
    app.clock.advance(61);
    const sixth = await browser.get('/api/send_verification_code');
    expect(sixth.status).toBe(429);
    expect(await json(sixth)).toMatchObject({ code: 'too_many_codes' });
    expect(app.smtp.mailsTo(email)).toHaveLength(5);
    // Only the newest code counts: an older one no longer verifies.
    const first = codeFrom(app.smtp.mailsTo(email)[0] ?? { to: [], from: '', subject: '', text: '' });
    const newest = codeFrom(app.smtp.mailsTo(email)[4] ?? { to: [], from: '', subject: '', text: '' });
    if (first !== newest) expect((await browser.post('/api/verify', { code: first })).status).toBe(400);
    expect((await browser.post('/api/verify', { code: newest })).status).toBe(200);
  });

  it('keeps a consistent account when the first mail cannot be sent, and lets the user ask for a new code', async () => {
    const email = newEmail();
    const browser = new Browser(app.url);
    app.smtp.refuseRecipients = true;
    let res: Response;
    try {
      res = await browser.post('/api/register', { email, password });
    } finally {
      app.smtp.refuseRecipients = false;
    }
    expect(res.status).toBe(201);
    expect(await json(await browser.get('/api/current_user'))).toMatchObject({
      authorized: true,
      user_verified: false,
    });
    const user = await app.database.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    const codes = await app.database.db
      .selectFrom('verification_codes')
      .select('id')
      .where('user_id', '=', user.id)
      .execute();
    expect(codes).toHaveLength(0);

    const resend = await browser.get('/api/send_verification_code');
    expect(resend.status).toBe(200);
    const code = codeFrom(await app.smtp.lastMailTo(email));
    expect((await browser.post('/api/verify', { code })).status).toBe(200);
  });

  it('answers 503 mail_failed when a resend cannot be delivered, and leaves no code behind', async () => {
    const { browser, email } = await registered();
    await app.smtp.lastMailTo(email);
    app.clock.advance(61);
    app.smtp.refuseRecipients = true;
    try {
      const res = await browser.get('/api/send_verification_code');
      expect(res.status).toBe(503);
      expect(await json(res)).toMatchObject({ code: 'mail_failed' });
    } finally {
      app.smtp.refuseRecipients = false;
    }
    // The failed send did not start a new cooldown.
    expect((await browser.get('/api/send_verification_code')).status).toBe(200);
  });

  it('accepts the session as a bearer jwtToken without CSRF, and refuses tampered and alg:none tokens', async () => {
    const { email } = await registered();
    const tokenClient = new Browser(app.url);
    const login = await tokenClient.post('/api/login', { email, password, session: 'token' });
    expect(login.status).toBe(200);
    const { token, user_id } = await json<{ token: string; user_id: number }>(login);
    expect(token.split('.')).toHaveLength(3);
    expect(tokenClient.cookie('iskra_session')).toBeUndefined();

    const api = new Browser(app.url);
    api.bearer = token;
    expect(await json(await api.get('/api/current_user'))).toMatchObject({ authorized: true, user_id });

    const [header = '', payload = '', signature = ''] = token.split('.');
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
    const forged = Buffer.from(JSON.stringify({ ...claims, sub: '1' })).toString('base64url');
    const none = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
    const flipped = signature.startsWith('A') ? `B${signature.slice(1)}` : `A${signature.slice(1)}`;
    for (const bad of [
      `${header}.${forged}.${signature}`,
      `${none}.${payload}.`,
      `${header}.${payload}.${flipped}`,
      'garbage',
    ]) {
      const attacker = new Browser(app.url);
      attacker.bearer = bad;
      expect(await json(await attacker.get('/api/current_user'))).toMatchObject({ authorized: false });
      // Not a session, so not exempt from the CSRF check either: refused before the route.
      const verify = await attacker.post('/api/verify', { code: '123456' });
      expect(verify.status).toBe(403);
      expect(await json(verify)).toMatchObject({ code: 'csrf_failed' });
    }
  });

  it('skips the CSRF check only for a bearer token that is a live session, not for any Authorization header', async () => {
    const { email } = await registered();
    const users = await countUsers();
    // Without cookies, and with a browser's CSRF cookie but no token: a made-up bearer opens nothing.
    const cookieless = await fetch(`${app.url}/api/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: 'Bearer x' },
      body: JSON.stringify({ email, password }),
    });
    expect(cookieless.status).toBe(403);
    expect(await json(cookieless)).toMatchObject({ code: 'csrf_failed' });
    expect(cookieless.headers.getSetCookie().some((c) => c.startsWith('iskra_session='))).toBe(false);
    const browser = new Browser(app.url);
    await browser.csrfToken();
    browser.bearer = 'x';
    const login = await browser.post('/api/login', { email, password });
    expect(login.status).toBe(403);
    expect(await json(login)).toMatchObject({ code: 'csrf_failed' });
    expect(browser.cookie('iskra_session')).toBeUndefined();
    const register = await browser.post('/api/register', { email: newEmail(), password });
    expect(register.status).toBe(403);
    expect(await countUsers()).toBe(users);

    // A real token session needs no CSRF token.
    const { token } = await json<{ token: string }>(
      await new Browser(app.url).post('/api/login', { email, password, session: 'token' }),
    );
    const api = new Browser(app.url);
    api.bearer = token;
    const logout = await api.post('/api/logout');
    expect(logout.status).toBe(200);
    expect(await json(await api.get('/api/current_user'))).toMatchObject({ authorized: false });
  });

  it('ends the session on logout: the old cookie and the old token no longer work', async () => {
    const { browser, email } = await registered();
    const cookie = browser.cookie('iskra_session') ?? '';
    const tokenClient = new Browser(app.url);
    const { token } = await json<{ token: string }>(
      await tokenClient.post('/api/login', { email, password, session: 'token' }),
    );

    const out = await browser.post('/api/logout');
    expect(out.status).toBe(200);
    expect(browser.cookie('iskra_session')).toBeUndefined();
    const replay = new Browser(app.url);
    replay.setCookie('iskra_session', cookie);
    expect(await json(await replay.get('/api/current_user'))).toMatchObject({ authorized: false });
    expect((await replay.get('/api/send_verification_code')).status).toBe(401);

    const api = new Browser(app.url);
    api.bearer = token;
    expect((await api.post('/api/logout')).status).toBe(200);
    expect(await json(await api.get('/api/current_user'))).toMatchObject({ authorized: false });
    // Signed out, not a CSRF failure: the app goes to sign-in.
    const after = await api.post('/api/verify', { code: '123456' });
    expect(after.status).toBe(401);
    expect(await json(after)).toMatchObject({ code: 'unauthorized' });
  });

  it('answers 401 to a POST with a bearer token whose session ended elsewhere or expired, not 403 csrf_failed, and does nothing', async () => {
    const { browser, email } = await registered();
    const tokenOf = async () =>
      (
        await json<{ token: string }>(
          await new Browser(app.url).post('/api/login', { email, password, session: 'token' }),
        )
      ).token;
    const [ended, expiring] = [await tokenOf(), await tokenOf()];
    // Ended by "sign out everywhere else" from the cookie session.
    expect((await browser.post('/api/account/sessions/end_others')).status).toBe(200);
    const api = new Browser(app.url);
    api.bearer = ended;
    for (const [path, body] of [
      ['/api/language', { language: 'en' }],
      ['/api/account/sessions/end_others', {}],
      ['/api/logout', {}],
    ] as const) {
      const res = await api.post(path, body);
      expect(res.status, path).toBe(401);
      expect(await json(res)).toMatchObject({ code: 'unauthorized', error: expect.any(String) as unknown });
    }
    // Nothing was done in its name: the cookie session lives on, its language unchanged.
    expect(await json(await browser.get('/api/current_user'))).toMatchObject({ authorized: true });
    const { language } = await app.database.db
      .selectFrom('users')
      .select('language')
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    expect(language).not.toBe('en');
    // A token past its 30 days (its session ended with it) is answered the same.
    app.clock.advance(30 * 24 * 3600 + 1);
    api.bearer = expiring;
    const late = await api.post('/api/language', { language: 'en' });
    expect(late.status).toBe(401);
    expect(await json(late)).toMatchObject({ code: 'unauthorized' });
  });

  it('ends a session 30 days after sign-in', async () => {
    const { browser } = await registered();
    app.clock.advance(29 * 24 * 3600);
    expect(await json(await browser.get('/api/current_user'))).toMatchObject({ authorized: true });
    app.clock.advance(24 * 3600 + 1);
    expect(await json(await browser.get('/api/current_user'))).toMatchObject({ authorized: false });
  });

  it('never writes passwords, codes, session ids or tokens to the log', async () => {
    const { browser, email } = await registered();
    const code = codeFrom(await app.smtp.lastMailTo(email));
    await browser.post('/api/verify', { code });
    const { token } = await json<{ token: string }>(
      await new Browser(app.url).post('/api/login', { email, password, session: 'token' }),
    );
    const log = app.logs.join('');
    expect(log).toContain('"path":"/api/verify"');
    for (const secret of [password, code, token, browser.cookie('iskra_session') ?? 'missing']) {
      // As a token of its own: a six-digit code also turns up by chance inside a request id's hex digits
      // (seen once: "714519477b0a" held the code 145194).
      const escaped = secret.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      expect(log).not.toMatch(new RegExp(`(?<![0-9A-Za-z])${escaped}(?![0-9A-Za-z])`));
    }
  });
});
