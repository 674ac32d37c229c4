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
 * Usage: `npm run bench load -- [--seconds N] [--pg <url> | --no-pg] [--checkout <dir>]`; PostgreSQL comes from --pg,
 * else TEST_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/test, and is skipped (said so) when it does
 * not answer. Figures only: nothing here is asserted in tests.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { openDatabase, type Dialect } from '../db/client.ts';
import { freeLikesPerDay, likeWindowSeconds } from '../server/features/swipes/rules.ts';
import { freeMessagesPerDay } from '../server/features/chat/rules.ts';
import { EventStreamClient } from '../server/test/eventStream.ts';
import { withAdminClient } from '../server/test/testDatabase.ts';
import { argOption, headline, line } from './benchKit.ts';
import {
  cpuSecondsOf,
  memoryOf,
  overall,
  pgAnswers,
  printRouteTable,
  runCrowd,
  seedCrowd,
  startServer,
  stopServer,
  type Client,
} from './benchCrowd.ts';

const argv = process.argv.slice(2);
const seconds = Number(argOption('--seconds') ?? process.env.LOAD_SECONDS ?? 60);
const clientCount = Number(process.env.LOAD_CLIENTS ?? 200);
const streamCount = Number(process.env.LOAD_STREAMS ?? 300);
const thinkMs = Number(process.env.LOAD_THINK_MS ?? 50);
const pgUrl = argOption('--pg') ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const premiumEvery = 10;
/** Messages each free user "sent an hour ago", so the daily limit is within reach of a short run. */
const earlierMessages = freeMessagesPerDay - 15;
const warmupSeconds = Number(process.env.LOAD_WARMUP_SECONDS ?? 3);
/** `--checkout <dir>`: run that checkout's server (another commit's worktree) under the same crowd. */
const checkout = argOption('--checkout');

interface ExportBody {
  likes_given: { liked: boolean; at: string }[];
  messages_sent: { created_at: string }[];
}

