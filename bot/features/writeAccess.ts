import { Composer } from 'grammy';
import type { BotContext, BotUsers } from '../context.ts';

/**
 * Telegram's service message `write_access_allowed`: the user granted the Mini App's `requestWriteAccess`
 * (or allowed the bot from a link or the attachment menu). Telegram itself vouches for it, so from now on the
 * bot may write to them, as after a /start, without a message of ours in reply.
 */
export function writeAccessFeature(users: BotUsers): Composer<BotContext> {
  const feature = new Composer<BotContext>();
  feature.chatType('private').on('message:write_access_allowed', async (ctx) => {
    await users.markBotStarted(ctx.from.id);
  });
  return feature;
}
