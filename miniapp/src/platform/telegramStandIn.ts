// Relative, not '@contract/…': the browser tests (miniapp/e2e, run by Node without the app's aliases) import this file too.
import { signInitData } from '../../../server/contract/telegramSignedData.ts';

/**
 * Telegram as a stand-in plays it, for the dev mode (`?tgmock`, telegramMock.ts) and the browser tests
 * (miniapp/e2e/flows/telegram.ts): launch parameters as a Telegram client passes them to the Mini App, with
 * init data signed exactly as Telegram signs them. Nothing here touches the page or the SDK, so Node runs it too.
 */

/** Theme colours of Telegram's clients: the night theme (Telegram Desktop's, Android's) and the day one. */
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

export interface StandInInitData {
  botToken: string;
  user: Record<string, unknown>;
  /** Seconds since the epoch. */
  authDate: number;
  queryId: string;
  /** Bot API 8.0's Ed25519 `signature` for third parties (the SDK requires it; our server checks `hash`); null leaves it out, as older clients do. */
  signature: string | null;
  startParam?: string;
}

/** Init data as a Telegram client passes them, signed under `botToken` (HMAC-SHA-256 under HMAC("WebAppData", token)). */
export function standInInitData({
  botToken,
  user,
  authDate,
  queryId,
  signature,
  startParam,
}: StandInInitData): Promise<string> {
  return signInitData(botToken, {
    auth_date: String(authDate),
    query_id: queryId,
    ...(signature === null ? {} : { signature }),
    user: JSON.stringify(user),
    ...(startParam ? { start_param: startParam } : {}),
  });
}

export interface StandInLaunch extends StandInInitData {
  theme: TelegramTheme;
  /** The client's `tgWebAppPlatform`: `android`, `tdesktop`… */
  platform: string;
}

/** The launch parameters a Telegram client opens the Mini App with, as the SDK's mockTelegramEnv takes them. */
export async function standInLaunchParams(launch: StandInLaunch) {
  return {
    tgWebAppData: await standInInitData(launch),
    tgWebAppVersion: '8.0',
    tgWebAppPlatform: launch.platform,
    tgWebAppThemeParams: telegramThemes[launch.theme],
    // Left out when there is none, as Telegram's clients do.
    ...(launch.startParam ? { tgWebAppStartParam: launch.startParam } : {}),
  };
}

/** The same launch parameters in the address's hash, as Telegram's Android client passes them. */
export async function standInLaunchHash(launch: StandInLaunch): Promise<string> {
  const { tgWebAppData, tgWebAppVersion, tgWebAppPlatform, tgWebAppThemeParams } = await standInLaunchParams(launch);
  const params = new URLSearchParams({
    tgWebAppData,
    tgWebAppVersion,
    tgWebAppPlatform,
    tgWebAppThemeParams: JSON.stringify(tgWebAppThemeParams),
  });
  if (launch.startParam) params.set('tgWebAppStartParam', launch.startParam);
  return `#${params.toString()}`;
}
