import { createHmac } from 'node:crypto';
import type { Bot } from 'grammy';
import type { Middleware } from 'koa';
import { z } from 'zod';
import { safeEqual } from '../server/safeEqual.ts';
import type { Logger } from '../server/logger.ts';
import type { BotContext } from './context.ts';

export const webhookPath = '/telegram/webhook';

/**
 * The secret Telegram sends back in `X-Telegram-Bot-Api-Secret-Token` on every webhook call. Derived from
 * the server secret and the bot token, so the server and `npm run bot:set-webhook` agree without another
 * setting, and it changes with either. base64url fits Telegram's allowed characters (A-Z a-z 0-9 _ -).
 */
export function webhookSecret(botToken: string, sessionSecret: string): string {
  return createHmac('sha256', `telegram-webhook:${sessionSecret}`).update(botToken).digest('base64url');
}

/** Just enough shape to hand the update to grammY, which reads the fields it needs. */
const updateShape = z.looseObject({ update_id: z.number().int().nonnegative() });

/**
 * `POST /telegram/webhook`: only Telegram knows the secret, so anyone else gets 401 and nothing runs.
 * The update is handled before answering (Telegram waits, and redelivers on failure); handler errors
 * are caught by the bot's error boundary, so a bad update is answered 200 and not redelivered forever.
 */
export function webhookHandler(bot: Bot<BotContext>, secret: string, logger: Logger): Middleware {
  return async (ctx) => {
    if (!safeEqual(ctx.get('X-Telegram-Bot-Api-Secret-Token'), secret)) {
      ctx.status = 401;
      ctx.body = { error: 'Unauthorized', code: 'unauthorized' };
      return;
    }
    const update = updateShape.safeParse((ctx.request as { body?: unknown }).body);
    if (!update.success) {
      ctx.status = 400;
      ctx.body = { error: 'Not a Telegram update', code: 'invalid_input' };
      return;
    }
    if (!bot.isInited()) await bot.init();
    try {
      await bot.handleUpdate(update.data);
    } catch (error) {
      // Only reached if the error boundary itself failed; answering 200 still stops a redelivery loop.
      logger.error({ err: error, updateId: update.data.update_id }, 'telegram: webhook update failed');
    }
    ctx.status = 200;
    ctx.body = { ok: true };
  };
}
