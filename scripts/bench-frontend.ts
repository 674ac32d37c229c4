/**
 * `npm run bench` (second part): what the first open of the app costs on a phone.
 *   - Initial JavaScript in kB gzipped per route: the entry and its modulepreloads (what the HTML makes the
 *     browser fetch before anything renders), and all JavaScript fetched until the page is idle (the route's
 *     lazy chunk, the API client loaded after the first paint). Goal: at most 100 kB, stretch 80 kB.
 *   - First load in headless Chromium with Lighthouse's mobile profile (slow 4G: 150 ms RTT, 1.6 Mbit/s
 *     down, 750 kbit/s up; CPU slowed 4x), cold cache: largest contentful paint and the time of ready()
 *     (the `iskra:ready` mark, set when the first screen has rendered, where Telegram's ready() is called).
 * Figures only, no thresholds. The search screen is a placeholder until the search issue lands.
 */
import { once } from 'node:events';
import { existsSync, readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { createApp } from '../server/app.ts';
import { createLogger } from '../server/logger.ts';
import { createTestDatabase } from '../server/test/testDatabase.ts';
import { launchChromium } from '../miniapp/e2e/chromium.ts';
import { buildFrontend } from './ensure-frontend.ts';

const dist = path.resolve(import.meta.dirname, '../miniapp/dist');
const routes = ['/', '/search'];
const runs = 5;

await buildFrontend();
const database = await createTestDatabase('sqlite');
const server = createApp({
  db: database.db,
  dialect: 'sqlite',
  databaseProbe: database.probe,
  logger: createLogger('silent'),
  mailer: { send: () => Promise.resolve() },
  uploadsDir: path.join(database.dataDir, 'uploads'),
  publicUrl: 'http://localhost:8080',
  sessionSecret: 'bench-secret-bench-secret-bench-secret',
  frontendDist: dist,
}).listen(0, '127.0.0.1');
await once(server, 'listening');
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const { browser, close } = await launchChromium();

const gzipKb = (file: string) => gzipSync(readFileSync(path.join(dist, file)), { level: 9 }).length / 1024;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

// What index.html itself pulls in before the first render: the entry script and its modulepreloads.
const html = readFileSync(path.join(dist, 'index.html'), 'utf8');
const entryFiles = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.js)"/g)].map((m) => m[1] ?? '');
const entryKb = entryFiles.reduce((sum, f) => sum + gzipKb(f), 0);
const cssKb = [...html.matchAll(/href="\/(assets\/[^"]+\.css)"/g)].reduce((sum, m) => sum + gzipKb(m[1] ?? ''), 0);

console.log(`\nIskra front end bench, Chromium ${browser.version()}, ${new Date().toISOString()}`);
console.log(`${'Entry JS (index.html + modulepreloads)'.padEnd(44)} ${entryKb.toFixed(1)} kB gzipped (${entryFiles.length} files), CSS ${cssKb.toFixed(1)} kB`);
// One language's texts, fetched beside the entry (see miniapp/localesPlugin.ts); not JavaScript, but on the critical path.
for (const m of html.matchAll(/(ru|en)=\/(assets\/locale-[^;"]+\.json)/g)) {
  console.log(`${`Dictionary ${m[1]} (preloaded by boot.js)`.padEnd(44)} ${gzipKb(m[2] ?? '').toFixed(1)} kB gzipped`);
}
// What actually crosses the wire: the build's brotli twins (server/http/staticApp.ts sends them).
const sentBytes = (f: string) => readFileSync(path.join(dist, existsSync(path.join(dist, `${f}.br`)) ? `${f}.br` : f)).length;
const brKb = entryFiles.reduce((sum, f) => sum + sentBytes(f) / 1024, 0);
console.log(`${'Entry JS as sent (brotli twins)'.padEnd(44)} ${brKb.toFixed(1)} kB`);

for (const route of routes) {
  // JavaScript actually fetched until the page is idle, without throttling.
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true });
  const page = await context.newPage();
  const scripts = new Set<string>();
  page.on('response', (response) => {
    const pathname = new URL(response.url()).pathname;
    if (pathname.endsWith('.js') && pathname.startsWith('/assets/')) scripts.add(pathname.slice(1));
  });
  await page.goto(url + route, { waitUntil: 'networkidle' });
  await context.close();
  const loadedKb = [...scripts].reduce((sum, f) => sum + gzipKb(f), 0);
  console.log(`${`JS loaded by ${route} until idle`.padEnd(44)} ${loadedKb.toFixed(1)} kB gzipped (${scripts.size} files)`);

  const lcps: number[] = [];
  const readies: number[] = [];
  for (let i = 0; i < runs; i++) {
    const throttled = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    // Page code as a string: this script is type-checked for Node, without the DOM library.
    await throttled.addInitScript(`
      window.__lcp = 0;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) window.__lcp = entry.startTime;
      }).observe({ type: 'largest-contentful-paint', buffered: true });
    `);
    const tab = await throttled.newPage();
    const cdp = await throttled.newCDPSession(tab);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 150,
      downloadThroughput: (1.6 * 1024 * 1024) / 8,
      uploadThroughput: (750 * 1024) / 8,
    });
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    await tab.goto(url + route, { waitUntil: 'load' });
    // Polled with evaluate (a CDP call): waitForFunction would eval() in the page, which the CSP forbids.
    for (let waited = 0; !(await tab.evaluate<boolean>("performance.getEntriesByName('iskra:ready').length > 0")); waited += 100) {
      if (waited > 60_000) throw new Error(`${route}: no iskra:ready mark within 60 s`);
      await tab.waitForTimeout(100);
    }
    await tab.waitForTimeout(500);
    // LCP is final once the user interacts; a click on nothing ends it without navigating.
    await tab.mouse.click(1, 843);
    const { lcp, ready } = await tab.evaluate<{ lcp: number; ready: number }>(
      "({ lcp: window.__lcp, ready: performance.getEntriesByName('iskra:ready')[0]?.startTime ?? NaN })",
    );
    lcps.push(lcp);
    readies.push(ready);
    await throttled.close();
  }
  console.log(
    `${`${route}: slow 4G + 4x CPU, median of ${runs}`.padEnd(44)} LCP ${median(lcps).toFixed(0)} ms, ready() ${median(readies).toFixed(0)} ms`,
  );
}

await close();
server.closeAllConnections();
server.close();
await database.drop();
