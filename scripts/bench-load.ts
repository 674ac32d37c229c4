/**
 * `npm run bench` (issue 17): the whole server under a crowd. The real server runs as its own process
 * (`node --import tsx server/main.ts`, what `npm start` runs, with CRON=off) on a loopback port, over a fresh
 * SQLite data folder and, when PostgreSQL answers, a fresh PostgreSQL database. LOAD_CLIENTS (200) signed-in
 * users with profiles a few kilometres apart, made straight in the database by the test factory (real session
 * rows and cookies; no argon2 per user), each with a match and a conversation, act in a closed loop for
 * LOAD_SECONDS (60): search, like (1 to 3 at once, as from several tabs), message (1 to 3 at once), their own
 * profile and their match's profile, with a think time of 0 to 2 x LOAD_THINK_MS (50) ms between actions. All
 * the while LOAD_STREAMS (300) live-event streams (`GET /api/events`) stay open.
 *
 * Prints per route: requests, p50/p99, and the answers by kind: 429 (the limits, expected) apart from other
 * 4xx, 5xx and network errors; the streams still open at the end; then reads every user's own export
 * (`GET /api/export`) and checks that no free user holds more than 50 likes in 24 hours or 100 messages in a
 * day, printing every violation. Each free user starts with 85 messages sent an hour ago, so the daily
 * message limit is reached within a short run too.
 *
 * Usage: `npx tsx scripts/bench-load.ts [--seconds N] [--pg <url> | --no-pg]`; PostgreSQL comes from --pg,
 * else TEST_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/test, and is skipped (said so) when it does
 * not answer. Figures only: nothing here is asserted in tests.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { openDatabase, type Dialect } from '../db/client.ts';
import { systemClock } from '../server/clock.ts';
import { freeLikesPerDay, likeWindowSeconds } from '../server/features/swipes/rules.ts';
import { freeMessagesPerDay } from '../server/features/chat/rules.ts';
import { EventStreamClient } from '../server/test/eventStream.ts';
import { createPerson, type Person } from '../server/test/people.ts';
import { line, quantile } from './benchKit.ts';
import { freePort } from '../server/test/freePort.ts';
import { withAdminClient } from '../server/test/testDatabase.ts';

const argv = process.argv.slice(2);
const option = (name: string) => {
  const index = argv.indexOf(name);
  return index >= 0 ? argv[index + 1] : undefined;
};
const seconds = Number(option('--seconds') ?? process.env.LOAD_SECONDS ?? 60);
const clientCount = Number(process.env.LOAD_CLIENTS ?? 200);
const streamCount = Number(process.env.LOAD_STREAMS ?? 300);
const thinkMs = Number(process.env.LOAD_THINK_MS ?? 50);
const pgUrl = option('--pg') ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const premiumEvery = 10;
/** Messages each free user "sent an hour ago", so the daily limit is within reach of a short run. */
const earlierMessages = freeMessagesPerDay - 15;
const requestTimeoutMs = 30_000;
const warmupSeconds = Number(process.env.LOAD_WARMUP_SECONDS ?? 3);
const root = path.resolve(import.meta.dirname, '..');
const moscow: [number, number] = [55.7558, 37.6173];

type Route = 'GET /api/search' | 'POST /api/like' | 'POST /api/conversations/:id/messages' | 'GET /api/profile' | 'GET /api/users_profile';
/** The mix of actions, by weight. */
const mix: [Route, number][] = [
  ['GET /api/search', 30],
  ['POST /api/like', 25],
  ['POST /api/conversations/:id/messages', 20],
  ['GET /api/profile', 15],
  ['GET /api/users_profile', 10],
];

interface RouteStats {
  latencies: number[];
  ok: number;
  limited: number;
  otherClientErrors: number;
  serverErrors: number;
  networkErrors: number;
}

interface Client {
  person: Person;
  premium: boolean;
  partner: Person;
  conversationId: number;
}

async function pgAnswers(url: string): Promise<boolean> {
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
function cpuSecondsOf(pid: number | undefined): number | undefined {
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

/** The server as `npm start` runs it, in its own process; its log is read only to count error lines. */
async function startServer(env: Record<string, string>): Promise<{ child: ChildProcess; url: string; errorLines: () => number }> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: url, CRON: 'off', LOG_LEVEL: 'info', ...env },
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

async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
}

