import { signInitData } from '@contract/telegramSignedData.ts';
import { mockTelegramEnv } from '@telegram-apps/sdk-react';

/**
 * Development only (`npm run dev`, then open `/?tgmock`): fakes the Telegram environment so the Mini App
 * path runs in a normal browser. The init data are signed exactly as Telegram signs them
 * (HMAC-SHA-256 under HMAC("WebAppData", bot token)) with a test bot token: start the server with the
 * same BOT_TOKEN and `POST /api/auth/telegram` accepts them. Never part of a production build.
 */
const testBotToken = import.meta.env.VITE_TELEGRAM_MOCK_BOT_TOKEN ?? '123456789:iskra-development-test-token';

/** Init data for `user` as a Telegram client would pass them, signed under `botToken`. */
function signedInitData(botToken: string, user: Record<string, unknown>): Promise<string> {
  return signInitData(botToken, {
    auth_date: String(Math.floor(Date.now() / 1000)),
    query_id: 'AAH-iskra-dev',
    // Bot API 8.0's Ed25519 signature for third parties: required by the SDK, not checked by our server.
    signature: 'aXNrcmEtZGV2LXNpZ25hdHVyZQ',
    user: JSON.stringify(user),
  });
}

export async function mockTelegram(): Promise<void> {
  const tgWebAppData = await signedInitData(testBotToken, {
    id: 100000001,
    first_name: 'Dev',
    last_name: 'Tester',
    username: 'iskra_dev',
    language_code: 'ru',
    allows_write_to_pm: true,
  });
  const events: unknown[] = [];
  (window as unknown as { __telegramEvents: unknown[] }).__telegramEvents = events;
  mockTelegramEnv({
    launchParams: {
      tgWebAppData,
      tgWebAppVersion: '8.0',
      tgWebAppPlatform: 'tdesktop',
      tgWebAppThemeParams: {
        bg_color: '#17212b',
        text_color: '#f5f5f5',
        hint_color: '#708499',
        link_color: '#6ab3f3',
        button_color: '#5288c1',
        button_text_color: '#ffffff',
        secondary_bg_color: '#232e3c',
      },
    },
    onEvent(event) {
      events.push(event);
    },
  });
  sessionStorage.setItem('iskra.telegram', '1');
}
