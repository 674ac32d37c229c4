import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json } from '../../test/browser.ts';
import { createPerson, type Person } from '../../test/people.ts';
import { createTestApp, testSessionSecret, type TestApp } from '../../test/testApp.ts';
import { testDialects } from '../../test/testDatabase.ts';
import { PremiumService } from './service.ts';

/** `GET /api/payments/:id`: what /confirm asks, for the caller's own payments only. */
describe.each(testDialects())('payment status on %s', (dialect) => {
  let app: TestApp;
  let buyer: Person;
  let other: Person;
  let service: PremiumService;
  beforeAll(async () => {
    app = await createTestApp(dialect);
    buyer = await createPerson(app, { gender: 'Male' });
    other = await createPerson(app, { gender: 'Female' });
    service = new PremiumService(app.database.db, dialect, app.clock, testSessionSecret, true);
  });
  afterAll(async () => {
    await app.close();
  });

  const status = (person: Person, id: number | string) => person.browser.get(`/api/payments/${id}`);
  const rows = () =>
    app.database.db.selectFrom('payments').select(['id', 'status', 'credited_at']).orderBy('id').execute();

  it('says pending, then paid with the new end date, once the payment is credited', async () => {
    const { id } = await service.createPayment(buyer.userId, 499, 30);
    const pending = await status(buyer, id);
    expect(pending.status).toBe(200);
    expect(await json(pending)).toEqual({ id, status: 'pending', interval: 30, end_date: null });
    // Asking changes nothing: still pending, nothing credited.
    expect((await rows()).find((r) => r.id === id)).toMatchObject({ status: 'pending', credited_at: null });

    await service.credit(id);
    const paid = await json<{ status: string; end_date: string }>(await status(buyer, id));
    expect(paid.status).toBe('paid');
    const sub = await json<{ end_date: string }>(await buyer.browser.get('/api/subscription'));
    expect(paid.end_date).toBe(sub.end_date);
  });

  it('says failed for a cancelled payment', async () => {
    const { id } = await service.createPayment(buyer.userId, 249, 7);
    await service.cancel(id);
    expect(await json(await status(buyer, id))).toEqual({ id, status: 'failed', interval: 7, end_date: null });
  });

  it("answers another user's payment exactly as an unknown one: 404, nothing of it shown", async () => {
    const { id } = await service.createPayment(buyer.userId, 249, 7);
    const before = await rows();
    const theirs = await status(other, id);
    const unknown = await status(other, 2_000_000_000);
    expect(theirs.status).toBe(404);
    expect(unknown.status).toBe(404);
    const body = await json(theirs);
    expect(body).toEqual({ error: 'Payment not found', code: 'payment_not_found' });
    expect(await json(unknown)).toEqual(body);
    expect(await rows()).toEqual(before);
  });

  it('refuses an id that is not a row id, and a caller who is not signed in', async () => {
    for (const bad of ['abc', '0', '-1', '1.5', '99999999999']) {
      const res = await status(buyer, bad);
      expect(res.status).toBe(400);
      expect(await json(res)).toHaveProperty('code');
    }
    const { id } = await service.createPayment(buyer.userId, 249, 7);
    expect((await fetch(`${app.url}/api/payments/${id}`)).status).toBe(401);
  });
});
