import { Composer } from 'grammy';
import { isLanguage, translatorFor } from '../../locales/index.ts';
import type { Logger } from '../../server/logger.ts';
import type { BotContext, StarsSettlement } from '../context.ts';

/**
 * The checkout: Telegram asks before it takes the Stars and waits at most 10 s, so the answer is a quick
 * database check, and a failure answers no rather than letting the buyer wait. It runs before the account
 * feature because a pre-checkout query comes without a chat.
 */
export function preCheckoutFeature(stars: StarsSettlement, logger: Logger): Composer<BotContext> {
  const feature = new Composer<BotContext>();
  feature.on('pre_checkout_query', async (ctx) => {
    const query = ctx.preCheckoutQuery;
    const ok = await stars
      .checkStarsCheckout({
        payload: query.invoice_payload,
        telegramUserId: query.from.id,
        currency: query.currency,
        totalAmount: query.total_amount,
      })
      .catch((error: unknown) => {
        logger.error({ err: error }, 'Telegram: pre-checkout check failed');
        return false;
      });
    const language = query.from.language_code;
    if (ok) await ctx.answerPreCheckoutQuery(true);
    else
      await ctx.answerPreCheckoutQuery(false, {
        error_message: translatorFor(isLanguage(language) ? language : 'ru')('bot.payments.refused'),
      });
  });
  return feature;
}

/** The payment itself: credited once per charge id (a renewal of the Stars subscription extends again). */
export function successfulPaymentFeature(stars: StarsSettlement): Composer<BotContext> {
  const feature = new Composer<BotContext>();
  feature.on('message:successful_payment', async (ctx) => {
    const paid = ctx.message.successful_payment;
    const outcome = await stars.settleStars({
      payload: paid.invoice_payload,
      telegramUserId: ctx.from.id,
      currency: paid.currency,
      totalAmount: paid.total_amount,
      chargeId: paid.telegram_payment_charge_id,
      isRenewal: paid.is_recurring === true && paid.is_first_recurring !== true,
    });
    if (outcome !== 'credited') return;
    const { end_date } = await stars.subscription(ctx.account.userId);
    const date = end_date
      ? new Intl.DateTimeFormat(ctx.account.language, { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(end_date))
      : '';
    await ctx.reply(ctx.t('bot.payments.thanks', { date }));
  });
  return feature;
}
