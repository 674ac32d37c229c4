/**
 * Iskra over HTTP on PostgreSQL (issue 24): sign-in, next card (a normal user, and a heavy swiper who has
 * swiped everyone within 25 km), like, chat page and current user, each at 1, 10 and 50 concurrent
 * connections (closed loop: each connection sends its next request when the last answer ended), printing
 * requests a second, p50/p99 and errors per cell. The data is benchHttpData.ts's (10,000 profiles).
 *
 * `--against <checkout>` (another commit's worktree with node_modules) runs the same load on the same data
 * against that checkout's server too and prints both side by side with the ratio this / against. Each server
 * is its own process (`node --import tsx server/main.ts` in its checkout) on its own fresh database on the
 * same PostgreSQL, migrated by its own `scripts/migrate.ts`, then given the same rows. The cells alternate
 * between the servers, so both meet the same spells of load from the rest of the machine.
 *
 * `--burst` (issue 24, point 2) times only the next cards, at 1 and 10 connections, before and after 5,000
 * profiles spread over the data set change within a minute (an import re-geocoding every other person by a
 * metre: the triggers stamp `search_changed_at`), and prints after / before per server.
 *
 * Usage: `npm run bench:http [-- --against <dir>] [--seconds n] [--only <endpoint>] [--burst] [--sqlite] [--cpu-prof <dir>]` (3 s per cell after
 * 0.5 s of warm-up); PostgreSQL from TEST_DATABASE_URL, else DATABASE_URL, else
 * postgres://postgres@127.0.0.1:5432/test, skipped (said so) when it does not answer. Figures only: nothing
 * here is asserted in tests.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { withAdminClient } from '../server/test/testDatabase.ts';
import { argOption, headline, line, quantile } from './benchKit.ts';
import { cpuSecondsOf, pgAnswers, startServer, stopServer, type StartedServer } from './benchCrowd.ts';
import { csrfOf, runScript } from './benchServers.ts';
import {
  benchDataDir,
  benchPassword,
  loadHttpBenchData,
  loadHttpBenchDataSqlite,
  makeHttpBenchData,
  type HttpBenchData,
} from './benchHttpData.ts';

const seconds = Number(argOption('--seconds') ?? 3);
const warmupSeconds = 0.5;
const concurrencies = [1, 10, 50];
const against = argOption('--against');
/** Only the endpoints whose name contains this (`--only like`), to look at one closer. */
const only = argOption('--only');
const burst = process.argv.includes('--burst');
/**
 * `--cpu-prof <dir>`: each server writes a V8 CPU profile into `<dir>/<this|against>` when it stops
 * (cpuProfileOnExit.mjs), to see where a request's time goes in the server process (open it in Chrome's DevTools).
 */
const cpuProfDir = argOption('--cpu-prof');
/**
 * `--sqlite`: each checkout's server on an SQLite file too (the same rows), beside its PostgreSQL one, and the
 * ratio SQLite / PostgreSQL of this checkout's requests a second (issue 41 goal 5: the chat page at 10
 * connections). Not with `--burst`, which changes PostgreSQL rows.
 */
const withSqlite = process.argv.includes('--sqlite') && !burst;
/** Profiles the burst changes, and the connections its cells use (fewer than 50: the cells before and after stay within the 60 searches a minute per user). */
const burstSize = 5000;
const burstConcurrencies = [1, 10];
const root = path.resolve(import.meta.dirname, '..');
const pgUrl = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

interface Request {
  method: 'GET' | 'POST';
  path: string;
  session?: string;
  body?: unknown;
}

interface Target {
  name: string;
  sqlite: boolean;
  checkout: string;
  commit: string;
  database: string;
  databaseUrl: string;
  server?: StartedServer;
  csrf?: { cookie: string; token: string };
  /** Requests made so far per endpoint: both servers walk the same sequence of people. */
  turns: Map<string, number>;
}

