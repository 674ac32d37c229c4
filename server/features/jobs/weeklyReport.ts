import { translatorFor } from '../../../locales/index.ts';
import { addSeconds } from '../../clock.ts';
import { statsSince, statsText } from '../admin/index.ts';
import type { JobContext, JobCounts } from './job.ts';

/** Monday morning: the week's numbers to every admin in the bot; without a bot, to the log only. */
export async function sendWeeklyReport({ db, clock, logger, tellAdmins }: JobContext): Promise<JobCounts> {
  const stats = await statsSince(db, addSeconds(clock.now(), -7 * 24 * 3600));
  logger.info({ stats }, 'weekly report');
  if (!tellAdmins) return { admins: 0 };
  const admins = await tellAdmins((language) => {
    const t = translatorFor(language);
    return statsText(t, t('bot.admin.weekly_title'), stats);
  });
  return { admins };
}
