import { addSeconds } from '../../clock.ts';
import type { JobContext, JobCounts } from './job.ts';

const day = 24 * 3600;

/**
 * Expired sessions and verification codes, and the bookkeeping rows that only matter for a short window.
 * Codes are kept a day past creation because the hourly resend limit counts them; login failures and rate
 * counters a day past their window; delivered events and settled notifications a week (SSE resume and
 * support questions need no more).
 */
export async function cleanupExpired({ db, clock }: JobContext): Promise<JobCounts> {
  const now = clock.now();
  const dayAgo = addSeconds(now, -day).toISOString();
  const weekAgo = addSeconds(now, -7 * day).toISOString();
  const sessions = await db.deleteFrom('sessions').where('expires_at', '<', now.toISOString()).executeTakeFirst();
  const codes = await db.deleteFrom('verification_codes').where('created_at', '<', dayAgo).executeTakeFirst();
  const failures = await db.deleteFrom('login_failures').where('failed_at', '<', dayAgo).executeTakeFirst();
  const counters = await db.deleteFrom('rate_counters').where('window_start', '<', dayAgo).executeTakeFirst();
  const events = await db.deleteFrom('events').where('created_at', '<', weekAgo).executeTakeFirst();
  const notifications = await db.deleteFrom('notification_jobs').where('done_at', '<', weekAgo).executeTakeFirst();
  return {
    sessions: Number(sessions.numDeletedRows),
    codes: Number(codes.numDeletedRows),
    loginFailures: Number(failures.numDeletedRows),
    rateCounters: Number(counters.numDeletedRows),
    events: Number(events.numDeletedRows),
    notifications: Number(notifications.numDeletedRows),
  };
}
