import { mockTelegramEnv } from '@telegram-apps/sdk-react';
import { standInLaunchParams } from './telegramStandIn.ts';

/**
 * Development only (`npm run dev`, then open `/?tgmock`): fakes the Telegram environment so the Mini App
 * path runs in a normal browser. The init data are signed exactly as Telegram signs them
 * (HMAC-SHA-256 under HMAC("WebAppData", bot token)) with a test bot token: start the server with the
 * same BOT_TOKEN and `POST /api/auth/telegram` accepts them. Never part of a production build.
 */
const testBotToken = import.meta.env.VITE_TELEGRAM_MOCK_BOT_TOKEN ?? '123456789:iskra-development-test-token';

export async function mockTelegram(): Promise<void> {
  const launchParams = await standInLaunchParams({
    botToken: testBotToken,
    user: {
      id: 100000001,
      first_name: 'Dev',
      last_name: 'Tester',
      username: 'iskra_dev',
      language_code: 'ru',
      allows_write_to_pm: true,
    },
    authDate: Math.floor(Date.now() / 1000),
    queryId: 'AAH-iskra-dev',
    signature: 'aXNrcmEtZGV2LXNpZ25hdHVyZQ',
    theme: 'dark',
    platform: 'tdesktop',
  });
  const events: unknown[] = [];
  (window as unknown as { __telegramEvents: unknown[] }).__telegramEvents = events;
  mockTelegramEnv({
    launchParams,
    onEvent(event) {
      events.push(event);
    },
  });
  sessionStorage.setItem('iskra.telegram', '1');
}
