import { Composer, InlineKeyboard } from 'grammy';
import { isLanguage, translatorFor } from '../../locales/index.ts';
import type { BotContext, BotUsers } from '../context.ts';
import { setChatMenu } from '../setup.ts';

/** Callback data of the language buttons; parsed back with the same pattern. */
const choice = /^language:(ru|en)$/;

/**
 * `/language`: ru/en buttons, or `/language en` at once; the choice is stored on the account, so the bot
 * and the app (on its next load, on every device) speak it.
 */
export function languageFeature(users: BotUsers, publicUrl: string): Composer<BotContext> {
  const feature = new Composer<BotContext>();
  feature.chatType('private').command('language', async (ctx) => {
    const named = ctx.match.trim().toLowerCase();
    if (isLanguage(named)) {
      await users.setLanguage(ctx.from.id, named);
      const t = translatorFor(named);
      await ctx.reply(t('bot.language.changed'));
      await setChatMenu(ctx.api, publicUrl, t, ctx.chat.id);
      return;
    }
    await ctx.reply(ctx.t('bot.language.choose'), {
      reply_markup: new InlineKeyboard()
        .text(ctx.t('bot.language.ru'), 'language:ru')
        .text(ctx.t('bot.language.en'), 'language:en'),
    });
  });
  feature.callbackQuery(choice, async (ctx) => {
    const language = ctx.match[1] === 'en' ? 'en' : 'ru';
    await users.setLanguage(ctx.from.id, language);
    const t = translatorFor(language);
    await ctx.answerCallbackQuery();
    await ctx.editMessageText(t('bot.language.changed'));
    if (ctx.chat?.type === 'private') await setChatMenu(ctx.api, publicUrl, t, ctx.chat.id);
  });
  return feature;
}
