import type { Api } from 'grammy';
import type { Logger } from '../server/logger.ts';
import { createBot } from './bot.ts';
import { idleBot, whyNoBot, type BotStatus, type LaunchedBot } from './offline.ts';
import type { BotDeps, BotUsers } from './context.ts';
import { configureBot } from './setup.ts';
import { allowedUpdates } from './updates.ts';
import { webhookHandler, webhookSecret } from './webhook.ts';

export interface LaunchOptions {
  botToken: string | undefined;
  mode: 'off' | 'polling' | 'webhook';
  apiRoot: string;
  publicUrl: string;
  sessionSecret: string;
  users: BotUsers;
  logger: Logger;
  admins?: BotDeps['admins'];
  stars?: BotDeps['stars'];
  links?: BotDeps['links'];
}

/** getMe, remembered for a while: health checks come often and must not become Telegram traffic. */
export function botProbe(api: Api, cacheMs = 30_000): () => Promise<BotStatus> {
  let last: { at: number; status: BotStatus } | undefined;
  return async () => {
    if (last && Date.now() - last.at < cacheMs) return last.status;
    const status: BotStatus = await api.getMe().then(
      () => 'ok',
      () => 'unreachable',
    );
    last = { at: Date.now(), status };
    return status;
  };
}

/**
 * Builds the bot for the configured mode. The web site must run even when Telegram is unreachable, so
 * a failing start is logged, never fatal. Polling suits one process; several processes need webhook mode.
 */
export function launchBot(options: LaunchOptions): LaunchedBot {
  const { logger } = options;
  const offline = whyNoBot(options.botToken, options.mode);
  if (offline || !options.botToken) {
    logger.info(offline);
    return idleBot;
  }
  if (!options.publicUrl.startsWith('https://')) {
    logger.warn('PUBLIC_URL is not https: Telegram refuses Mini App buttons to it');
  }
  const bot = createBot({
    token: options.botToken,
    users: options.users,
    logger,
    publicUrl: options.publicUrl,
    apiRoot: options.apiRoot,
    admins: options.admins,
    stars: options.stars,
    links: options.links,
  });

  if (options.mode === 'webhook') {
    logger.info('Telegram bot: webhook mode (register it with npm run bot:set-webhook)');
    return {
      api: bot.api,
      status: botProbe(bot.api),
      webhook: webhookHandler(bot, webhookSecret(options.botToken, options.sessionSecret), logger),
      startPolling: () => undefined,
      stop: () => Promise.resolve(),
    };
  }

  return {
    api: bot.api,
    status: botProbe(bot.api),
    startPolling() {
      bot
        .start({
          allowed_updates: [...allowedUpdates],
          onStart: (info) => {
            logger.info({ bot: info.username }, 'Telegram bot: polling');
            configureBot(bot.api, options.publicUrl).catch((error: unknown) => {
              logger.warn({ err: error }, 'Telegram bot: could not set commands and menu button');
            });
          },
        })
        .catch((error: unknown) => {
          logger.error({ err: error }, 'Telegram bot: polling stopped');
        });
    },
    stop: () => (bot.isRunning() ? bot.stop() : Promise.resolve()),
  };
}