interface Cell {
  count: number;
  perSecond: number;
  p50: number;
  p99: number;
  errors: Map<string, number>;
  /**
   * The server process's CPU milliseconds per request over the cell (warm-up included): far steadier than
   * requests a second on a shared machine, since it counts the server's own work, not its waits for a core.
   */
  cpuMs: number;
}

/** Each endpoint's i-th request; the same for every server. */
function endpoints(data: HttpBenchData): [string, (i: number) => Request][] {
  const at = <T>(items: T[], i: number) => items[i % items.length] as T;
  const session = (userId: number) => data.sessionOf.get(userId) ?? '';
  return [
    [
      'sign-in',
      (i) => ({ method: 'POST', path: '/api/login', body: { email: at(data.logins, i), password: benchPassword } }),
    ],
    [
      'next card, normal user',
      (i) => ({
        method: 'GET',
        path: at(data.normalSearches, i).path,
        session: session(at(data.normalSearches, i).userId),
      }),
    ],
    [
      'next card, heavy swiper',
      (i) => ({
        method: 'GET',
        path: at(data.heavySearches, i).path,
        session: session(at(data.heavySearches, i).userId),
      }),
    ],
    [
      'like',
      (i) => ({
        method: 'POST',
        path: '/api/like',
        body: { profile_id: at(data.likes, i).target },
        session: session(at(data.likes, i).userId),
      }),
    ],
    [
      'chat page',
      (i) => ({
        method: 'GET',
        path: `/api/conversations/${at(data.chats, i).conversationId}/messages`,
        session: session(at(data.chats, i).userId),
      }),
    ],
    [
      'current user',
      (i) => ({ method: 'GET', path: '/api/current_user', session: session(at(data.normalSearches, i).userId) }),
    ],
  ];
}

async function send(target: Target, request: Request): Promise<number> {
  const cookies = [target.csrf?.cookie ?? '', ...(request.session ? [`iskra_session=${request.session}`] : [])];
  const res = await fetch(`${target.server?.url ?? ''}${request.path}`, {
    method: request.method,
    headers: {
      Cookie: cookies.join('; '),
      ...(request.method === 'POST'
        ? { 'Content-Type': 'application/json', 'X-CSRF-Token': target.csrf?.token ?? '' }
        : {}),
    },
    ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
    signal: AbortSignal.timeout(30_000),
  });
  await res.arrayBuffer();
  return res.status;
}

/** `concurrency` connections in a closed loop for the warm-up and then `seconds`, counting the latter. */
async function runCell(
  target: Target,
  endpoint: string,
  next: (i: number) => Request,
  concurrency: number,
): Promise<Cell> {
  const latencies: number[] = [];
  const errors = new Map<string, number>();
  const measureFrom = performance.now() + warmupSeconds * 1000;
  const deadline = measureFrom + seconds * 1000;
  const cpuBefore = cpuSecondsOf(target.server?.child.pid);
  let sent = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < deadline) {
        const turn = target.turns.get(endpoint) ?? 0;
        target.turns.set(endpoint, turn + 1);
        const started = performance.now();
        const status = await send(target, next(turn)).catch(() => 'network');
        sent++;
        if (started < measureFrom) continue;
        latencies.push(performance.now() - started);
        if (status !== 200 && status !== 201) errors.set(String(status), (errors.get(String(status)) ?? 0) + 1);
      }
    }),
  );
  const sorted = latencies.sort((a, b) => a - b);
  const cpuAfter = cpuSecondsOf(target.server?.child.pid);
  return {
    cpuMs: cpuBefore === undefined || cpuAfter === undefined ? Number.NaN : ((cpuAfter - cpuBefore) * 1000) / sent,
    count: sorted.length,
    perSecond: sorted.length / seconds,
    p50: quantile(sorted, 0.5),
    p99: quantile(sorted, 0.99),
    errors,
  };
}

/**
 * The data set stamps everyone as changed when it was built, itself a burst of 10,000 changes: for a
 * neighbourhood as it is before an import, the stamps are moved to a day ago and earlier, a minute apart
 * per id modulo a day (no trigger watches the stamp itself).
 */
