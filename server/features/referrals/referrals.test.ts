import i18next from 'i18next';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UserId } from '../../../db/schema.ts';
import en from '../../../locales/en.json' with { type: 'json' };
import { Browser, json } from '../../test/browser.ts';
import { GoogleStandIn, testGoogleClientId } from '../../test/googleStandIn.ts';
import { createPerson } from '../../test/people.ts';
import { signInitData, signWidgetPayload, testBotToken } from '../../test/telegramSigning.ts';
import { createTestApp, type TestApp } from '../../test/testApp.ts';
import { testDialects } from '../../test/testDatabase.ts';
import { statsSince, statsText } from '../admin/index.ts';

const password = 'secret123!';
let counter = 0;
const unique = () => `${++counter}-${Date.now()}`;
let nextTelegramId = 6_100_000_000;

interface Invitation {
  code: string;
  web_link: string;
  telegram_link: string | null;
}

describe.each(testDialects())('invite a friend on %s', (dialect) => {
  let app: TestApp;
  const google = new GoogleStandIn();
  beforeAll(async () => {
    const jwksUrl = await google.start();
    app = await createTestApp(dialect, {
      botToken: testBotToken,
      google: { clientId: testGoogleClientId, jwksUrl },
      publicConfig: {
        google_client_id: testGoogleClientId,
        bot_username: 'iskra_test_bot',
        telegram_bot_id: null,
        support_email: null,
        support_telegram: null,
        legal_name: null,
        legal_inn: null,
        legal_ogrnip: null,
      },
    });
  });
  afterAll(async () => {
    await app.close();
    await google.stop();
  });

  const invitationOf = async (browser: Browser) => json<Invitation>(await browser.post('/api/referral'));
  const referralsOf = (code: string) =>
    app.database.db
      .selectFrom('referrals')
      .select(['referred_user_id', 'referrer_user_id'])
      .where('code', '=', code)
      .execute();
  const perCode = async (code: string) =>
    (await statsSince(app.database.db, new Date(0))).referrals.find((r) => r.code === code)?.signUps ?? 0;

  async function register(ref?: string): Promise<UserId> {
    const res = await new Browser(app.url).post('/api/register', {
      email: `ref-${unique()}@example.com`,
      password,
      ...(ref === undefined ? {} : { ref }),
    });
    expect(res.status).toBe(201);
    return (await json<{ user_id: UserId }>(res)).user_id;
  }

  it('gives each account one stable, random code and its two links; only to a signed-in caller', async () => {
    const ann = await createPerson(app, { name: 'Ann' });
    const bob = await createPerson(app, { name: 'Bob' });
    const first = await invitationOf(ann.browser);
    expect(first.code).toMatch(/^[a-z0-9]{10}$/);
    expect(first.code).not.toContain(String(ann.userId));
    expect(await invitationOf(ann.browser)).toEqual(first);
    expect((await invitationOf(bob.browser)).code).not.toBe(first.code);
    expect(first.web_link).toBe(`http://localhost:8080/?ref=${first.code}`);
    expect(first.telegram_link).toBe(`https://t.me/iskra_test_bot?startapp=ref_${first.code}`);
    const anonymous = await new Browser(app.url).post('/api/referral');
    expect(anonymous.status).toBe(401);
    expect(await json(anonymous)).toMatchObject({
      code: expect.any(String) as unknown,
      error: expect.any(String) as unknown,
    });
    expect((await ann.browser.post('/api/referral', { extra: 1 })).status).toBe(400);
  });

  it('counts a web sign-up that came with ?ref= once, for the inviter, in the admin statistics', async () => {
    const inviter = await createPerson(app, { name: 'Inviter' });
    const { code } = await invitationOf(inviter.browser);
    const newcomer = await register(code);
    expect(await referralsOf(code)).toEqual([{ referred_user_id: newcomer, referrer_user_id: inviter.userId }]);
    expect(await perCode(code)).toBe(1);
    // A second newcomer through the same link counts too; the stats text names the code.
    await register(code);
    expect(await perCode(code)).toBe(2);
    const stats = await statsSince(app.database.db, new Date(0));
    const t = await i18next.createInstance().init({ lng: 'en', resources: { en: { translation: en } } });
    expect(statsText(t, 'Stats', stats)).toContain(`${code}: 2`);
  });

  it('ignores an unknown, malformed or own code, and never counts a sign-in to an existing account', async () => {
    const before = await app.database.db
      .selectFrom('referrals')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    expect(await register('zzzzzzzzzz')).toBeGreaterThan(0);
    expect(await register('not a code!')).toBeGreaterThan(0);
    // Too long to be anything: refused like any bad field, and no account is made.
    const long = await new Browser(app.url).post('/api/register', {
      email: `ref-${unique()}@example.com`,
      password,
      ref: 'x'.repeat(65),
    });
    expect(long.status).toBe(400);

    // A Telegram account that exists already opens a link with its own code, then someone else's: neither counts.
    const telegramId = ++nextTelegramId;
    const signIn = async (startParam?: string) =>
      fetch(`${app.url}/api/auth/telegram`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({
          initData: await signInitData(
            { id: telegramId, language_code: 'en' },
            app.clock.now(),
            startParam ? { extra: { start_param: startParam } } : {},
          ),
        }),
      });
    const first = await json<{ token: string; user_id: UserId }>(await signIn());
    const own = new Browser(app.url);
    own.bearer = first.token;
    const ownCode = (await invitationOf(own)).code;
    expect((await signIn(`ref_${ownCode}`)).status).toBe(200);
    const other = await createPerson(app, { name: 'Other' });
    const otherCode = (await invitationOf(other.browser)).code;
    expect((await signIn(`ref_${otherCode}`)).status).toBe(200);
    expect(await perCode(ownCode)).toBe(0);
    expect(await perCode(otherCode)).toBe(0);
    const after = await app.database.db
      .selectFrom('referrals')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });

  it('counts a new Mini App user who opened startapp=ref_<code>, once however often they come back', async () => {
    const inviter = await createPerson(app, { name: 'Tg inviter' });
    const { code } = await invitationOf(inviter.browser);
    const id = ++nextTelegramId;
    const launch = async () =>
      json<{ user_id: UserId }>(
        await fetch(`${app.url}/api/auth/telegram`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({
            initData: await signInitData({ id }, app.clock.now(), { extra: { start_param: `ref_${code}` } }),
          }),
        }),
      );
    const { user_id } = await launch();
    await launch();
    expect(await referralsOf(code)).toEqual([{ referred_user_id: user_id, referrer_user_id: inviter.userId }]);
  });

  it('counts sign-ups through Google and the Telegram Login Widget that carry ref', async () => {
    const inviter = await createPerson(app, { name: 'Web inviter' });
    const { code } = await invitationOf(inviter.browser);
    const viaGoogle = await new Browser(app.url).post('/api/googlelogin', {
      id_token: await google.idToken({ sub: `sub-${unique()}` }, app.clock.now()),
      ref: code,
    });
    expect(viaGoogle.status).toBe(200);
    const widget = await signWidgetPayload({ id: ++nextTelegramId, first_name: 'Wid' }, app.clock.now());
    const viaWidget = await new Browser(app.url).post('/api/auth', { ...widget, ref: code });
    expect(viaWidget.status).toBe(200);
    const ids = [
      (await json<{ user_id: UserId }>(viaGoogle)).user_id,
      (await json<{ user_id: UserId }>(viaWidget)).user_id,
    ];
    expect((await referralsOf(code)).map((r) => r.referred_user_id).sort()).toEqual(ids.sort());
    expect(await perCode(code)).toBe(2);
  });
});
