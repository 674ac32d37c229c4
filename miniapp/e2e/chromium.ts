import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/** Debian's chromium: the browser tests never download one (no network, no `playwright install`). */
export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Makes sure Chromium is there: installs Debian's package when running as root, otherwise stops with
 * the exact command to run. The browser tests never silently skip.
 */
export function ensureChromium(): void {
  if (existsSync(chromiumPath)) return;
  if (process.getuid?.() === 0 && existsSync('/usr/bin/apt-get')) {
    console.log(`${chromiumPath} is missing: installing Debian's chromium (apt-get install -y chromium)…`);
    execFileSync('apt-get', ['update'], { stdio: 'inherit' });
    execFileSync('apt-get', ['install', '-y', 'chromium'], { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
    if (existsSync(chromiumPath)) return;
  }
  throw new Error(
    `The browser tests need Chromium at ${chromiumPath}. Install it with: sudo apt-get install -y chromium ` +
      '(or set CHROMIUM_PATH to another Chromium binary).',
  );
}

/** Quiet, headless, offline-friendly: without the background-networking flags Chromium keeps calling home. */
export async function launchChromium(): Promise<{ browser: Browser; close: () => Promise<void> }> {
  ensureChromium();
  // Playwright gives every launch a fresh temporary profile (its own --user-data-dir) and removes it on close.
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
    ],
  });
  return {
    browser,
    async close() {
      await browser.close();
    },
  };
}
