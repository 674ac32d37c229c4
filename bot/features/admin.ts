import { Composer, InlineKeyboard } from 'grammy';
import type { TFunction } from 'i18next';
import { type AdminService, type OpenReport, statsText } from '../../server/features/admin/index.ts';
import type { BotContext } from '../context.ts';

/** Callback data of the buttons under a report alert. */
const decision = /^report:(ban|dismiss):(\d{1,12})$/;

/** The alert admins get for a new report, with Ban and Dismiss buttons. */
export function reportAlert(t: TFunction, report: OpenReport): { text: string; keyboard: InlineKeyboard } {
  const text = t('bot.admin.report_new', {
    id: report.id,
    name: report.reported_name,
    userId: report.reported_user_id,
    reason: report.reason,
    comment: report.comment || '—',
    reporters: report.reporters,
    evidence: t(`bot.admin.evidence_${report.evidence}`),
    weight: report.weight,
    score: report.score,
  });
  const keyboard = new InlineKeyboard()
    .text(t('bot.admin.button_ban'), `report:ban:${report.id}`)
    .text(t('bot.admin.button_dismiss'), `report:dismiss:${report.id}`);
  return { text: report.held ? `${text}\n${t('bot.admin.held')}` : text, keyboard };
}

/**
 * The admins' part of the bot (ADMIN_TELEGRAM_IDS only; everyone else never sees it): `/stats` for the
 * day so far, and the Ban / Dismiss buttons under report alerts. A button pressed twice, or by two admins,
 * acts once; the alert then shows what was decided and loses its buttons.
 */
export function adminFeature(adminIds: readonly number[], admin: AdminService): Composer<BotContext> {
  const feature = new Composer<BotContext>();
  const admins = feature.filter((ctx) => ctx.from !== undefined && adminIds.includes(ctx.from.id));
  admins.chatType('private').command('stats', async (ctx) => {
    const start = new Date();
    start.setUTCHours(0, 0, 0, 0);
    await ctx.reply(statsText(ctx.t, ctx.t('bot.admin.today_title'), await admin.stats(start)));
  });
  admins.callbackQuery(decision, async (ctx) => {
    const reportId = Number(ctx.match[2]);
    const ban = ctx.match[1] === 'ban';
    // The audit log names the admin by the Telegram id that pressed (the filter above made sure it is one).
    const by = `telegram:${ctx.from.id}` as const;
    const done = ban ? await admin.banFromReport(reportId, by) : await admin.dismissReport(reportId, by);
    const outcome = ctx.t(done ? (ban ? 'bot.admin.banned' : 'bot.admin.dismissed') : 'bot.admin.already_decided');
    await ctx.answerCallbackQuery({ text: outcome });
    const original =
      ctx.callbackQuery.message && 'text' in ctx.callbackQuery.message ? (ctx.callbackQuery.message.text ?? '') : '';
    await ctx.editMessageText(`${original}\n\n${outcome}`);
  });
  return feature;
}
