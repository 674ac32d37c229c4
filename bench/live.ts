/**
 * `npm run bench` (live part): how soon a write on the server shows in the open app, and whether the app's
 * memory grows with the events it receives.
 *   - The real server on SQLite with the built front end; Anna signed in on her deck (/search) in headless
 *     Chromium at 390×844, the tab bar on screen. Boris, matched with her, writes to her over HTTP, one
 *     message at a time; after each, Anna reads the conversation through the API (another tab of hers, as
 *     it were). So every write changes what her Chats badge shows: the message makes it 1, the read takes it
 *     away. Each latency is from starting the POST (or the GET that reads) to the page reporting the badge
 *     changed: a MutationObserver sees the change, waits for the next animation frame (the frame that paints
 *     it) and calls a binding exposed by Playwright (`page.exposeBinding`), whose arrival is timed in Node.
 *     Both ends are on one machine and one clock. The page also says how long it waited for that frame, so
 *     the time to the DOM change is printed too (the frame wait, up to a frame at 60 Hz, is noise beside a
 *     few milliseconds of work). 10 rounds of warm-up, then 100 measured.
 *   - The floor, in the same page and the same run, measured the same way: a bare node:http relay that
 *     writes each POST's body as a Server-Sent Event to an EventSource that sets a DOM node's text. One
 *     relay round follows each app round, so both see the same load. The relay is another origin, which
 *     the app's Content-Security-Policy forbids, so the page runs with CSP bypassed (it changes nothing in
 *     how the app handles its events).
 *   - Memory: the page's JS heap (CDP `Performance.getMetrics` JSHeapUsedSize after
 *     `HeapProfiler.collectGarbage`), DOM nodes and event listeners after 0, 100, 500 and 1,000 events (an event
 *     is one write: a message or a read), each taken once the 5 s message toast is gone.
 * Figures only, no thresholds.
 */
import { once } from 'node:events';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { launchChromium } from '../miniapp/e2e/chromium.ts';
import { createPerson } from '../server/test/people.ts';
import { createTestApp } from '../server/test/testApp.ts';
import { line, ratioLine, summary } from './benchKit.ts';
import { buildFrontend } from '../scripts/ensure-frontend.ts';

const warmupRounds = 10;
const measuredRounds = 100;
const totalEvents = 1000;
/** The server lets one person send 30 messages a minute; the test clock moves past the window this often. */
const messagesPerWindow = 25;

await buildFrontend();
const app = await createTestApp('sqlite', { frontendDist: path.resolve(import.meta.dirname, '../miniapp/dist') });
const anna = await createPerson(app, { name: 'Anna', gender: 'Female' });
// Premium: no daily message allowance in the way of 500 messages.
const boris = await createPerson(app, { name: 'Boris', gender: 'Male', premium: true });
// They like each other and Anna starts the conversation, all through the API.
for (const [from, to] of [
  [anna, boris],
  [boris, anna],
] as const) {
  const liked = await from.browser.post('/api/like', { profile_id: to.profileId });
  if (liked.status !== 200) throw new Error(`like: ${liked.status} ${await liked.text()}`);
}
const started = await anna.browser.post('/api/conversations/start', { profile_id: boris.profileId });
if (started.status !== 200) throw new Error(`start: ${started.status} ${await started.text()}`);
const conversation = ((await started.json()) as { conversation_id: number }).conversation_id;

/** The floor: one open event stream, and every POST's body written to it as an event. */
const relayStreams = new Set<ServerResponse>();
const relay = createServer((req, res) => {
  if (req.method === 'GET' && req.url === '/events') {
    res.writeHead(200, {
      'Content-Type': 'text/event-stream',
      'Cache-Control': 'no-store',
      'Access-Control-Allow-Origin': app.url,
    });
    res.write(': open\n\n');
    relayStreams.add(res);
    req.on('close', () => relayStreams.delete(res));
    return;
  }
  if (req.method === 'POST' && req.url === '/send') {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      for (const stream of relayStreams) stream.write(`data: ${body}\n\n`);
      res.writeHead(204).end();
    });
    return;
  }
  res.writeHead(404).end();
});
relay.listen(0, '127.0.0.1');
await once(relay, 'listening');
const relayUrl = `http://127.0.0.1:${(relay.address() as AddressInfo).port}`;

const { browser, close } = await launchChromium();
const context = await browser.newContext({
  viewport: { width: 390, height: 844 },
  deviceScaleFactor: 2,
  isMobile: true,
  hasTouch: true,
  baseURL: app.url,
  bypassCSP: true,
});
await context.addCookies([{ name: 'iskra_session', value: anna.browser.cookie('iskra_session') ?? '', url: app.url }]);
const page = await context.newPage();

/** When the page reported a change, and how long it had waited for the frame after the DOM change. */
interface Seen {
  at: number;
  frameWait: number;
}

/** What the page reports: which node changed ('chats' badge or 'floor' text), what it shows now, the frame wait. */
let waiting: { which: string; value: string; resolve: (seen: Seen) => void } | null = null;
await page.exposeBinding('benchSeen', (_source, which: string, value: string, frameWait: number) => {
  if (waiting && waiting.which === which && waiting.value === value) {
    const { resolve } = waiting;
    waiting = null;
    resolve({ at: performance.now(), frameWait });
  }
});

/**
 * Runs a write and returns the milliseconds from its start to the page showing `value` on `which` (the
 * frame after the change), and to the change in the DOM (the same less the wait for that frame).
 */
