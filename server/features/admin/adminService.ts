import type { Kysely } from 'kysely';
import type { Database, ProfileId, ReportEvidence, UserId } from '../../../db/schema.ts';
import type { Clock } from '../../clock.ts';
import { userRowId } from '../../contract/ids.ts';
import { AppError, conflict, notFound } from '../../errors.ts';
import { type EventBus, insertBadgeMarkers } from '../events/index.ts';
import { extendedEnd, type StarsApi, type YooKassaClient } from '../premium/index.ts';
import {
  clearUserBan,
  deleteSessionsOfUser,
  findOpenFlags,
  findOpenReports,
  findOpenReportTarget,
  findPaymentForRefund,
  findPaymentTerms,
  findPremiumUntil,
  findBadgeWatchersOf,
  findReportedUserId,
  findUserIdByEmail,
  markFlagResolved,
  markOpenReportsAgainstUserBanned,
  markPaymentRefunded,
  markReportDismissed,
  markUserBanned,
  releaseHoldsOfUser,
  releaseProfileHold,
  setPremiumUntil,
  statsSince,
  userExists,
  type Stats,
  holdProfile,
} from './repository.ts';
import { type AdminActor, insertAdminAction } from './auditLog.ts';

export interface OpenReport {
  id: number;
  reason: string;
  comment: string;
  created_at: string;
  reported_profile_id: ProfileId;
  reported_user_id: UserId;
  reported_name: string;
  /** What the server had recorded between reporter and reported (safety/reportEvidence.ts), and what that weighs. */
  evidence: ReportEvidence;
  weight: number;
  /** The weighted evidence of every open report against the same profile (each reporter once): the queue's order. */
  score: number;
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

const alreadyDecided = () => conflict('already_decided', 'Another admin has already decided this');

export class AdminService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    /** Without a provider's channel, refunds of its payments are refused (nothing changes here). */
    private readonly refunds: RefundChannels = {},
    /** Tells the open apps of the people whose badges a ban or an unban changes. */
    private readonly bus?: EventBus,
  ) {}

  /** The moderation queue: the people with the strongest weighted evidence against them first, then oldest first. */
  async openReports(limit = 50): Promise<OpenReport[]> {
    const rows = await findOpenReports(this.db, limit);
    return rows.map(({ held_at, ...r }) => ({ ...r, held: held_at !== null }));
  }

  async report(reportId: number): Promise<OpenReport | undefined> {
    const [row] = await findOpenReports(this.db, 1, reportId);
    if (!row) return undefined;
    const { held_at, ...r } = row;
    return { ...r, held: held_at !== null };
  }

  /**
   * Closes a report as unfounded and lets the profile back into search (an admin has decided). Conditional
   * on the report being open: false when it was already decided (two admins pressing at once act once).
   */
  async dismissReport(reportId: number, by: AdminActor, reason = ''): Promise<boolean> {
    const now = this.clock.now().toISOString();
    return this.db.transaction().execute(async (trx) => {
      const target = await findOpenReportTarget(trx, reportId);
      if (target === undefined) return false;
      if (!(await markReportDismissed(trx, reportId, now))) return false;
      await releaseProfileHold(trx, target.profileId);
      await insertAdminAction(
        trx,
        by,
        {
          action: 'report_dismiss',
          userId: target.userId,
          profileId: target.profileId,
          reason,
          details: { report_id: reportId },
        },
        now,
      );
      return true;
    });
  }

  /**
   * Holds the reported profile out of search while the report stays open (a later dismiss releases it, a
   * ban closes it). False when the report is decided or the profile is already held.
   */
  async holdFromReport(reportId: number, by: AdminActor, reason = ''): Promise<boolean> {
    const now = this.clock.now().toISOString();
    return this.db.transaction().execute(async (trx) => {
      const target = await findOpenReportTarget(trx, reportId);
      if (target === undefined) return false;
      if (!(await holdProfile(trx, target.profileId, now))) return false;
      await insertAdminAction(
        trx,
        by,
        {
          action: 'report_hold',
          userId: target.userId,
          profileId: target.profileId,
          reason,
          details: { report_id: reportId },
        },
        now,
      );
      return true;
    });
  }

  /** Bans the person a report is about, closing every open report against them. */
  async banFromReport(reportId: number, by: AdminActor, reason = ''): Promise<boolean> {
    const userId = await findReportedUserId(this.db, reportId);
    if (userId === undefined) throw notFound('report_not_found', 'No such report');
    return this.ban(userId, by, reason, { report_id: reportId });
  }

  /**
   * The console's decision on a report: 404 for no such report, 409 when it is no longer open (or the hold
   * or ban was already done), so two admins pressing at once see one of them win.
   */
  async resolveReport(
    reportId: number,
    action: 'dismiss' | 'hold' | 'ban',
    by: AdminActor,
    reason = '',
  ): Promise<void> {
    const target = await findReportedUserId(this.db, reportId);
    if (target === undefined) throw notFound('report_not_found', 'No such report');
    let done: boolean;
    if (action === 'dismiss') done = await this.dismissReport(reportId, by, reason);
    else if (action === 'hold') done = await this.holdFromReport(reportId, by, reason);
    else done = await this.banOpenReport(reportId, by, reason);
    if (!done) throw alreadyDecided();
  }

  /** A ban from the console's queue: only while the report is still open. */
  private async banOpenReport(reportId: number, by: AdminActor, reason: string): Promise<boolean> {
    const target = await findOpenReportTarget(this.db, reportId);
    if (target === undefined) return false;
    return this.ban(target.userId, by, reason, { report_id: reportId });
  }

  /**
   * Bans at once: every session ends (the next request is signed out), the profile leaves search, matches
   * and likes lists (they all skip banned accounts), and sign-in is refused. Open reports against them close.
   */
  async ban(userId: UserId, by: AdminActor, reason = '', details: Record<string, unknown> = {}): Promise<boolean> {
    const now = this.clock.now().toISOString();
    const watchers = await this.db.transaction().execute(async (trx) => {
      if (!(await markUserBanned(trx, userId, now))) {
        if (!(await userExists(trx, userId))) throw notFound('user_not_found', 'No such user');
        return undefined;
      }
      await deleteSessionsOfUser(trx, userId);
      await markOpenReportsAgainstUserBanned(trx, userId, now);
      await insertAdminAction(trx, by, { action: 'ban', userId, reason, details }, now);
      return this.markBadgesOfWatchers(trx, userId, now);
    });
    // The sessions' end has reached this process's session cache and event streams, and been sent to the
    // other processes', before the ban is reported done (writes read the session row, so none is taken from
    // a banned account).
    if (watchers) this.bus?.sessionsChanged([userId]);
    await this.bus?.sessionChanges?.settle();
    if (watchers) await this.bus?.publish(watchers);
    return watchers !== undefined;
  }

  async unban(userId: UserId, by: AdminActor, reason = ''): Promise<boolean> {
    const now = this.clock.now().toISOString();
    const watchers = await this.db.transaction().execute(async (trx) => {
      if (!(await clearUserBan(trx, userId))) return undefined;
      await releaseHoldsOfUser(trx, userId);
      await insertAdminAction(trx, by, { action: 'unban', userId, reason }, now);
      return this.markBadgesOfWatchers(trx, userId, now);
    });
    if (watchers) await this.bus?.publish(watchers);
    return watchers !== undefined;
  }

  /** Their matches, likes and messages leave (or return to) others' badges: those others get a `badges` event. */
  private async markBadgesOfWatchers(trx: Kysely<Database>, userId: UserId, now: string): Promise<UserId[]> {
    const watchers = await findBadgeWatchersOf(trx, userId);
    await insertBadgeMarkers(trx, watchers, now);
    return watchers;
  }

  /** Premium as a gift (support, compensation): extends the current end like a payment would. */
  async grantPremium(userId: UserId, days: number, by: AdminActor, reason = ''): Promise<string> {
    return this.db.transaction().execute(async (trx) => {
      const user = await findPremiumUntil(trx, userId);
      if (!user) throw notFound('user_not_found', 'No such user');
      const now = this.clock.now();
      const until = extendedEnd(user.premium_until, now, days).toISOString();
      await setPremiumUntil(trx, userId, until);
      await insertAdminAction(
        trx,
        by,
        { action: 'grant_premium', userId, reason, details: { days, premium_until: until } },
        now.toISOString(),
      );
      return until;
    });
  }

  /**
   * Marks a credited payment refunded and takes its days back off the subscription (never into the past).
   * The money goes back through the provider first (Stars through Telegram, rubles through YooKassa); a
   * refusal there changes nothing here. The test provider's payments moved no money and are just marked.
   */
  async refund(
    paymentId: number,
    by: AdminActor,
    reason = '',
  ): Promise<{ userId: UserId; premiumUntil: string | null; providerRefund?: { id: string; status: string } }> {
    const now = this.clock.now();
    const payment = await findPaymentForRefund(this.db, paymentId);
    if (!payment || payment.status !== 'succeeded')
      throw notFound('payment_not_refundable', 'No credited payment with this id');
    let providerRefund: { id: string; status: string } | undefined;
    if (payment.provider === 'stars') {
      const stars = this.refunds.stars;
      if (!stars) throw new AppError(503, 'bot_unavailable', 'Stars refunds need BOT_TOKEN');
      if (!payment.telegram_id || !payment.provider_payment_id)
        throw notFound('payment_not_refundable', 'No Telegram charge to refund');
      await stars.refund(Number(payment.telegram_id), payment.provider_payment_id);
    } else if (payment.provider === 'yookassa') {
      const yookassa = this.refunds.yookassa;
      if (!yookassa)
        throw new AppError(
          503,
          'provider_unavailable',
          'Ruble refunds need PAYMENT_PROVIDER=yookassa with its shop id and key',
        );
      if (!payment.provider_payment_id) throw notFound('payment_not_refundable', 'No YooKassa payment to refund');
      const ask = <T>(call: () => Promise<T>): Promise<T> =>
        call().catch((error: unknown) => {
          throw new AppError(
            502,
            'payment_provider_error',
            `YooKassa refused the refund: ${error instanceof Error ? error.message : String(error)}`,
          );
        });
      // What YooKassa already gave back is looked up first: a refund that went through before a crash here
      // (or part of one made in the dashboard) is counted, never made twice. Only the rest is asked for,
      // each try under its own idempotence key (YooKassa answers a key the same way for a day, cancellations
      // included). Recorded only once YooKassa says the whole amount went back; "pending" can still fail.
      const ppid = payment.provider_payment_id;
      const earlier = await ask(() => yookassa.refundsOf(ppid));
      const pendingRefund = () =>
        new AppError(409, 'refund_pending', 'YooKassa is still processing the refund: run the command again later');
      if (earlier.some((r) => r.status === 'pending')) throw pendingRefund();
      const kopecks = (value: string) => Math.round(Number(value) * 100);
      const returned = earlier
        .filter((r) => r.status === 'succeeded')
        .reduce((sum, r) => sum + kopecks(r.amount.value), 0);
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
          throw new AppError(
            502,
            'payment_provider_error',
            `YooKassa cancelled the refund (${remote.cancellation_details?.reason ?? 'no reason given'})`,
          );
        }
        if (remote.status === 'pending') throw pendingRefund();
      }
      if (!remote) throw notFound('payment_not_refundable', 'No YooKassa refund to record');
      providerRefund = { id: remote.id, status: remote.status };
    }
    const done = await this.db.transaction().execute(async (trx) => {
      if (!(await markPaymentRefunded(trx, paymentId)))
        throw notFound('payment_not_refundable', 'No credited payment with this id');
      const payment = await findPaymentTerms(trx, paymentId);
      const user = await findPremiumUntil(trx, payment.user_id);
      if (!user) throw notFound('user_not_found', 'No such user');
      let until = user.premium_until;
      if (until) {
        const shortened = new Date(new Date(until).getTime() - payment.interval_days * 86_400_000);
        until = (shortened > now ? shortened : now).toISOString();
      }
      await setPremiumUntil(trx, payment.user_id, until);
      await insertAdminAction(
        trx,
        by,
        {
          action: 'refund',
          userId: payment.user_id,
          reason,
          details: { payment_id: paymentId, ...(providerRefund ? { provider_refund: providerRefund.id } : {}) },
        },
        now.toISOString(),
      );
      return { userId: payment.user_id, premiumUntil: until };
    });
    return providerRefund ? { ...done, providerRefund } : done;
  }

  async openFlags() {
    return findOpenFlags(this.db);
  }

  async resolveFlag(flagId: number, by: AdminActor): Promise<boolean> {
    const now = this.clock.now().toISOString();
    return this.db.transaction().execute(async (trx) => {
      const userId = await markFlagResolved(trx, flagId, now);
      if (userId === undefined) return false;
      await insertAdminAction(trx, by, { action: 'resolve_flag', userId, details: { flag_id: flagId } }, now);
      return true;
    });
  }

  /** The user an admin names: a numeric id, or an e-mail address. */
  async findUserId(idOrEmail: string): Promise<UserId> {
    const typedId = userRowId('user').safeParse(idOrEmail).data;
    const id = /^\d+$/.test(idOrEmail)
      ? typedId !== undefined && (await userExists(this.db, typedId))
        ? typedId
        : undefined
      : await findUserIdByEmail(this.db, idOrEmail.trim().toLowerCase());
    if (id === undefined) throw notFound('user_not_found', `No user ${idOrEmail}`);
    return id;
  }

  stats(since: Date): Promise<Stats> {
    return statsSince(this.db, since);
  }
}
