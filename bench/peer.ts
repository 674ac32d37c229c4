/**
 * `npm run bench peer` (issue 41 goal 1): a like over HTTP on PostgreSQL against the open-source peer
 * fglsn/matcha (Express and raw `pg`), each server in its own process on its own database of the same
 * PostgreSQL with the same people and likes (the HTTP bench's 10,000 profiles and their swipes,
 * benchHttpData.ts), at 10 connections (closed loop), the servers taking turns in each round so both meet the
 * same spells of load from the rest of the machine. Prints requests a second, p50/p99 per server and round,
 * and the ratio Iskra / peer of each round (goal: at least 1.5x the peer's requests a second).
 *
 * The peer is never built into this project: build it in a scratch folder from its public repository as
 * docs/benchmarks.md says, then `npm run bench peer -- --peer <its server/ folder>` (or PEER_MATCHA_DIR);
 * without it the bench says so and records nothing. `--against <checkout>` adds another commit's Iskra to the
 * turns (main, say); `--seconds n` (5) per cell, `--rounds n` (3), `--connections n` (10).
 *
 * The peer's like (POST /api/users/:id/like, a Bearer session): its session lookup and "online" upsert, both
 * profiles' completeness, the report check, the like's insert, its notification rows and fame update, and
 * the check for a like back. No transaction and no limit; Iskra's does more (visibility, blocks, the free
 * daily allowance counted under row locks, the match in the same transaction, the badge events).
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { withAdminClient } from '../server/test/testDatabase.ts';
import { argOption, headline, line, quantile } from './benchKit.ts';
import { cpuSecondsOf, pgAnswers, stopServer } from './benchCrowd.ts';
import { benchDataDir, makeHttpBenchData, type HttpBenchData } from './benchHttpData.ts';
import { loadPeerData, startPeer } from './benchPeer.ts';
import { startIskra, type IskraServer } from './benchServers.ts';

const peerDir = argOption('--peer') ?? process.env.PEER_MATCHA_DIR;
const against = argOption('--against');
const seconds = Number(argOption('--seconds') ?? 5);
const rounds = Number(argOption('--rounds') ?? 3);
const connections = Number(argOption('--connections') ?? 10);
/**
 * Each cell is measured after an unmeasured warm-up at the same concurrency, ended by a condition, not a time
 * alone: at least warmupSeconds and warmupRequests answered on every connection. With three sides each server
 * sits idle through the others' turns (11 s and more), past `pg`'s 10 s idle timeout, so its pool has closed
 * its connections; the warm-up opens them again (backend start, first plans of the named statements) before the
 * clock starts, for every side alike, so a cell measures likes, not connection start-up.
 */
const warmupSeconds = 1;
const warmupRequests = 5;
const root = path.resolve(import.meta.dirname, '..');
const pgUrl = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

interface Side {
  name: string;
  /** The i-th like: its request. */
  request: (i: number) => { url: string; init: RequestInit };
  turn: number;
  cells: Cell[];
  stop: () => Promise<void>;
  /** The server's process, and the database whose PostgreSQL backends serve it (CPU a like, below). */
  pid: number | undefined;
  database: string;
}

interface Cell {
  perSecond: number;
  p50: number;
  p99: number;
  errors: Map<string, number>;
  /** CPU ms a like over the measured part of the cell: the server's process, its database's backends. */
  nodeMs: number;
  postgresMs: number;
}

/**
 * CPU seconds used so far by each backend of a database (/proc, so PostgreSQL must run on this machine;
 * an empty map otherwise). A backend that ends within a cell takes its seconds with it, which the warm-up
 * (the pool's connections opened before the clock starts) makes rare.
 */
async function backendSeconds(database: string): Promise<Map<number, number>> {
  const pids = await withAdminClient(pgUrl, (c) =>
    c.query<{ pid: number }>('select pid from pg_stat_activity where datname = $1', [database]),
  );
  const seconds = new Map<number, number>();
  for (const { pid } of pids.rows) {
    const used = cpuSecondsOf(pid);
    if (used !== undefined) seconds.set(pid, used);
  }
  return seconds;
}

/** CPU seconds the backends used between two readings (a backend first seen in the second from nothing). */
function backendsUsed(before: Map<number, number>, after: Map<number, number>): number {
  let used = 0;
  for (const [pid, seconds] of after) used += seconds - (before.get(pid) ?? 0);
  return used;
}

