/**
 * The crowd of the load benches (load.ts, scale.ts): real server processes started as
 * `npm start` starts them, signed-in people with profiles, matches and conversations made straight in the
 * database, and a closed loop of their actions with per-route statistics.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { systemClock } from '../server/clock.ts';
import { freePort } from '../server/test/freePort.ts';
import { createPerson, type Person } from '../server/test/people.ts';
import { quantile } from './benchKit.ts';

const root = path.resolve(import.meta.dirname, '..');
const moscow: [number, number] = [55.7558, 37.6173];
const requestTimeoutMs = 30_000;

export type Route =
  | 'GET /api/search'
  | 'POST /api/like'
  | 'POST /api/conversations/:id/messages'
  | 'GET /api/profile'
  | 'GET /api/users_profile';
/** The mix of actions, by weight. */
export const mix: [Route, number][] = [
  ['GET /api/search', 30],
  ['POST /api/like', 25],
  ['POST /api/conversations/:id/messages', 20],
  ['GET /api/profile', 15],
  ['GET /api/users_profile', 10],
];

export interface RouteStats {
  latencies: number[];
  ok: number;
  limited: number;
  otherClientErrors: number;
  serverErrors: number;
  networkErrors: number;
}

export interface Client {
  person: Person;
  premium: boolean;
  partner: Person;
  conversationId: number;
}

export async function pgAnswers(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** CPU seconds a process has used (Linux /proc; undefined elsewhere). */
export function cpuSecondsOf(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return undefined;
  }
}

/** A process's resident memory now and at its peak so far (VmRSS, VmHWM), in MB; undefined when unreadable. */
export function memoryOf(pid: number | undefined): { rss: number; peak: number } | undefined {
  if (pid === undefined) return undefined;
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kB = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN);
    return { rss: kB('VmRSS') / 1024, peak: kB('VmHWM') / 1024 };
  } catch {
    return undefined;
  }
}

export interface StartedServer {
  child: ChildProcess;
  url: string;
  errorLines: () => number;
}

/**
 * The server as `npm start` runs it (compiled by the checkout's scripts/buildServer.mjs into .build/, run
 * by plain node; a checkout from before that runs through tsx), in its own process, from `checkout` (this
 * repository by default, or another commit's worktree); its log is read only to count error lines.
 */
