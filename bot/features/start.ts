import { Composer, InlineKeyboard } from 'grammy';
import type { BotContext, BotUsers } from '../context.ts';
import { miniAppUrl } from '../miniAppUrl.ts';
import { setChatMenu } from '../setup.ts';

/**
 * `/start [payload]`: a greeting with the button that opens the Mini App; records that the user started the
 * bot. A newcomer is asked to create a profile; someone who has one is welcomed back, with who liked them
 * one tap away (`startapp=likes`), never asked again to create what they have.
 */
export function startFeature(users: BotUsers, publicUrl: string): Composer<BotContext> {
  const feature = new Composer<BotContext>();
  feature.chatType('private').command('start', async (ctx) => {
    // Recorded first: from now on notifications may be sent, even if the greeting itself fails.
    await users.markBotStarted(ctx.from.id);
    const member = await users.hasProfile(ctx.account.userId);
    const keyboard = new InlineKeyboard().webApp(ctx.t('bot.start.open_app'), miniAppUrl(publicUrl, ctx.match));
    // A deep link's own screen wins: the likes button is offered only beside a plain start.
    if (member && !ctx.match) keyboard.row().webApp(ctx.t('bot.start.open_likes'), miniAppUrl(publicUrl, 'likes'));
    await ctx.reply(ctx.t(member ? 'bot.start.greeting_member' : 'bot.start.greeting'), { reply_markup: keyboard });
    await setChatMenu(ctx.api, publicUrl, ctx.t, ctx.chat.id);
  });
  return feature;
}
