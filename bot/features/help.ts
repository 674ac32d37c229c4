import { Composer } from 'grammy';
import type { BotContext } from '../context.ts';

export function helpFeature(): Composer<BotContext> {
  const feature = new Composer<BotContext>();
  feature.chatType('private').command('help', async (ctx) => {
    await ctx.reply(ctx.t('bot.help'));
  });
  return feature;
}
