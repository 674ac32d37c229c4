import {
  backButton,
  closingBehavior,
  miniApp,
  settingsButton,
  swipeBehavior,
  themeParams,
  viewport,
} from '@telegram-apps/sdk-react';
import { applyDark, storedDarkMode } from '../lib/theme.ts';
import type { Platform } from './platform.ts';

/**
 * The Mini App's frame inside Telegram: Telegram's theme colours and safe-area insets as CSS variables,
 * no vertical swipes (they would close the app mid-swipe), expanded to full height, and the client's
 * buttons (back, Settings, closing confirmation) mounted for the platform to use.
 */
export function mountTelegramView(): void {
  miniApp.mountSync.ifAvailable();
  themeParams.mountSync.ifAvailable();
  themeParams.bindCssVars.ifAvailable();
  miniApp.bindCssVars.ifAvailable();
  swipeBehavior.mount.ifAvailable();
  swipeBehavior.disableVertical.ifAvailable();
  backButton.mount.ifAvailable();
  const viewportMounted = viewport.mount.ifAvailable();
  if (viewportMounted[0]) {
    void Promise.resolve(viewportMounted[1])
      .then(() => {
        viewport.bindCssVars.ifAvailable();
        viewport.expand.ifAvailable();
      })
      .catch((error: unknown) => console.warn('Telegram viewport not mounted', error));
  }
  // Expand at once too: mounting waits for Telegram's answer, the expansion need not.
  viewport.expand.ifAvailable();

  closingBehavior.mount.ifAvailable();
  // Telegram's own Settings item (the ⋮ menu): the app's menu, where the settings are.
  settingsButton.mount.ifAvailable();
  settingsButton.show.ifAvailable();
}

/** Telegram's Settings item and back button, each leading to the one handler the app has set. */
export function telegramButtons(): Pick<Platform, 'onSettings' | 'setBackButton'> {
  let settingsHandler: (() => void) | null = null;
  settingsButton.onClick.ifAvailable(() => settingsHandler?.());

  let backHandler: (() => void) | null = null;
  const onBack = () => backHandler?.();
  backButton.onClick.ifAvailable(onBack);

  return {
    onSettings(handler) {
      settingsHandler = handler;
    },
    setBackButton(handler) {
      backHandler = handler;
      if (handler) backButton.show.ifAvailable();
      else backButton.hide.ifAvailable();
    },
  };
}

/**
 * Whether Telegram's theme is dark now. A theme switched while the app is open (Telegram's theme_changed):
 * the colours follow through the bound CSS variables, light or dark at once here, unless the user chose
 * one in the app's menu.
 */
export function followTelegramTheme(): boolean {
  const prefersDark = themeParams.isDark();
  themeParams.isDark.sub((dark) => {
    if (storedDarkMode() === null) applyDark(dark);
  });
  return prefersDark;
}
