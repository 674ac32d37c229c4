/**
 * `npm run bench fanout` (issue 42): live events past one PostgreSQL's NOTIFY. On a test database of its own
 * (TEST_DATABASE_URL), and Redis at TEST_REDIS_URL (redis://127.0.0.1:6379) when it answers:
 *   1. NOTIFY transactions against publishes, 400 publishes a second for 3 s, and as fast as they go for 2 s:
 *      main's way (one `select pg_notify` per publish, as the bus did before issue 42) beside the doorbell
 *      (one NOTIFY per 10 ms tick at most), each NOTIFY counted on a LISTEN of its own.
 *   2. Two stand-in web processes (fanoutProcess.ts: the app's bus and real liveStream.ts streams), 1,000
 *      streams each; process A writes event rows open-loop (insert, then publish, as the app's writers) half
 *      to its own users (same-process delivery), half to B's (cross-process): write start to the event's text
 *      on the stream, p50/p99, at 50 and 400 msg/s, through NOTIFY and through Redis.
 *   3. An idle process (B, 1,000 streams, no traffic of its own) while A publishes 5,000 a second for users
 *      with no stream in either:
 *      B's CPU (share of a core), through main's one-NOTIFY-per-publish, through the doorbell and through Redis.
 * Figures only; the machine's load average is printed (other work shares these cores).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { availableParallelism, loadavg } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { UserId } from '../db/schema.ts';
import { noticeChannel, quotedChannel } from '../server/features/events/noticeChannels.ts';
import { PostgresEventBus } from '../server/features/events/postgresEventBus.ts';
import { createLogger } from '../server/logger.ts';
import { createTestDatabase } from '../server/test/testDatabase.ts';
import { headline, line, summary } from './benchKit.ts';
import type { FanoutCommand } from './fanoutProcess.ts';
import { redisAnswers, testRedisUrl } from '../server/test/redis.ts';

const pgUrl = process.env.TEST_DATABASE_URL;
const redisUrl = testRedisUrl;
const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
console.log(`\nFan-out of live events (issue 42), ${availableParallelism()} cores, load average ${load()}`);
if (!pgUrl) {
  console.log('skipped: needs PostgreSQL (TEST_DATABASE_URL=postgres://…)');
  process.exit(0);
}

const withRedis = await redisAnswers();
if (!withRedis) console.log(`Redis: nothing answers at ${redisUrl}; its rows are skipped`);

const database = await createTestDatabase('postgres');
const url = database.url ?? '';
const schema = database.schema ?? 'public';
const logger = createLogger('silent');
const channel = noticeChannel('events', schema);

async function users(count: number): Promise<number[]> {
  const out: number[] = [];
  const created = new Date().toISOString();
  for (let i = 0; i < count; i += 1000) {
    const rows = await database.db
      .insertInto('users')
      .values(
        Array.from({ length: Math.min(1000, count - i) }, () => ({ created_at: created, language: 'ru' as const })),
      )
      .returning('id')
      .execute();
    out.push(...rows.map((r) => r.id));
  }
  return out;
}

/** NOTIFYs on the events channel, counted by a LISTEN of the bench's own. */
async function notifyCounter(): Promise<{ count: () => number; end: () => Promise<void> }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  let n = 0;
  client.on('notification', () => n++);
  await client.query(`LISTEN ${quotedChannel(channel)}`);
  return { count: () => n, end: () => client.end() };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// 1. NOTIFY transactions against publishes.
