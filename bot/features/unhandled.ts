import { Composer } from 'grammy';
import type { BotContext } from '../context.ts';

/** Last: whatever no feature handled. Buttons stop spinning; a private message gets a pointer to /help. */
export function unhandledFeature(): Composer<BotContext> {
  const feature = new Composer<BotContext>();
  feature.on('callback_query', async (ctx) => {
    await ctx.answerCallbackQuery();
  });
  feature.chatType('private').on('message', async (ctx) => {
    await ctx.reply(ctx.t('bot.unhandled'));
  });
  return feature;
}