async function ageChanges(databaseUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(
      `update profiles set search_changed_at = to_char((now() - interval '1 day' - (id % 1440) * interval '1 minute') at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`,
    );
    // A live database is vacuumed: index-only probes of the swipes read no heap.
    await client.query('vacuum analyze profiles, swipes');
  } finally {
    await client.end();
  }
}

/**
 * The burst: every other located profile, 5,000 of them, moved by a metre in statements of 100 rows (an
 * import), each its own transaction, so the triggers stamp them as any write path would. Seconds taken.
 */
async function applyBurst(databaseUrl: string): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const started = performance.now();
    const { rows } = await client.query<{ id: number }>(
      'select id from profiles where latitude is not null order by id',
    );
    const ids = rows
      .filter((_, i) => i % 2 === 0)
      .map((r) => r.id)
      .slice(0, burstSize);
    for (let i = 0; i < ids.length; i += 100)
      await client.query('update profiles set latitude = latitude + 0.00001 where id = any($1::int[])', [
        ids.slice(i, i + 100),
      ]);
    return (performance.now() - started) / 1000;
  } finally {
    await client.end();
  }
}

/**
 * The search limit (60 a minute per user) is not what the burst cells measure: at 10 connections the 100
 * heavy swipers run into it within the minute of their before and after cells, and a refused search is
 * fast. Each cell starts with the counters cleared.
 */
async function clearRateCounters(databaseUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('delete from rate_counters');
  } finally {
    await client.end();
  }
}

/** The next cards before and after the burst, per server: p50 and requests a second, and after / before. */
async function burstCells(): Promise<void> {
  const searches = endpoints(data).filter(([name]) => name.startsWith('next card') && (!only || name.includes(only)));
  let cellNumber = 0;
  const measure = async () => {
    const cells = new Map<string, Cell>();
    for (const [endpoint, next] of searches)
      for (const concurrency of burstConcurrencies) {
        const order = cellNumber++ % 2 ? [...targets].reverse() : targets;
        for (const target of order) {
          await clearRateCounters(target.databaseUrl);
          cells.set(`${target.name}|${endpoint}|${concurrency}`, await runCell(target, endpoint, next, concurrency));
        }
      }
    return cells;
  };
  const before = await measure();
  for (const target of targets) {
    const took = await applyBurst(target.databaseUrl);
    line(
      `burst: ${target.name}`,
      `${burstSize} profiles changed in ${took.toFixed(1)} s (load average ${loadavg()[0]?.toFixed(1)})`,
    );
  }
  const after = await measure();
  const header = (name: string) =>
    `${`${name}: p50 before`.padStart(name.length + 12)} ${'after'.padStart(7)} ${'ratio'.padStart(6)} ${'req/s ratio'.padStart(11)} ${'errors'.padStart(7)}`;
  console.log(`\n${'endpoint'.padEnd(24)} ${'conns'.padStart(5)}  ${targets.map((t) => header(t.name)).join('  ')}`);
  for (const [endpoint] of searches)
    for (const concurrency of burstConcurrencies) {
      const columns = targets.map((t) => {
        const key = `${t.name}|${endpoint}|${concurrency}`;
        const [b, a] = [before.get(key) as Cell, after.get(key) as Cell];
        return `${b.p50.toFixed(2).padStart(t.name.length + 12)} ${a.p50.toFixed(2).padStart(7)} ${`${(a.p50 / b.p50).toFixed(2)}x`.padStart(6)} ${`${(a.perSecond / b.perSecond).toFixed(2)}x`.padStart(11)} ${errorText(new Map([...b.errors, ...a.errors])).padStart(7)}`;
      });
      console.log(`${endpoint.padEnd(24)} ${String(concurrency).padStart(5)}  ${columns.join('  ')}`);
    }
}

const errorText = (errors: Map<string, number>) => [...errors].map(([status, n]) => `${n}x${status}`).join(' ') || '0';

