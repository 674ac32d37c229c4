import { createHmac, randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { sqliteSynchronousLevel, type Dialect } from '../../../db/client.ts';
import type { Database, UserId } from '../../../db/schema.ts';
import type { Clock } from '../../clock.ts';
import { AppError, badRequest, notFound, tooManyRequests } from '../../errors.ts';
import { lockUser } from '../accounts/index.ts';
import type { Logger } from '../../logger.ts';
import { translatorFor } from '../../../locales/index.ts';
import type { PaymentStatusResponse } from '../../contract/payments.ts';
import { YooKassaError, type YooKassaClient } from './yookassa.ts';
import {
  invoicePayload,
  paymentIdOf,
  starsSubscriptionPeriod,
  type StarsApi,
  type StarsCheckout,
  type StarsPayment,
} from './stars.ts';
import { safeEqual } from '../../safeEqual.ts';
import { extendedEnd, planFor, type PlanDefinition } from './plans.ts';
import {
  extendPremiumUntil,
  findPaymentByProviderPaymentId,
  findPaymentTerm,
  findOwnPayment,
  findPendingYooKassaPayments,
  findPremiumUntil,
  findPremiumUntilForUpdate,
  findStarsPayment,
  findTestPayment,
  findUserEmail,
  findUserLanguage,
  findUserTelegramId,
  findYooKassaPayment,
  countPendingPaymentsSince,
  insertPayment,
  insertPaymentUnlessKnown,
  markPaymentCanceled,
  markPaymentSucceeded,
  raiseSqliteSynchronousToFull,
  restoreSqliteSynchronous,
  setProviderPaymentId,
} from './repository.ts';

export interface SubscriptionState {
  isActive: boolean;
  end_date: string | null;
}

export type PaymentProvider = 'test' | 'yookassa' | 'stars';

/** YooKassa, when PAYMENT_PROVIDER=yookassa: the API client and where the buyer returns to. */
export interface YooKassaSetup {
  client: YooKassaClient;
  /** The app's /confirm page (PUBLIC_URL + /confirm). */
  returnUrl: string;
}

/** The provider's way back, naming our payment so /confirm can ask the server about it. */
function returnUrlFor(base: string, paymentId: number): string {
  const url = new URL(base);
  url.searchParams.set('payment', String(paymentId));
  return url.toString();
}

/** A pending web payment older than this is asked about (or given up when it never reached the provider). */
export const reconcileAfterMinutes = 10;

/**
 * At most this many of a user's payments may be pending at once (started within `pendingPaymentsWindowHours`):
 * each is a row, and for YooKassa and Stars a call to the provider (a payment or an invoice link), so one
 * account could otherwise pile up any number of them. Five covers a buyer who changes plans or reopens the
 * payment page a few times. A payment left pending longer is abandoned (a YooKassa one is settled or canceled
 * by the reconciliation; a Stars invoice or test checkout closed unpaid stays pending) and no longer counts,
 * so it never blocks buying for good.
 */
export const maxPendingPayments = 5;
export const pendingPaymentsWindowHours = 24;

export class PremiumService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: Dialect,
    private readonly clock: Clock,
    private readonly secret: string,
    readonly testProvider: boolean,
    private readonly providers: {
      yookassa?: YooKassaSetup | undefined;
      stars?: StarsApi | undefined;
      logger?: Logger | undefined;
      /** ADMIN_TELEGRAM_IDS: admins are offered the 10-rouble test plan to try a real provider's path. */
      adminTelegramIds?: readonly number[] | undefined;
    } = {},
  ) {}

  /** The 1-day test plan: with the test provider for everyone, otherwise only for admins. */
  async offersTestPlan(userId: UserId | null): Promise<boolean> {
    if (this.testProvider) return true;
    const admins = this.providers.adminTelegramIds ?? [];
    if (userId === null || admins.length === 0) return false;
    const telegramId = await findUserTelegramId(this.db, userId);
    return telegramId ? admins.includes(Number(telegramId)) : false;
  }

  private get yookassa() {
    return this.providers.yookassa;
  }

  private get logger() {
    return this.providers.logger;
  }

  /** Whether this user's purchases inside Telegram are sold in Stars: a bot is running and they have a Telegram account. */
  async paysInStars(userId: UserId): Promise<boolean> {
    if (!this.providers.stars) return false;
    return Boolean(await findUserTelegramId(this.db, userId));
  }

  /** Which web provider takes payments in rubles: the built-in test checkout, YooKassa, or none. */
  get webProvider(): 'test' | 'yookassa' | null {
    return this.testProvider ? 'test' : this.yookassa ? 'yookassa' : null;
  }

  /** Derived from the stored end date at read time: nothing has to expire a subscription. */
  async subscription(userId: UserId): Promise<SubscriptionState> {
    const end = (await findPremiumUntil(this.db, userId)) ?? null;
    return { isActive: end !== null && end > this.clock.now().toISOString(), end_date: end };
  }

  /**
   * The caller's own payment as the app tells it: paid, pending or failed. Unknown and someone else's
   * answer the same 404, so an id says nothing about other people's payments.
   */
  async paymentStatus(userId: UserId, paymentId: number): Promise<PaymentStatusResponse> {
    const payment = await findOwnPayment(this.db, paymentId, userId);
    if (!payment) throw notFound('payment_not_found', 'Payment not found');
    const status = payment.status === 'succeeded' ? 'paid' : payment.status === 'pending' ? 'pending' : 'failed';
    const end = status === 'paid' ? ((await findPremiumUntil(this.db, userId)) ?? null) : null;
    return { id: payment.id, status, interval: payment.interval_days, end_date: end };
  }

  /** A pending payment for the plan matching `{amount, interval}`; anything that is not a plan is refused. */
  async createPayment(
    userId: UserId,
    amount: number,
    interval: number,
    provider: PaymentProvider = 'test',
  ): Promise<{ id: number; plan: PlanDefinition; idempotenceKey: string }> {
    const plan = planFor(amount, interval, await this.offersTestPlan(userId));
    if (!plan) throw badRequest('invalid_plan', 'Error processing payment');
    const idempotenceKey = randomUUID();
    const now = this.clock.now();
    // Counted under the user's lock in the transaction that inserts: parallel requests cannot all pass one count.
    const id = await this.db.transaction().execute(async (trx) => {
      await lockUser(trx, userId);
      const since = new Date(now.getTime() - pendingPaymentsWindowHours * 3_600_000).toISOString();
      if ((await countPendingPaymentsSince(trx, userId, since)) >= maxPendingPayments)
        throw tooManyRequests(
          'too_many_pending_payments',
          'You have several unfinished payments. Complete one of them or try again later.',
          reconcileAfterMinutes * 60,
        );
      return insertPayment(trx, {
        user_id: userId,
        provider,
        plan_id: plan.id,
        amount: provider === 'stars' ? plan.stars : plan.price,
        currency: provider === 'stars' ? 'XTR' : 'RUB',
        interval_days: plan.intervalDays,
        idempotence_key: idempotenceKey,
        provider_payment_id: null,
        status: 'pending',
        created_at: now.toISOString(),
        credited_at: null,
      });
    });
    return { id, plan, idempotenceKey };
  }

  /**
   * A YooKassa payment: our pending row first (so nothing is ever charged that we have no record of), then
   * the API call under the row's idempotence key. An outage answers "Error processing payment" and leaves the
   * row pending for the reconciliation job. Answers YooKassa's confirmation_url.
   */
  async startYooKassa(userId: UserId, amount: number, interval: number): Promise<{ url: string; id: number }> {
    const yookassa = this.yookassa;
    if (!yookassa) throw new AppError(503, 'provider_unavailable', 'Error processing payment');
    const { id, plan, idempotenceKey } = await this.createPayment(userId, amount, interval, 'yookassa');
    const email = await findUserEmail(this.db, userId);
    // The receipt (54-FZ) and the provider's page speak Russian.
    const description = `Iskra: ${translatorFor('ru')(`premium.plans.${plan.id}`)}`;
    try {
      const remote = await yookassa.client.createPayment({
        idempotenceKey,
        amountRub: plan.price,
        description,
        // Back on /confirm the app asks about this very payment (it may still be pending there).
        returnUrl: returnUrlFor(yookassa.returnUrl, id),
        paymentId: id,
        email: email ?? null,
      });
      await setProviderPaymentId(this.db, id, remote.id);
      const url = remote.confirmation?.confirmation_url;
      if (!url) throw new YooKassaError('no confirmation_url in the answer', 200);
      return { url, id };
    } catch (error) {
      if (!(error instanceof YooKassaError)) throw error;
      this.logger?.warn({ err: error, payment: id }, 'YooKassa: payment not created');
      throw new AppError(502, 'payment_provider_error', 'Error processing payment');
    }
  }

  /**
   * A YooKassa notification says something happened to a payment; unsigned, so it is only a hint: the
   * payment is read back from the API and credited only when YooKassa itself says it succeeded, for our
   * payment and our amount. Answers what was done.
   */
  async settleYooKassa(providerPaymentId: string): Promise<'credited' | 'canceled' | 'unchanged' | 'unknown'> {
    const yookassa = this.yookassa;
    if (!yookassa) return 'unknown';
    const payment = await findYooKassaPayment(this.db, providerPaymentId);
    if (!payment) return 'unknown';
    if (payment.status !== 'pending') return 'unchanged';
    const remote = await yookassa.client.getPayment(providerPaymentId);
    const ours =
      remote.metadata?.payment_id === String(payment.id) &&
      remote.amount.currency === 'RUB' &&
      remote.amount.value === `${payment.amount}.00`;
    if (remote.status === 'succeeded' && ours) return (await this.credit(payment.id)) ? 'credited' : 'unchanged';
    if (remote.status === 'canceled') {
      await this.cancel(payment.id);
      return 'canceled';
    }
    if (remote.status === 'succeeded')
      this.logger?.error({ payment: payment.id }, 'YooKassa: succeeded payment does not match our record');
    return 'unchanged';
  }

  /**
   * The reconciliation: pending YooKassa payments older than ten minutes are read back and settled, so a lost
   * notification never loses a purchase; one that never reached YooKassa (an outage while creating it) could
   * not have been paid and is canceled.
   */
  async reconcile(): Promise<{ checked: number; credited: number; canceled: number }> {
    const cutoff = new Date(this.clock.now().getTime() - reconcileAfterMinutes * 60_000).toISOString();
    const pending = await findPendingYooKassaPayments(this.db, cutoff);
    const counts = { checked: pending.length, credited: 0, canceled: 0 };
    for (const p of pending) {
      if (!p.provider_payment_id) {
        await this.cancel(p.id);
        counts.canceled += 1;
        continue;
      }
      try {
        const outcome = await this.settleYooKassa(p.provider_payment_id);
        if (outcome === 'credited') counts.credited += 1;
        if (outcome === 'canceled') counts.canceled += 1;
      } catch (error) {
        // Still pending: the next run asks again.
        this.logger?.warn({ err: error, payment: p.id }, 'YooKassa: reconciliation could not read a payment');
      }
    }
    return counts;
  }

  /**
   * A purchase inside Telegram: a pending row, then an invoice link in Stars from the bot (the month as a
   * Stars subscription that renews every 30 days, the others once). The app opens the link with the Mini
   * App's invoice call; the bot credits on successful_payment.
   */
  async startStars(userId: UserId, amount: number, interval: number): Promise<{ url: string; id: number }> {
    const stars = this.providers.stars;
    if (!stars) throw new AppError(503, 'provider_unavailable', 'Error processing payment');
    const { id, plan } = await this.createPayment(userId, amount, interval, 'stars');
    const t = translatorFor((await findUserLanguage(this.db, userId)) ?? 'ru');
    try {
      const url = await stars.createInvoiceLink({
        title: t('premium.stars.title', { plan: t(`premium.plans.${plan.id}`) }),
        description: t('premium.stars.description'),
        payload: invoicePayload(id),
        stars: plan.stars,
        subscriptionPeriod: plan.id === 'month' ? starsSubscriptionPeriod : undefined,
      });
      return { url, id };
    } catch (error) {
      this.logger?.warn({ err: error, payment: id }, 'Telegram: invoice link not created');
      await this.cancel(id);
      throw new AppError(502, 'payment_provider_error', 'Error processing payment');
    }
  }

  /**
   * The bot's pre_checkout_query: Telegram waits (at most 10 s) for a yes before taking the Stars. Yes only
   * for our pending Stars payment of this very Telegram user, in Stars, for the stored amount.
   */
  async checkStarsCheckout(checkout: StarsCheckout): Promise<boolean> {
    const payment = await this.starsPaymentOf(checkout);
    return payment?.status === 'pending';
  }

  /**
   * The bot's successful_payment: credits once per telegram_payment_charge_id, however often Telegram
   * repeats it. The first payment credits the pending row; a subscription's renewal arrives with the same
   * payload and a new charge id, and is recorded as a payment of its own that extends again.
   */
  async settleStars(paid: StarsPayment): Promise<'credited' | 'duplicate' | 'unknown'> {
    const payment = await this.starsPaymentOf(paid);
    if (!payment) {
      this.logger?.error(
        { payload: paid.payload, chargeId: paid.chargeId },
        'Telegram: a Stars payment that matches no payment of ours',
      );
      return 'unknown';
    }
    const known = await findPaymentByProviderPaymentId(this.db, paid.chargeId);
    if (known) return known.status === 'pending' && (await this.credit(known.id)) ? 'credited' : 'duplicate';
    if (payment.status === 'pending' && !paid.isRenewal)
      return (await this.credit(payment.id, paid.chargeId)) ? 'credited' : 'duplicate';
    // A renewal: its own row under the new charge id (unique), then the same once-only crediting.
    const inserted = await insertPaymentUnlessKnown(this.db, {
      user_id: payment.user_id,
      provider: 'stars',
      plan_id: payment.plan_id,
      amount: payment.amount,
      currency: 'XTR',
      interval_days: payment.interval_days,
      idempotence_key: randomUUID(),
      provider_payment_id: paid.chargeId,
      status: 'pending',
      created_at: this.clock.now().toISOString(),
      credited_at: null,
    });
    if (inserted === undefined) return 'duplicate';
    return (await this.credit(inserted)) ? 'credited' : 'duplicate';
  }

  /** Our Stars payment named by an invoice payload, when it belongs to this Telegram user and amount. */
  private async starsPaymentOf(checkout: StarsCheckout) {
    const id = paymentIdOf(checkout.payload);
    if (id === null || checkout.currency !== 'XTR') return undefined;
    const payment = await findStarsPayment(this.db, id, checkout.telegramUserId);
    return payment && payment.amount === checkout.totalAmount ? payment : undefined;
  }

  /** The test checkout's capability: whoever holds the link may pay or cancel that one payment. */
  checkoutKey(paymentId: number): string {
    return createHmac('sha256', `checkout:${this.secret}`).update(String(paymentId)).digest('base64url');
  }

  async pendingCheckout(paymentId: number, key: string) {
    if (!safeEqual(key, this.checkoutKey(paymentId))) throw notFound('payment_not_found', 'Payment not found');
    const payment = await findTestPayment(this.db, paymentId);
    if (!payment) throw notFound('payment_not_found', 'Payment not found');
    return payment;
  }

  /**
   * Credits a payment once, however often and in whatever order the news of it arrives: the status moves
   * from pending only once (a conditional update), and the extension happens in the same transaction.
   *
   * On SQLite this commit is made durable before it is acknowledged (synchronous=FULL: the WAL is synced
   * at commit; the connection's NORMAL may lose the last commits on a power cut, which is acceptable for a
   * like but not for money). The pragma belongs to the one connection every request shares, so it is
   * raised and restored while this credit holds that connection exclusively: no other query runs under
   * FULL, and no concurrent credit can reset it before this commit. FULL for every write was measured
   * at 0.2-0.55 ms per commit against 0.02-0.05 ms (a one-row write transaction, this machine's ext4),
   * paid on the event loop since the driver is synchronous, for durability only payments need.
   * Credits of this process run one at a time and restore the connection's configured level, not what they
   * read: while `begin immediate` waits for another process's lock, the driver lends the connection out,
   * so a second credit could otherwise read FULL as "the previous level" or lower it under the first.
   */
  async credit(paymentId: number, providerPaymentId?: string): Promise<boolean> {
    if (this.dialect !== 'sqlite') return this.creditIn(this.db, paymentId, providerPaymentId);
    const run = this.sqliteCredits.then(() =>
      this.db.connection().execute(async (connection) => {
        await raiseSqliteSynchronousToFull(connection);
        try {
          return await this.creditIn(connection, paymentId, providerPaymentId);
        } finally {
          await restoreSqliteSynchronous(connection, sqliteSynchronousLevel);
        }
      }),
    );
    this.sqliteCredits = run.catch(() => undefined);
    return run;
  }

  /** The SQLite credits of this process, chained (see credit). */
  private sqliteCredits: Promise<unknown> = Promise.resolve();

  private async creditIn(
    db: Kysely<Database>,
    paymentId: number,
    providerPaymentId: string | undefined,
  ): Promise<boolean> {
    const now = this.clock.now();
    return db.transaction().execute(async (trx) => {
      if (!(await markPaymentSucceeded(trx, paymentId, now.toISOString(), providerPaymentId))) return false;
      const payment = await findPaymentTerm(trx, paymentId);
      // Locked on PostgreSQL: two payments of one user credited at once would otherwise both extend the
      // same old end, and one purchase would be lost. (SQLite runs one transaction at a time.)
      const premiumUntil = await findPremiumUntilForUpdate(trx, this.dialect, payment.user_id);
      await extendPremiumUntil(
        trx,
        payment.user_id,
        extendedEnd(premiumUntil, now, payment.interval_days).toISOString(),
      );
      return true;
    });
  }

  /** A cancelled or failed payment changes nothing but its own status. */
  async cancel(paymentId: number): Promise<void> {
    await markPaymentCanceled(this.db, paymentId);
  }
}
