import type { Kysely } from 'kysely';
import type { Database, UserId } from '../../../db/schema.ts';
import { translatorFor } from '../../../locales/index.ts';
import { addSeconds } from '../../clock.ts';
import type { Mailer } from '../../mail/mailer.ts';
import { enqueuePremiumReminder } from '../notifications/index.ts';
import type { JobContext, JobCounts } from './job.ts';
import {
  claimPremiumReminder,
  findReminderMailRecipient,
  listPremiumEndingUnreminded,
  releasePremiumReminderClaim,
} from './repository.ts';

export const reminderDaysAhead = 3;

/**
 * Premium ending within three days: one reminder per subscription end, through the bot's queue (so it is
 * retried and respects the notifications setting), or by e-mail for people the bot cannot reach. The end it was sent for is kept on the user, in the same
 * transaction as the enqueue, so a second run, or a second server, sends nothing more; a renewal moves the
 * end and earns the next reminder.
 */
export async function sendPremiumReminders({
  db,
  clock,
  mailer,
  publicUrl,
  logger,
  signal,
}: JobContext): Promise<JobCounts> {
  const now = clock.now();
  const horizon = addSeconds(now, reminderDaysAhead * 24 * 3600).toISOString();
  const due = await listPremiumEndingUnreminded(db, now.toISOString(), horizon);
  let queued = 0;
  let marked = 0;
  let mailed = 0;
  for (const user of due) {
    // Between people: each one's claim and reminder go together; the rest wait for the next run.
    signal?.throwIfAborted();
    const until = user.premium_until ?? '';
    const sent = await db.transaction().execute(async (trx) => {
      if (!(await claimPremiumReminder(trx, user.id, until))) return null;
      return enqueuePremiumReminder(trx, user.id, until, now);
    });
    if (sent === null) continue;
    marked += 1;
    if (sent) {
      queued += 1;
      continue;
    }
    if (!mailer) continue;
    try {
      if (await mailReminder(db, mailer, publicUrl ?? '/', user.id, until)) mailed += 1;
    } catch (error) {
      // Unclaimed again, so the next run tries once more.
      logger.warn({ err: error, userId: user.id }, 'premium reminder e-mail not sent');
      await releasePremiumReminderClaim(db, user.id, until);
    }
  }
  return { due: due.length, reminded: marked, queued, mailed };
}

/** The e-mail version, for a verified address whose owner has not turned notifications off. */
async function mailReminder(
  db: Kysely<Database>,
  mailer: Mailer,
  publicUrl: string,
  userId: UserId,
  until: string,
): Promise<boolean> {
  const user = await findReminderMailRecipient(db, userId);
  if (!user?.email || !user.verified_at || user.banned_at || user.notifications === 0) return false;
  const t = translatorFor(user.language);
  const date = new Intl.DateTimeFormat(user.language, { day: 'numeric', month: 'long', timeZone: 'UTC' }).format(
    new Date(until),
  );
  await mailer.send({
    to: user.email,
    subject: t('mail.premiumEnding.subject', { date }),
    text: t('mail.premiumEnding.text', { date, url: new URL('/subscription', publicUrl).toString() }),
  });
  return true;
}
