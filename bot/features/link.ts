import { Composer, InlineKeyboard } from 'grammy';
import { translatorFor } from '../../locales/index.ts';
import { languageFromTelegram, linkPayloadPrefix } from '../../server/features/telegram/index.ts';
import type { BotContext, BotLinks } from '../context.ts';
import { miniAppUrl } from '../miniAppUrl.ts';

/**
 * `/start link_<token>` (the Account screen's "Link Telegram via the bot"): adds this Telegram to the web
 * account the token was made for. Installed before the account feature, which would otherwise first
 * create an account of this Telegram's own and make the link look taken. Answers in the web account's
 * language (Telegram's when the token names none).
 */
export function linkFeature(links: BotLinks, publicUrl: string): Composer<BotContext> {
  const feature = new Composer<BotContext>();
  // Nothing is linked by the tap on Start alone: a link someone else sent would otherwise tie this Telegram
  // to their account. The bot names the account (masked) and links only on the confirm button.
  feature.chatType('private').command('start', async (ctx, next) => {
    if (!ctx.match.startsWith(linkPayloadPrefix) || ctx.from.is_bot) return next();
    const token = ctx.match.slice(linkPayloadPrefix.length);
    const preview = await links.preview(token);
    const t = translatorFor(preview?.language ?? languageFromTelegram(ctx.from.language_code));
    if (!preview) {
      await ctx.reply(t('bot.link.invalid'));
      return;
    }
    await ctx.reply(t('bot.link.confirm', { account: preview.account }), {
      reply_markup: new InlineKeyboard()
        .text(t('bot.link.confirmButton'), `${confirmPrefix}${token}`)
        .row()
        .text(t('bot.link.cancelButton'), cancelData),
    });
  });
  feature.chatType('private').callbackQuery(confirmPattern, async (ctx) => {
    await ctx.answerCallbackQuery();
    const identity = { id: ctx.from.id, username: ctx.from.username, languageCode: ctx.from.language_code };
    const result = await links.redeem(ctx.match[1] ?? '', identity);
    const t = translatorFor(result.language ?? languageFromTelegram(ctx.from.language_code));
    const text = {
      linked: t('bot.link.done'),
      taken: t('bot.link.taken'),
      other_telegram: t('bot.link.otherTelegram'),
      invalid: t('bot.link.invalid'),
    }[result.outcome];
    await ctx.reply(text, {
      reply_markup: new InlineKeyboard().webApp(t('bot.start.open_app'), miniAppUrl(publicUrl, '')),
    });
  });
  feature.chatType('private').callbackQuery(cancelData, async (ctx) => {
    await ctx.answerCallbackQuery();
    await ctx.reply(translatorFor(languageFromTelegram(ctx.from.language_code))('bot.link.cancelled'));
  });
  return feature;
}

/** Callback data of the confirm button: the prefix and the 43-character token (48 bytes, within Telegram's 64). */
const confirmPrefix = 'link:';
const confirmPattern = /^link:([A-Za-z0-9_-]{43})$/;
const cancelData = 'link_cancel';