/** Makes the crowd: people a few kilometres apart, paired into matches with a conversation each. */
async function seed(db: ReturnType<typeof openDatabase>['db'], url: string): Promise<Client[]> {
  const host = { database: { db }, clock: systemClock, url };
  const people: { person: Person; premium: boolean }[] = [];
  for (let i = 0; i < clientCount; i++) {
    const premium = i % premiumEvery === 0;
    // Within about 4 km of the centre, so everyone is in everyone's first search boxes.
    const at: [number, number] = [moscow[0] + (Math.random() - 0.5) * 0.07, moscow[1] + (Math.random() - 0.5) * 0.12];
    const person = await createPerson(host, { gender: i % 2 ? 'Female' : 'Male', preferred: 'Any', age: 22 + (i % 15), at, premium });
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
      if (!side.premium) {
        await db
          .insertInto('messages')
          .values(
            Array.from({ length: earlierMessages }, (_, n) => ({
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
    clients.push({ ...a, partner: b.person, conversationId: conversation.id }, { ...b, partner: a.person, conversationId: conversation.id });
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
      const targets = Array.from({ length: burst() }, () => everyone[Math.floor(Math.random() * everyone.length)]?.person.profileId ?? 0);
      await Promise.all(
        targets.filter((t) => t !== client.person.profileId).map((target) => timed(s, () => browser.post('/api/like', { profile_id: target }))),
      );
      return;
    }
    case 'POST /api/conversations/:id/messages':
      await Promise.all(
        Array.from({ length: burst() }, (_, n) =>
          timed(s, () => browser.post(`/api/conversations/${client.conversationId}/messages`, { content: `load ${Date.now()} ${n}` })),
        ),
      );
      return;
    case 'GET /api/profile':
      return timed(s, () => browser.get('/api/profile'));
    case 'GET /api/users_profile':
      return timed(s, () => browser.get(`/api/users_profile?profile_id=${client.partner.profileId}`));
  }
}

interface ExportBody {
  likes_given: { liked: boolean; at: string }[];
  messages_sent: { created_at: string }[];
}

/** Reads each user's own export and checks the free limits held; returns the violations. */
async function checkLimits(clients: Client[]): Promise<{ checked: number; mostLikes: number; mostMessages: number; violations: string[]; unreadable: number }> {
  const dayAgo = new Date(Date.now() - likeWindowSeconds * 1000).toISOString();
  const violations: string[] = [];
  let mostLikes = 0;
  let mostMessages = 0;
  let checked = 0;
  let unreadable = 0;
  for (const client of clients) {
    if (client.premium) continue;
    const res = await client.person.browser.get('/api/export');
    if (res.status !== 200) {
      unreadable++;
      continue;
    }
    const data = (await res.json()) as ExportBody;
    const likes = data.likes_given.filter((l) => l.liked && l.at > dayAgo).length;
    const messages = data.messages_sent.filter((m) => m.created_at > dayAgo).length;
    checked++;
    mostLikes = Math.max(mostLikes, likes);
    mostMessages = Math.max(mostMessages, messages);
    if (likes > freeLikesPerDay) violations.push(`user ${client.person.userId}: ${likes} likes in 24 h (limit ${freeLikesPerDay})`);
    if (messages > freeMessagesPerDay) violations.push(`user ${client.person.userId}: ${messages} messages in a day (limit ${freeMessagesPerDay})`);
  }
  return { checked, mostLikes, mostMessages, violations, unreadable };
}

async function runOn(dialect: Dialect): Promise<void> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'iskra-load-'));
  const dbName = `iskra_load_${randomBytes(4).toString('hex')}`;
  let databaseUrl: string | undefined;
  if (dialect === 'postgres') {
    await withAdminClient(pgUrl, (c) => c.query(`create database ${dbName}`));
    const url = new URL(pgUrl);
    url.pathname = `/${dbName}`;
    databaseUrl = url.toString();
  }
  let server: Awaited<ReturnType<typeof startServer>> | undefined;
  try {
    server = await startServer({
      DATA_DIR: dataDir,
      SESSION_SECRET: 'load-bench-secret-load-bench-secret-0000',
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    });
    console.log(
      `\nLoad on ${dialect}: ${clientCount} clients (${Math.ceil(clientCount / premiumEvery)} premium), ${streamCount} event streams, ${seconds} s measured after a ${warmupSeconds} s warm-up, think time 0-${2 * thinkMs} ms`,
    );
    line('server', `its own process (node --import tsx server/main.ts, as npm start; CRON=off, LOG_LEVEL=info) at ${server.url}`);
    line(
      'machine',
      `${availableParallelism()} cores shared by the server, this load generator${dialect === 'postgres' ? ' and PostgreSQL' : ''} (load average ${loadavg()[0]?.toFixed(1)} before the run): figures are for the whole machine`,
    );
    const seedStart = performance.now();
    // The same database as the server's, opened here only to make the crowd.
    const handle = openDatabase({ url: databaseUrl, dataDir, poolSize: 4 });
    const clients = await seed(handle.db, server.url).finally(() => handle.db.destroy());
    line('seeded', `${clients.length} users, ${clients.length / 2} matches with conversations, in ${((performance.now() - seedStart) / 1000).toFixed(1)} s`);

    const streams: { client: EventStreamClient; ended: boolean }[] = [];
    for (let i = 0; i < streamCount; i++) {
      const person = clients[i % clients.length]?.person;
      if (!person) break;
      const client = await EventStreamClient.open(`${server.url}/api/events`, { Cookie: `iskra_session=${person.browser.cookie('iskra_session') ?? ''}` });
      const entry = { client, ended: false };
      void client.ended.then(() => (entry.ended = true));
      streams.push(entry);
    }

    const emptyStats = () =>
      new Map<Route, RouteStats>(mix.map(([route]) => [route, { latencies: [], ok: 0, limited: 0, otherClientErrors: 0, serverErrors: 0, networkErrors: 0 }]));
    // The first seconds open hundreds of connections at once and warm the server up: run, but not counted.
    const warmupStats = emptyStats();
    const stats = emptyStats();
    const begun = performance.now();
    const measureFrom = begun + warmupSeconds * 1000;
    const deadline = measureFrom + seconds * 1000;
    let serverCpuBefore: number | undefined;
    let ownCpuBefore = process.cpuUsage();
    const serverPid = server.child.pid;
    const measuring = new Promise<void>((resolve) =>
      setTimeout(() => {
        serverCpuBefore = cpuSecondsOf(serverPid);
        ownCpuBefore = process.cpuUsage();
        resolve();
      }, warmupSeconds * 1000),
    );
    await Promise.all([
      measuring,
      ...clients.map(async (client, i) => {
        // Arrivals spread over the first second, as people come, not 200 requests in one millisecond.
        await new Promise((resolve) => setTimeout(resolve, (i / clients.length) * 1000));
        while (performance.now() < deadline) {
          await act(client, clients, performance.now() < measureFrom ? warmupStats : stats);
          await new Promise((resolve) => setTimeout(resolve, Math.random() * 2 * thinkMs));
        }
      }),
    ]);
    const wall = (performance.now() - measureFrom) / 1000;
    const serverCpu = (cpuSecondsOf(serverPid) ?? Number.NaN) - (serverCpuBefore ?? Number.NaN);
    const ownCpu = process.cpuUsage(ownCpuBefore);

    console.log(
      `${'route'.padEnd(38)} ${'requests'.padStart(8)} ${'req/s'.padStart(7)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)} ${'ok'.padStart(6)} ${'429'.padStart(6)} ${'4xx'.padStart(5)} ${'5xx'.padStart(5)} ${'net err'.padStart(7)}`,
    );
    for (const [route, s] of stats) {
      const sorted = [...s.latencies].sort((a, b) => a - b);
      console.log(
        `${route.padEnd(38)} ${String(sorted.length).padStart(8)} ${(sorted.length / wall).toFixed(0).padStart(7)} ${quantile(sorted, 0.5).toFixed(1).padStart(8)} ${quantile(sorted, 0.99).toFixed(1).padStart(8)} ${String(s.ok).padStart(6)} ${String(s.limited).padStart(6)} ${String(s.otherClientErrors).padStart(5)} ${String(s.serverErrors).padStart(5)} ${String(s.networkErrors).padStart(7)}`,
      );
    }
    const open = streams.filter((s) => !s.ended).length;
    const events = streams.reduce((sum, s) => sum + s.client.events.length, 0);
    line('event streams', `${streams.length} opened, ${open} still open at the end, ${events} events received`);
    line(
      'CPU',
      `server ${serverCpu.toFixed(1)} s, load generator ${((ownCpu.user + ownCpu.system) / 1e6).toFixed(1)} s, over ${wall.toFixed(1)} s of wall time`,
    );
    line('server error log lines', String(server.errorLines()));
    for (const s of streams) s.client.close();

    const limits = await checkLimits(clients);
    line(
      'limits (own export of each free user)',
      `${limits.checked} checked${limits.unreadable ? `, ${limits.unreadable} exports not readable` : ''}: most likes in 24 h ${limits.mostLikes} (limit ${freeLikesPerDay}), most messages in a day ${limits.mostMessages} (limit ${freeMessagesPerDay})`,
    );
    if (limits.violations.length === 0) line('limit violations', 'none');
    else {
      line('limit violations', `${limits.violations.length}:`);
      for (const violation of limits.violations) console.log(`  VIOLATION ${violation}`);
    }
  } finally {
    if (server) await stopServer(server.child);
    if (dialect === 'postgres') await withAdminClient(pgUrl, (c) => c.query(`drop database if exists ${dbName} with (force)`));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

// Ctrl-C ends the script through 'exit', so the server process is stopped too.
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130));

await runOn('sqlite');
if (argv.includes('--no-pg')) console.log('\nPostgreSQL: skipped (--no-pg)');
else if (await pgAnswers(pgUrl)) await runOn('postgres');
else console.log(`\nPostgreSQL: skipped, nothing answers at ${new URL(pgUrl).host} (give --pg <url> or TEST_DATABASE_URL)`);
