import type { LaunchedBot } from './launch.ts';

/**
 * The bot's stand-in when none runs. Apart from launch.ts, which loads grammY and the whole bot: a
 * deployment without BOT_TOKEN (or with BOT_MODE=off) never loads them (about 20 MB of the process; issue 41).
 */
export const idleBot: LaunchedBot = { startPolling: () => undefined, stop: () => Promise.resolve(), status: () => Promise.resolve('off') };

/** Why no bot runs with these settings (the line to log), or undefined when one does. */
export function whyNoBot(botToken: string | undefined, mode: 'off' | 'polling' | 'webhook'): string | undefined {
  if (!botToken) return 'BOT_TOKEN is not set: running without the Telegram bot';
  if (mode === 'off') return 'BOT_MODE=off: the Telegram bot is not started';
  return undefined;
}
