import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json } from '../../test/browser.ts';
import { createPerson, type Person } from '../../test/people.ts';
import { createTestApp, testSessionSecret, type TestApp } from '../../test/testApp.ts';
import { testDialects } from '../../test/testDatabase.ts';
import { extendedEnd } from './plans.ts';
import { maxPendingPayments, PremiumService } from './service.ts';

const day = 86_400_000;

describe('extension arithmetic', () => {
  const now = new Date('2026-11-22T10:00:00.000Z');
  it('adds to the current end while active', () => {
    expect(extendedEnd('2026-12-01T10:00:00.000Z', now, 30).toISOString()).toBe('2026-12-31T10:00:00.000Z');
  });
  it('starts now after expiry or without premium', () => {
    expect(extendedEnd('2026-11-01T10:00:00.000Z', now, 7).toISOString()).toBe('2026-11-29T10:00:00.000Z');
    expect(extendedEnd(null, now, 1).toISOString()).toBe('2026-11-23T10:00:00.000Z');
  });
});

describe.each(testDialects())('premium with the test provider on %s', (dialect) => {
  let app: TestApp;
  let buyer: Person;
  beforeAll(async () => {
    app = await createTestApp(dialect);
    buyer = await createPerson(app, { gender: 'Male' });
  });
  afterAll(async () => {
    await app.close();
  });

  const payments = () =>
    app.database.db.selectFrom('payments').selectAll().where('user_id', '=', buyer.userId).execute();
  /** Follows payment_url like a browser: the checkout page, then its Pay or Cancel form. */
  async function checkout(amount: number, interval: number, verb: 'pay' | 'cancel') {
    const res = await buyer.browser.post('/api/payment', { amount, interval });
    expect(res.status).toBe(200);
    const { payment_url } = await json<{ payment_url: string }>(res);
    expect(payment_url).toMatch(/^\/api\/payments\/test\/checkout\/\d+\?key=/);
    const page = await (await fetch(`${app.url}${payment_url}`)).text();
    expect(page).toContain('ТЕСТОВАЯ ОПЛАТА');
    const action = /<form method="post" action="([^"]+)"/g;
    const actions = [...page.matchAll(action)].map((m) => (m[1] ?? '').replace(/&#38;/g, '&'));
    const target = actions.find((a) => a.includes(`/${verb}?`)) ?? '';
    const response = await fetch(`${app.url}${target}`, { method: 'POST', redirect: 'manual' });
    return Object.assign(response, { target });
  }

  it('lists the spec plans with localized titles, and the test plan only with the test provider', async () => {
    const body = await json<{
      plans: { id: string; title: string; price: number; interval: number; discount: number | null }[];
      test_provider: boolean;
    }>(await buyer.browser.get('/api/plans'));
    expect(body.test_provider).toBe(true);
    expect(body.plans.map((p) => [p.title, p.price, p.interval, p.discount])).toEqual([
      ['1 неделя', 249, 7, 10],
      ['1 месяц', 499, 30, 50],
      ['6 месяцев', 2389, 180, 60],
      ['1 год', 3599, 365, 70],
      ['Тестовый: 1 день', 10, 1, null],
    ]);
  });

  it('refuses any {amount, interval} that is not a plan, writing nothing', async () => {
    for (const body of [
      { amount: 1, interval: 30 },
      { amount: 499, interval: 31 },
      { amount: 499 },
      { amount: 499, interval: 30, user_id: 1 },
      { amount: '499', interval: 30 },
    ]) {
      const res = await buyer.browser.post('/api/payment', body);
      expect(res.status).toBe(400);
    }
    expect(await payments()).toEqual([]);
    expect((await buyer.browser.post('/api/payment', { amount: 1, interval: 30 }).then((r) => json(r))).error).toBe(
      'Error processing payment',
    );
  });

  it('pays through the checkout, lands on /confirm and activates premium once, however often Pay is pressed', async () => {
    expect(await json(await buyer.browser.get('/api/subscription'))).toEqual({ isActive: false, end_date: null });
    const paid = await checkout(499, 30, 'pay');
    expect(paid.status).toBe(303);
    const [created] = await payments();
    expect(paid.headers.get('location')).toBe(`/confirm?payment=${created?.id}`);
    const sub = await json<{ isActive: boolean; end_date: string }>(await buyer.browser.get('/api/subscription'));
    expect(sub.isActive).toBe(true);
    expect(Math.abs(Date.parse(sub.end_date) - (app.clock.now().getTime() + 30 * day))).toBeLessThan(5000);
    const [payment] = await payments();
    expect(payment).toMatchObject({ status: 'succeeded', amount: 499, interval_days: 30, provider: 'test' });
    // The same Pay again (a double click, a retried request) credits nothing more.
    const again = await fetch(`${app.url}${paid.target}`, { method: 'POST', redirect: 'manual' });
    expect(again.status).toBe(303);
    expect((await json<{ end_date: string }>(await buyer.browser.get('/api/subscription'))).end_date).toBe(
      sub.end_date,
    );
  });

  it('cancels to /fail and changes nothing', async () => {
    const before = await json<{ end_date: string }>(await buyer.browser.get('/api/subscription'));
    const canceled = await checkout(249, 7, 'cancel');
    expect(canceled.headers.get('location')).toMatch(/^\/fail\?payment=\d+$/);
    expect((await payments()).filter((p) => p.status === 'canceled')).toHaveLength(1);
    expect(await json(await buyer.browser.get('/api/subscription'))).toEqual({
      isActive: true,
      end_date: before.end_date,
    });
  });

  it('extends an active subscription from its end, not from now', async () => {
    const before = await json<{ end_date: string }>(await buyer.browser.get('/api/subscription'));
    await checkout(249, 7, 'pay');
    const after = await json<{ end_date: string }>(await buyer.browser.get('/api/subscription'));
    expect(Date.parse(after.end_date) - Date.parse(before.end_date)).toBe(7 * day);
  });

  it('refuses a checkout link with a wrong key, and requires sign-in to start a payment', async () => {
    const [payment] = await payments();
    expect((await fetch(`${app.url}/api/payments/test/checkout/${payment?.id ?? 0}?key=forged`)).status).toBe(404);
    expect(
      (await fetch(`${app.url}/api/payments/test/checkout/${payment?.id ?? 0}/pay?key=forged`, { method: 'POST' }))
        .status,
    ).toBe(404);
    expect((await fetch(`${app.url}/api/subscription`)).status).toBe(401);
  });

  it('credits parallel payments each once, and nothing else on the shared connection ever runs under their synchronous=FULL', async () => {
    const person = await createPerson(app);
    // The service itself, called as parallel requests would call it, so that other queries are queued on
    // the connection exactly while the credits are under way (HTTP requests arrive one event-loop turn at
    // a time, and SQLite's driver answers within the turn, which would hide an interleaving).
    const service = new PremiumService(app.database.db, dialect, app.clock, testSessionSecret, true);
    const ids: number[] = [];
    // As many as one user may have pending at once.
    for (let i = 0; i < maxPendingPayments; i++) ids.push((await service.createPayment(person.userId, 249, 7)).id);
    const synchronous = async () =>
      dialect === 'sqlite'
        ? ((await sql<{ synchronous: number }>`pragma synchronous`.execute(app.database.db)).rows[0]?.synchronous ?? -1)
        : 1;
    const results = await Promise.all(
      ids.flatMap((id) => [service.credit(id), synchronous(), service.credit(id), synchronous()]),
    );
    const credited = results.filter((r) => typeof r === 'boolean');
    const readings = results.filter((r) => typeof r === 'number');
    expect(credited.filter(Boolean)).toHaveLength(maxPendingPayments); // each payment once, its twin call found it done
    expect(new Set(readings)).toEqual(new Set([1])); // NORMAL, whoever asked in between
    expect(await synchronous()).toBe(1);
    const end = (await json<{ end_date: string }>(await person.browser.get('/api/subscription'))).end_date;
    expect(Date.parse(end) - app.clock.now().getTime()).toBe(maxPendingPayments * 7 * day);
  });
});