async function runCell(side: Side): Promise<Cell> {
  const like = async () => {
    const { url, init } = side.request(side.turn++);
    return fetch(url, { ...init, signal: AbortSignal.timeout(30_000) })
      .then(async (res) => {
        await res.arrayBuffer();
        return res.status;
      })
      .catch(() => 'network');
  };
  const warmUntil = performance.now() + warmupSeconds * 1000;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      for (let done = 0; done < warmupRequests || performance.now() < warmUntil; done++) await like();
    }),
  );
  const latencies: number[] = [];
  const errors = new Map<string, number>();
  const [nodeBefore, backendsBefore] = [cpuSecondsOf(side.pid), await backendSeconds(side.database)];
  const measureFrom = performance.now();
  const deadline = measureFrom + seconds * 1000;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < deadline) {
        const started = performance.now();
        const status = await like();
        latencies.push(performance.now() - started);
        if (status !== 200) errors.set(String(status), (errors.get(String(status)) ?? 0) + 1);
      }
    }),
  );
  // Requests a second over the time the cell took: the last requests end after the deadline.
  const elapsed = (performance.now() - measureFrom) / 1000;
  const [nodeAfter, backendsAfter] = [cpuSecondsOf(side.pid), await backendSeconds(side.database)];
  const sorted = latencies.sort((a, b) => a - b);
  const perLike = (seconds: number) => (seconds * 1000) / Math.max(1, sorted.length);
  return {
    perSecond: sorted.length / elapsed,
    p50: quantile(sorted, 0.5),
    p99: quantile(sorted, 0.99),
    errors,
    nodeMs: perLike((nodeAfter ?? Number.NaN) - (nodeBefore ?? Number.NaN)),
    postgresMs: perLike(backendsUsed(backendsBefore, backendsAfter)),
  };
}

function iskraSide(name: string, server: IskraServer, database: string, data: HttpBenchData): Side {
  return {
    name,
    turn: 0,
    cells: [],
    pid: server.server.child.pid,
    database,
    stop: () => server.stop(),
    request: (i) => {
      const like = data.likes[i % data.likes.length] as HttpBenchData['likes'][number];
      return {
        url: `${server.server.url}/api/like`,
        init: {
          method: 'POST',
          headers: {
            Cookie: `${server.csrf.cookie}; iskra_session=${data.sessionOf.get(like.userId) ?? ''}`,
            'Content-Type': 'application/json',
            'X-CSRF-Token': server.csrf.token,
          },
          body: JSON.stringify({ profile_id: like.target }),
        },
      };
    },
  };
}

console.log(
  `\nLike against the peer (fglsn/matcha) on PostgreSQL, Node ${process.version}, ${new Date().toISOString()}`,
);
if (!peerDir || !existsSync(path.join(peerDir, 'build', 'index.js'))) {
  console.log(
    `skipped: no built peer (--peer <dir> or PEER_MATCHA_DIR: the peer's server/ folder with build/index.js, made as docs/benchmarks.md says)`,
  );
  process.exit(0);
}
if (!(await pgAnswers(pgUrl))) {
  console.log(`skipped: nothing answers at ${new URL(pgUrl).host} (set TEST_DATABASE_URL or DATABASE_URL)`);
  process.exit(0);
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130));

