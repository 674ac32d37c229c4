import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chromium, type Browser, type BrowserServer } from 'playwright-core';

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
    execFileSync('apt-get', ['install', '-y', 'chromium'], {
      stdio: 'inherit',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
    if (existsSync(chromiumPath)) return;
  }
  throw new Error(
    `The browser tests need Chromium at ${chromiumPath}. Install it with: sudo apt-get install -y chromium ` +
      '(or set CHROMIUM_PATH to another Chromium binary).',
  );
}

/** Quiet, headless, offline-friendly: without the background-networking flags Chromium keeps calling home. */
const launchOptions = {
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
};

/** Where the run's shared Chromium listens (globalSetup.ts), for the test files' workers. */
export const sharedChromiumVariable = 'ISKRA_E2E_CHROMIUM_WS';

/** One Chromium for the whole browser run: each file connects to it instead of starting its own. */
export async function launchSharedChromium(): Promise<BrowserServer> {
  ensureChromium();
  return chromium.launchServer(launchOptions);
}

/**
 * A browser to drive: the run's shared Chromium when there is one (a file's contexts close when it
 * disconnects), else one of its own (a bench, a file run outside the suite's setup).
 */
export async function launchChromium(): Promise<{ browser: Browser; close: () => Promise<void> }> {
  const shared = process.env[sharedChromiumVariable];
  // Playwright gives every launch a fresh temporary profile (its own --user-data-dir) and removes it on close.
  const browser = shared ? await chromium.connect(shared) : (ensureChromium(), await chromium.launch(launchOptions));
  return {
    browser,
    async close() {
      await browser.close();
    },
  };
}
