import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.tsx';
import { initI18n } from './i18n.ts';
import { captureInstallPrompt } from './lib/installPrompt.ts';
import { rememberReferral } from './lib/referral.ts';
import { registerServiceWorker } from './lib/serviceWorker.ts';
import { applyDark, storedDarkMode } from './lib/theme.ts';
import { detectPlatform, setPlatform } from './platform/index.ts';
import './styles/app.css';

async function start(): Promise<void> {
  rememberReferral();
  const [platform] = await Promise.all([detectPlatform(), initI18n()]);
  setPlatform(platform);
  if (platform.kind === 'web') captureInstallPrompt();
  registerServiceWorker(platform);
  // Inside Telegram its colour scheme wins unless the user chose one here (boot.js applied the stored one).
  if (platform.prefersDark !== null && storedDarkMode() === null) applyDark(platform.prefersDark);
  const root = document.getElementById('root');
  if (!root) throw new Error('#root missing');
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}

void start();
