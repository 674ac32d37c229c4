import { startParamFromAddress, type HapticKind, type Platform, type ShareOutcome } from './platform.ts';

/**
 * Vibration patterns (ms) standing in for Telegram's haptics where the browser can vibrate (Android Chrome):
 * a tap for a like, a lighter one for a dislike, a double tap for a message arriving on another screen, a
 * little rhythm for a match or a purchase. Selection changes stay silent: a buzz on every slider step
 * would be noise.
 */
export const webVibration: Record<HapticKind, number | number[] | null> = {
  like: 18,
  dislike: 8,
  match: [30, 60, 45],
  message: [12, 50, 12],
  success: [20, 40, 20],
  error: [60, 40, 60],
  selection: null,
};

/** The web site: cookie session with CSRF (see api/client.ts), the browser's own back button. */
export function createWebPlatform(): Platform {
  return {
    kind: 'web',
    prefersDark: null,
    ready() {
      document.documentElement.dataset.ready = 'true';
    },
    signIn: () => Promise.resolve(null),
    userLanguage: () => null,
    userFirstName: () => null,
    openTelegramLink(url) {
      window.location.assign(url);
    },
    confirmClosing() {
      /* a web page is left through the browser, which keeps its own history */
    },
    onSettings() {
      /* the web has no host menu: the top bar links to the menu */
    },
    setBackButton() {
      /* the browser has one */
    },
    haptic(kind) {
      const pattern = webVibration[kind];
      // Silence where the browser cannot vibrate (iOS Safari, desktops) or before the first tap (Chrome refuses
      // it then, with a console error: a message or a match can arrive before the person touched the page).
      const touched = !('userActivation' in navigator) || navigator.userActivation.hasBeenActive;
      if (pattern !== null && 'vibrate' in navigator && touched) navigator.vibrate(pattern);
    },
    openPayment(url) {
      // Spec section 4: on receiving payment_url the whole window navigates to it.
      window.location.assign(url);
      return Promise.resolve('pending');
    },
    requestWriteAccess: () => Promise.resolve(false),
    startParam: () => startParamFromAddress(),
    launchId: () => null,
    shareLink: shareOnTheWeb,
  };
}

/** The browser's share sheet where there is one (phones), else the link copied for the user to paste. */
export async function shareOnTheWeb(url: string, text: string): Promise<ShareOutcome> {
  if (typeof navigator.share === 'function') {
    try {
      await navigator.share({ url, text });
      return 'shared';
    } catch (error) {
      if (error instanceof DOMException && error.name === 'AbortError') return 'cancelled';
      // Not allowed here (an insecure page, a desktop without targets): the clipboard then.
    }
  }
  try {
    await navigator.clipboard.writeText(url);
    return 'copied';
  } catch {
    return 'failed';
  }
}
