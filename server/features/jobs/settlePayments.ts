import { addSeconds } from '../../clock.ts';
import type { JobContext, JobCounts } from './job.ts';
import { cancelAbandonedTestPayments } from './repository.ts';

/** A test checkout nobody finished within this long is abandoned. */
export const pendingPaymentHours = 24;

/**
 * Settles payments left pending: YooKassa's are read back from its API after ten minutes (see
 * PremiumService.reconcile); an abandoned test checkout becomes canceled after a day. Conditional on the
 * status, so a payment credited meanwhile stays credited. Stars payments are settled by the bot's updates.
 */
export async function settlePendingPayments({ db, clock, premium }: JobContext): Promise<JobCounts> {
  // First ask YooKassa about its pending payments (a lost notification must not lose a purchase).
  const reconciled = premium ? await premium.reconcile() : { checked: 0, credited: 0, canceled: 0 };
  const cutoff = addSeconds(clock.now(), -pendingPaymentHours * 3600).toISOString();
  const abandoned = await cancelAbandonedTestPayments(db, cutoff);
  return {
    abandoned,
    providerChecked: reconciled.checked,
    credited: reconciled.credited,
    canceled: reconciled.canceled,
  };
}
