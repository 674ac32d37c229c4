import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Browser, json } from '../../test/browser.ts';
import { signInitData, signWidgetPayload, testBotToken } from '../../test/telegramSigning.ts';
import { createTestApp, type TestApp } from '../../test/testApp.ts';
import { testDialects } from '../../test/testDatabase.ts';
import type { UserId } from '../../../db/schema.ts';

let nextId = 5_000_000_000; // above 32 bits, as real Telegram ids are
const newTelegramId = () => ++nextId;

describe.each(testDialects())('Telegram sign-in on %s', (dialect) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp(dialect, { botToken: testBotToken });
  });
  afterAll(async () => {
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

  const postInitData = (initData: unknown) =>
    fetch(`${app.url}/api/auth/telegram`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ initData }),
    });

  it('signs a Mini App user in with a token that works as Bearer, verified, in their Telegram language', async () => {
    const id = newTelegramId();
    const res = await postInitData(
      await signInitData({ id, first_name: 'Anna', username: 'anna_tg', language_code: 'en' }, app.clock.now()),
    );
    expect(res.status).toBe(200);
    const body = await json<{ token: string; user_id: UserId; current_user: unknown }>(res);
    expect(res.headers.getSetCookie()).toEqual([]);

    const browser = new Browser(app.url);
    browser.bearer = body.token;
    const current = await json(await browser.get('/api/current_user'));
    expect(current).toEqual({
      authorized: true,
      user_verified: true,
      userprofile: null,
      user_id: body.user_id,
      language: 'en',
    });
    // The answer carries the user as the GET gives it, so the Mini App need not ask.
    expect(body.current_user).toEqual(current);
    const row = await app.database.db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', body.user_id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ telegram_id: String(id), telegram_username: 'anna_tg', language: 'en', email: null });
    expect(row.verified_at).not.toBeNull();
    // The token works for a bearer POST without any CSRF token.
    expect((await browser.post('/api/logout')).status).toBe(200);
    expect(await json(await browser.get('/api/current_user'))).toMatchObject({ authorized: false });
  });

  it('reaches the same account on a second sign-in, and takes Russian for Ukrainian', async () => {
    const id = newTelegramId();
    const first = await json<{ user_id: UserId; token: string }>(
      await postInitData(await signInitData({ id, language_code: 'uk' }, app.clock.now())),
    );
    app.clock.advance(30);
    const second = await json<{ user_id: UserId; token: string }>(
      await postInitData(await signInitData({ id, username: 'renamed', language_code: 'en' }, app.clock.now())),
    );
    expect(second.user_id).toBe(first.user_id);
    expect(second.token).not.toBe(first.token);
    const row = await app.database.db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', first.user_id)
      .executeTakeFirstOrThrow();
    // The language is chosen once (later the user changes it in the app or the bot); the username follows Telegram.
    expect(row).toMatchObject({ language: 'ru', telegram_username: 'renamed' });
  });

  it('signs in a user whose name holds +, &, / and Cyrillic', async () => {
    const initData = await signInitData(
      { id: newTelegramId(), first_name: 'Ян+Мария & Co/Ltd', last_name: 'Ёлкин = 100%' },
      app.clock.now(),
    );
    expect(initData).toContain('%2B');
    const res = await postInitData(initData);
    expect(res.status).toBe(200);
  });

  it('logs why launch data were refused, under the request id of the refused request', async () => {
    const now = app.clock.now();
    const id = newTelegramId();
    const stale = await signInitData({ id }, new Date(now.getTime() - 86_401_000));
    const forged = (await signInitData({ id, first_name: 'Eve' }, now)).replace('Eve', 'Eva');
    for (const [initData, reason] of [
      [stale, 'stale'],
      [forged, 'bad_signature'],
      ['', 'missing'],
      ['garbage', 'malformed'],
    ] as const) {
      const before = app.logs.length;
      expect((await postInitData(initData)).status).toBeGreaterThanOrEqual(400);
      const records = app.logs
        .slice(before)
        .map((line) => JSON.parse(line) as { msg: string; reqId?: string; reason?: string; path?: string });
      const refusal = records.find((r) => r.msg === 'Mini App launch data refused');
      expect(refusal, reason).toMatchObject({ reason });
      expect(records.find((r) => r.msg === 'request' && r.path === '/api/auth/telegram')?.reqId).toBe(refusal?.reqId);
    }
  });

  it('refuses a changed field, a wrong token, stale or missing signatures and garbage, creating no account', async () => {
    const users = await countUsers();
    const now = app.clock.now();
    const id = newTelegramId();
    const good = await signInitData({ id, first_name: 'Eve' }, now);
    const cases: [unknown, number, string][] = [
      [good.replace('Eve', 'Eva'), 401, 'telegram_auth_failed'],
      [good.replace(String(id), String(id + 1)), 401, 'telegram_auth_failed'],
      [
        await signInitData({ id, first_name: 'Eve' }, now, { botToken: '987654321:AAother-bot-token' }),
        401,
        'telegram_auth_failed',
      ],
      [await signInitData({ id }, new Date(now.getTime() - 86_401_000)), 401, 'telegram_data_expired'],
      [good.replace(/&hash=[0-9a-f]+/, ''), 400, 'invalid_init_data'],
      ['garbage', 400, 'invalid_init_data'],
      ['%%%&&&===', 400, 'invalid_init_data'],
      ['', 400, 'invalid_input'],
      [12345, 400, 'invalid_input'],
      ['x'.repeat(9000), 400, 'invalid_input'],
    ];
    for (const [initData, status, code] of cases) {
      const res = await postInitData(initData);
      expect(res.status, String(initData).slice(0, 60)).toBe(status);
      expect(await json(res)).toMatchObject({ code });
    }
    const extraField = await fetch(`${app.url}/api/auth/telegram`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ initData: good, admin: true }),
    });
    expect(extraField.status).toBe(400);
    expect(await countUsers()).toBe(users);
    // Nothing of the signed data reaches the log.
    const hash = new URLSearchParams(good).get('hash') ?? '';
    expect(app.logs.join('\n')).not.toContain(hash);
  });

  it('refuses a banned Telegram account', async () => {
    const id = newTelegramId();
    const first = await json<{ user_id: UserId }>(await postInitData(await signInitData({ id }, app.clock.now())));
    await app.database.db
      .updateTable('users')
      .set({ banned_at: app.clock.now().toISOString() })
      .where('id', '=', first.user_id)
      .execute();
    const again = await postInitData(await signInitData({ id }, app.clock.now()));
    expect(again.status).toBe(403);
    expect(await json(again)).toMatchObject({ code: 'banned' });
  });

  it('signs a web user in through the Login Widget with a cookie, on the same account as the Mini App', async () => {
    const id = newTelegramId();
    const miniApp = await json<{ user_id: UserId }>(
      await postInitData(await signInitData({ id, first_name: 'Lena' }, app.clock.now())),
    );
    const browser = new Browser(app.url);
    const res = await browser.post(
      '/api/auth',
      await signWidgetPayload({ id, first_name: 'Lena', photo_url: 'https://t.me/i/userpic/1.jpg' }, app.clock.now()),
    );
    expect(res.status).toBe(200);
    const current = await json(await browser.get('/api/current_user'));
    expect(await json(res)).toEqual({ message: 'Login successful', user_id: miniApp.user_id, current_user: current });
    expect(browser.cookie('iskra_session')).toBeDefined();
    expect(current).toMatchObject({ authorized: true, user_verified: true, user_id: miniApp.user_id });
  });

  it("gives a new Login Widget account the language chosen in the app (the widget sends none of Telegram's)", async () => {
    const browser = new Browser(app.url);
    const payload = await signWidgetPayload({ id: newTelegramId(), first_name: 'Emma' }, app.clock.now());
    const res = await browser.post(
      '/api/auth',
      { ...payload, language: 'en' },
      { headers: { 'Accept-Language': 'ru-RU' } },
    );
    expect(res.status).toBe(200);
    const { user_id } = await json<{ user_id: UserId }>(res);
    expect(await json(await browser.get('/api/current_user'))).toMatchObject({ user_id, language: 'en' });

    // An account that exists keeps its language whatever the app sends.
    const miniApp = await json<{ user_id: UserId }>(
      await postInitData(await signInitData({ id: newTelegramId(), language_code: 'ru' }, app.clock.now())),
    );
    const row = await app.database.db
      .selectFrom('users')
      .select('telegram_id')
      .where('id', '=', miniApp.user_id)
      .executeTakeFirstOrThrow();
    const existing = new Browser(app.url);
    const signedIn = await existing.post('/api/auth', {
      ...(await signWidgetPayload({ id: Number(row.telegram_id) }, app.clock.now())),
      language: 'en',
    });
    expect(signedIn.status).toBe(200);
    expect(await json(await existing.get('/api/current_user'))).toMatchObject({
      user_id: miniApp.user_id,
      language: 'ru',
    });

    const users = await countUsers();
    const bad = await new Browser(app.url).post('/api/auth', {
      ...(await signWidgetPayload({ id: newTelegramId() }, app.clock.now())),
      language: 'de',
    });
    expect(bad.status).toBe(400);
    expect(await countUsers()).toBe(users);
  });

  it('answers a jwtToken instead of the cookie when the app asks for a token-only session', async () => {
    const id = newTelegramId();
    const browser = new Browser(app.url);
    const res = await browser.post('/api/auth', {
      ...(await signWidgetPayload({ id, username: 'tok' }, app.clock.now())),
      session: 'token',
      csrf_token: 'ignored',
    });
    expect(res.status).toBe(200);
    const body = await json<{ token: string; user_id: UserId; current_user: unknown }>(res);
    expect(browser.cookie('iskra_session')).toBeUndefined();
    const bearer = new Browser(app.url);
    bearer.bearer = body.token;
    const current = await json(await bearer.get('/api/current_user'));
    expect(current).toMatchObject({ authorized: true, user_id: body.user_id });
    expect(body.current_user).toEqual(current);
  });

  it('refuses a forged, stale or cross-site Login Widget sign-in', async () => {
    const users = await countUsers();
    const id = newTelegramId();
    const browser = new Browser(app.url);
    const payload = await signWidgetPayload({ id, first_name: 'Mallory' }, app.clock.now());
    const forged = await browser.post('/api/auth', { ...payload, first_name: 'Alice' });
    expect(forged.status).toBe(401);
    expect(await json(forged)).toEqual({ error: 'Telegram authentication failed', code: 'telegram_auth_failed' });
    const stale = await browser.post(
      '/api/auth',
      await signWidgetPayload({ id }, new Date(app.clock.now().getTime() - 86_401_000)),
    );
    expect(stale.status).toBe(401);
    const noHash = await browser.post('/api/auth', { id, auth_date: 1 });
    expect(noHash.status).toBe(400);
    // Login CSRF: a foreign page posting the attacker's valid widget data is refused.
    const crossSite = await browser.post('/api/auth', payload, { csrf: false });
    expect(crossSite.status).toBe(403);
    expect(await countUsers()).toBe(users);
    expect(browser.cookie('iskra_session')).toBeUndefined();
  });
});

describe('Telegram sign-in without a bot token', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp('sqlite');
  });
  afterAll(async () => {
    await app.close();
  });

  it('answers 503 instead of accepting anything', async () => {
    const res = await fetch(`${app.url}/api/auth/telegram`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ initData: await signInitData({ id: 1 }, app.clock.now()) }),
    });
    expect(res.status).toBe(503);
    expect(await json(res)).toMatchObject({ code: 'telegram_not_configured' });
  });
});
