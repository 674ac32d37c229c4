import { Writable } from 'node:stream';
import { Api, type Bot } from 'grammy';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBot } from '../../../bot/bot.ts';
import type { BotContext } from '../../../bot/context.ts';
import { AdminService } from '../admin/index.ts';
import { TelegramUserService } from '../telegram/index.ts';
import { createLogger } from '../../logger.ts';
import { Browser, json } from '../../test/browser.ts';
import { createPerson } from '../../test/people.ts';
import { signInitData, testBotToken } from '../../test/telegramSigning.ts';
import { TelegramStandIn, testBotInfo } from '../../test/telegramStandIn.ts';
import { preCheckoutQuery, successfulPayment } from '../../test/telegramUpdates.ts';
import { createTestApp, type TestApp } from '../../test/testApp.ts';
import { testDialects } from '../../test/testDatabase.ts';
import { PremiumService } from './service.ts';
import { starsApiFor, starsSubscriptionPeriod } from './stars.ts';
import type { UserId } from '../../../db/schema.ts';

const day = 86_400_000;
let nextTelegramId = 7_500_000_000;

describe.each(testDialects())('Telegram Stars on %s', (dialect) => {
  let telegram: TelegramStandIn;
  let app: TestApp;
  let bot: Bot<BotContext>;
  let admin: AdminService;

  beforeAll(async () => {
    telegram = new TelegramStandIn();
    const apiRoot = await telegram.start();
    const starsApi = starsApiFor(new Api(testBotToken, { apiRoot }));
    app = await createTestApp(dialect, { botToken: testBotToken, stars: starsApi });
    const silent = new Writable({ write: (_chunk, _encoding, callback) => callback() });
    // The bot settles on the same data through its own PremiumService, as main.ts builds it.
    bot = createBot({
      token: testBotToken,
      users: new TelegramUserService(app.database.db, app.clock),
      logger: createLogger('info', silent),
      publicUrl: 'https://iskra.test/',
      apiRoot,
      botInfo: testBotInfo,
      limits: { perChatIntervalMs: 0, minGapMs: 0 },
      stars: new PremiumService(app.database.db, dialect, app.clock, 'the-bot-process-secret-long-enough-0000', true),
    });
    admin = new AdminService(app.database.db, app.clock, { stars: starsApi });
  });
  afterAll(async () => {
    await app.close();
    await telegram.stop();
  });

  /** A Mini App user: signed in with init data, holding the bearer jwtToken as the app does. */
  async function miniAppUser(language_code = 'ru') {
    const tg = { id: ++nextTelegramId, first_name: 'Лена', language_code };
    const res = await fetch(`${app.url}/api/auth/telegram`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ initData: await signInitData(tg, app.clock.now()) }),
    });
    const { token, user_id } = await json<{ token: string; user_id: UserId }>(res);
    const browser = new Browser(app.url);
    browser.bearer = token;
    return { tg, browser, userId: user_id };
  }
  type User = Awaited<ReturnType<typeof miniAppUser>>;

  async function invoiceFor(user: User, amount = 499, interval = 30) {
    const res = await user.browser.post('/api/payment', { amount, interval });
    expect(res.status).toBe(200);
    const { payment_url } = await json<{ payment_url: string }>(res);
    const invoice = telegram.callsOf('createInvoiceLink').at(-1) ?? {};
    return { payment_url, invoice, payload: String(invoice.payload) };
  }
  const paymentsOf = (user: User) =>
    app.database.db.selectFrom('payments').selectAll().where('user_id', '=', user.userId).orderBy('id').execute();
  const subscription = async (user: User) =>
    json<{ isActive: boolean; end_date: string | null }>(await user.browser.get('/api/subscription'));
  const answers = () => telegram.callsOf('answerPreCheckoutQuery');

  it('answers a Mini App purchase with a Stars invoice link: the month as a 30-day subscription, the week once', async () => {
    const user = await miniAppUser();
    const { plans } = await json<{ plans: { id: string; price: number; stars?: number }[] }>(
      await user.browser.get('/api/plans'),
    );
    expect(plans.find((p) => p.id === 'month')).toMatchObject({ price: 499, stars: 300 });
    const month = await invoiceFor(user);
    expect(month.payment_url).toMatch(/^https:\/\/t\.me\/\$/);
    expect(month.invoice).toMatchObject({
      currency: 'XTR',
      provider_token: '',
      prices: [{ amount: 300 }],
      subscription_period: starsSubscriptionPeriod,
      title: 'Искра Премиум: 1 месяц',
    });
    const week = await invoiceFor(user, 249, 7);
    expect(week.invoice).toMatchObject({ currency: 'XTR', prices: [{ amount: 150 }] });
    expect(week.invoice).not.toHaveProperty('subscription_period');
    const rows = await paymentsOf(user);
    expect(rows.map((p) => [p.provider, p.currency, p.amount, p.status])).toEqual([
      ['stars', 'XTR', 300, 'pending'],
      ['stars', 'XTR', 150, 'pending'],
    ]);
    expect(month.payload).toBe(`iskra:${rows[0]?.id}`);

    // Not a plan: refused before any row or invoice.
    const invoices = telegram.callsOf('createInvoiceLink').length;
    expect((await user.browser.post('/api/payment', { amount: 1, interval: 30 })).status).toBe(400);
    expect(telegram.callsOf('createInvoiceLink')).toHaveLength(invoices);
    expect(await paymentsOf(user)).toHaveLength(2);
  });

  it('says yes at checkout only to our pending payment, for its buyer and its amount', async () => {
    const user = await miniAppUser('en');
    const { payload } = await invoiceFor(user);
    const stranger = { id: ++nextTelegramId, language_code: 'en' };
    const cases: [Parameters<typeof preCheckoutQuery>, boolean][] = [
      [[user.tg, payload, 299], false],
      [[user.tg, payload, 300, 'RUB'], false],
      [[stranger, payload, 300], false],
      [[user.tg, 'iskra:999999999', 300], false],
      [[user.tg, 'something else', 300], false],
      [[user.tg, payload, 300], true],
    ];
    for (const [args, ok] of cases) {
      const before = answers().length;
      await bot.handleUpdate(preCheckoutQuery(...args));
      expect(answers()).toHaveLength(before + 1);
      const answer = answers().at(-1);
      expect(answer?.ok).toBe(ok);
      if (!ok)
        expect(answer?.error_message).toBe('This invoice is no longer valid. Open Premium in the app and try again.');
    }
    expect((await paymentsOf(user))[0]?.status).toBe('pending');
  });

  it('credits once per charge id, and each renewal of the Stars subscription extends again', async () => {
    const user = await miniAppUser();
    const { payload } = await invoiceFor(user);
    const start = app.clock.now().getTime();
    const first = successfulPayment(user.tg, payload, 300, 'charge-first', {
      is_recurring: true,
      is_first_recurring: true,
    });
    await bot.handleUpdate(first);
    await bot.handleUpdate({ ...first, update_id: first.update_id + 100_000 });
    let state = await subscription(user);
    expect(state.isActive).toBe(true);
    expect(new Date(state.end_date ?? '').getTime()).toBe(start + 30 * day);
    const thanks = telegram.callsOf('sendMessage').filter((m) => m.chat_id === user.tg.id);
    expect(thanks).toHaveLength(1);
    expect(String(thanks[0]?.text)).toMatch(/^Спасибо! Премиум активен до /);

    // Paid already: a second checkout of the same invoice is refused.
    await bot.handleUpdate(preCheckoutQuery(user.tg, payload, 300));
    expect(answers().at(-1)?.ok).toBe(false);

    const renewal = successfulPayment(user.tg, payload, 300, 'charge-renewal-1', { is_recurring: true });
    await bot.handleUpdate(renewal);
    await bot.handleUpdate({ ...renewal, update_id: renewal.update_id + 100_000 });
    state = await subscription(user);
    expect(new Date(state.end_date ?? '').getTime()).toBe(start + 60 * day);
    const rows = await paymentsOf(user);
    expect(rows.map((p) => [p.provider_payment_id, p.status])).toEqual([
      ['charge-first', 'succeeded'],
      ['charge-renewal-1', 'succeeded'],
    ]);

    // Someone else's payment message with this payload credits nobody.
    const stranger = { id: ++nextTelegramId };
    await bot.handleUpdate(successfulPayment(stranger, payload, 300, 'charge-stranger'));
    expect(await paymentsOf(user)).toHaveLength(2);
  });

  it('refunds a Stars payment through refundStarPayment and shortens the subscription; a refusal there changes nothing', async () => {
    const user = await miniAppUser();
    const { payload } = await invoiceFor(user, 249, 7);
    await bot.handleUpdate(successfulPayment(user.tg, payload, 150, 'charge-week'));
    const [payment] = await paymentsOf(user);
    if (!payment) throw new Error('no payment');
    expect((await subscription(user)).isActive).toBe(true);

    telegram.failNext('refundStarPayment', { error_code: 400, description: 'Bad Request: CHARGE_NOT_FOUND' });
    await expect(admin.refund(payment.id, 'cli')).rejects.toThrow();
    expect((await paymentsOf(user))[0]?.status).toBe('succeeded');
    expect((await subscription(user)).isActive).toBe(true);

    const result = await admin.refund(payment.id, 'cli');
    expect(telegram.callsOf('refundStarPayment').at(-1)).toEqual({
      user_id: user.tg.id,
      telegram_payment_charge_id: 'charge-week',
    });
    expect((await paymentsOf(user))[0]?.status).toBe('refunded');
    expect(result.premiumUntil).toBe(app.clock.now().toISOString());
    expect((await subscription(user)).isActive).toBe(false);
    await expect(admin.refund(payment.id, 'cli')).rejects.toThrow(/No credited payment/);
  });

  it('sells to a Telegram account signed in on the web (cookie session) through the web checkout, not Stars', async () => {
    const person = await createPerson(app);
    await app.database.db
      .updateTable('users')
      .set({ telegram_id: String(++nextTelegramId) })
      .where('id', '=', person.userId)
      .execute();
    const invoices = telegram.callsOf('createInvoiceLink').length;
    const { plans } = await json<{ plans: { stars?: number }[] }>(await person.browser.get('/api/plans'));
    expect(plans.every((p) => p.stars === undefined)).toBe(true);
    const res = await person.browser.post('/api/payment', { amount: 499, interval: 30 });
    expect(res.status).toBe(200);
    expect((await json<{ payment_url: string }>(res)).payment_url).toMatch(/^\/api\/payments\/test\/checkout\//);
    expect(telegram.callsOf('createInvoiceLink')).toHaveLength(invoices);
  });

  it('fails cleanly when Telegram refuses the invoice: "Error processing payment" and the row canceled', async () => {
    const user = await miniAppUser();
    telegram.failNext('createInvoiceLink', {
      error_code: 400,
      description: 'Bad Request: currency XTR is not allowed',
    });
    const res = await user.browser.post('/api/payment', { amount: 499, interval: 30 });
    expect(res.status).toBe(502);
    expect(await json(res)).toEqual({ error: 'Error processing payment', code: 'payment_provider_error' });
    expect((await paymentsOf(user)).map((p) => p.status)).toEqual(['canceled']);
  });
});
