import { useSyncExternalStore } from 'react';

/** Chromium's `beforeinstallprompt` event (not in TypeScript's DOM types). */
interface BeforeInstallPromptEvent extends Event {
  prompt(): Promise<void>;
  readonly userChoice: Promise<{ outcome: 'accepted' | 'dismissed' }>;
}

let offered: BeforeInstallPromptEvent | null = null;
const listeners = new Set<() => void>();
const changed = () => listeners.forEach((listener) => listener());

/**
 * Keeps the browser's offer to install the site (fired once, early, where the browser offers it) for the
 * menu's Install entry, instead of the browser's own banner. Called once at start on the web.
 */
export function captureInstallPrompt(): void {
  window.addEventListener('beforeinstallprompt', (event) => {
    event.preventDefault();
    offered = event as BeforeInstallPromptEvent;
    changed();
  });
  window.addEventListener('appinstalled', () => {
    offered = null;
    changed();
  });
}

/** Shows the browser's install dialog; the offer is used up either way (the browser makes a new one if it wants). */
export async function promptInstall(): Promise<void> {
  const event = offered;
  if (!event) return;
  offered = null;
  changed();
  await event.prompt();
}

/** Whether the browser offers to install the site now. */
export function useInstallOffered(): boolean {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => offered !== null,
  );
}
