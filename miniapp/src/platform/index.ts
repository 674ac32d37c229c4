import { isTelegramLaunch, wantsTelegramMock } from './detect.ts';
import type { Platform } from './platform.ts';
import { createWebPlatform } from './web.ts';

export {
  platform,
  setPlatform,
  type Platform,
  type HapticKind,
  type InvoiceOutcome,
  type LaunchFailure,
  type LaunchSignIn,
  type ShareOutcome,
} from './platform.ts';

/** Picks the platform; the Telegram SDK is a separate chunk loaded only inside Telegram. */
export async function detectPlatform(): Promise<Platform> {
  if (import.meta.env.DEV || import.meta.env.VITE_TELEGRAM_MOCK === '1') {
    if (wantsTelegramMock()) {
      const { mockTelegram } = await import('./telegramMock.ts');
      await mockTelegram();
    }
  }
  if (isTelegramLaunch()) {
    const { createTelegramPlatform } = await import('./telegram.ts');
    const telegram = createTelegramPlatform();
    if (telegram) return telegram;
  }
  return createWebPlatform();
}
