import type { CurrentUserResponse } from '@contract/accounts.ts';

/** What differs between the web site and the Telegram Mini App; screens only ever see this. */
export type HapticKind = 'like' | 'dislike' | 'match' | 'message' | 'success' | 'error' | 'selection';
export type InvoiceOutcome = 'paid' | 'cancelled' | 'failed' | 'pending';
/** Why Telegram's launch data did not sign the user in: too old, not signed by our bot, absent, no answer, or not readable by the app. */
export type LaunchFailure = 'expired' | 'invalid' | 'missing' | 'unavailable' | 'unreadable';
/** A Mini App sign-in: the signed-in user (as `GET /api/current_user` gives it) or why it failed. */
export type LaunchSignIn = { user: CurrentUserResponse } | { failure: LaunchFailure };
/** How sharing a link went: handed to a share sheet, copied for the user to paste, closed, or impossible. */
export type ShareOutcome = 'shared' | 'copied' | 'cancelled' | 'failed';

export interface Platform {
  readonly kind: 'web' | 'telegram';
  /** Telegram: the client's colour scheme (null on the web: the stored choice or the system's). */
  readonly prefersDark: boolean | null;
  /** Tell the host the first screen can render (Telegram hides its placeholder). */
  ready(): void;
  /**
   * Sign in without a form when the host vouches for the user (Telegram init data → jwtToken): the user
   * once a token was stored, or why not; null on the web (no host to vouch).
   */
  signIn(): Promise<LaunchSignIn | null>;
  /**
   * Telegram: the language the user's client says (`language_code`, unchecked), for a screen shown before
   * any account is known (the launch-failure screen). Null on the web.
   */
  userLanguage(): string | null;
  /** Telegram: the user's first name as Telegram has it (init data `first_name`), to pre-fill the profile. Null on the web. */
  userFirstName(): string | null;
  /** Opens a t.me link: inside Telegram without leaving it (the Mini App closes), on the web as a page. */
  openTelegramLink(url: string): void;
  /** Telegram's Settings item in its own menu (Bot API 7.0 SettingsButton): what it opens. */
  onSettings(handler: (() => void) | null): void;
  /** Telegram: ask before closing the Mini App (unsaved text in a form or a message box). */
  confirmClosing(ask: boolean): void;
  /** The host's back button on inner screens (Telegram); the web uses the browser's. */
  setBackButton(onBack: (() => void) | null): void;
  haptic(kind: HapticKind): void;
  /** Opens a payment: Telegram's invoice sheet, or navigates the whole window on the web. */
  openPayment(url: string): Promise<InvoiceOutcome>;
  /** Telegram: asks to let the bot write to the user (when they never started it). */
  requestWriteAccess(): Promise<boolean>;
  /** The deep-link parameter the app was opened with (a bot button's `startapp`), if any. */
  startParam(): string | null;
  /**
   * Unique to this launch (Telegram: the init data's hash), the same across reloads of it: a deep link is
   * followed once per launch. Null on the web, where the link's address is replaced once followed.
   */
  launchId(): string | null;
  /** Shares a link (an invitation): Telegram's share sheet, else the browser's (Web Share API), else the clipboard. */
  shareLink(url: string, text: string): Promise<ShareOutcome>;
}

/** `startapp` in the address (a bot's web_app button) or the one Telegram hands to Mini App links. */
export function startParamFromAddress(search: string = window.location.search): string | null {
  const query = new URLSearchParams(search);
  return query.get('startapp') ?? query.get('tgWebAppStartParam');
}

/** Set by main.tsx once, before the first render. */
let current: Platform | null = null;

export function setPlatform(platform: Platform): void {
  current = platform;
}

export function platform(): Platform {
  if (!current) throw new Error('platform not initialised');
  return current;
}
