import { Composer, InlineKeyboard } from 'grammy';
import { translatorFor } from '../../locales/index.ts';
import { linkPayloadPrefix } from '../../server/features/telegram/botLink.ts';
import { languageFromTelegram } from '../../server/features/telegram/telegramIdentity.ts';
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
  feature.chatType('private').command('start', async (ctx, next) => {
    if (!ctx.match.startsWith(linkPayloadPrefix) || ctx.from.is_bot) return next();
    const identity = { id: ctx.from.id, username: ctx.from.username, languageCode: ctx.from.language_code };
    const result = await links.redeem(ctx.match.slice(linkPayloadPrefix.length), identity);
    const t = translatorFor(result.language ?? languageFromTelegram(ctx.from.language_code));
    const text = {
      linked: t('bot.link.done'),
      taken: t('bot.link.taken'),
      other_telegram: t('bot.link.otherTelegram'),
      invalid: t('bot.link.invalid'),
    }[result.outcome];
    await ctx.reply(text, { reply_markup: new InlineKeyboard().webApp(t('bot.start.open_app'), miniAppUrl(publicUrl, '')) });
  });
  return feature;
}
