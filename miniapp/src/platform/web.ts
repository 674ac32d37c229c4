import { startParamFromAddress, type Platform } from './platform.ts';

/** The web site: cookie session with CSRF (see api/client.ts), the browser's own back button. */
export function createWebPlatform(): Platform {
  return {
    kind: 'web',
    prefersDark: null,
    ready() {
      document.documentElement.dataset.ready = 'true';
    },
    signIn: () => Promise.resolve(false),
    setBackButton() {
      /* the browser has one */
    },
    haptic(kind) {
      // A short buzz where the browser supports it (Android); silence elsewhere.
      if (kind === 'match' && 'vibrate' in navigator) navigator.vibrate(40);
    },
    openPayment(url) {
      // Spec section 4: on receiving payment_url the whole window navigates to it.
      window.location.assign(url);
      return Promise.resolve('pending');
    },
    requestWriteAccess: () => Promise.resolve(false),
    startParam: () => startParamFromAddress(),
  };
}
