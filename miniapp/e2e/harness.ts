import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Browser, BrowserContext, Page, Request } from 'playwright-core';
import { expect } from 'vitest';
import type { PublicConfig } from '../../server/contract/config.ts';
import { TelegramStandIn } from '../../server/test/telegramStandIn.ts';
import { createTestApp, type TestApp, type TestAppOptions } from '../../server/test/testApp.ts';
import { missingKeyMark } from '../../locales/languages.ts';
import { launchChromium, workerChromium, type ChromiumKind } from './chromium.ts';

export const repoRoot = path.resolve(import.meta.dirname, '../..');
export const distDir = path.join(repoRoot, 'miniapp', 'dist');
export const artifactsDir = path.join(repoRoot, 'artifacts', 'screenshots');
/**
 * The languages a browser test's behaviour runs in: Russian, the default. A screen behaves the same in
 * either language; English gets one pass over every screen instead (english.e2e.test.ts: screenshot, no
 * Russian, no missing key), and dark.e2e.test.ts runs in English. E2E_LANGUAGES=ru,en runs both.
 */
export const behaviourLanguages = (process.env.E2E_LANGUAGES ?? 'ru')
  .split(',')
  .filter((l): l is 'ru' | 'en' => l === 'ru' || l === 'en');

/**
 * Whether behaviour runs in the dark theme too: no, by default. A screen behaves the same in either theme;
 * dark.e2e.test.ts passes over the screens in the dark theme, and the picture tests (`pictureVariants`) shoot
 * one. E2E_THEMES=light,dark runs behaviour in both.
 */
export const behaviourThemes: boolean[] = (process.env.E2E_THEMES ?? 'light')
  .split(',')
  .filter((theme) => theme === 'light' || theme === 'dark')
  .map((theme) => theme === 'dark');

export interface PictureVariant {
  language: 'ru' | 'en';
  dark: boolean;
  /** `ru-light`, `en-dark`: the suffix of the variant's screenshots. */
  name: string;
}

/**
 * The language and theme pairs a test that takes pictures shoots: Russian in light and English in dark, so
 * each language and each theme is seen once (a run takes the pictures half as often as all four would).
 * E2E_PICTURES=all shoots all four pairs, for a session that looks at every variant of a screen.
 */
export const pictureVariants: PictureVariant[] = (
  process.env.E2E_PICTURES === 'all'
    ? [
        ['ru', false],
        ['ru', true],
        ['en', false],
        ['en', true],
      ]
    : [
        ['ru', false],
        ['en', true],
      ]
).map(([language, dark]) => ({
  language: language as 'ru' | 'en',
  dark: dark as boolean,
  name: `${String(language)}-${dark ? 'dark' : 'light'}`,
}));

/** A phone: iPhone 12–15 class. */
export const phone = { width: 390, height: 844 };

export const testConfig: PublicConfig = {
  google_client_id: null,
  bot_username: null,
  telegram_bot_id: null,
  support_email: 'support@iskra.test',
  support_telegram: '@iskra_support',
  legal_name: 'Иванова Мария Сергеевна',
  legal_inn: '771234567890',
  legal_ogrnip: '324770000123456',
};

export interface ContextOptions {
  language?: 'ru' | 'en';
  dark?: boolean;
  /**
   * The site's service worker (issue 39): blocked unless a test is about it, so a page's requests stay the
   * page's own (routes, request records) and no test pays for its precaching.
   */
  serviceWorkers?: 'allow' | 'block';
  /**
   * How long after `load` the page settles (api/contractCheck.ts): `quick` (0.1 s) unless a test is about
   * what comes before and after, which takes the app's own two seconds (`production`).
   */
  settle?: 'quick' | 'production';
}

export interface PageOptions extends ContextOptions {
  /** Runs on the fresh profile before the page opens: a sign-in, init scripts, routes, permissions. */
  prepare?: (context: BrowserContext) => Promise<unknown>;
  /** A list shared by the file's pages to collect console errors into; a fresh one otherwise. */
  errors?: string[];
}

export interface OpenedPage {
  context: BrowserContext;
  page: Page;
  /** The page's console errors and uncaught exceptions, filled as they happen (see watchErrors). */
  errors: string[];
}

export interface Site {
  app: TestApp;
  /** The Bot API the server calls (the wizard's Telegram photo), a local stand-in: never Telegram's own. */
  telegram: TelegramStandIn;
  browser: Browser;
  /** A fresh browser profile (no cookies, no storage) with the app's language and theme preset. */
  context(options?: ContextOptions): Promise<BrowserContext>;
  /** A page in a fresh profile, prepared as the test needs, with a patient default timeout and its console errors watched. */
  page(options?: PageOptions): Promise<OpenedPage>;
  close(): Promise<void>;
}

/**
 * The language a context was made with (its stored choice and browser locale). An account signed in there
 * takes it too (signedIn.ts): the account's language wins on every device, so a test's people speak the
 * language of the test's pages.
 */
export const contextLanguages = new WeakMap<BrowserContext, 'ru' | 'en'>();

/** The bot token the site checks Mini App init data against. */
export const e2eBotToken = '123456789:e2e-test-bot-token';

/**
 * When the faked Telegram signed its launch data: ten minutes ago. The site's server runs on a test clock
 * that stands still at its start, and takes an auth_date at most a minute ahead of it; signed with the real
 * time, launch data opened more than a minute into a file's run (a loaded machine) was refused as from the future.
 */
export function telegramAuthDate(): number {
  return Math.floor(Date.now() / 1000) - 600;
}