// What main.ts builds for PAYMENT_PROVIDER=off, the default on an https PUBLIC_URL (see env.test.ts).
describe.each(testDialects())('premium with web payments off on %s', (dialect) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp(dialect, { testPaymentProvider: false });
  });
  afterAll(async () => {
    await app.close();
  });

  it('still lists the plans, without the test plan or the test link, and refuses to start a payment, writing nothing', async () => {
    const person = await createPerson(app);
    const body = await json<{ plans: { id: string }[]; test_provider: boolean }>(
      await person.browser.get('/api/plans'),
    );
    expect(body.plans.map((p) => p.id)).toEqual(['week', 'month', 'half_year', 'year']);
    expect(body.test_provider).toBe(false);
    for (const plan of [
      { amount: 499, interval: 30 },
      { amount: 10, interval: 1 },
    ]) {
      const res = await person.browser.post('/api/payment', plan);
      expect(res.status).toBe(503);
      expect(await json(res)).toEqual({
        error: 'Payments are not available at the moment',
        code: 'payments_unavailable',
      });
    }
    expect(
      await app.database.db.selectFrom('payments').select('id').where('user_id', '=', person.userId).execute(),
    ).toEqual([]);
    expect(await json(await person.browser.get('/api/subscription'))).toEqual({ isActive: false, end_date: null });
    // The test checkout does not exist.
    expect((await fetch(`${app.url}/api/payments/test/checkout/1?key=x`)).status).toBe(404);
  });
});