console.log(`\nHTTP bench on PostgreSQL, Node ${process.version}, ${new Date().toISOString()}`);
if (!(await pgAnswers(pgUrl))) {
  console.log(`skipped: nothing answers at ${new URL(pgUrl).host} (set TEST_DATABASE_URL or DATABASE_URL)`);
  process.exit(0);
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130));

const dataStarted = performance.now();
const data = await makeHttpBenchData(benchDataDir, (m) => console.log(m));
line(
  'data',
  `${data.tables.map(([t, rows]) => `${rows.length} ${t}`).join(', ')} (made in ${((performance.now() - dataStarted) / 1000).toFixed(1)} s)`,
);
line('heavy swipers', `${data.heavySearches.length}, people of their city not swiped yet: ${data.heavyUnswiped}`);

const commitOf = (dir: string) =>
  execFileSync('git', ['-C', dir, 'log', '-1', '--format=%h %s'], { encoding: 'utf8' }).trim().slice(0, 70);
const run = randomBytes(3).toString('hex');
const checkouts = [
  ...(against ? [{ name: 'against', checkout: path.resolve(against) }] : []),
  { name: 'this', checkout: root },
];
const dataDirs = checkouts
  .flatMap(() => (withSqlite ? [0, 1] : [0]))
  .map(() => mkdtempSync(path.join(tmpdir(), 'iskra-http-')));
const targets: Target[] = [
  ...checkouts.map((t) => ({ ...t, sqlite: false })),
  ...(withSqlite ? checkouts.map((t) => ({ ...t, name: `${t.name}-sqlite`, sqlite: true })) : []),
].map((t, i) => {
  const url = new URL(pgUrl);
  url.pathname = `/iskra_http_${run}_${i}`;
  return {
    ...t,
    commit: commitOf(t.checkout),
    database: `iskra_http_${run}_${i}`,
    databaseUrl: t.sqlite ? `sqlite:${path.join(dataDirs[i] ?? '', 'iskra.sqlite')}` : url.toString(),
    turns: new Map(),
  };
});
const byName = (name: string) => targets.find((t) => t.name === name);

