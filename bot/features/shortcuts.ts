import { Composer, InlineKeyboard } from 'grammy';
import type { BotContext } from '../context.ts';
import { miniAppUrl } from '../miniAppUrl.ts';

/** The bot's menu commands that open a screen of the Mini App straight away (its `startapp` deep links). */
export const shortcutCommands = ['likes', 'premium'] as const;

/** `/likes` (who liked you) and `/premium` (the subscription): a line and the button that opens that screen. */
export function shortcutsFeature(publicUrl: string): Composer<BotContext> {
  const feature = new Composer<BotContext>();
  for (const shortcut of shortcutCommands) {
    feature.chatType('private').command(shortcut, async (ctx) => {
      await ctx.reply(ctx.t(`bot.shortcuts.${shortcut}`), {
        reply_markup: new InlineKeyboard().webApp(
          ctx.t(`bot.shortcuts.open_${shortcut}`),
          miniAppUrl(publicUrl, shortcut),
        ),
      });
    });
  }
  return feature;
}
