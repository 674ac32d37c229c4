import { createHmac, randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../../../db/client.ts';
import type { Database } from '../../../db/schema.ts';
import type { Clock } from '../../clock.ts';
import { badRequest, notFound } from '../../errors.ts';
import { safeEqual } from '../../safeEqual.ts';
import { extendedEnd, planFor, type PlanDefinition } from './plans.ts';

export interface SubscriptionState {
  isActive: boolean;
  end_date: string | null;
}

export class PremiumService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: Dialect,
    private readonly clock: Clock,
    private readonly secret: string,
    readonly testProvider: boolean,
  ) {}

  /** Derived from the stored end date at read time: nothing has to expire a subscription. */
  async subscription(userId: number): Promise<SubscriptionState> {
    const row = await this.db.selectFrom('users').select('premium_until').where('id', '=', userId).executeTakeFirst();
    const end = row?.premium_until ?? null;
    return { isActive: end !== null && end > this.clock.now().toISOString(), end_date: end };
  }

  /** A pending payment for the plan matching `{amount, interval}`; anything that is not a plan is refused. */
  async createPayment(userId: number, amount: number, interval: number): Promise<{ id: number; plan: PlanDefinition }> {
    const plan = planFor(amount, interval, this.testProvider);
    if (!plan) throw badRequest('invalid_plan', 'Error processing payment');
    const row = await this.db
      .insertInto('payments')
      .values({
        user_id: userId,
        provider: 'test',
        plan_id: plan.id,
        amount: plan.price,
        currency: 'RUB',
        interval_days: plan.intervalDays,
        idempotence_key: randomUUID(),
        provider_payment_id: null,
        status: 'pending',
        created_at: this.clock.now().toISOString(),
        credited_at: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return { id: row.id, plan };
  }

  /** The test checkout's capability: whoever holds the link may pay or cancel that one payment. */
  checkoutKey(paymentId: number): string {
    return createHmac('sha256', `checkout:${this.secret}`).update(String(paymentId)).digest('base64url');
  }

  async pendingCheckout(paymentId: number, key: string) {
    if (!safeEqual(key, this.checkoutKey(paymentId))) throw notFound('payment_not_found', 'Payment not found');
    const payment = await this.db.selectFrom('payments').selectAll().where('id', '=', paymentId).where('provider', '=', 'test').executeTakeFirst();
    if (!payment) throw notFound('payment_not_found', 'Payment not found');
    return payment;
  }

  /**
   * Credits a payment once, however often and in whatever order the news of it arrives: the status moves
   * from pending only once (a conditional update), and the extension happens in the same transaction.
   * On SQLite this write is made fully durable (synchronous=FULL) before it is acknowledged.
   */
  async credit(paymentId: number): Promise<boolean> {
    const now = this.clock.now();
    if (this.dialect === 'sqlite') await sql`pragma synchronous = FULL`.execute(this.db);
    try {
      return await this.db.transaction().execute(async (trx) => {
        const moved = await trx
          .updateTable('payments')
          .set({ status: 'succeeded', credited_at: now.toISOString() })
          .where('id', '=', paymentId)
          .where('status', '=', 'pending')
          .executeTakeFirst();
        if (Number(moved.numUpdatedRows) === 0) return false;
        const payment = await trx.selectFrom('payments').select(['user_id', 'interval_days']).where('id', '=', paymentId).executeTakeFirstOrThrow();
        const user = await trx.selectFrom('users').select('premium_until').where('id', '=', payment.user_id).executeTakeFirstOrThrow();
        await trx
          .updateTable('users')
          .set({ premium_until: extendedEnd(user.premium_until, now, payment.interval_days).toISOString() })
          .where('id', '=', payment.user_id)
          .execute();
        return true;
      });
    } finally {
      if (this.dialect === 'sqlite') await sql`pragma synchronous = NORMAL`.execute(this.db);
    }
  }

  /** A cancelled or failed payment changes nothing but its own status. */
  async cancel(paymentId: number): Promise<void> {
    await this.db.updateTable('payments').set({ status: 'canceled' }).where('id', '=', paymentId).where('status', '=', 'pending').execute();
  }
}