/** The real server (temporary SQLite, real SMTP) serving the built bundle, and a headless Chromium. */
export async function startSite({
  chromium: kind = 'shell',
  ...options
}: Pick<TestAppOptions, 'stars' | 'publicConfig' | 'testPaymentProvider' | 'adminEmails' | 'adminTelegramIds'> & {
  /** The headless shell of this test worker (chromium.ts workerChromium); `full`: a Chromium of the file's own, for what the shell lacks (Web Push). */
  chromium?: ChromiumKind;
} = {}): Promise<Site> {
  const telegram = new TelegramStandIn(e2eBotToken);
  const telegramApiRoot = await telegram.start();
  const app = await createTestApp('sqlite', {
    frontendDist: distDir,
    publicConfig: testConfig,
    botToken: e2eBotToken,
    telegramApiRoot,
    ...options,
  });
  // The worker's shell outlives the file: the file closes its own contexts. A full Chromium is the file's own.
  const own = kind === 'shell' ? null : await launchChromium(kind);
  const browser = own ? own.browser : await workerChromium();
  const opened = new Set<BrowserContext>();
  const missingKeys = new Set<string>();
  const site: Site = {
    app,
    telegram,
    browser,
    async context({ language, dark, serviceWorkers = 'block', settle = 'quick' } = {}) {
      const context = await browser.newContext({
        viewport: phone,
        deviceScaleFactor: Number(process.env.E2E_DPR ?? 2),
        isMobile: true,
        hasTouch: true,
        locale: language === 'en' ? 'en-US' : 'ru-RU',
        baseURL: app.url,
        colorScheme: 'light',
        serviceWorkers,
      });
      opened.add(context);
      context.on('close', () => opened.delete(context));
      if (language) contextLanguages.set(context, language);
      // Any page of the file showing a key instead of its text fails the file (checked in close()).
      context.on('console', (message) => {
        if (message.text().startsWith(missingKeyMark)) missingKeys.add(message.text());
      });
      if (settle === 'quick') await context.addInitScript(() => Object.assign(globalThis, { iskraSettleMs: 100 }));
      const stored: Record<string, string> = {};
      if (language) stored.language = language;
      if (dark !== undefined) stored.darkMode = String(dark);
      if (Object.keys(stored).length) {
        await context.addInitScript((values: Record<string, string>) => {
          if (sessionStorage.getItem('e2e-preset')) return;
          sessionStorage.setItem('e2e-preset', '1');
          for (const [k, v] of Object.entries(values)) localStorage.setItem(k, v);
        }, stored);
      }
      return context;
    },
    async page({ prepare, errors, ...contextOptions } = {}) {
      const context = await site.context(contextOptions);
      await prepare?.(context);
      const page = await context.newPage();
      // A loaded 2-core machine: the first paint of a cold bundle can take seconds.
      page.setDefaultTimeout(20_000);
      return { context, page, errors: watchErrors(page, errors) };
    },
    async close() {
      await Promise.all([...opened].map((context) => context.close()));
      await own?.close();
      await app.close();
      await telegram.stop();
      expect([...missingKeys], 'translation keys the pages asked for and the dictionary lacks').toEqual([]);
    },
  };
  return site;
}

/** Console errors and CSP violations fail the test that caused them: collected into `errors` as they happen. */
export function watchErrors(page: Page, errors: string[] = []): string[] {
  page.on('console', (message) => {
    if (message.type() === 'error' && !/Failed to load resource/.test(message.text())) errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return errors;
}

/** The API requests a page makes from now on, as "GET /api/profile", with their Authorization header. */
export interface ApiRequests {
  readonly made: { call: string; authorization: string | undefined }[];
  /** The calls made so far, e.g. to assert that a screen did not ask for what an answer already gave it. */
  calls(): string[];
  stop(): void;
}

export function recordApiRequests(page: Page): ApiRequests {
  const made: ApiRequests['made'] = [];
  const onRequest = (request: Request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith('/api/'))
      made.push({ call: `${request.method()} ${url.pathname}`, authorization: request.headers().authorization });
  };
  page.on('request', onRequest);
  return { made, calls: () => made.map((r) => r.call), stop: () => page.off('request', onRequest) };
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[] }[];
}

/** axe-core in the page (evaluated, not a script tag: the CSP forbids inline scripts): no serious or critical issue. */
export async function expectAccessible(page: Page, label: string): Promise<void> {
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (
      window as unknown as { axe: { run: (ctx: Document, options: object) => Promise<{ violations: AxeViolation[] }> } }
    ).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => n.target),
    }));
  });
  const bad = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(bad, `${label}: ${JSON.stringify(bad, null, 2)}`).toEqual([]);
}

/** The screen as it is (`name`), and the same screen in the dark theme (`name-dark`); the theme is put back. */
export async function screenshotLightAndDark(page: Page, name: string): Promise<void> {
  const before = await page.evaluate(() => document.documentElement.dataset.theme ?? '');
  await page.evaluate(() => (document.documentElement.dataset.theme = 'light'));
  await screenshot(page, name);
  await page.evaluate(() => (document.documentElement.dataset.theme = 'dark'));
  await screenshot(page, `${name}-dark`);
  await page.evaluate((theme) => (document.documentElement.dataset.theme = theme), before);
}

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(artifactsDir, { recursive: true });
  // Let fonts and transitions settle so the picture shows the screen as a person sees it.
  await page.evaluate(() => document.fonts.ready);
  // In CSS pixels (390 x 844 on the phone): at the device's 2x, Chromium rasterised each screen afresh for the
  // picture, and the run's 280-odd screenshots cost about 35 of Chromium's 157 CPU-seconds in the browser
  // files (144 s -> 126 s of their wall time alone, quiet), for nothing a test asserts.
  await page.screenshot({ path: path.join(artifactsDir, `${name}.png`), fullPage: false, scale: 'css' });
}