try {
  for (const [i, target] of targets.entries()) {
    const dataDir = dataDirs[i] ?? '';
    if (!target.sqlite) await withAdminClient(pgUrl, (c) => c.query(`create database ${target.database}`));
    const loadStarted = performance.now();
    await runScript(target.checkout, 'scripts/migrate.ts', { DATABASE_URL: target.databaseUrl, DATA_DIR: dataDir });
    if (target.sqlite) loadHttpBenchDataSqlite(target.databaseUrl.slice('sqlite:'.length), data);
    else await loadHttpBenchData(target.databaseUrl, data);
    if (burst) await ageChanges(target.databaseUrl);
    target.server = await startServer(
      {
        DATABASE_URL: target.databaseUrl,
        DATA_DIR: dataDir,
        SESSION_SECRET: 'http-bench-secret-http-bench-secret-0000',
        LOG_LEVEL: 'warn',
        ...(cpuProfDir
          ? {
              NODE_OPTIONS: `--import ${path.join(root, 'bench', 'cpuProfileOnExit.mjs')}`,
              BENCH_CPU_PROFILE_DIR: path.resolve(cpuProfDir, target.name),
            }
          : {}),
      },
      target.checkout,
    );
    target.csrf = await csrfOf(target.server.url);
    line(
      `server: ${target.name}`,
      `${target.commit} (${target.checkout}); migrated and loaded in ${((performance.now() - loadStarted) / 1000).toFixed(1)} s`,
    );
  }
  line(
    'machine',
    `${availableParallelism()} cores shared by PostgreSQL, the server and this load generator (load average ${loadavg()[0]?.toFixed(1)}); ${seconds} s per cell after ${warmupSeconds} s, closed loop`,
  );
  // Each searcher's first search scans and fills the candidate pool; the cells time the next cards (when timed).
  const timesSearches =
    burst || endpoints(data).some(([name]) => name.startsWith('next card') && (!only || name.includes(only)));
  for (const target of timesSearches ? targets : [])
    for (const s of [...data.normalSearches, ...data.heavySearches])
      await send(target, { method: 'GET', path: s.path, session: data.sessionOf.get(s.userId) ?? '' });

  const header = (name: string) =>
    `${`${name}: req/s`.padStart(name.length + 7)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)} ${'cpu ms'.padStart(7)} ${'errors'.padStart(8)}`;
  if (!burst)
    console.log(
      `\n${'endpoint'.padEnd(24)} ${'conns'.padStart(5)}  ${targets.map((t) => header(t.name)).join('  ')}${against ? '   this/against: req/s   p50   p99   cpu' : ''}${withSqlite ? '   sqlite/pg: req/s' : ''}`,
    );
  let cellNumber = 0;
  for (const [endpoint, next] of burst ? [] : endpoints(data)) {
    if (only && !endpoint.includes(only)) continue;
    for (const concurrency of concurrencies) {
      // Alternating which server goes first, so neither always meets the machine right after the other's load.
      const order = cellNumber++ % 2 ? [...targets].reverse() : targets;
      const cells = new Map<Target, Cell>();
      for (const target of order) cells.set(target, await runCell(target, endpoint, next, concurrency));
      const columns = targets.map((t) => {
        const c = cells.get(t) as Cell;
        return `${c.perSecond.toFixed(0).padStart(t.name.length + 7)} ${c.p50.toFixed(1).padStart(8)} ${c.p99.toFixed(1).padStart(8)} ${c.cpuMs.toFixed(2).padStart(7)} ${errorText(c.errors).padStart(8)}`;
      });
      let ratio = '';
      const [before, after] = [byName('against'), byName('this')].map((t) => (t ? cells.get(t) : undefined));
      if (against && before && after) {
        ratio = `   ${`${(after.perSecond / before.perSecond).toFixed(2)}x`.padStart(18)} ${`${(after.p50 / before.p50).toFixed(2)}x`.padStart(5)} ${`${(after.p99 / before.p99).toFixed(2)}x`.padStart(5)} ${`${(after.cpuMs / before.cpuMs).toFixed(2)}x`.padStart(5)}`;
        // Only with --against is there a floor: the other checkout, on the same data, in turns.
        headline({
          measure: `${endpoint}, ${concurrency} connections`,
          ratio: after.p50 / before.p50,
          p99: after.p99 / before.p99,
          floor: `the --against checkout, ${targets[0]?.commit ?? ''}`,
          value: `req/s this / against ${(after.perSecond / before.perSecond).toFixed(2)}x`,
        });
      }
      const sqliteCell = withSqlite ? cells.get(byName('this-sqlite') as Target) : undefined;
      if (sqliteCell && after) {
        const perSecond = sqliteCell.perSecond / after.perSecond;
        ratio += `   ${`${perSecond.toFixed(2)}x`.padStart(15)}`;
        // Goal 5 of issue 41: SQLite's chat page at 10 connections at least as fast as PostgreSQL's.
        headline({
          measure: `${endpoint}, ${concurrency} connections, SQLite / PostgreSQL`,
          ratio: sqliteCell.p50 / after.p50,
          p99: sqliteCell.p99 / after.p99,
          floor: 'the same server on PostgreSQL, same data, in turns',
          value: `req/s SQLite / PostgreSQL ${perSecond.toFixed(2)}x`,
          ...(endpoint === 'chat page' && concurrency === 10 ? { goal: '>= 1x req/s' } : {}),
        });
      }
      console.log(`${endpoint.padEnd(24)} ${String(concurrency).padStart(5)}  ${columns.join('  ')}${ratio}`);
    }
  }
  if (burst) await burstCells();
  for (const target of targets)
    line(`server error log lines: ${target.name}`, String(target.server?.errorLines() ?? 0));
} finally {
  await Promise.all(targets.map((t) => (t.server ? stopServer(t.server.child) : Promise.resolve())));
  for (const target of targets.filter((t) => !t.sqlite))
    await withAdminClient(pgUrl, (c) => c.query(`drop database if exists ${target.database} with (force)`));
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
}