export async function startServer(env: Record<string, string>, checkout = root): Promise<StartedServer> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const builder = path.join(checkout, 'scripts', 'buildServer.mjs');
  let command = ['--import', 'tsx', 'server/main.ts'];
  if (existsSync(builder)) {
    const { ensureServerBuilt, serverNodeFlags = [] } = (await import(pathToFileURL(builder).href)) as {
      ensureServerBuilt: (outdir?: string, log?: (line: string) => void) => Promise<unknown>;
      /** Absent in a checkout from before 29 November 2026. */
      serverNodeFlags?: string[];
    };
    await ensureServerBuilt(undefined, () => undefined);
    // As npm start runs it (package.json), with the checkout's own flags.
    command = [...serverNodeFlags, '--enable-source-maps', '.build/main.mjs'];
  }
  // BENCH_NODE_FLAGS in `env` (space-separated): V8 flags NODE_OPTIONS refuses (--heap-growing-percent, say),
  // given on this server's command line instead (bench/memory.ts --env, to try one).
  const { BENCH_NODE_FLAGS: extraFlags, ...serverEnv } = env;
  if (extraFlags) command = [...extraFlags.split(' ').filter(Boolean), ...command];
  // BENCH_CPU_PROF=<dir>: each server writes a V8 CPU profile there when it stops (node --cpu-prof).
  const profileDir = process.env.BENCH_CPU_PROF;
  if (profileDir) command = ['--cpu-prof', `--cpu-prof-dir=${profileDir}`, ...command];
  const child = spawn(process.execPath, command, {
    cwd: checkout,
    env: {
      PATH: process.env.PATH ?? '',
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: url,
      CRON: 'off',
      LOG_LEVEL: 'info',
      ...serverEnv,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // However this script ends (Ctrl-C, a closed pipe, an exception), the server must not outlive it.
  const killServer = () => child.kill('SIGKILL');
  process.once('exit', killServer);
  child.once('exit', () => process.off('exit', killServer));
  let errors = 0;
  let tail = '';
  const keep = (chunk: Buffer) => {
    const text = chunk.toString();
    errors += text.split('"level":50').length - 1;
    tail = (tail + text).slice(-4000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const started = Date.now();
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited: ${tail}`);
    const health = await fetch(`${url}/api/health`).catch(() => undefined);
    if (health?.status === 200) break;
    if (Date.now() - started > 90_000) throw new Error(`server did not start: ${tail}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return { child, url, errorLines: () => errors };
}

export async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
}

export interface CrowdOptions {
  clients: number;
  /** Every n-th person is premium (no daily limits). */
  premiumEvery: number;
  /** Messages each free user "sent an hour ago", so the daily limit can be within reach of a short run. */
  earlierMessages: number;
}

/** Makes the crowd: people a few kilometres apart, paired into matches with a conversation each; `url` is where their browsers go. */
export async function seedCrowd(db: Kysely<Database>, url: string, options: CrowdOptions): Promise<Client[]> {
  const host = { database: { db }, clock: systemClock, url };
  const people: { person: Person; premium: boolean }[] = [];
  for (let i = 0; i < options.clients; i++) {
    const premium = i % options.premiumEvery === 0;
    // Within about 4 km of the centre, so everyone is in everyone's first search boxes.
    const at: [number, number] = [moscow[0] + (Math.random() - 0.5) * 0.07, moscow[1] + (Math.random() - 0.5) * 0.12];
    const person = await createPerson(host, {
      gender: i % 2 ? 'Female' : 'Male',
      preferred: 'Any',
      age: 22 + (i % 15),
      at,
      premium,
    });
    people.push({ person, premium });
  }
  const now = new Date();
  const hourAgo = new Date(now.getTime() - 3_600_000).toISOString();
  const clients: Client[] = [];
  for (let i = 0; i + 1 < people.length; i += 2) {
    const a = people[i];
    const b = people[i + 1];
    if (!a || !b) break;
    const [low, high] = [a.person.profileId, b.person.profileId].sort((x, y) => x - y);
    if (low === undefined || high === undefined) break;
    const match = await db
      .insertInto('matches')
      .values({ profile_low: low, profile_high: high, created_at: hourAgo, unmatched_at: null })
      .returning('id')
      .executeTakeFirstOrThrow();
    const conversation = await db
      .insertInto('conversations')
      .values({ match_id: match.id, created_at: hourAgo, last_message_at: hourAgo })
      .returning('id')
      .executeTakeFirstOrThrow();
    for (const side of [a, b]) {
      if (!side.premium && options.earlierMessages > 0) {
        await db
          .insertInto('messages')
          .values(
            Array.from({ length: options.earlierMessages }, (_, n) => ({
              conversation_id: conversation.id,
              sender_id: side.person.profileId,
              content: `earlier ${n}`,
              created_at: hourAgo,
              read_at: hourAgo,
            })),
          )
          .execute();
      }
    }
    clients.push(
      { ...a, partner: b.person, conversationId: conversation.id },
      { ...b, partner: a.person, conversationId: conversation.id },
    );
  }
  // Every POST carries the CSRF token, fetched once per browser as the app does.
  for (const client of clients) await client.person.browser.csrfToken();
  return clients;
}

async function timed(stats: RouteStats, request: () => Promise<Response>): Promise<void> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  // A request that never ends counts as a network error instead of holding its client past the deadline.
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timeout')), requestTimeoutMs);
  });
  try {
    const res = await Promise.race([request(), timeout]);
    await Promise.race([res.arrayBuffer(), timeout]);
    stats.latencies.push(performance.now() - started);
    if (res.status < 400) stats.ok++;
    else if (res.status === 429) stats.limited++;
    else if (res.status < 500) stats.otherClientErrors++;
    else stats.serverErrors++;
  } catch {
    stats.latencies.push(performance.now() - started);
    stats.networkErrors++;
  } finally {
    clearTimeout(timer);
  }
}

const burst = () => 1 + Math.floor(Math.random() * 3);