/** Reads each user's own export and checks the free limits held; returns the violations. */
async function checkLimits(
  clients: Client[],
): Promise<{ checked: number; mostLikes: number; mostMessages: number; violations: string[]; unreadable: number }> {
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
    if (likes > freeLikesPerDay)
      violations.push(`user ${client.person.userId}: ${likes} likes in 24 h (limit ${freeLikesPerDay})`);
    if (messages > freeMessagesPerDay)
      violations.push(`user ${client.person.userId}: ${messages} messages in a day (limit ${freeMessagesPerDay})`);
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
    server = await startServer(
      {
        DATA_DIR: dataDir,
        SESSION_SECRET: 'load-bench-secret-load-bench-secret-0000',
        ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
      },
      checkout,
    );
    console.log(
      `\nLoad on ${dialect}: ${clientCount} clients (${Math.ceil(clientCount / premiumEvery)} premium), ${streamCount} event streams, ${seconds} s measured after a ${warmupSeconds} s warm-up, think time 0-${2 * thinkMs} ms`,
    );
    line(
      'server',
      `its own process (node .build/main.mjs, compiled as npm start runs it; CRON=off, LOG_LEVEL=info) at ${server.url}`,
    );
    // Idle: started, answered its health check, nothing else yet (issue 41: memory).
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const idle = memoryOf(server.child.pid);
    line(
      'machine',
      `${availableParallelism()} cores shared by the server, this load generator${dialect === 'postgres' ? ' and PostgreSQL' : ''} (load average ${loadavg()[0]?.toFixed(1)} before the run): figures are for the whole machine`,
    );
    const seedStart = performance.now();
    // The same database as the server's, opened here only to make the crowd.
    const handle = openDatabase({ url: databaseUrl, dataDir, poolSize: 4 });
    const clients = await seedCrowd(handle.db, server.url, {
      clients: clientCount,
      premiumEvery,
      earlierMessages,
    }).finally(() => handle.db.destroy());
    line(
      'seeded',
      `${clients.length} users, ${clients.length / 2} matches with conversations, in ${((performance.now() - seedStart) / 1000).toFixed(1)} s`,
    );

    const streams: { client: EventStreamClient; ended: boolean }[] = [];
    for (let i = 0; i < streamCount; i++) {
      const person = clients[i % clients.length]?.person;
      if (!person) break;
      const client = await EventStreamClient.open(`${server.url}/api/events`, {
        Cookie: `iskra_session=${person.browser.cookie('iskra_session') ?? ''}`,
      });
      const entry = { client, ended: false };
      void client.ended.then(() => (entry.ended = true));
      streams.push(entry);
    }

    let serverCpuBefore: number | undefined;
    let ownCpuBefore = process.cpuUsage();
    const serverPid = server.child.pid;
    const { stats, wall } = await runCrowd(clients, {
      warmupSeconds,
      seconds,
      thinkMs,
      onMeasureStart: () => {
        serverCpuBefore = cpuSecondsOf(serverPid);
        ownCpuBefore = process.cpuUsage();
      },
    });
    const serverCpu = (cpuSecondsOf(serverPid) ?? Number.NaN) - (serverCpuBefore ?? Number.NaN);
    const loaded = memoryOf(serverPid);
    const ownCpu = process.cpuUsage(ownCpuBefore);
    printRouteTable(stats, wall);
    const open = streams.filter((s) => !s.ended).length;
    const events = streams.reduce((sum, s) => sum + s.client.events.length, 0);
    line('event streams', `${streams.length} opened, ${open} still open at the end, ${events} events received`);
    line(
      'CPU',
      `server ${serverCpu.toFixed(1)} s, load generator ${((ownCpu.user + ownCpu.system) / 1e6).toFixed(1)} s, over ${wall.toFixed(1)} s of wall time`,
    );
    line('server error log lines', String(server.errorLines()));
    line(
      'server memory (RSS)',
      `idle ${idle?.rss.toFixed(0) ?? '?'} MB, at the end of the load ${loaded?.rss.toFixed(0) ?? '?'} MB, peak ${loaded?.peak.toFixed(0) ?? '?'} MB`,
    );
    headline({
      measure: `server RSS idle / peak under the crowd (${dialect})`,
      ratio: null,
      floor: 'none (beside the peer: npm run bench memory)',
      value: `${idle?.rss.toFixed(0) ?? '?'} MB / ${loaded?.peak.toFixed(0) ?? '?'} MB`,
    });
    for (const s of streams) s.client.close();

    const limits = await checkLimits(clients);
    line(
      'limits (own export of each free user)',
      `${limits.checked} checked${limits.unreadable ? `, ${limits.unreadable} exports not readable` : ''}: most likes in 24 h ${limits.mostLikes} (limit ${freeLikesPerDay}), most messages in a day ${limits.mostMessages} (limit ${freeMessagesPerDay})`,
    );
    // A whole crowd has no floor: its throughput, latency, errors and limit violations are the figures.
    const all = overall(stats, wall);
    headline({
      measure: `${clients.length} users, all routes (${dialect})`,
      ratio: null,
      floor: 'none',
      value: `${all.perSecond.toFixed(0)} req/s, p50 ${all.p50.toFixed(1)} ms, p99 ${all.p99.toFixed(1)} ms, ${all.errors} errors, ${limits.violations.length} limit violations`,
      goal: 'no 5xx, no limit violation',
    });
    if (limits.violations.length === 0) line('limit violations', 'none');
    else {
      line('limit violations', `${limits.violations.length}:`);
      for (const violation of limits.violations) console.log(`  VIOLATION ${violation}`);
    }
  } finally {
    if (server) await stopServer(server.child);
    if (dialect === 'postgres')
      await withAdminClient(pgUrl, (c) => c.query(`drop database if exists ${dbName} with (force)`));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

// Ctrl-C ends the script through 'exit', so the server process is stopped too.
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130));

await runOn('sqlite');
if (argv.includes('--no-pg')) console.log('\nPostgreSQL: skipped (--no-pg)');
else if (await pgAnswers(pgUrl)) await runOn('postgres');
else
  console.log(
    `\nPostgreSQL: skipped, nothing answers at ${new URL(pgUrl).host} (give --pg <url> or TEST_DATABASE_URL)`,
  );
