/**
 * `npm run bench`: what a request costs. Runs the real app (SQLite in a temporary folder) and a bare Koa
 * app on loopback in this process and measures, over real HTTP with keep-alive:
 *   - POST /api/login (argon2id m=7168, t=5, p=1), sequential, then a burst of parallel logins
 *     (the hashing queue keeps at most two at once; the burst shows its latency and memory);
 *   - GET /api/current_user with a session cookie against the same route on a bare Koa app,
 *     printing p50/p99 of both and the ratio: the price of sessions, CSRF, headers and logging;
 *   - an open-loop load (BENCH_RATE requests a second, 200, for BENCH_SECONDS, 6, in three rounds after 0.5 s of warm-up each)
 *     of GET /api/current_user and GET /api/search from signed-in people against a bare Koa route answering
 *     the same body, on PostgreSQL when TEST_DATABASE_URL is set (else SQLite), with the request log at
 *     `info` (written synchronously to /dev/null, as pino writes to a server's stdout) and without it. Latency counts from
 *     the moment a request was due, so a slow answer delays none of the next ones' clocks.
 * Figures only, no thresholds: timings are never asserted in tests.
 */
import type { Server } from 'node:http';
import Router from '@koa/router';
import Koa from 'koa';
import { pino } from 'pino';
import { createApp } from '../server/app.ts';
import { PostgresEventBus } from '../server/features/events/index.ts';
import { createPerson } from '../server/test/people.ts';
import { TestClock } from '../server/test/testClock.ts';
import { createLogger } from '../server/logger.ts';
import { Browser } from '../server/test/browser.ts';
import { createTestDatabase } from '../server/test/testDatabase.ts';
import { listen, openLoop, ratioLine, summary, time } from './benchKit.ts';

