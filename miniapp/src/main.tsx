import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App, preloadScreensAt } from './App.tsx';
import { initI18n } from './i18n.ts';
import { captureInstallPrompt } from './lib/installPrompt.ts';
import { rememberReferral } from './lib/referral.ts';
import { registerServiceWorker } from './lib/serviceWorker.ts';
import { applyDark, storedDarkMode } from './lib/theme.ts';
import { detectPlatform, setPlatform } from './platform/index.ts';
import './styles/app.css';

/** At most this long the first render waits for the first screen's code. */
const screenWaitMs = 1000;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function start(): Promise<void> {
  rememberReferral();
  const [platform] = await Promise.all([detectPlatform(), initI18n()]);
  setPlatform(platform);
  if (platform.kind === 'web') captureInstallPrompt();
  registerServiceWorker(platform);
  // Inside Telegram its colour scheme wins unless the user chose one here (boot.js applied the stored one).
  if (platform.prefersDark !== null && storedDarkMode() === null) applyDark(platform.prefersDark);
  // The first screen's code (boot.js has fetched it beside the entry on /, /login and /search): drawn by
  // the first render instead of after a fallback. A screen still far away does not hold the frame back
  // for long; a failed load is left to the render, which says so.
  await Promise.race([preloadScreensAt(window.location.pathname).catch(() => undefined), pause(screenWaitMs)]);
  const root = document.getElementById('root');
  if (!root) throw new Error('#root missing');
  // Rendered as a transition, which React splits into short tasks: between them the browser runs what
  // boot.js started (the first card's answer turning into its photo's preload) instead of holding it
  // until the whole first render is done.
  const app = createRoot(root);
  startTransition(() => {
    app.render(
      <StrictMode>
        <App />
      </StrictMode>,
    );
  });
}

void start();
