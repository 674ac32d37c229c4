import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Browser, json } from '../../test/browser.ts';
import { GoogleStandIn, testGoogleClientId, unsignedToken } from '../../test/googleStandIn.ts';
import { codeFrom } from '../../test/smtpStandIn.ts';
import { createTestApp, type TestApp } from '../../test/testApp.ts';
import { testDialects } from '../../test/testDatabase.ts';
import type { UserId } from '../../../db/schema.ts';

const password = 'secret123!';
let counter = 0;
const unique = () => `${++counter}-${Date.now()}`;
const foreignClient = 'someone-else.apps.googleusercontent.com';

describe.each(testDialects())('Google sign-in on %s', (dialect) => {
  let app: TestApp;
  const google = new GoogleStandIn();
  beforeAll(async () => {
    const jwksUrl = await google.start();
    app = await createTestApp(dialect, { google: { clientId: testGoogleClientId, jwksUrl } });
  });
  afterAll(async () => {
    await app.close();
    await google.stop();
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

  async function googleLogin(browser: Browser, idToken: string) {
    return browser.post('/api/googlelogin', { id_token: idToken });
  }

  /** A password account; verified by the mailed code unless told otherwise. */
  async function passwordAccount(email: string, verify: boolean) {
    const browser = new Browser(app.url);
    const res = await browser.post('/api/register', { email, password });
    expect(res.status).toBe(201);
    const { user_id } = await json<{ user_id: UserId }>(res);
    if (verify) {
      const code = codeFrom(await app.smtp.lastMailTo(email));
      expect((await browser.post('/api/verify', { code })).status).toBe(200);
    }
    return { browser, userId: user_id };
  }

  it('gives a new Google account the language chosen in the app; an existing account keeps its own', async () => {
    const sub = `sub-${unique()}`;
    const browser = new Browser(app.url);
    const headers = { 'Accept-Language': 'ru-RU,ru;q=0.9' };
    const token = await google.idToken(
      { sub, email: `g-${unique()}@gmail.com`, email_verified: true },
      app.clock.now(),
    );
    const res = await browser.post('/api/googlelogin', { id_token: token, language: 'en' }, { headers });
    expect(res.status).toBe(200);
    expect((await json<{ current_user: unknown }>(res)).current_user).toMatchObject({ language: 'en' });
    expect(await json(await browser.get('/api/current_user'))).toMatchObject({ language: 'en' });

    // The same person later, with the other language chosen on another device: the account's stays.
    const again = new Browser(app.url);
    const second = await again.post('/api/googlelogin', {
      id_token: await google.idToken({ sub }, app.clock.now()),
      language: 'ru',
    });
    expect(second.status).toBe(200);
    expect(await json(await again.get('/api/current_user'))).toMatchObject({ language: 'en' });

    const users = await countUsers();
    const bad = await new Browser(app.url).post('/api/googlelogin', {
      id_token: await google.idToken({ sub: `sub-${unique()}` }, app.clock.now()),
      language: 'fr',
    });
    expect(bad.status).toBe(400);
    expect(await countUsers()).toBe(users);
  });

  it('signs a new Google user in with a cookie session, verified, keeping the verified address', async () => {
    const sub = `sub-${unique()}`;
    const email = `g-${unique()}@gmail.com`;
    const browser = new Browser(app.url);
    const res = await googleLogin(browser, await google.idToken({ sub, email, email_verified: true }, app.clock.now()));
    expect(res.status).toBe(200);
    const body = await json<{ user_id: UserId; current_user: unknown }>(res);
    expect(browser.cookie('iskra_session')).toBeDefined();
    const current = await json(await browser.get('/api/current_user'));
    expect(current).toEqual({
      authorized: true,
      user_verified: true,
      userprofile: null,
      user_id: body.user_id,
      language: 'ru',
    });
    // The answer carries the user as the GET gives it, so the app need not ask.
    expect(body.current_user).toEqual(current);
    const row = await app.database.db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', body.user_id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ google_sub: sub, email, password_hash: null });

    // The same Google account again, with the other issuer spelling: the same user.
    const again = new Browser(app.url);
    const second = await googleLogin(again, await google.idToken({ sub, iss: 'accounts.google.com' }, app.clock.now()));
    expect(second.status).toBe(200);
    expect((await json<{ user_id: UserId }>(second)).user_id).toBe(body.user_id);
  });

  it('answers a jwtToken instead of a cookie when asked', async () => {
    const browser = new Browser(app.url);
    const res = await browser.post('/api/googlelogin', {
      id_token: await google.idToken({ sub: `sub-${unique()}` }, app.clock.now()),
      session: 'token',
    });
    const body = await json<{ token: string; user_id: UserId; current_user: unknown }>(res);
    expect(browser.cookie('iskra_session')).toBeUndefined();
    const bearer = new Browser(app.url);
    bearer.bearer = body.token;
    const current = await json(await bearer.get('/api/current_user'));
    expect(current).toMatchObject({ authorized: true, user_id: body.user_id });
    expect(body.current_user).toEqual(current);
  });

  it('refuses wrong audience (or several without us as azp), wrong issuer, expired, unsigned and foreign-key tokens with 401, creating nothing', async () => {
    const users = await countUsers();
    const now = app.clock.now();
    const sub = `sub-${unique()}`;
    const iat = Math.floor(now.getTime() / 1000);
    const tokens: [string, string][] = [
      ['wrong aud', await google.idToken({ sub, aud: 'someone-else.apps.googleusercontent.com' }, now)],
      ['wrong iss', await google.idToken({ sub, iss: 'https://evil.example' }, now)],
      ['expired', await google.idToken({ sub, iat: iat - 7200, exp: iat - 60 }, now)],
      [
        'unsigned',
        unsignedToken({ sub, iss: 'https://accounts.google.com', aud: testGoogleClientId, iat, exp: iat + 3600 }),
      ],
      ['other key, same kid', await google.idToken({ sub }, now, { otherKey: true })],
      ['other key, unknown kid', await google.idToken({ sub }, now, { otherKey: true, kid: 'unknown' })],
      ['no sub', await google.idToken({}, now)],
      [
        'several audiences, issued to another',
        await google.idToken({ sub, aud: [testGoogleClientId, foreignClient], azp: foreignClient }, now),
      ],
      ['several audiences, no azp', await google.idToken({ sub, aud: [testGoogleClientId, foreignClient] }, now)],
    ];
    for (const [name, token] of tokens) {
      const res = await googleLogin(new Browser(app.url), token);
      expect(res.status, name).toBe(401);
      expect(await json(res), name).toEqual({ error: 'Google login failed', code: 'google_login_failed' });
    }
    const notJwt = await googleLogin(new Browser(app.url), 'not a token');
    expect(notJwt.status).toBe(400);
    expect(await countUsers()).toBe(users);
  });

  it('accepts a token for several audiences when it was issued to us (azp), as OpenID Connect requires', async () => {
    const sub = `sub-${unique()}`;
    const res = await googleLogin(
      new Browser(app.url),
      await google.idToken({ sub, aud: [foreignClient, testGoogleClientId], azp: testGoogleClientId }, app.clock.now()),
    );
    expect(res.status).toBe(200);
    // One audience: azp may name another client of ours (cross-client sign-in) and is not compared.
    const single = await googleLogin(
      new Browser(app.url),
      await google.idToken({ sub, azp: 'android-client.apps.googleusercontent.com' }, app.clock.now()),
    );
    expect(single.status).toBe(200);
  });

  it('refuses a token that expired by the server clock', async () => {
    const token = await google.idToken({ sub: `sub-${unique()}` }, app.clock.now());
    app.clock.advance(3601);
    expect((await googleLogin(new Browser(app.url), token)).status).toBe(401);
  });

  it('links a verified password account when Google verified the address, ending its other sessions', async () => {
    const email = `link-${unique()}@example.com`;
    const { browser: old, userId } = await passwordAccount(email, true);
    const sub = `sub-${unique()}`;
    const browser = new Browser(app.url);
    const res = await googleLogin(
      browser,
      await google.idToken({ sub, email: email.toUpperCase(), email_verified: true }, app.clock.now()),
    );
    expect(res.status).toBe(200);
    expect((await json<{ user_id: UserId }>(res)).user_id).toBe(userId);
    expect(await json(await browser.get('/api/current_user'))).toMatchObject({ authorized: true, user_id: userId });
    // The session opened before the link is over.
    expect(await json(await old.get('/api/current_user'))).toMatchObject({ authorized: false });
    const row = await app.database.db
      .selectFrom('users')
      .select(['google_sub', 'email'])
      .where('id', '=', userId)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ google_sub: sub, email });
    // The password still works too.
    expect((await new Browser(app.url).post('/api/login', { email, password })).status).toBe(200);
  });

  it('does not link when Google has not verified the address', async () => {
    const email = `unverified-google-${unique()}@example.com`;
    const { userId } = await passwordAccount(email, true);
    const res = await googleLogin(
      new Browser(app.url),
      await google.idToken({ sub: `sub-${unique()}`, email, email_verified: false }, app.clock.now()),
    );
    expect(res.status).toBe(200);
    const body = await json<{ user_id: UserId }>(res);
    expect(body.user_id).not.toBe(userId);
    const owner = await app.database.db
      .selectFrom('users')
      .select(['google_sub', 'email'])
      .where('id', '=', userId)
      .executeTakeFirstOrThrow();
    expect(owner).toEqual({ google_sub: null, email });
  });

  it("does not hand the victim's Google sign-in to someone who registered the victim's address without verifying it", async () => {
    const email = `victim-${unique()}@gmail.com`;
    // The attacker registers the victim's address with a password and never verifies it (they cannot).
    const { browser: attacker, userId: squatted } = await passwordAccount(email, false);
    const victim = new Browser(app.url);
    const res = await googleLogin(
      victim,
      await google.idToken({ sub: `sub-${unique()}`, email, email_verified: true }, app.clock.now()),
    );
    expect(res.status).toBe(200);
    const { user_id: victimId } = await json<{ user_id: UserId }>(res);
    expect(victimId).not.toBe(squatted);
    // The squatted account gains no Google link; the attacker's password and session still lead only there.
    const squattedRow = await app.database.db
      .selectFrom('users')
      .select('google_sub')
      .where('id', '=', squatted)
      .executeTakeFirstOrThrow();
    expect(squattedRow.google_sub).toBeNull();
    expect(await json(await attacker.get('/api/current_user'))).toMatchObject({ user_id: squatted });
    const login = await new Browser(app.url).post('/api/login', { email, password });
    expect((await json<{ user_id: UserId }>(login)).user_id).toBe(squatted);
    // And the victim's next Google sign-in reaches the victim's account again.
    const victimRow = await app.database.db
      .selectFrom('users')
      .select(['google_sub', 'email'])
      .where('id', '=', victimId)
      .executeTakeFirstOrThrow();
    // The address stays with the squatted row (unique), so the victim's account has none.
    expect(victimRow.email).toBeNull();
    const next = await googleLogin(
      new Browser(app.url),
      await google.idToken({ sub: victimRow.google_sub ?? '', email, email_verified: true }, app.clock.now()),
    );
    expect((await json<{ user_id: UserId }>(next)).user_id).toBe(victimId);
  });

  it('refuses a cross-site Google sign-in (login CSRF) and a banned account', async () => {
    const sub = `sub-${unique()}`;
    const token = await google.idToken({ sub }, app.clock.now());
    const crossSite = await new Browser(app.url).post('/api/googlelogin', { id_token: token }, { csrf: false });
    expect(crossSite.status).toBe(403);
    const ok = await json<{ user_id: UserId }>(await googleLogin(new Browser(app.url), token));
    await app.database.db
      .updateTable('users')
      .set({ banned_at: app.clock.now().toISOString() })
      .where('id', '=', ok.user_id)
      .execute();
    const banned = await googleLogin(new Browser(app.url), token);
    expect(banned.status).toBe(403);
  });
});

describe('Google sign-in without a client id', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp('sqlite');
  });
  afterAll(async () => {
    await app.close();
  });

  it('answers 503', async () => {
    const res = await new Browser(app.url).post('/api/googlelogin', { id_token: 'a.b.c' });
    expect(res.status).toBe(503);
    expect(await json(res)).toMatchObject({ code: 'google_not_configured' });
  });
});
