/**
 * Cheap detection without loading the Telegram SDK: Telegram opens the Mini App with `tgWebAppData` in
 * the URL's hash; later navigations lose the hash, so the first sighting is remembered for the tab.
 */
const flag = 'iskra.telegram';

export function isTelegramLaunch(): boolean {
  const fromUrl = /[#&?]tgWebAppData=/.test(window.location.hash) || /[?&]tgWebAppData=/.test(window.location.search);
  try {
    if (fromUrl) sessionStorage.setItem(flag, '1');
    return fromUrl || sessionStorage.getItem(flag) === '1';
  } catch {
    return fromUrl;
  }
}

/** Development only: `?tgmock` fakes the Telegram environment (see telegramMock.ts). */
export function wantsTelegramMock(): boolean {
  if (!(import.meta.env.DEV || import.meta.env.VITE_TELEGRAM_MOCK === '1')) return false;
  return new URLSearchParams(window.location.search).has('tgmock') || import.meta.env.VITE_TELEGRAM_MOCK === '1';
}
