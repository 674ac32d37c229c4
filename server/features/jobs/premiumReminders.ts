import { addSeconds } from '../../clock.ts';
import { enqueuePremiumReminder } from '../notifications/queue.ts';
import type { JobContext, JobCounts } from './job.ts';

export const reminderDaysAhead = 3;

/**
 * Premium ending within three days: one reminder per subscription end, through the bot's queue (so it is
 * retried and respects the notifications setting). The end it was sent for is kept on the user, in the same
 * transaction as the enqueue, so a second run, or a second server, sends nothing more; a renewal moves the
 * end and earns the next reminder.
 */
export async function sendPremiumReminders({ db, clock }: JobContext): Promise<JobCounts> {
  const now = clock.now();
  const horizon = addSeconds(now, reminderDaysAhead * 24 * 3600).toISOString();
  const due = await db
    .selectFrom('users')
    .select(['id', 'premium_until'])
    .where('premium_until', '>', now.toISOString())
    .where('premium_until', '<=', horizon)
    .where((eb) => eb.or([eb('premium_reminded_for', 'is', null), eb('premium_reminded_for', '!=', eb.ref('premium_until'))]))
    .execute();
  let queued = 0;
  let marked = 0;
  for (const user of due) {
    const until = user.premium_until ?? '';
    const sent = await db.transaction().execute(async (trx) => {
      const claimed = await trx
        .updateTable('users')
        .set({ premium_reminded_for: until })
        .where('id', '=', user.id)
        .where('premium_until', '=', until)
        .where((eb) => eb.or([eb('premium_reminded_for', 'is', null), eb('premium_reminded_for', '!=', until)]))
        .executeTakeFirst();
      if (Number(claimed.numUpdatedRows) === 0) return null;
      return enqueuePremiumReminder(trx, user.id, until, now);
    });
    if (sent === null) continue;
    marked += 1;
    if (sent) queued += 1;
  }
  return { due: due.length, reminded: marked, queued };
}
