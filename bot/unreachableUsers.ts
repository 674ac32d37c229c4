import type { Transformer } from 'grammy';
import type { BotUsers } from './context.ts';
import type { Logger } from '../server/logger.ts';

/**
 * An API transformer: when Telegram answers 403 to a message for a private chat (the user blocked the bot
 * or deleted their account), the user is marked unreachable. It sees every call, so notifications sent
 * outside an update are covered too. The failure itself still reaches the caller.
 */
export function markUnreachableOn403(users: Pick<BotUsers, 'markUnreachable'>, logger: Logger): Transformer {
  return async (prev, method, payload, signal) => {
    const result = await prev(method, payload, signal);
    const chatId = (payload as { chat_id?: unknown } | undefined)?.chat_id;
    // Private chat ids are the users' ids (positive); groups and channels are negative.
    if (!result.ok && result.error_code === 403 && typeof chatId === 'number' && chatId > 0) {
      logger.info({ method }, 'telegram: a user blocked the bot (403); marked unreachable');
      await users.markUnreachable(chatId).catch((error: unknown) => {
        logger.error({ err: error }, 'telegram: could not mark user unreachable');
      });
    }
    return result;
  };
}