async function shown(
  which: 'chats' | 'floor',
  value: string,
  write: () => Promise<Response>,
): Promise<{ frame: number; dom: number }> {
  let timer: NodeJS.Timeout | undefined;
  const seen = new Promise<Seen>((resolve, reject) => {
    waiting = { which, value, resolve };
    timer = setTimeout(
      () => reject(new Error(`the page did not show ${which} = ${JSON.stringify(value)} within 10 s`)),
      10_000,
    );
  });
  const started = performance.now();
  const res = await write();
  if (!res.ok) throw new Error(`${which} write failed: ${res.status} ${await res.text()}`);
  await res.arrayBuffer();
  const { at, frameWait } = await seen;
  clearTimeout(timer);
  return { frame: at - started, dom: at - started - frameWait };
}

const responsePending = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/events');
await page.goto('/search');
await page.locator('.tabbar').waitFor({ timeout: 30_000 });
// The app's stream has been answered: the server has fixed its cursor, so every later write reaches it.
await responsePending;

// In the page: the floor's stream and node, and one observer reporting both the Chats badge and the floor
// node on the frame after they change. Plain JavaScript in a string: this script is type-checked without
// the DOM library.
await page.evaluate(`new Promise((resolve) => {
  const floor = document.createElement('output');
  floor.id = 'bench-floor';
  document.body.append(floor);
  const source = new EventSource(${JSON.stringify(`${relayUrl}/events`)});
  source.onmessage = (event) => (floor.textContent = event.data);
  source.onopen = () => resolve();
  const current = () => ({
    chats: document.querySelector('.tabbar a[href="/ChatList"] .tab-badge')?.getAttribute('data-count') ?? '0',
    floor: floor.textContent ?? '',
  });
  let last = current();
  new MutationObserver(() => {
    const now = current();
    for (const which of ['chats', 'floor']) {
      if (now[which] === last[which]) continue;
      const value = now[which];
      const changed = performance.now();
      requestAnimationFrame(() => window.benchSeen(which, value, performance.now() - changed));
    }
    last = now;
  }).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true, attributeFilter: ['data-count'] });
})`);

const cdp = await context.newCDPSession(page);
await cdp.send('Performance.enable');
/** The page's JS heap after a full collection, its DOM nodes and event listeners, once no toast is shown. */
async function memory(): Promise<string> {
  for (let waited = 0; (await page.locator('.toast').count()) > 0; waited += 100) {
    if (waited > 15_000) throw new Error('a message toast stayed on screen for 15 s');
    await page.waitForTimeout(100);
  }
  await cdp.send('HeapProfiler.collectGarbage');
  await cdp.send('HeapProfiler.collectGarbage');
  const { metrics } = await cdp.send('Performance.getMetrics');
  const metric = (name: string) => metrics.find((m) => m.name === name)?.value ?? Number.NaN;
  return `JS heap ${(metric('JSHeapUsedSize') / 1024 / 1024).toFixed(2)} MiB, ${metric('Nodes')} DOM nodes, ${metric('JSEventListeners')} listeners`;
}

const heap = new Map<number, string>([[0, await memory()]]);
const messageLatencies: { frame: number; dom: number }[] = [];
const readLatencies: { frame: number; dom: number }[] = [];
const floorLatencies: { frame: number; dom: number }[] = [];
let floorValue = 0;
const floorWrite = async (): Promise<{ frame: number; dom: number }> => {
  floorValue += 1;
  const value = String(floorValue);
  return shown('floor', value, () => fetch(`${relayUrl}/send`, { method: 'POST', body: value }));
};
let events = 0;
for (let round = 0; events < totalEvents; round++) {
  if (round % messagesPerWindow === 0) app.clock.advance(61);
  const sent = await shown('chats', '1', () =>
    boris.browser.post(`/api/conversations/${conversation}/messages`, { content: `Message ${round}` }),
  );
  const read = await shown('chats', '0', () => anna.browser.get(`/api/conversations/${conversation}/messages?limit=1`));
  events += 2;
  if (round >= warmupRounds && round < warmupRounds + measuredRounds) {
    messageLatencies.push(sent);
    readLatencies.push(read);
    floorLatencies.push(await floorWrite(), await floorWrite());
  }
  if (events === 100 || events === totalEvents / 2 || events === totalEvents) heap.set(events, await memory());
}

console.log(`\nLive bench, Chromium ${browser.version()}, 390×844, SQLite, ${new Date().toISOString()}`);
for (const moment of ['frame', 'dom'] as const) {
  console.log(
    moment === 'frame'
      ? `Server write → shown: the animation frame after the DOM change, ${measuredRounds} rounds after ${warmupRounds} of warm-up:`
      : 'Server write → in the DOM (the same less the wait for that frame):',
  );
  const message = summary(
    '  message → Chats badge 1 (app)',
    messageLatencies.map((l) => l[moment]),
  );
  const read = summary(
    '  read → Chats badge gone (app)',
    readLatencies.map((l) => l[moment]),
  );
  const floor = summary(
    '  POST → node text (bare SSE relay, floor)',
    floorLatencies.map((l) => l[moment]),
  );
  const floorName = 'bare SSE relay writing into a node of the same page';
  const to = moment === 'frame' ? 'shown (frame)' : 'in the DOM';
  ratioLine('  ratio message / floor', message, floor, { measure: `message → Chats badge 1, ${to}`, floor: floorName });
  ratioLine('  ratio read / floor', read, floor, { measure: `read → Chats badge gone, ${to}`, floor: floorName });
}
console.log('The page after n events (messages and reads), after a full garbage collection:');
for (const [count, text] of heap) line(`  after ${count} events`, text);

await close();
relay.closeAllConnections();
relay.close();
await app.close();