// BENCH_OPEN_LOOP_ONLY=1: only the open-loop part (quicker while iterating on the request path).
if (process.env.BENCH_OPEN_LOOP_ONLY) {
  await openLoopBench();
  process.exit(0);
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
const app = summary(
  'GET /api/current_user (Iskra, signed in)',
  await measureGet(`${iskra.url}/api/current_user`, { Cookie: cookie }, 3000),
);
const base = summary(
  'GET /api/current_user (bare Koa + router)',
  await measureGet(`${bare.url}/api/current_user`, {}, 3000),
);
ratioLine('current_user ratio Iskra / bare Koa', app, base, {
  measure: 'GET /api/current_user, one at a time (SQLite)',
  floor: 'bare Koa + router, same route',
});
console.log(`${'login p50 / current_user p50'.padEnd(44)} ${(loginStats.p50 / app.p50).toFixed(0)}x`);

iskra.server.closeAllConnections();
bare.server.closeAllConnections();
iskra.server.close();
bare.server.close();
await database.drop();

await openLoopBench();

async function openLoopBench(): Promise<void> {
  const rate = Number(process.env.BENCH_RATE ?? 200);
  const seconds = Number(process.env.BENCH_SECONDS ?? 6);
  const dialect = process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite';
  const db = await createTestDatabase(dialect);
  const clock = new TestClock();
  // Every process of a PostgreSQL deployment listens for changes (main.ts); so does this one.
  const bus =
    dialect === 'postgres'
      ? await PostgresEventBus.start(db.url ?? '', db.schema ?? 'public', createLogger('silent'))
      : undefined;
  // Synchronous writes of each line, as pino writes to a server's stdout.
  const sink = pino.destination({ dest: '/dev/null', sync: true });
  const servers: Server[] = [];
  const iskraWith = async (level: 'info' | 'silent', listening = true) => {
    const served = await listen(
      createApp({
        db: db.db,
        dialect,
        databaseProbe: db.probe,
        logger: createLogger(level, sink),
        mailer: { send: () => Promise.resolve() },
        uploadsDir: `${db.dataDir}/uploads`,
        publicUrl: 'http://localhost:8080',
        sessionSecret: 'bench-secret-bench-secret-bench-secret',
        clock,
        ...(bus && listening ? { eventBus: bus } : {}),
      }),
    );
    servers.push(served.server);
    return served.url;
  };
  const logged = await iskraWith('info');
  const quiet = await iskraWith('silent');
  // Without the LISTEN connection there is no session cache: every request reads its session (as before it).
  const uncached = bus ? await iskraWith('info', false) : undefined;
  // Searchers a few hundred metres apart, enough of them that none reaches the search limit (60 a minute).
  const people = await Promise.all(
    Array.from({ length: 160 }, (_, i) =>
      createPerson(
        { database: db, clock, url: logged },
        { gender: i % 2 ? 'Male' : 'Female', at: [55.75 + (i % 10) * 0.003, 37.61 + Math.floor(i / 10) * 0.003] },
      ),
    ),
  );
  const cookies = people.map((p) => `iskra_session=${p.browser.cookie('iskra_session') ?? ''}`);
  const bodyOf = async (url: string): Promise<unknown> =>
    (await fetch(url, { headers: { Cookie: cookies[0] ?? '' } })).json();
  const currentUserBody = await bodyOf(`${logged}/api/current_user`);
  const searchBody = await bodyOf(`${logged}/api/search`);
  const bareApp = new Koa();
  const bareRouter = new Router({ prefix: '/api' });
  bareRouter.get('/current_user', (ctx) => {
    ctx.body = currentUserBody;
  });
  bareRouter.get('/search', (ctx) => {
    ctx.body = searchBody;
  });
  bareApp.use(bareRouter.routes());
  const bareServed = await listen(bareApp);
  servers.push(bareServed.server);

  // Each instance builds a person's candidate pool at their first search: built for everyone before timing.
  const instances = [logged, quiet, ...(uncached ? [uncached] : [])];
  for (const base of instances) {
    for (let i = 0; i < cookies.length; i += 8) {
      await Promise.all(
        cookies
          .slice(i, i + 8)
          .map(async (cookie) => (await fetch(`${base}/api/search`, { headers: { Cookie: cookie } })).arrayBuffer()),
      );
    }
  }

  // The variants take turns in short rounds, so a noisy moment of the shared machine falls on all of them alike
  // rather than on whichever ran then; each round starts with half a second of warm-up left out.
  const rounds = 3;
  console.log(
    `\nOpen loop, ${rate} req/s for ${seconds} s each in ${rounds} interleaved rounds, ${dialect}, ${people.length} signed-in people`,
  );
  let turn = 0;
  const variant = (base: string, path: string) => ({
    samples: [] as number[],
    failures: 0,
    next: () => ({ url: `${base}${path}`, headers: { Cookie: cookies[turn++ % cookies.length] ?? '' } }),
  });
  for (const path of ['/api/current_user', '/api/search']) {
    const variants = {
      bare: variant(bareServed.url, path),
      info: variant(logged, path),
      silent: variant(quiet, path),
      ...(uncached ? { uncached: variant(uncached, path) } : {}),
    };
    for (let round = 0; round < rounds; round++) {
      for (const v of Object.values(variants)) {
        await openLoop(v.next, rate, 0.5);
        const { latencies, failures } = await openLoop(v.next, rate, seconds / rounds);
        v.samples.push(...latencies);
        v.failures += failures;
      }
    }
    // Answers other than 200 (and refused connections) are counted apart, and their latencies count too.
    const report = (name: string, v: { samples: number[]; failures: number }) => {
      const stats = summary(name, v.samples);
      if (v.failures) console.log(`  ${v.failures} answers other than 200`);
      return stats;
    };
    const floor = report(`GET ${path} (bare Koa, same body)`, variants.bare);
    const info = report(`GET ${path} (Iskra, log at info)`, variants.info);
    const silent = report(`GET ${path} (Iskra, no log)`, variants.silent);
    const reading = variants.uncached
      ? report(`GET ${path} (Iskra, info, no session cache)`, variants.uncached)
      : undefined;
    const about = (variant: string) => ({
      measure: `GET ${path}, ${variant} (open loop ${rate}/s, ${dialect})`,
      floor: 'bare Koa route, same body',
    });
    ratioLine(`${path} Iskra (info) / bare`, info, floor, about('log at info'));
    ratioLine(`${path} Iskra (no log) / bare`, silent, floor, about('no log'));
    if (reading) ratioLine(`${path} Iskra (no session cache) / bare`, reading, floor, about('no session cache'));
  }
  // The request log's own price, apart from the noise of whole requests: one line as errorHandler writes it.
  const requestLog = createLogger('info', sink);
  const lines = 50_000;
  const logStart = performance.now();
  for (let i = 0; i < lines; i++) {
    requestLog.info(
      {
        reqId: 'f3b0c8a2-7d1e-4a57-9a65-2d0a3f1e9b11',
        method: 'GET',
        path: '/api/current_user',
        status: 200,
        ms: 1.2,
        user: i,
      },
      'request',
    );
  }
  console.log(
    `${'request log line at info (pino, redaction)'.padEnd(44)} ${(((performance.now() - logStart) * 1000) / lines).toFixed(1)} µs a request`,
  );
  for (const server of servers) {
    server.closeAllConnections();
    server.close();
  }
  await bus?.close();
  sink.destroy();
  await db.drop();
}
