import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import type { Clock } from '../../clock.ts';
import { AppError, notFound } from '../../errors.ts';
import type { StarsApi } from '../premium/stars.ts';
import type { YooKassaClient } from '../premium/yookassa.ts';
import { extendedEnd } from '../premium/plans.ts';
import { statsSince, type Stats } from './stats.ts';

export interface OpenReport {
  id: number;
  reason: string;
  comment: string;
  created_at: string;
  reported_profile_id: number;
  reported_user_id: number;
  reported_name: string;
  /** Different people with an open report against the same profile. */
  reporters: number;
  held: boolean;
}

/**
 * What admins do, for the CLI (`npm run admin`) and the bot alike. Every change is one transaction and
 * conditional on the current state, so two admins pressing the same button do it once.
 */
/** Where refunds go back to the buyer: each provider's API, when this process is configured for it. */
export interface RefundChannels {
  /** Stars go back through the bot (refundStarPayment). */
  stars?: Pick<StarsApi, 'refund'> | undefined;
  /** Rubles go back through YooKassa's refunds API. */
  yookassa?: Pick<YooKassaClient, 'createRefund' | 'refundsOf'> | undefined;
}

export class AdminService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    /** Without a provider's channel, refunds of its payments are refused (nothing changes here). */
    private readonly refunds: RefundChannels = {},
  ) {}

  async openReports(limit = 50): Promise<OpenReport[]> {
    const rows = await this.db
      .selectFrom('reports as r')
      .innerJoin('profiles as p', 'p.id', 'r.reported_id')
      .select((eb) => [
        'r.id',
        'r.reason',
        'r.comment',
        'r.created_at',
        'p.id as reported_profile_id',
        'p.user_id as reported_user_id',
        'p.name as reported_name',
        'p.held_at',
        eb
          .selectFrom('reports as o')
          .select((o) => o.fn.count<string | number>('o.reporter_id').distinct().as('n'))
          .whereRef('o.reported_id', '=', 'r.reported_id')
          .where('o.resolved_at', 'is', null)
          .as('reporters'),
      ])
      .where('r.resolved_at', 'is', null)
      .orderBy('r.id')
      .limit(limit)
      .execute();
    return rows.map(({ held_at, reporters, ...r }) => ({ ...r, reporters: Number(reporters ?? 0), held: held_at !== null }));
  }

  async report(reportId: number): Promise<OpenReport | undefined> {
    return (await this.openReports(10_000)).find((r) => r.id === reportId);
  }

  /** Closes a report as unfounded and lets the profile back into search (an admin has decided). */
  async dismissReport(reportId: number): Promise<boolean> {
    const now = this.clock.now().toISOString();
    return this.db.transaction().execute(async (trx) => {
      const report = await trx.selectFrom('reports').select(['reported_id']).where('id', '=', reportId).where('resolved_at', 'is', null).executeTakeFirst();
      if (!report) return false;
      await trx.updateTable('reports').set({ resolved_at: now, resolution: 'dismissed' }).where('id', '=', reportId).execute();
      await trx.updateTable('profiles').set({ held_at: null }).where('id', '=', report.reported_id).execute();
      return true;
    });
  }

  /** Bans the person a report is about, closing every open report against them. */
  async banFromReport(reportId: number): Promise<boolean> {
    const report = await this.db
      .selectFrom('reports as r')
      .innerJoin('profiles as p', 'p.id', 'r.reported_id')
      .select('p.user_id')
      .where('r.id', '=', reportId)
      .executeTakeFirst();
    if (!report) throw notFound('report_not_found', 'No such report');
    return this.ban(report.user_id);
  }

  /**
   * Bans at once: every session ends (the next request is signed out), the profile leaves search, matches
   * and likes lists (they all skip banned accounts), and sign-in is refused. Open reports against them close.
   */
  async ban(userId: number): Promise<boolean> {
    const now = this.clock.now().toISOString();
    return this.db.transaction().execute(async (trx) => {
      const banned = await trx.updateTable('users').set({ banned_at: now }).where('id', '=', userId).where('banned_at', 'is', null).executeTakeFirst();
      if (Number(banned.numUpdatedRows) === 0) {
        const exists = await trx.selectFrom('users').select('id').where('id', '=', userId).executeTakeFirst();
        if (!exists) throw notFound('user_not_found', 'No such user');
        return false;
      }
      await trx.deleteFrom('sessions').where('user_id', '=', userId).execute();
      await trx
        .updateTable('reports')
        .set({ resolved_at: now, resolution: 'banned' })
        .where('resolved_at', 'is', null)
        .where('reported_id', 'in', (eb) => eb.selectFrom('profiles').select('id').where('user_id', '=', userId))
        .execute();
      return true;
    });
  }

  async unban(userId: number): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const result = await trx.updateTable('users').set({ banned_at: null }).where('id', '=', userId).where('banned_at', 'is not', null).executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) return false;
      await trx.updateTable('profiles').set({ held_at: null }).where('user_id', '=', userId).execute();
      return true;
    });
  }

  /** Premium as a gift (support, compensation): extends the current end like a payment would. */
  async grantPremium(userId: number, days: number): Promise<string> {
    return this.db.transaction().execute(async (trx) => {
      const user = await trx.selectFrom('users').select('premium_until').where('id', '=', userId).executeTakeFirst();
      if (!user) throw notFound('user_not_found', 'No such user');
      const until = extendedEnd(user.premium_until, this.clock.now(), days).toISOString();
      await trx.updateTable('users').set({ premium_until: until }).where('id', '=', userId).execute();
      return until;
    });
  }

  /**
   * Marks a credited payment refunded and takes its days back off the subscription (never into the past).
   * The money goes back through the provider first (Stars through Telegram, rubles through YooKassa); a
   * refusal there changes nothing here. The test provider's payments moved no money and are just marked.
   */
  async refund(paymentId: number): Promise<{ userId: number; premiumUntil: string | null; providerRefund?: { id: string; status: string } }> {
    const now = this.clock.now();
    const payment = await this.db
      .selectFrom('payments')
      .innerJoin('users', 'users.id', 'payments.user_id')
      .select(['payments.provider', 'payments.provider_payment_id', 'payments.status', 'payments.amount', 'users.telegram_id'])
      .where('payments.id', '=', paymentId)
      .executeTakeFirst();
    if (!payment || payment.status !== 'succeeded') throw notFound('payment_not_refundable', 'No credited payment with this id');
    let providerRefund: { id: string; status: string } | undefined;
    if (payment.provider === 'stars') {
      const stars = this.refunds.stars;
      if (!stars) throw new AppError(503, 'bot_unavailable', 'Stars refunds need BOT_TOKEN');
      if (!payment.telegram_id || !payment.provider_payment_id) throw notFound('payment_not_refundable', 'No Telegram charge to refund');
      await stars.refund(Number(payment.telegram_id), payment.provider_payment_id);
    } else if (payment.provider === 'yookassa') {
      const yookassa = this.refunds.yookassa;
      if (!yookassa) throw new AppError(503, 'provider_unavailable', 'Ruble refunds need PAYMENT_PROVIDER=yookassa with its shop id and key');
      if (!payment.provider_payment_id) throw notFound('payment_not_refundable', 'No YooKassa payment to refund');
      const ask = <T>(call: () => Promise<T>): Promise<T> =>
        call().catch((error: unknown) => {
          throw new AppError(502, 'payment_provider_error', `YooKassa refused the refund: ${error instanceof Error ? error.message : String(error)}`);
        });
      // What YooKassa already gave back is looked up first: a refund that went through before a crash here
      // (or part of one made in the dashboard) is counted, never made twice. Only the rest is asked for,
      // each try under its own idempotence key (YooKassa answers a key the same way for a day, cancellations
      // included). Recorded only once YooKassa says the whole amount went back; "pending" can still fail.
      const ppid = payment.provider_payment_id;
      const earlier = await ask(() => yookassa.refundsOf(ppid));
      const pendingRefund = () => new AppError(409, 'refund_pending', 'YooKassa is still processing the refund: run the command again later');
      if (earlier.some((r) => r.status === 'pending')) throw pendingRefund();
      const kopecks = (value: string) => Math.round(Number(value) * 100);
      const returned = earlier.filter((r) => r.status === 'succeeded').reduce((sum, r) => sum + kopecks(r.amount.value), 0);
      const owed = payment.amount * 100 - returned;
      let remote = earlier.filter((r) => r.status === 'succeeded').at(-1);
      if (owed > 0) {
        remote = await ask(() =>
          yookassa.createRefund({
            paymentId: ppid,
            amountRub: owed / 100,
            description: `Iskra: refund of payment ${paymentId}`,
            idempotenceKey: `iskra-refund-${paymentId}-${earlier.length + 1}`,
          }),
        );
        if (remote.status === 'canceled') {
          throw new AppError(502, 'payment_provider_error', `YooKassa cancelled the refund (${remote.cancellation_details?.reason ?? 'no reason given'})`);
        }
        if (remote.status === 'pending') throw pendingRefund();
      }
      if (!remote) throw notFound('payment_not_refundable', 'No YooKassa refund to record');
      providerRefund = { id: remote.id, status: remote.status };
    }
    const done = await this.db.transaction().execute(async (trx) => {
      const moved = await trx.updateTable('payments').set({ status: 'refunded' }).where('id', '=', paymentId).where('status', '=', 'succeeded').executeTakeFirst();
      if (Number(moved.numUpdatedRows) === 0) throw notFound('payment_not_refundable', 'No credited payment with this id');
      const payment = await trx.selectFrom('payments').select(['user_id', 'interval_days']).where('id', '=', paymentId).executeTakeFirstOrThrow();
      const user = await trx.selectFrom('users').select('premium_until').where('id', '=', payment.user_id).executeTakeFirstOrThrow();
      let until = user.premium_until;
      if (until) {
        const shortened = new Date(new Date(until).getTime() - payment.interval_days * 86_400_000);
        until = (shortened > now ? shortened : now).toISOString();
      }
      await trx.updateTable('users').set({ premium_until: until }).where('id', '=', payment.user_id).execute();
      return { userId: payment.user_id, premiumUntil: until };
    });
    return providerRefund ? { ...done, providerRefund } : done;
  }

  async openFlags() {
    return this.db.selectFrom('moderation_flags').selectAll().where('resolved_at', 'is', null).orderBy('id').execute();
  }

  async resolveFlag(flagId: number): Promise<boolean> {
    const result = await this.db.updateTable('moderation_flags').set({ resolved_at: this.clock.now().toISOString() }).where('id', '=', flagId).where('resolved_at', 'is', null).executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** The user an admin names: a numeric id, or an e-mail address. */
  async findUserId(idOrEmail: string): Promise<number> {
    const query = this.db.selectFrom('users').select('id');
    const row = /^\d+$/.test(idOrEmail)
      ? await query.where('id', '=', Number(idOrEmail)).executeTakeFirst()
      : await query.where('email', '=', idOrEmail.trim().toLowerCase()).executeTakeFirst();
    if (!row) throw notFound('user_not_found', `No user ${idOrEmail}`);
    return row.id;
  }

  stats(since: Date): Promise<Stats> {
    return statsSince(this.db, since);
  }
}
