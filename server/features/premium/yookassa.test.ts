import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json } from '../../test/browser.ts';
import { createPerson, type Person } from '../../test/people.ts';
import { createTestApp, type TestApp } from '../../test/testApp.ts';
import { testDialects } from '../../test/testDatabase.ts';
import { YooKassaStandIn } from '../../test/yookassaStandIn.ts';
import { AdminService } from '../admin/index.ts';
import { AddressRanges, yookassaNotificationRanges } from './addressRanges.ts';
import { PremiumService } from './service.ts';
import { YooKassaClient } from './yookassa.ts';

const day = 86_400_000;
const adminTelegramId = 7_900_000_001;

describe('address ranges', () => {
  it('checks IPv4 and IPv6 CIDRs, single addresses and IPv4-mapped IPv6', () => {
    const ranges = new AddressRanges(yookassaNotificationRanges);
    expect(ranges.contains('185.71.76.0')).toBe(true);
    expect(ranges.contains('185.71.76.31')).toBe(true);
    expect(ranges.contains('185.71.76.32')).toBe(false);
    expect(ranges.contains('77.75.156.11')).toBe(true);
    expect(ranges.contains('77.75.156.12')).toBe(false);
    expect(ranges.contains('::ffff:77.75.153.127')).toBe(true);
    expect(ranges.contains('77.75.153.128')).toBe(false);
    expect(ranges.contains('2a02:5180:0:1::7')).toBe(true);
    expect(ranges.contains('2a02:5181::1')).toBe(false);
    expect(ranges.contains('127.0.0.1')).toBe(false);
    expect(ranges.contains('not an address')).toBe(false);
    expect(() => new AddressRanges('10.0.0.0/33')).toThrow();
  });
});

