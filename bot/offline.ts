import type { Api } from 'grammy';
import type { Middleware } from 'koa';

export interface LaunchedBot {
  /** The webhook route's handler, in webhook mode. */
  webhook?: Middleware;
  /** The Bot API client (with pacing, retries and the 403 marker), for notifications; absent without a bot. */
  api?: Api;
  /** Starts long polling (polling mode); call once the HTTP server is up. */
  startPolling(): void;
  stop(): Promise<void>;
  /** For /api/health: whether Telegram answers the bot (checked at most every 30 s), or off without a bot. */
  status(): Promise<BotStatus>;
}

export type BotStatus = 'off' | 'ok' | 'unreachable';

/**
 * The bot's stand-in when none runs. Apart from launch.ts, which loads grammY and the whole bot: a
 * deployment without BOT_TOKEN (or with BOT_MODE=off) never loads them (about 20 MB of the process; issue 41).
 */
export const idleBot: LaunchedBot = {
  startPolling: () => undefined,
  stop: () => Promise.resolve(),
  status: () => Promise.resolve('off'),
};

/** Why no bot runs with these settings (the line to log), or undefined when one does. */
export function whyNoBot(botToken: string | undefined, mode: 'off' | 'polling' | 'webhook'): string | undefined {
  if (!botToken) return 'BOT_TOKEN is not set: running without the Telegram bot';
  if (mode === 'off') return 'BOT_MODE=off: the Telegram bot is not started';
  return undefined;
}