console.log('\n1. NOTIFY transactions against publishes (one process)');
const ids = (await users(1000)) as UserId[];
{
  const counter = await notifyCounter();
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  const mainPublish = (to: UserId) => pool.query('select pg_notify($1, $2)', [channel, `${to},~main`]);
  const bus = await PostgresEventBus.start(url, schema, logger);
  const rows: string[][] = [['way', 'offered', 'publishes/s', 'NOTIFY/s', 'publishes per NOTIFY']];
  for (const way of ['main', 'doorbell'] as const) {
    for (const rate of [400, Infinity]) {
      const seconds = rate === Infinity ? 2 : 3;
      const before = counter.count();
      const began = performance.now();
      let sent = 0;
      const inflight = new Set<Promise<unknown>>();
      while (performance.now() - began < seconds * 1000) {
        const due = rate === Infinity ? 50 : Math.floor(((performance.now() - began) / 1000) * rate) - sent;
        for (let i = 0; i < due; i++) {
          const to = ids[(sent + i) % ids.length] as UserId;
          const job = way === 'main' ? mainPublish(to) : bus.publish([to]);
          inflight.add(job);
          void job.finally(() => inflight.delete(job));
        }
        sent += Math.max(0, due);
        // As fast as they go: main's waits for its NOTIFYs (8 at most in flight on 2 connections... more queue).
        if (rate === Infinity && way === 'main') while (inflight.size > 8) await Promise.race(inflight);
        await (rate === Infinity ? new Promise((resolve) => setImmediate(resolve)) : sleep(10));
      }
      await Promise.all(inflight);
      const spent = (performance.now() - began) / 1000;
      await sleep(300);
      const notices = counter.count() - before;
      rows.push([
        way,
        rate === Infinity ? 'max' : `${rate}/s`,
        (sent / spent).toFixed(0),
        (notices / spent).toFixed(0),
        (sent / Math.max(1, notices)).toFixed(1),
      ]);
      if (way === 'doorbell' && rate === 400)
        headline({
          measure: 'publishes per NOTIFY at 400/s',
          ratio: null,
          floor: 'main: 1',
          value: (sent / Math.max(1, notices)).toFixed(1),
          goal: '≥ 10',
        });
    }
  }
  for (const row of rows) console.log(`  ${row.map((c, i) => (i === 0 ? c.padEnd(9) : c.padStart(20))).join('')}`);
  await bus.close();
  await pool.end();
  await counter.end();
}

// 2 and 3: two stand-in web processes.
interface Node {
  child: ChildProcess;
  ask: (command: FanoutCommand) => Promise<Record<string, unknown>>;
}

async function startNode(kind: 'postgres' | 'redis'): Promise<Node> {
  const child = fork(path.join(import.meta.dirname, 'fanoutProcess.ts'), [url, schema, kind, redisUrl], {
    stdio: 'inherit',
  });
  process.once('exit', () => child.kill('SIGKILL'));
  const replies: ((message: Record<string, unknown>) => void)[] = [];
  child.on('message', (message: Record<string, unknown>) => replies.shift()?.(message));
  await new Promise<void>((resolve) => replies.push(() => resolve()));
  return {
    child,
    ask: (command) =>
      new Promise((resolve) => {
        replies.push(resolve);
        child.send(command);
      }),
  };
}

async function stopNode(node: Node): Promise<void> {
  node.child.send({ cmd: 'stop' } satisfies FanoutCommand);
  await once(node.child, 'exit');
}

const kinds = withRedis ? (['postgres', 'redis'] as const) : (['postgres'] as const);
const latencyRows: string[][] = [
  ['path', 'msg/s', 'write p50', 'write p99', 'same p50', 'same p99', 'cross p50', 'cross p99', 'cross/same p99'],
];
const cpuRows: string[][] = [['path', 'idle process CPU (% of a core)']];
const streamsEach = 1000;

