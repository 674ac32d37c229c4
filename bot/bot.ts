import { autoRetry } from '@grammyjs/auto-retry';
import { Bot, GrammyError, HttpError, type BotError } from 'grammy';
import type { BotContext, BotDeps } from './context.ts';
import { accountFeature } from './features/account.ts';
import { adminFeature } from './features/admin.ts';
import { helpFeature } from './features/help.ts';
import { languageFeature } from './features/language.ts';
import { linkFeature } from './features/link.ts';
import { preCheckoutFeature, successfulPaymentFeature } from './features/payments.ts';
import { shortcutsFeature } from './features/shortcuts.ts';
import { startFeature } from './features/start.ts';
import { writeAccessFeature } from './features/writeAccess.ts';
import { unhandledFeature } from './features/unhandled.ts';
import { messageRateLimiter, telegramLimits } from './rateLimiter.ts';
import { markUnreachableOn403 } from './unreachableUsers.ts';

/**
 * The bot, without starting it: polling, the webhook and tests each feed it updates their own way.
 * Features are installed in a visible order inside one error boundary; `unhandled` comes last.
 */
export function createBot(deps: BotDeps): Bot<BotContext> {
  const bot = new Bot<BotContext>(deps.token, {
    ...(deps.botInfo ? { botInfo: deps.botInfo } : {}),
    client: { ...(deps.apiRoot ? { apiRoot: deps.apiRoot } : {}) },
  });

  // Transformers wrap each other: the last installed runs first. So a call is seen by the 403 marker
  // (final outcome), then retried on 429/5xx/network errors, and each attempt is paced by the limiter.
  bot.api.config.use(messageRateLimiter(deps.limits ?? telegramLimits));
  bot.api.config.use(autoRetry({ maxRetryAttempts: 3, maxDelaySeconds: 60 }));
  bot.api.config.use(markUnreachableOn403(deps.users, deps.logger));

  const handleError = (error: BotError<BotContext>) => reportBotError(error, deps);
  bot
    .errorBoundary(
      handleError,
      ...(deps.stars ? [preCheckoutFeature(deps.stars, deps.logger)] : []),
      ...(deps.links ? [linkFeature(deps.links, deps.publicUrl)] : []),
      accountFeature(deps.users),
      ...(deps.stars ? [successfulPaymentFeature(deps.stars)] : []),
      startFeature(deps.users, deps.publicUrl),
      writeAccessFeature(deps.users),
      languageFeature(deps.users, deps.publicUrl),
      helpFeature(),
      shortcutsFeature(deps.publicUrl),
      ...(deps.admins ? [adminFeature(deps.admins.ids, deps.admins.service)] : []),
    )
    .use(unhandledFeature());
  // Errors outside the boundary (none expected) must not stop polling either.
  bot.catch(handleError);
  return bot;
}

/** A failed update is logged and dropped; a user who blocked the bot is an ordinary event, not a crash. */
function reportBotError(error: BotError<BotContext>, deps: BotDeps): void {
  const cause = error.error;
  const updateId = error.ctx.update.update_id;
  if (cause instanceof GrammyError && cause.error_code === 403) {
    deps.logger.info({ updateId, method: cause.method }, 'telegram: user has blocked the bot');
    return;
  }
  if (cause instanceof GrammyError) {
    deps.logger.warn(
      { updateId, method: cause.method, code: cause.error_code, description: cause.description },
      'telegram: API call failed',
    );
    return;
  }
  if (cause instanceof HttpError) {
    deps.logger.warn({ updateId }, 'telegram: network error');
    return;
  }
  deps.logger.error({ updateId, err: cause }, 'telegram: update handler failed');
}
