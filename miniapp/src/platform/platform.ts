import type { CurrentUserResponse } from '@contract/accounts.ts';

/** What differs between the web site and the Telegram Mini App; screens only ever see this. */
export type HapticKind = 'like' | 'dislike' | 'match' | 'message' | 'success' | 'error' | 'selection';
export type InvoiceOutcome = 'paid' | 'cancelled' | 'failed' | 'pending';

export interface Platform {
  readonly kind: 'web' | 'telegram';
  /** Telegram: the client's colour scheme (null on the web: the stored choice or the system's). */
  readonly prefersDark: boolean | null;
  /** Tell the host the first screen can render (Telegram hides its placeholder). */
  ready(): void;
  /**
   * Sign in without a form when the host vouches for the user (Telegram init data → jwtToken). Resolves
   * the signed-in user (as `GET /api/current_user` gives it) once a token was stored, else null.
   */
  signIn(): Promise<CurrentUserResponse | null>;
  /** The host's back button on inner screens (Telegram); the web uses the browser's. */
  setBackButton(onBack: (() => void) | null): void;
  haptic(kind: HapticKind): void;
  /** Opens a payment: Telegram's invoice sheet, or navigates the whole window on the web. */
  openPayment(url: string): Promise<InvoiceOutcome>;
  /** Telegram: asks to let the bot write to the user (when they never started it). */
  requestWriteAccess(): Promise<boolean>;
  /** The deep-link parameter the app was opened with (a bot button's `startapp`), if any. */
  startParam(): string | null;
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