const data = await makeHttpBenchData(benchDataDir, (m) => console.log(m));
const run = randomBytes(3).toString('hex');
const sides: Side[] = [];
try {
  const peerDatabase = `matcha_peer_${run}`;
  await withAdminClient(pgUrl, (c) => c.query(`create database ${peerDatabase}`));
  const dropPeerDatabase = () =>
    withAdminClient(pgUrl, (c) => c.query(`drop database if exists ${peerDatabase} with (force)`));
  try {
    const url = new URL(pgUrl);
    url.pathname = `/${peerDatabase}`;
    const client = new pg.Client({ connectionString: url.toString() });
    await client.connect();
    const sessions = await loadPeerData(client, peerDir, data).finally(() => client.end());
    const peer = await startPeer(peerDir, peerDatabase, pgUrl);
    sides.push({
      name: 'peer',
      turn: 0,
      cells: [],
      pid: peer.child.pid,
      database: peerDatabase,
      stop: async () => {
        await stopServer(peer.child);
        await dropPeerDatabase();
      },
      request: (i) => {
        const like = data.likes[i % data.likes.length] as HttpBenchData['likes'][number];
        return {
          url: `${peer.url}/api/users/${like.target}/like`,
          init: { method: 'POST', headers: { Authorization: `Bearer ${sessions.get(like.userId) ?? ''}` } },
        };
      },
    });
  } catch (error) {
    await dropPeerDatabase();
    throw error;
  }
  const ourDatabase = `iskra_peer_${run}_this`;
  sides.push(iskraSide('iskra', await startIskra(root, pgUrl, ourDatabase, data), ourDatabase, data));
  if (against) {
    const theirs = `iskra_peer_${run}_against`;
    sides.push(iskraSide('against', await startIskra(path.resolve(against), pgUrl, theirs, data), theirs, data));
  }

  line(
    'machine',
    `${availableParallelism()} cores shared by PostgreSQL, the servers and this load generator (load average ${loadavg()[0]?.toFixed(1)}); ${connections} connections, ${seconds} s a cell after a warm-up of ${warmupSeconds} s and ${warmupRequests} likes a connection, ${rounds} rounds`,
  );
  const header = sides.map(
    (s) => `${`${s.name} req/s`.padStart(12)} ${'p50'.padStart(6)} ${'p99'.padStart(6)} ${'cpu node/pg'.padStart(11)}`,
  );
  console.log(
    `\n${'round'.padEnd(6)} ${'load'.padStart(5)}  ${header.join('  ')}   iskra/peer${against ? '  iskra/against' : ''}`,
  );
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 ? [...sides].reverse() : sides;
    const load = loadavg()[0] ?? 0;
    for (const side of order) side.cells.push(await runCell(side));
    const cellOf = (name: string) => sides.find((s) => s.name === name)?.cells[round];
    const [peerCell, ours, before] = [cellOf('peer'), cellOf('iskra'), cellOf('against')];
    const columns = sides.map((s) => {
      const c = s.cells[round] as Cell;
      const errors = [...c.errors].map(([status, n]) => `${n}x${status}`).join(' ');
      return `${c.perSecond.toFixed(0).padStart(12)} ${c.p50.toFixed(1).padStart(6)} ${c.p99.toFixed(1).padStart(6)} ${`${c.nodeMs.toFixed(2)}/${c.postgresMs.toFixed(2)}`.padStart(11)}${errors ? ` (${errors})` : ''}`;
    });
    const ratio = (a?: Cell, b?: Cell) => (a && b ? `${(a.perSecond / b.perSecond).toFixed(2)}x` : '');
    console.log(
      `${String(round + 1).padEnd(6)} ${load.toFixed(1).padStart(5)}  ${columns.join('  ')}   ${ratio(ours, peerCell).padStart(10)}${against ? ratio(ours, before).padStart(15) : ''}`,
    );
  }
  // The headline: the whole run's requests a second, and the median cell's p50/p99 ratio.
  const total = (name: string) => {
    const cells = sides.find((s) => s.name === name)?.cells ?? [];
    const sorted = (pick: (c: Cell) => number) => cells.map(pick).sort((a, b) => a - b);
    return {
      perSecond: cells.reduce((sum, c) => sum + c.perSecond, 0) / Math.max(1, cells.length),
      p50: quantile(
        sorted((c) => c.p50),
        0.5,
      ),
      p99: quantile(
        sorted((c) => c.p99),
        0.5,
      ),
    };
  };
  // Where a like's CPU goes, the median cell of each side: the server's process against its database's backends.
  for (const side of sides) {
    const median = (pick: (c: Cell) => number) =>
      quantile(
        side.cells.map(pick).sort((a, b) => a - b),
        0.5,
      );
    line(
      `cpu a like, ${side.name}`,
      `server process ${median((c) => c.nodeMs).toFixed(2)} ms, PostgreSQL backends ${median((c) => c.postgresMs).toFixed(2)} ms (median cell)`,
    );
  }
  const ours = total('iskra');
  const perRound = (other: string) =>
    (sides.find((s) => s.name === 'iskra')?.cells ?? []).map((c, i) => {
      const o = sides.find((s) => s.name === other)?.cells[i];
      return o ? c.perSecond / o.perSecond : Number.NaN;
    });
  const range = (values: number[]) => `${Math.min(...values).toFixed(2)}-${Math.max(...values).toFixed(2)}x a round`;
  for (const [other, floor, goal] of [
    ['peer', 'the peer fglsn/matcha, same data and PostgreSQL', '>= 1.5x req/s'],
    ...(against ? [['against', `the --against checkout (${against})`, undefined]] : []),
  ] as [string, string, string | undefined][]) {
    const theirs = total(other);
    const value = `req/s ${(ours.perSecond / theirs.perSecond).toFixed(2)}x (${range(perRound(other))})`;
    line(
      `iskra / ${other}`,
      `${value}; p50 ${(ours.p50 / theirs.p50).toFixed(2)}x, p99 ${(ours.p99 / theirs.p99).toFixed(2)}x`,
    );
    headline({
      measure: `like, ${connections} connections, iskra / ${other}`,
      ratio: ours.p50 / theirs.p50,
      p99: ours.p99 / theirs.p99,
      floor,
      value,
      ...(goal ? { goal } : {}),
    });
  }
} finally {
  for (const side of sides) await side.stop().catch((error: unknown) => console.error(error));
}
