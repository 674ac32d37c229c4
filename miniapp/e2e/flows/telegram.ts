import type { BrowserContext, Page } from 'playwright-core';
import { signInitData } from '../../../server/contract/telegramSignedData.ts';
import { e2eBotToken, telegramAuthDate } from '../harness.ts';

/**
 * Telegram as the Mini App meets it, for tests of features opened inside Telegram: launch parameters in
 * the URL's hash (as Telegram's Android client passes them), init data signed as Telegram signs them
 * (with Bot API 8.0's `signature` field), and `window.TelegramWebviewProxy.postEvent` keeping the app's calls.
 */
export const telegramThemes = {
  dark: {
    bg_color: '#17212b',
    text_color: '#f5f5f5',
    hint_color: '#708499',
    link_color: '#6ab3f3',
    button_color: '#5288c1',
    button_text_color: '#ffffff',
    secondary_bg_color: '#232e3c',
  },
  light: {
    bg_color: '#ffffff',
    text_color: '#000000',
    hint_color: '#999999',
    link_color: '#2481cc',
    button_color: '#2481cc',
    button_text_color: '#ffffff',
    secondary_bg_color: '#efeff3',
  },
} as const;
export type TelegramTheme = keyof typeof telegramThemes;

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
export async function telegramLaunchHash({
  user,
  theme = 'light',
  authDate = telegramAuthDate(),
  botToken = e2eBotToken,
  startParam,
  signature = 'ZTJlLXRlc3Qtc2lnbmF0dXJl',
}: TelegramLaunch): Promise<string> {
  const tgWebAppData = await signInitData(botToken, {
    auth_date: String(authDate),
    query_id: 'AAH-e2e-launch',
    ...(signature === null ? {} : { signature }),
    user: JSON.stringify(user),
    ...(startParam ? { start_param: startParam } : {}),
  });
  const params = new URLSearchParams({
    tgWebAppData,
    tgWebAppVersion: '8.0',
    tgWebAppPlatform: 'android',
    tgWebAppThemeParams: JSON.stringify(telegramThemes[theme]),
  });
  if (startParam) params.set('tgWebAppStartParam', startParam);
  return `#${params.toString()}`;
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
