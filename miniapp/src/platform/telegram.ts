import {
  closingBehavior,
  init,
  initData,
  miniApp,
  mockTelegramEnv,
  openTelegramLink,
  postEvent,
  shareURL,
} from '@telegram-apps/sdk-react';
import { signInWithTelegram } from '../api/queries/telegramAuth.ts';
import { shareOnTheWeb } from './web.ts';
import type { Platform } from './platform.ts';
import { askWriteAccess, openTelegramInvoice, telegramHaptic, telegramStartParam } from './telegramActions.ts';
import { readTelegramLaunch, type TelegramLaunch } from './telegramLaunch.ts';
import { followTelegramTheme, mountTelegramView, telegramButtons } from './telegramView.ts';

/**
 * The Mini App inside Telegram (@telegram-apps/sdk-react, spec section 4): expand, no vertical swipes
 * (they would close the app mid-swipe), Telegram's theme colours and safe-area insets as CSS variables,
 * its back button on inner screens, haptics, init data → jwtToken, invoices. Null outside Telegram.
 */
export function createTelegramPlatform(): Platform | null {
  const launch = readTelegramLaunch();
  if (!launch) return null;
  // Launch parameters the SDK cannot read (a client we do not know, a mangled link): the reopen screen,
  // never a blank page or the web site's forms inside Telegram.
  if (!launch.readable) return unreadableLaunch();
  try {
    hostLaunch(launch);
    init();
  } catch (error) {
    console.warn('Telegram environment not usable; open the app from the bot', error);
    return unreadableLaunch();
  }
  document.documentElement.dataset.platform = 'telegram';
  try {
    // The init data's fields (user, start_param) read below: parsed once from the launch parameters.
    initData.restore();
  } catch (error) {
    console.warn('Telegram init data not readable', error);
  }
  mountTelegramView();
  const buttons = telegramButtons();
  const prefersDark = followTelegramTheme();

  return {
    kind: 'telegram',
    prefersDark,
    ready() {
      miniApp.ready.ifAvailable();
      document.documentElement.dataset.ready = 'true';
    },
    async signIn() {
      // Telegram's init data as sent (not the SDK's copy, see telegramLaunch.ts); absent ones are posted
      // too (as ''): the server logs the refusal under its request id.
      return signInWithTelegram(launch.initData);
    },
    userLanguage() {
      return initData.user()?.language_code ?? null;
    },
    userFirstName() {
      return initData.user()?.first_name ?? null;
    },
    openTelegramLink(url) {
      if (!openTelegramLink.ifAvailable(url)[0]) window.location.assign(url);
    },
    confirmClosing(ask) {
      if (ask) closingBehavior.enableConfirmation.ifAvailable();
      else closingBehavior.disableConfirmation.ifAvailable();
    },
    ...buttons,
    haptic: telegramHaptic,
    openPayment: openTelegramInvoice,
    requestWriteAccess: askWriteAccess,
    startParam: telegramStartParam,
    launchId() {
      return launch.id;
    },
    shareLink(url, text) {
      // Telegram's own chat picker (t.me/share/url); the Mini App stays open on current clients.
      if (shareURL.ifAvailable(url, text)[0]) return Promise.resolve('shared');
      return shareOnTheWeb(url, text);
    },
  };
}

/**
 * Hands the SDK the launch parameters in the form it reads (telegramLaunch.ts). In a plain browser tab,
 * with no Telegram client around the page (`npm run demo`'s link), the SDK would find nowhere to post its
 * calls, so they are kept in `window.__telegramEvents` instead, and the app runs as inside Telegram.
 * Harmless anywhere: the server still checks the launch data's signature, and a real client always
 * provides one of these three channels (the SDK's own test).
 */
function hostLaunch(launch: TelegramLaunch): void {
  const page = window as unknown as {
    TelegramWebviewProxy?: unknown;
    external?: { notify?: unknown };
    __telegramEvents?: unknown[];
  };
  const hosted =
    window.parent !== window || page.TelegramWebviewProxy !== undefined || typeof page.external?.notify === 'function';
  if (hosted) {
    // Only when Telegram's own copy would not parse (no `signature`): the SDK then keeps the one given here.
    if (launch.patched) mockTelegramEnv({ launchParams: launch.sdkQuery });
    return;
  }
  const events: unknown[] = [];
  page.__telegramEvents = events;
  mockTelegramEnv({
    launchParams: launch.sdkQuery,
    onEvent(event) {
      events.push(event);
    },
  });
}

/**
 * Inside Telegram, launch parameters the app cannot read: the session finds no launch data to sign in with
 * (the reopen screen says so), and the few calls that screen makes go straight to the client.
 */
function unreadableLaunch(): Platform {
  document.documentElement.dataset.platform = 'telegram';
  const post = (send: () => void): boolean => {
    try {
      send();
      return true;
    } catch {
      return false;
    }
  };
  return {
    kind: 'telegram',
    prefersDark: null,
    ready() {
      post(() => postEvent('web_app_ready'));
      document.documentElement.dataset.ready = 'true';
    },
    signIn: () => Promise.resolve({ failure: 'unreadable' }),
    userLanguage: () => null,
    userFirstName: () => null,
    openTelegramLink(url) {
      const link = new URL(url);
      if (!post(() => postEvent('web_app_open_tg_link', { path_full: link.pathname + link.search })))
        window.location.assign(url);
    },
    confirmClosing: () => undefined,
    onSettings: () => undefined,
    setBackButton: () => undefined,
    haptic: () => undefined,
    openPayment(url) {
      window.location.assign(url);
      return Promise.resolve('pending');
    },
    requestWriteAccess: () => Promise.resolve(false),
    startParam: () => null,
    launchId: () => null,
    shareLink: (url, text) => shareOnTheWeb(url, text),
  };
}
