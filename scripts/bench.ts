/**
 * `npm run bench`: what a request costs. Runs the real app (SQLite in a temporary folder) and a bare Koa
 * app on loopback in this process and measures, over real HTTP with keep-alive:
 *   - POST /api/login (argon2id m=19456, t=2, p=1), sequential, then a burst of parallel logins
 *     (the hashing queue keeps at most two at once; the burst shows its latency and memory);
 *   - GET /api/current_user with a session cookie against the same route on a bare Koa app,
 *     printing p50/p99 of both and the ratio: the price of sessions, CSRF, headers and logging.
 * Figures only, no thresholds: timings are never asserted in tests.
 */
import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Router from '@koa/router';
import Koa from 'koa';
import { createApp } from '../server/app.ts';
import { createLogger } from '../server/logger.ts';
import { Browser } from '../server/test/browser.ts';
import { createTestDatabase } from '../server/test/testDatabase.ts';

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;

function summary(name: string, samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const p50 = quantile(sorted, 0.5);
  const p99 = quantile(sorted, 0.99);
  console.log(`${name.padEnd(44)} n=${String(samples.length).padStart(5)}  p50 ${p50.toFixed(3).padStart(8)} ms  p99 ${p99.toFixed(3).padStart(8)} ms`);
  return { p50, p99 };
}

async function time(run: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await run();
  return performance.now() - start;
}

async function listen(app: Koa): Promise<{ server: Server; url: string }> {
  const server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

const database = await createTestDatabase('sqlite');
const iskra = await listen(
  createApp({
    db: database.db,
    dialect: 'sqlite',
    databaseProbe: database.probe,
    logger: createLogger('silent'),
    mailer: { send: () => Promise.resolve() },
    uploadsDir: `${database.dataDir}/uploads`,
    publicUrl: 'http://localhost:8080',
    sessionSecret: 'bench-secret-bench-secret-bench-secret',
  }),
);
const bareApp = new Koa();
const bareRouter = new Router({ prefix: '/api' });
bareRouter.get('/current_user', (ctx) => {
  ctx.body = { authorized: true, user_verified: false, userprofile: null, user_id: 1 };
});
bareApp.use(bareRouter.routes());
const bare = await listen(bareApp);

const email = 'bench@example.com';
const password = 'bench12345';
const browser = new Browser(iskra.url);
const registered = await browser.post('/api/register', { email, password });
if (registered.status !== 201) throw new Error(`register failed: ${registered.status}`);

console.log(`Iskra bench, Node ${process.version}, ${new Date().toISOString()}`);

const login = async () => {
  const res = await browser.post('/api/login', { email, password });
  if (res.status !== 200) throw new Error(`login failed: ${res.status}`);
  await res.arrayBuffer();
};
for (let i = 0; i < 3; i++) await login();
const loginSamples: number[] = [];
for (let i = 0; i < 40; i++) loginSamples.push(await time(login));
const loginStats = summary('POST /api/login (argon2id), sequential', loginSamples);

// Twenty different people signing in at the same moment (one person is throttled after 10 attempts).
const crowd = await Promise.all(
  Array.from({ length: 20 }, async (_, i) => {
    const person = new Browser(iskra.url);
    await person.post('/api/register', { email: `crowd${i}@example.com`, password });
    return person;
  }),
);
const rssBefore = process.memoryUsage().rss;
const burst = await Promise.all(
  crowd.map((person, i) =>
    time(async () => {
      const res = await person.post('/api/login', { email: `crowd${i}@example.com`, password });
      if (res.status !== 200) throw new Error(`login failed: ${res.status}`);
    }),
  ),
);
const rssAfter = process.memoryUsage().rss;
summary('POST /api/login, 20 at once (queued by 2)', burst);
console.log(
  `${'  RSS growth during the burst'.padEnd(44)} ${((rssAfter - rssBefore) / 1024 / 1024).toFixed(1)} MiB (RSS ${(rssAfter / 1024 / 1024).toFixed(0)} MiB)`,
);

async function measureGet(url: string, headers: Record<string, string>, count: number) {
  const samples: number[] = [];
  for (let i = 0; i < count + 200; i++) {
    const elapsed = await time(async () => {
      const res = await fetch(url, { headers });
      await res.arrayBuffer();
    });
    if (i >= 200) samples.push(elapsed); // the first 200 warm up the JIT and the connection pool
  }
  return samples;
}
const cookie = `iskra_session=${browser.cookie('iskra_session') ?? ''}`;
const app = summary('GET /api/current_user (Iskra, signed in)', await measureGet(`${iskra.url}/api/current_user`, { Cookie: cookie }, 3000));
const base = summary('GET /api/current_user (bare Koa + router)', await measureGet(`${bare.url}/api/current_user`, {}, 3000));
console.log(`${'current_user ratio Iskra / bare Koa'.padEnd(44)} p50 ${(app.p50 / base.p50).toFixed(2)}x  p99 ${(app.p99 / base.p99).toFixed(2)}x`);
console.log(`${'login p50 / current_user p50'.padEnd(44)} ${(loginStats.p50 / app.p50).toFixed(0)}x`);

iskra.server.closeAllConnections();
bare.server.closeAllConnections();
iskra.server.close();
bare.server.close();
await database.drop();
