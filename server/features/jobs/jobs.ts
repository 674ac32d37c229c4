import { cleanupExpired } from './cleanupExpired.ts';
import { deleteUnverified } from './deleteUnverified.ts';
import type { JobDefinition } from './job.ts';
import { deleteOrphanUploads } from './orphanUploads.ts';
import { sendPremiumReminders } from './premiumReminders.ts';
import { settlePendingPayments } from './settlePayments.ts';
import { flagSharedDeviceLikes } from './sharedDeviceLikes.ts';
import { backupSqlite } from './sqliteBackup.ts';
import { sendWeeklyReport } from './weeklyReport.ts';

/**
 * Every scheduled job, in one place (times in UTC). Each also runs by hand: `npm run job -- <name>`.
 * Bot notifications are not here: the worker drains that queue continuously (every two seconds).
 */
export const jobs: readonly JobDefinition[] = [
  { name: 'cleanup_expired', schedule: '*/15 * * * *', leaseSeconds: 600, run: cleanupExpired },
  { name: 'delete_unverified', schedule: '20 3 * * *', leaseSeconds: 1800, run: deleteUnverified },
  { name: 'orphan_uploads', schedule: '40 3 * * *', leaseSeconds: 1800, run: deleteOrphanUploads },
  { name: 'settle_payments', schedule: '*/10 * * * *', leaseSeconds: 600, run: settlePendingPayments },
  { name: 'premium_reminders', schedule: '0 9 * * *', leaseSeconds: 1800, run: sendPremiumReminders },
  { name: 'sqlite_backup', schedule: '0 2 * * *', leaseSeconds: 3600, run: backupSqlite },
  { name: 'shared_device_likes', schedule: '30 * * * *', leaseSeconds: 900, run: flagSharedDeviceLikes },
  { name: 'weekly_report', schedule: '0 8 * * 1', leaseSeconds: 600, run: sendWeeklyReport },
];

export function jobNamed(name: string): JobDefinition | undefined {
  return jobs.find((j) => j.name === name);
}