for (const kind of kinds) {
  const [a, b] = [await startNode(kind), await startNode(kind)];
  const ofA = await users(streamsEach);
  const ofB = await users(streamsEach);
  // Users with no stream in either process: the 5,000 a second of part 3 concern neither A's nor B's streams.
  const elsewhere = await users(streamsEach);
  await Promise.all([a.ask({ cmd: 'streams', users: ofA }), b.ask({ cmd: 'streams', users: ofB })]);
  // Warm-up, not measured: 2,000 streams' first reads (and, on Redis, their subscriptions' reads) and the JIT
  // are behind us before the first measured write, or the first rate's figures would carry them.
  const warmTargets = ofA.slice(0, 100).flatMap((u, i) => [u, ofB[i] as number]);
  await a.ask({ cmd: 'load', rate: 50, seconds: 3, targets: warmTargets });
  await sleep(500);
  await Promise.all([a.ask({ cmd: 'report' }), b.ask({ cmd: 'report' })]);
  console.log(`\n2. ${kind}: A and B, ${streamsEach} streams each (load average ${load()})`);
  for (const rate of [50, 400]) {
    // Alternating own and B's users: both paths under the same load. A's 500 pairs: half each.
    const targets = ofA.slice(0, 250).flatMap((u, i) => [u, ofB[i] as number]);
    await a.ask({ cmd: 'load', rate, seconds: 5, targets });
    await sleep(500);
    const fromA = await a.ask({ cmd: 'report' });
    const same = fromA.latencies as number[];
    const w = summary('write', fromA.writes as number[]);
    const cross = (await b.ask({ cmd: 'report' })).latencies as number[];
    const s = summary('same', same);
    const c = summary('cross', cross);
    latencyRows.push([
      kind,
      String(rate),
      w.p50.toFixed(1),
      w.p99.toFixed(1),
      s.p50.toFixed(1),
      s.p99.toFixed(1),
      c.p50.toFixed(1),
      c.p99.toFixed(1),
      (c.p99 / s.p99).toFixed(2),
    ]);
    line(`  ${kind} ${rate} msg/s`, `same ${same.length} cross ${cross.length} delivered`);
    headline({
      measure: `cross-process p99 at ${rate} msg/s, ${kind}`,
      ratio: c.p50 / s.p50,
      p99: c.p99 / s.p99,
      floor: 'same-process delivery, same run',
      ...(rate === 400 ? { goal: 'p99 ≤ 1.5x' } : {}),
    });
  }
  console.log(`\n3. ${kind}: B idle while A publishes 5,000 a second for others (load average ${load()})`);
  await b.ask({ cmd: 'cpu' });
  await a.ask({ cmd: 'publishOnly', rate: 5000, seconds: 5, targets: elsewhere });
  const share = (await b.ask({ cmd: 'cpu' })).share as number;
  cpuRows.push([kind === 'postgres' ? 'NOTIFY doorbell' : 'Redis', (share * 100).toFixed(2)]);
  if (kind === 'redis')
    headline({
      measure: 'idle process CPU at 5,000 others’ notices/s, Redis',
      ratio: null,
      floor: 'main: 9 % (NOTIFY per publish)',
      value: `${(share * 100).toFixed(2)} %`,
      goal: '≤ 0.5 %',
    });
  if (kind === 'postgres') {
    // Main's way: every publish its own NOTIFY, heard by every process (B's bus parses each and wakes nobody).
    const pool = new pg.Pool({ connectionString: url, max: 4 });
    await b.ask({ cmd: 'cpu' });
    const began = performance.now();
    let sent = 0;
    while (performance.now() - began < 5000) {
      const due = Math.floor(((performance.now() - began) / 1000) * 5000) - sent;
      const batch = Array.from({ length: Math.max(0, due) }, (_, i) =>
        pool.query('select pg_notify($1, $2)', [channel, `${elsewhere[(sent + i) % elsewhere.length]},~main`]),
      );
      sent += batch.length;
      await Promise.all(batch);
      await sleep(5);
    }
    const mainShare = (await b.ask({ cmd: 'cpu' })).share as number;
    const spent = (performance.now() - began) / 1000;
    cpuRows.push([`main (NOTIFY per publish, ${(sent / spent).toFixed(0)}/s reached)`, (mainShare * 100).toFixed(2)]);
    await pool.end();
  }
  await Promise.all([stopNode(a), stopNode(b)]);
}

console.log(`\nCross-process against same-process delivery (ms, write start to the event on the stream)`);
for (const row of latencyRows) console.log(`  ${row.map((c) => c.padStart(11)).join(' ')}`);
console.log(`\nAn idle process while another publishes 5,000 a second`);
for (const row of cpuRows) console.log(`  ${row[0]?.padEnd(48)}${row[1]?.padStart(10)}`);
console.log(`\nload average at the end: ${load()}`);
await database.drop();
process.exit(0);
