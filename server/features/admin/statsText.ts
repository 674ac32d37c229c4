import type { TFunction } from 'i18next';
import type { Stats } from './repository.ts';

/** The stats as the admins read them in the bot (/stats, the weekly report) and the CLI. */
export function statsText(t: TFunction, title: string, s: Stats): string {
  return [
    title,
    t('bot.admin.stats_users', { total: s.users, added: s.newUsers }),
    t('bot.admin.stats_profiles', { total: s.profiles, added: s.newProfiles }),
    t('bot.admin.stats_matches', { count: s.matches }),
    t('bot.admin.stats_messages', { count: s.messages }),
    t('bot.admin.stats_payments', { count: s.payments, rub: s.revenueRub }),
    t('bot.admin.stats_reports', { count: s.openReports }),
    ...(s.referrals.length > 0
      ? [
          t('bot.admin.stats_referrals'),
          ...s.referrals.map((r) => t('bot.admin.stats_referral_code', { code: r.code, count: r.signUps })),
        ]
      : []),
  ].join('\n');
}
