import { readStored, storageKeys, writeStored } from './storage.ts';

/** The theme boot.js applied before the first paint, read back from the document. */
export function isDarkApplied(): boolean {
  return document.documentElement.dataset.theme === 'dark';
}

export function applyDark(dark: boolean): void {
  const root = document.documentElement;
  root.dataset.theme = dark ? 'dark' : 'light';
  root.style.colorScheme = dark ? 'dark' : 'light';
  document.querySelector('meta[name="theme-color"]')?.setAttribute('content', dark ? '#121016' : '#fff7f5');
}

/** The dark toggle flips and stores the value (spec section 4). */
export function setDarkMode(dark: boolean): void {
  writeStored(storageKeys.darkMode, dark ? 'true' : 'false');
  applyDark(dark);
}

export function storedDarkMode(): boolean | null {
  const value = readStored(storageKeys.darkMode);
  return value === 'true' ? true : value === 'false' ? false : null;
}