describe.each(testDialects())('YooKassa payments on %s', (dialect) => {
  let yookassa: YooKassaStandIn;
  let app: TestApp;
  /** The same server with YooKassa's real address ranges: the test's 127.0.0.1 is outside them. */
  let strict: TestApp;

  beforeAll(async () => {
    yookassa = new YooKassaStandIn();
    await yookassa.start();
    const setup = (ranges: string) => ({
      client: new YooKassaClient(yookassa.apiUrl, yookassa.shopId, yookassa.secretKey, 2000),
      returnUrl: 'https://iskra.test/confirm',
      allowedRanges: new AddressRanges(ranges),
    });
    app = await createTestApp(dialect, {
      testPaymentProvider: false,
      yookassa: setup('127.0.0.1/32,::1/128'),
      adminTelegramIds: [adminTelegramId],
    });
    strict = await createTestApp(dialect, {
      testPaymentProvider: false,
      yookassa: setup(yookassaNotificationRanges),
      database: app.database,
    });
  });
  afterAll(async () => {
    await strict.close();
    await app.close();
    await yookassa.stop();
  });

  const buyMonth = (person: Person) => person.browser.post('/api/payment', { amount: 499, interval: 30 });
  const notify = (target: TestApp, id: string, event = 'payment.succeeded', headers: Record<string, string> = {}) =>
    fetch(`${target.url}/api/payments/yookassa/notify`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...headers },
      body: JSON.stringify({ type: 'notification', event, object: { id, status: 'succeeded', paid: true } }),
    });
  const paymentsOf = (person: Person) =>
    app.database.db.selectFrom('payments').selectAll().where('user_id', '=', person.userId).orderBy('id').execute();
  const subscription = async (person: Person) =>
    json<{ isActive: boolean; end_date: string | null }>(await person.browser.get('/api/subscription'));

  async function paidMonth(person: Person) {
    const res = await buyMonth(person);
    expect(res.status).toBe(200);
    const { payment_url } = await json<{ payment_url: string }>(res);
    const [row] = (await paymentsOf(person)).slice(-1);
    return { payment_url, row, remoteId: row?.provider_payment_id ?? '' };
  }

  it('runs the whole web flow: payment, confirmation_url, notification, credited once however often it arrives', async () => {
    const person = await createPerson(app);
    const email = (
      await app.database.db
        .selectFrom('users')
        .select('email')
        .where('id', '=', person.userId)
        .executeTakeFirstOrThrow()
    ).email;
    const { payment_url, row, remoteId } = await paidMonth(person);
    expect(row).toMatchObject({
      provider: 'yookassa',
      status: 'pending',
      amount: 499,
      currency: 'RUB',
      interval_days: 30,
    });
    expect(payment_url).toBe(`https://yoomoney.test/checkout/payments/v2/contract?orderId=${remoteId}`);
    const request = yookassa.created().at(-1);
    expect(request?.headers['idempotence-key']).toBe(row?.idempotence_key);
    expect(request?.body).toMatchObject({
      amount: { value: '499.00', currency: 'RUB' },
      capture: true,
      confirmation: { type: 'redirect', return_url: `https://iskra.test/confirm?payment=${row?.id}` },
      metadata: { payment_id: String(row?.id) },
      receipt: { customer: { email }, items: [{ quantity: '1.00', amount: { value: '499.00', currency: 'RUB' } }] },
    });

    yookassa.setStatus(remoteId, 'succeeded');
    for (let i = 0; i < 3; i++) expect((await notify(app, remoteId)).status).toBe(200);
    const state = await subscription(person);
    expect(state.isActive).toBe(true);
    expect(Date.parse(state.end_date ?? '')).toBe(app.clock.now().getTime() + 30 * day);
    expect((await paymentsOf(person)).map((p) => p.status)).toEqual(['succeeded']);

    // Bought again while active: the month is added to the current end.
    const second = await paidMonth(person);
    yookassa.setStatus(second.remoteId, 'succeeded');
    // Out of order: a late "waiting" notification after the success changes nothing either.
    await notify(app, second.remoteId, 'payment.succeeded');
    await notify(app, second.remoteId, 'payment.waiting_for_capture');
    expect(Date.parse((await subscription(person)).end_date ?? '')).toBe(app.clock.now().getTime() + 60 * day);
  });

  it('credits nothing on a forged notification while the API says pending, and cancels when the API says so', async () => {
    const person = await createPerson(app);
    const { remoteId } = await paidMonth(person);
    expect((await notify(app, remoteId)).status).toBe(200);
    expect(await subscription(person)).toEqual({ isActive: false, end_date: null });
    expect((await paymentsOf(person))[0]?.status).toBe('pending');
    yookassa.setStatus(remoteId, 'canceled');
    await notify(app, remoteId, 'payment.canceled');
    yookassa.setStatus(remoteId, 'succeeded'); // an impossible flip later does not revive it
    await notify(app, remoteId);
    expect((await paymentsOf(person))[0]?.status).toBe('canceled');
    expect((await subscription(person)).isActive).toBe(false);
  });

  it('refuses notifications from outside the ranges, and believes no X-Forwarded-For without a trusted proxy', async () => {
    const person = await createPerson(app);
    const { remoteId } = await paidMonth(person);
    yookassa.setStatus(remoteId, 'succeeded');
    const refused = await notify(strict, remoteId, 'payment.succeeded', { 'X-Forwarded-For': '185.71.76.1' });
    expect(refused.status).toBe(403);
    expect(await json(refused)).toMatchObject({ code: 'forbidden_address' });
    expect((await paymentsOf(person))[0]?.status).toBe('pending');
  });

  it('behind a trusted proxy, judges the address our proxy added, not an allowed one the sender wrote before it', async () => {
    const proxied = await createTestApp(dialect, {
      testPaymentProvider: false,
      yookassa: {
        client: new YooKassaClient(yookassa.apiUrl, yookassa.shopId, yookassa.secretKey, 2000),
        returnUrl: 'https://iskra.test/confirm',
        allowedRanges: new AddressRanges(yookassaNotificationRanges),
      },
      database: app.database,
      trustedProxyHops: 1,
    });
    try {
      const person = await createPerson(app);
      const { remoteId } = await paidMonth(person);
      yookassa.setStatus(remoteId, 'succeeded');
      const spoofed = await notify(proxied, remoteId, 'payment.succeeded', {
        'X-Forwarded-For': '185.71.76.1, 203.0.113.9',
      });
      expect(spoofed.status).toBe(403);
      expect(await json(spoofed)).toMatchObject({ code: 'forbidden_address' });
      expect((await paymentsOf(person))[0]?.status).toBe('pending');
      // YooKassa itself, as our proxy saw it, whatever stands to its left.
      const genuine = await notify(proxied, remoteId, 'payment.succeeded', {
        'X-Forwarded-For': '203.0.113.9, 185.71.76.1',
      });
      expect(genuine.status).toBe(200);
      expect((await paymentsOf(person))[0]?.status).toBe('succeeded');
    } finally {
      await proxied.close();
    }
  });

  it('refuses a pair that is not a plan, and the test plan, without writing a row or calling YooKassa', async () => {
    const person = await createPerson(app);
    const calls = yookassa.created().length;
    for (const body of [
      { amount: 100, interval: 30 },
      { amount: 10, interval: 1 },
    ]) {
      const res = await person.browser.post('/api/payment', body);
      expect(res.status).toBe(400);
      expect(await json(res)).toMatchObject({ error: 'Error processing payment' });
    }
    // A client-chosen price is not even a valid request.
    expect((await person.browser.post('/api/payment', { amount: 499, interval: 30, price: 1 })).status).toBe(400);
    expect(await paymentsOf(person)).toEqual([]);
    expect(yookassa.created()).toHaveLength(calls);
  });

  it('offers admins (ADMIN_TELEGRAM_IDS) the 10-rouble test plan to try the real path, and nobody else', async () => {
    const person = await createPerson(app);
    const adminPerson = await createPerson(app);
    await app.database.db
      .updateTable('users')
      .set({ telegram_id: String(adminTelegramId) })
      .where('id', '=', adminPerson.userId)
      .execute();
    const planIds = async (who: Person) =>
      (await json<{ plans: { id: string }[] }>(await who.browser.get('/api/plans'))).plans.map((p) => p.id);
    expect(await planIds(person)).not.toContain('test_day');
    expect(await planIds(adminPerson)).toContain('test_day');
    expect((await person.browser.post('/api/payment', { amount: 10, interval: 1 })).status).toBe(400);
    const res = await adminPerson.browser.post('/api/payment', { amount: 10, interval: 1 });
    expect(res.status).toBe(200);
    expect(yookassa.created().at(-1)?.body).toMatchObject({ amount: { value: '10.00', currency: 'RUB' } });
    expect((await paymentsOf(adminPerson)).map((p) => [p.plan_id, p.amount])).toEqual([['test_day', 10]]);
  });

  it('answers an outage with "Error processing payment", and the reconciliation settles what was left pending', async () => {
    const person = await createPerson(app);
    yookassa.down = true;
    try {
      const res = await buyMonth(person);
      expect(res.status).toBe(502);
      expect(await json(res)).toEqual({ error: 'Error processing payment', code: 'payment_provider_error' });
    } finally {
      yookassa.down = false;
    }
    // A second purchase reaches YooKassa and is paid, but its notification is lost.
    const { remoteId } = await paidMonth(person);
    yookassa.setStatus(remoteId, 'succeeded');
    expect((await paymentsOf(person)).map((p) => p.status)).toEqual(['pending', 'pending']);

    // The settle_payments job's reconciliation, as the job builds it (another process on the same data).
    const reconciler = new PremiumService(
      app.database.db,
      dialect,
      app.clock,
      'another-process-secret-long-enough-000000',
      false,
      {
        yookassa: {
          client: new YooKassaClient(yookassa.apiUrl, yookassa.shopId, yookassa.secretKey),
          returnUrl: 'https://iskra.test/confirm',
        },
      },
    );
    expect(await reconciler.reconcile()).toMatchObject({ checked: 0 });
    app.clock.advance(11 * 60);
    // Earlier tests in this file leave pending payments of their own, so count at least this person's two.
    const settled = await reconciler.reconcile();
    expect(settled.checked).toBeGreaterThanOrEqual(2);
    expect(settled.credited).toBeGreaterThanOrEqual(1);
    expect(settled.canceled).toBeGreaterThanOrEqual(1);
    // Settled ones are not asked about again (others' payments still pending at YooKassa may be).
    expect(await reconciler.reconcile()).toMatchObject({ credited: 0, canceled: 0 });
    expect((await paymentsOf(person)).map((p) => p.status)).toEqual(['canceled', 'succeeded']);
    expect((await subscription(person)).isActive).toBe(true);
  });

  /** A month bought and credited through YooKassa, and the admin tools that can refund it. */
  async function refundable() {
    const client = new YooKassaClient(yookassa.apiUrl, yookassa.shopId, yookassa.secretKey, 2000);
    const admin = new AdminService(app.database.db, app.clock, { yookassa: client });
    const person = await createPerson(app);
    const { remoteId } = await paidMonth(person);
    yookassa.setStatus(remoteId, 'succeeded');
    await notify(app, remoteId);
    const [paid] = await paymentsOf(person);
    return { client, admin, person, remoteId, paid };
  }

  it('refunds rubles through YooKassa (once, whatever the retries) and takes the days back; a refusal there changes nothing', async () => {
    const { admin, person, remoteId, paid } = await refundable();
    expect(paid?.status).toBe('succeeded');
    expect((await subscription(person)).isActive).toBe(true);

    // YooKassa cancels the refund, then is unreachable: the payment stays credited, the premium stays.
    yookassa.nextRefund = 'canceled';
    await expect(admin.refund(paid?.id ?? 0, 'cli')).rejects.toMatchObject({
      code: 'payment_provider_error',
      message: expect.stringContaining('insufficient_funds') as unknown,
    });
    yookassa.down = true;
    try {
      await expect(admin.refund(paid?.id ?? 0, 'cli')).rejects.toMatchObject({ code: 'payment_provider_error' });
    } finally {
      yookassa.down = false;
    }
    expect((await paymentsOf(person))[0]?.status).toBe('succeeded');
    expect((await subscription(person)).isActive).toBe(true);

    const refunded = await admin.refund(paid?.id ?? 0, 'cli');
    expect(refunded.providerRefund).toMatchObject({ status: 'succeeded' });
    const request = yookassa.refundRequests().at(-1);
    expect(request?.body).toMatchObject({ payment_id: remoteId, amount: { value: '499.00', currency: 'RUB' } });
    // The cancelled try kept its key; this one has the next (the outage created nothing to count).
    expect(request?.headers['idempotence-key']).toBe(`iskra-refund-${paid?.id}-2`);
    expect((await paymentsOf(person))[0]?.status).toBe('refunded');
    expect(refunded.premiumUntil).toBe(app.clock.now().toISOString());
    expect((await subscription(person)).isActive).toBe(false);

    // Refunded once: a second refund is refused before YooKassa is asked.
    const asked = yookassa.refundRequests().length;
    await expect(admin.refund(paid?.id ?? 0, 'cli')).rejects.toMatchObject({ code: 'payment_not_refundable' });
    expect(yookassa.refundRequests()).toHaveLength(asked);
  });

  it('records a ruble refund that went through before a crash, without refunding again', async () => {
    const { client, admin, person, remoteId, paid } = await refundable();
    // The refund reached YooKassa, then the process died before writing it down.
    const earlier = await client.createRefund({
      paymentId: remoteId,
      amountRub: 499,
      description: 'refund',
      idempotenceKey: 'lost-in-a-crash',
    });
    const asked = yookassa.refundRequests().length;
    const refunded = await admin.refund(paid?.id ?? 0, 'cli');
    expect(refunded.providerRefund).toEqual({ id: earlier.id, status: 'succeeded' });
    expect(yookassa.refundRequests()).toHaveLength(asked);
    expect((await paymentsOf(person))[0]?.status).toBe('refunded');
    expect((await subscription(person)).isActive).toBe(false);
  });

  it('refunds only what is left after a partial dashboard refund, and records nothing while YooKassa is still processing', async () => {
    const { client, admin, person, remoteId, paid } = await refundable();
    // 150.50 given back by hand in YooKassa's dashboard.
    await client.createRefund({
      paymentId: remoteId,
      amountRub: 150.5,
      description: 'by hand',
      idempotenceKey: 'dashboard',
    });

    yookassa.nextRefund = 'pending';
    await expect(admin.refund(paid?.id ?? 0, 'cli')).rejects.toMatchObject({ status: 409, code: 'refund_pending' });
    const remainder = yookassa.refundRequests().at(-1);
    expect(remainder?.body).toMatchObject({ payment_id: remoteId, amount: { value: '348.50', currency: 'RUB' } });
    // Still pending: asked again, nothing new is created and nothing is recorded.
    await expect(admin.refund(paid?.id ?? 0, 'cli')).rejects.toMatchObject({ code: 'refund_pending' });
    expect(yookassa.refundRequests().at(-1)).toBe(remainder);
    expect((await paymentsOf(person))[0]?.status).toBe('succeeded');
    expect((await subscription(person)).isActive).toBe(true);

    const refunds = await client.refundsOf(remoteId);
    yookassa.settleRefund(refunds.find((r) => r.status === 'pending')?.id ?? '', 'succeeded');
    const refunded = await admin.refund(paid?.id ?? 0, 'cli');
    expect(refunded.providerRefund?.status).toBe('succeeded');
    expect(yookassa.refundRequests().at(-1)).toBe(remainder);
    expect((await paymentsOf(person))[0]?.status).toBe('refunded');
    expect((await subscription(person)).isActive).toBe(false);
  });
});
