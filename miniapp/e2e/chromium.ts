import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/**
 * Debian's chromium, in its headless shell (package `chromium-headless-shell`): the browser tests never download
 * one (no network, no `playwright install`). The shell is the same Blink and V8 without the browser's UI layer:
 * the full binary's `--headless` is a whole windowless browser, and cost the browser files about 1.8 times the
 * CPU (live, chat, typing and journey: Chromium 61 s against 34 s in the shell, see docs/testing.md). The shell
 * has no Web Push (its notification permission is always denied): a file about it asks for the full browser.
 */
export type ChromiumKind = 'shell' | 'full';

const chromiums: Record<ChromiumKind, { path: string; debianPackage: string; variable: string }> = {
  shell: {
    path: process.env.CHROMIUM_PATH ?? '/usr/lib/chromium/chromium-headless-shell',
    debianPackage: 'chromium-headless-shell',
    variable: 'CHROMIUM_PATH',
  },
  full: {
    path: process.env.CHROMIUM_FULL_PATH ?? '/usr/bin/chromium',
    debianPackage: 'chromium',
    variable: 'CHROMIUM_FULL_PATH',
  },
};

/**
 * Makes sure Chromium is there: installs Debian's package when running as root, otherwise stops with
 * the exact command to run. The browser tests never silently skip.
 */
export function ensureChromium(kind: ChromiumKind = 'shell'): string {
  const { path, debianPackage, variable } = chromiums[kind];
  if (existsSync(path)) return path;
  if (process.getuid?.() === 0 && existsSync('/usr/bin/apt-get')) {
    console.log(`${path} is missing: installing Debian's ${debianPackage} (apt-get install -y ${debianPackage})…`);
    execFileSync('apt-get', ['update'], { stdio: 'inherit' });
    execFileSync('apt-get', ['install', '-y', debianPackage], {
      stdio: 'inherit',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
    if (existsSync(path)) return path;
  }
  throw new Error(
    `The browser tests need Chromium at ${path}. Install it with: sudo apt-get install -y ${debianPackage} ` +
      `(or set ${variable} to another Chromium binary).`,
  );
}

/** Quiet, headless, offline-friendly: without the background-networking flags Chromium keeps calling home. */
const launchOptions = {
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

/**
 * A browser of its own (a bench, a file that needs the full one): Playwright gives every launch a fresh
 * temporary profile (its own --user-data-dir) and removes it on close.
 */
export async function launchChromium(
  kind: ChromiumKind = 'shell',
): Promise<{ browser: Browser; close: () => Promise<void> }> {
  const browser = await chromium.launch({ ...launchOptions, executablePath: ensureChromium(kind) });
  return {
    browser,
    async close() {
      await browser.close();
    },
  };
}

/** The shell of this test worker, started by its first browser file and kept for the next ones. */
let workerShell: Promise<Browser> | undefined;

/**
 * The headless shell for a browser test file: one per test worker, kept for the worker's next files (the
 * browser project runs with `isolate: false`, so a worker's files share this module), each file closing the
 * contexts it opened (harness.ts). The files' workers once shared one Chromium started by the run's setup,
 * which relayed every Playwright call through the main process over a WebSocket (its 32 CPU-seconds and the
 * workers' own share of it): the browser project took 178 s that way against 155 s with a shell per worker,
 * quiet, 30 November. A shell that failed to start or has gone is started again by the next file. Playwright
 * ends it when the worker's process exits.
 */
export async function workerChromium(): Promise<Browser> {
  const launched = (workerShell ??= chromium
    .launch({ ...launchOptions, executablePath: ensureChromium('shell') })
    .then((browser) => {
      browser.on('disconnected', () => {
        if (workerShell === launched) workerShell = undefined;
      });
      return browser;
    })
    .catch((error: unknown) => {
      workerShell = undefined;
      throw error;
    }));
  return launched;
}

/**
 * Closes every context still open in this worker's shell: run after each browser file (closeLeftContexts.ts).
 * A file that failed before its site's close() left its contexts open beside the worker's next files, their
 * pages still calling a server that had stopped.
 */
export async function closeLeftContexts(): Promise<void> {
  const browser = await workerShell?.catch(() => undefined);
  await Promise.all(browser?.contexts().map((context) => context.close()) ?? []);
}
