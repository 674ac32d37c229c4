import { Composer, InlineKeyboard } from 'grammy';
import type { BotContext, BotUsers } from '../context.ts';
import { miniAppUrl } from '../miniAppUrl.ts';
import { setChatMenu } from '../setup.ts';

/** `/start [payload]`: a greeting with the button that opens the Mini App; records that the user started the bot. */
export function startFeature(users: BotUsers, publicUrl: string): Composer<BotContext> {
  const feature = new Composer<BotContext>();
  feature.chatType('private').command('start', async (ctx) => {
    // Recorded first: from now on notifications may be sent, even if the greeting itself fails.
    await users.markBotStarted(ctx.from.id);
    await ctx.reply(ctx.t('bot.start.greeting'), {
      reply_markup: new InlineKeyboard().webApp(ctx.t('bot.start.open_app'), miniAppUrl(publicUrl, ctx.match)),
    });
    await setChatMenu(ctx.api, publicUrl, ctx.t, ctx.chat.id);
  });
  return feature;
}
