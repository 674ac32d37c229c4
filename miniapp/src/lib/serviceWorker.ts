import type { Platform } from '../platform/platform.ts';

/**
 * Registers the service worker (built into dist/sw.js by pwaPlugin.ts) once the page has loaded, so it never
 * competes with the first screen for the network. The web site only: inside Telegram the Mini App is opened
 * fresh by Telegram each time and must not keep a worker (nor would Telegram's webviews honour it), and a dev
 * server has no sw.js.
 */
export function registerServiceWorker(platform: Platform): void {
  if (!import.meta.env.PROD || platform.kind !== 'web' || !('serviceWorker' in navigator)) return;
  const register = () => {
    // A browser that refuses (private mode, a blocked worker) simply has no offline copy.
    navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch(() => undefined);
  };
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register, { once: true });
}
