import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { json } from '../../test/browser.ts';
import { createPerson } from '../../test/people.ts';
import { createTestApp, type TestApp } from '../../test/testApp.ts';
import { testDialects } from '../../test/testDatabase.ts';
import { maxPendingPayments, pendingPaymentsWindowHours } from './service.ts';

/** A user cannot pile up pending payments: the count and the insert happen under the user's lock. */
describe.each(testDialects())('pending payments per user on %s', (dialect) => {
  let app: TestApp;
  beforeEach(async () => {
    app = await createTestApp(dialect);
  });
  afterEach(async () => {
    await app.close();
  });

  it(`starts exactly ${maxPendingPayments} payments when 12 arrive at once, then one more once a day has passed`, async () => {
    const buyer = await createPerson(app, { gender: 'Male' });
    await buyer.browser.csrfToken();
    const answers = await Promise.all(
      Array.from({ length: 12 }, () => buyer.browser.post('/api/payment', { amount: 249, interval: 7 })),
    );
    expect(answers.filter((r) => r.status === 200)).toHaveLength(maxPendingPayments);
    const refused = answers.filter((r) => r.status === 429);
    expect(refused).toHaveLength(12 - maxPendingPayments);
    expect(await json(refused[0] as Response)).toMatchObject({ code: 'too_many_pending_payments' });
    expect(refused[0]?.headers.get('retry-after')).not.toBeNull();
    const pending = () =>
      app.database.db
        .selectFrom('payments')
        .select('id')
        .where('user_id', '=', buyer.userId)
        .where('status', '=', 'pending')
        .execute();
    expect(await pending()).toHaveLength(maxPendingPayments);
    // Someone else is not affected.
    const other = await createPerson(app, { gender: 'Male' });
    expect((await other.browser.post('/api/payment', { amount: 249, interval: 7 })).status).toBe(200);
    // Payments left pending longer are abandoned and no longer count.
    app.clock.advance(pendingPaymentsWindowHours * 3600 + 1);
    expect((await buyer.browser.post('/api/payment', { amount: 249, interval: 7 })).status).toBe(200);
  });
});