async function act(client: Client, everyone: Client[], stats: Map<Route, RouteStats>): Promise<void> {
  const total = mix.reduce((sum, [, weight]) => sum + weight, 0);
  let roll = Math.random() * total;
  const route = mix.find(([, weight]) => (roll -= weight) < 0)?.[0] ?? 'GET /api/search';
  const s = stats.get(route);
  if (!s) return;
  const browser = client.person.browser;
  switch (route) {
    case 'GET /api/search':
      return timed(s, () => browser.get('/api/search'));
    case 'POST /api/like': {
      // Several at once, as from two tabs or a quick double swipe: the like limit must hold under a race.
      const targets = Array.from(
        { length: burst() },
        () => everyone[Math.floor(Math.random() * everyone.length)]?.person.profileId ?? 0,
      );
      await Promise.all(
        targets
          .filter((t) => t !== client.person.profileId)
          .map((target) => timed(s, () => browser.post('/api/like', { profile_id: target }))),
      );
      return;
    }
    case 'POST /api/conversations/:id/messages':
      await Promise.all(
        Array.from({ length: burst() }, (_, n) =>
          timed(s, () =>
            browser.post(`/api/conversations/${client.conversationId}/messages`, {
              content: `load ${Date.now()} ${n}`,
            }),
          ),
        ),
      );
      return;
    case 'GET /api/profile':
      return timed(s, () => browser.get('/api/profile'));
    case 'GET /api/users_profile':
      return timed(s, () => browser.get(`/api/users_profile?profile_id=${client.partner.profileId}`));
  }
}

export interface LoopOptions {
  warmupSeconds: number;
  seconds: number;
  /** Think time between actions: 0 to 2 x thinkMs. */
  thinkMs: number;
  /** Called when the warm-up ends and measuring begins (to read CPU counters). */
  onMeasureStart?: () => void;
}

/**
 * Every client acts in a closed loop (one action, a think time, the next) until the deadline; the first
 * `warmupSeconds` open hundreds of connections at once and warm the server up: they run but are not counted.
 */
export async function runCrowd(
  clients: Client[],
  options: LoopOptions,
): Promise<{ stats: Map<Route, RouteStats>; wall: number }> {
  const emptyStats = () =>
    new Map<Route, RouteStats>(
      mix.map(([route]) => [
        route,
        { latencies: [], ok: 0, limited: 0, otherClientErrors: 0, serverErrors: 0, networkErrors: 0 },
      ]),
    );
  const warmupStats = emptyStats();
  const stats = emptyStats();
  const begun = performance.now();
  const measureFrom = begun + options.warmupSeconds * 1000;
  const deadline = measureFrom + options.seconds * 1000;
  const measuring = new Promise<void>((resolve) =>
    setTimeout(() => {
      options.onMeasureStart?.();
      resolve();
    }, options.warmupSeconds * 1000),
  );
  await Promise.all([
    measuring,
    ...clients.map(async (client, i) => {
      // Arrivals spread over the first second, as people come, not 200 requests in one millisecond.
      await new Promise((resolve) => setTimeout(resolve, (i / clients.length) * 1000));
      while (performance.now() < deadline) {
        await act(client, clients, performance.now() < measureFrom ? warmupStats : stats);
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 2 * options.thinkMs));
      }
    }),
  ]);
  return { stats, wall: (performance.now() - measureFrom) / 1000 };
}

/** All routes' answers together: requests a second and the latency quantiles. */
export function overall(
  stats: Map<Route, RouteStats>,
  wall: number,
): { requests: number; perSecond: number; p50: number; p99: number; refused: number; errors: number } {
  const all = [...stats.values()];
  const sorted = all.flatMap((s) => s.latencies).sort((a, b) => a - b);
  return {
    requests: sorted.length,
    perSecond: sorted.length / wall,
    p50: quantile(sorted, 0.5),
    p99: quantile(sorted, 0.99),
    refused: all.reduce((n, s) => n + s.limited, 0),
    errors: all.reduce((n, s) => n + s.otherClientErrors + s.serverErrors + s.networkErrors, 0),
  };
}

/** The per-route table load.ts prints. */
export function printRouteTable(stats: Map<Route, RouteStats>, wall: number): void {
  console.log(
    `${'route'.padEnd(38)} ${'requests'.padStart(8)} ${'req/s'.padStart(7)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)} ${'ok'.padStart(6)} ${'429'.padStart(6)} ${'4xx'.padStart(5)} ${'5xx'.padStart(5)} ${'net err'.padStart(7)}`,
  );
  for (const [route, s] of stats) {
    const sorted = [...s.latencies].sort((a, b) => a - b);
    console.log(
      `${route.padEnd(38)} ${String(sorted.length).padStart(8)} ${(sorted.length / wall).toFixed(0).padStart(7)} ${quantile(sorted, 0.5).toFixed(1).padStart(8)} ${quantile(sorted, 0.99).toFixed(1).padStart(8)} ${String(s.ok).padStart(6)} ${String(s.limited).padStart(6)} ${String(s.otherClientErrors).padStart(5)} ${String(s.serverErrors).padStart(5)} ${String(s.networkErrors).padStart(7)}`,
    );
  }
}
