import type { BrowserContext, Page } from 'playwright-core';
import { standInLaunchHash, telegramThemes, type TelegramTheme } from '../../src/platform/telegramStandIn.ts';
import { e2eBotToken, telegramAuthDate } from '../harness.ts';

/**
 * Telegram as the Mini App meets it, for tests of features opened inside Telegram: launch parameters in
 * the URL's hash (as Telegram's Android client passes them), init data signed as Telegram signs them
 * (with Bot API 8.0's `signature` field; the app's own stand-in, platform/telegramStandIn.ts, builds both),
 * and `window.TelegramWebviewProxy.postEvent` keeping the app's calls.
 */
export { telegramThemes, type TelegramTheme };

export interface TelegramLaunch {
  user: Record<string, unknown>;
  theme?: TelegramTheme;
  /** Seconds since the epoch; now by default (older for stale launch data). */
  authDate?: number;
  /** The token the data is signed with: the site's by default (another for a wrong signature). */
  botToken?: string;
  startParam?: string;
  /** Bot API 8.0's Ed25519 `signature`; null leaves it out, as older and third-party clients do. */
  signature?: string | null;
}

/** The hash Telegram opens the Mini App with. */
export function telegramLaunchHash({
  user,
  theme = 'light',
  authDate = telegramAuthDate(),
  botToken = e2eBotToken,
  startParam,
  signature = 'ZTJlLXRlc3Qtc2lnbmF0dXJl',
}: TelegramLaunch): Promise<string> {
  return standInLaunchHash({
    user,
    theme,
    authDate,
    botToken,
    startParam,
    signature,
    queryId: 'AAH-e2e-launch',
    platform: 'android',
  });
}

/** Telegram's Android client as the page sees it: postEvent receives the app's calls, kept in `__events`. */
export async function hostLikeTelegram(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    const events: [string, unknown][] = [];
    Object.assign(window, {
      __events: events,
      TelegramWebviewProxy: {
        postEvent(type: string, data: string) {
          events.push([type, data ? (JSON.parse(data) as unknown) : null]);
        },
      },
    });
  });
}

/** What the app has asked of Telegram so far. */
export const telegramEvents = (page: Page): Promise<[string, unknown][]> =>
  page.evaluate(() => (window as unknown as { __events: [string, unknown][] }).__events);
