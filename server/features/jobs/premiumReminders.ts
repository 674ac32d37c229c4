import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import { translatorFor } from '../../../locales/index.ts';
import { addSeconds } from '../../clock.ts';
import type { Mailer } from '../../mail/mailer.ts';
import { enqueuePremiumReminder } from '../notifications/queue.ts';
import type { JobContext, JobCounts } from './job.ts';

export const reminderDaysAhead = 3;

/**
 * Premium ending within three days: one reminder per subscription end, through the bot's queue (so it is
 * retried and respects the notifications setting), or by e-mail for people the bot cannot reach. The end it was sent for is kept on the user, in the same
 * transaction as the enqueue, so a second run, or a second server, sends nothing more; a renewal moves the
 * end and earns the next reminder.
 */
export async function sendPremiumReminders({ db, clock, mailer, publicUrl, logger }: JobContext): Promise<JobCounts> {
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
  let mailed = 0;
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
      await db.updateTable('users').set({ premium_reminded_for: null }).where('id', '=', user.id).where('premium_reminded_for', '=', until).execute();
    }
  }
  return { due: due.length, reminded: marked, queued, mailed };
}

/** The e-mail version, for a verified address whose owner has not turned notifications off. */
async function mailReminder(db: Kysely<Database>, mailer: Mailer, publicUrl: string, userId: number, until: string): Promise<boolean> {
  const user = await db
    .selectFrom('users as u')
    .leftJoin('profiles as p', 'p.user_id', 'u.id')
    .select(['u.email', 'u.verified_at', 'u.language', 'u.banned_at', 'p.notifications'])
    .where('u.id', '=', userId)
    .executeTakeFirst();
  if (!user?.email || !user.verified_at || user.banned_at || user.notifications === 0) return false;
  const t = translatorFor(user.language);
  const date = new Intl.DateTimeFormat(user.language, { day: 'numeric', month: 'long', timeZone: 'UTC' }).format(new Date(until));
  await mailer.send({
    to: user.email,
    subject: t('mail.premiumEnding.subject', { date }),
    text: t('mail.premiumEnding.text', { date, url: new URL('/subscription', publicUrl).toString() }),
  });
  return true;
}
