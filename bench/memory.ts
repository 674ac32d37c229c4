/**
 * `npm run bench memory` (issue 41 goal 2): the server's resident memory idle and at its peak under a mixed
 * load, Iskra beside the open-source peer fglsn/matcha in the same run, each in its own process on its own
 * database of the same PostgreSQL with the same people (the HTTP bench's 10,000 profiles, benchHttpData.ts;
 * copied into the peer's schema as bench/peer.ts does). Iskra runs as `npm start` runs it in production
 * (compiled JavaScript from .build/, plain node); the peer as its `npm start` does (`node build/index.js`).
 *
 * The load is the part of load.ts's mix that the peer also serves: sign-in (a password check and a new
 * session: argon2id for Iskra, bcrypt for the peer), like, one's own profile and a match's profile, in a fixed
 * pattern of 20 (1 sign-in, 7 likes, 5 own profiles, 7 match profiles) that both servers walk in the same
 * order with the same people, from `--connections` (50) clients in a closed loop. The servers take turns,
 * `--seconds` (15) each, for `--rounds` (2) rounds, the order reversed every round.
 *
 * Memory is read from /proc: idle is VmRSS `--settle` (5) seconds after each server answered, with nothing asked
 * of it (every server at the same age); peak is VmHWM (the most the process ever held resident) at the end of the run.
 * `--skip <action,…>` leaves actions out of the pattern (`--skip sign-in`: the peak without password hashing).
 * It prints both servers' idle, sampled-under-load and peak RSS, the ratios Iskra / peer (goal: at most 1.5x),
 * and the answers by status, recorded for `npm run bench`'s table. Without a built peer (`--peer <its server/
 * folder>` or PEER_MATCHA_DIR) it prints Iskra's figures alone and records no ratio. `--against <checkout>`
 * (a git worktree of another commit, built by its own scripts/buildServer.mjs) adds that checkout's server as a
 * third side, `before`, taking its turns with the others: a change's before and after in one run.
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import pg from 'pg';
import { withAdminClient } from '../server/test/testDatabase.ts';
import { argOption, headline, line } from './benchKit.ts';
import { cpuSecondsOf, memoryOf, pgAnswers, stopServer } from './benchCrowd.ts';
import { benchDataDir, benchPassword, makeHttpBenchData, type HttpBenchData } from './benchHttpData.ts';
import { loadPeerData, peerPasswordHash, peerUsername, startPeer, tableOf } from './benchPeer.ts';
import { startIskra } from './benchServers.ts';

const peerDir = argOption('--peer') ?? process.env.PEER_MATCHA_DIR;
const seconds = Number(argOption('--seconds') ?? 15);
const rounds = Number(argOption('--rounds') ?? 2);
const connections = Number(argOption('--connections') ?? 50);
const settleSeconds = Number(argOption('--settle') ?? 5);
/** `--node-options "--max-semi-space-size=8"`: Node or V8 flags for Iskra's process (NODE_OPTIONS), to try one. */
const iskraNodeOptions = argOption('--node-options');
/** `--env KEY=value,…`: more environment for this checkout's server only (a malloc setting, say), to try one. */
const iskraEnv = Object.fromEntries(
  (argOption('--env') ?? '')
    .split(',')
    .filter(Boolean)
    .map((pair) => {
      const at = pair.indexOf('=');
      if (at < 1) throw new Error(`--env takes NAME=value pairs, not ${pair}`);
      return [pair.slice(0, at), pair.slice(at + 1)];
    }),
);
/** `--against <checkout>`: another commit's Iskra beside this one, on a database of its own. */
const against = argOption('--against');
const root = path.resolve(import.meta.dirname, '..');
const pgUrl = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
/** The peer refuses a password without a capital letter and a symbol: its own rule, its own password. */
const peerPassword = 'Bench-http-password-1';

type Action = 'sign-in' | 'like' | 'own profile' | 'match profile';
/** The mix, spelled out in the order each server walks it: 1 sign-in, 7 likes, 5 own profiles, 7 match profiles. */
const fullPattern: Action[] = [
  'like',
  'match profile',
  'own profile',
  'like',
  'match profile',
  'like',
  'own profile',
  'match profile',
  'like',
  'sign-in',
  'match profile',
  'own profile',
  'like',
  'match profile',
  'like',
  'own profile',
  'match profile',
  'like',
  'own profile',
  'match profile',
];
/** `--skip sign-in` (a comma-separated list) leaves actions out, to see what each adds to the peak. */
const skipped = (argOption('--skip') ?? '').split(',').filter(Boolean);
const pattern = fullPattern.filter((action) => !skipped.includes(action));

/** The people each action is done by, the same for both servers. */
interface Crowd {
  likes: HttpBenchData['likes'];
  /** Sign-in accounts: a user id and its e-mail (Iskra signs in by e-mail, the peer by user name). */
  logins: { userId: number; email: string }[];
  /** Matched pairs: the viewer reads the other's profile (and their own). */
  pairs: { viewer: number; other: number }[];
}

function crowdOf(data: HttpBenchData): Crowd {
  const emails = new Set(data.logins);
  const logins = tableOf(data, 'users')
    .filter((u) => emails.has(u.email as string))
    .map((u) => ({ userId: u.id as number, email: u.email as string }));
  const matchOf = new Map(tableOf(data, 'matches').map((m) => [m.id as number, m]));
  const conversationMatch = new Map(
    tableOf(data, 'conversations').map((c) => [c.id as number, matchOf.get(c.match_id as number)]),
  );
  const pairs = data.chats.flatMap(({ userId, conversationId }) => {
    const match = conversationMatch.get(conversationId);
    if (!match) return [];
    const other = match.profile_low === userId ? match.profile_high : match.profile_low;
    return [{ viewer: userId, other: other as number }];
  });
  return { likes: data.likes, logins, pairs };
}

interface Request {
  url: string;
  init: RequestInit;
}

interface Side {
  name: string;
  child: ChildProcess;
  request: (action: Action, i: number) => Request;
  turn: number;
  idle?: number;
  /** The highest VmRSS sampled while its load ran. */
  sampledPeak: number;
  /** CPU seconds the server used during its turns, and the requests it answered then. */
  cpu: number;
  answered: number;
  statuses: Map<string, number>;
  stop: () => Promise<void>;
}

const at = <T>(items: T[], i: number) => items[i % items.length] as T;

function iskraRequests(url: string, csrf: { cookie: string; token: string }, data: HttpBenchData, crowd: Crowd) {
  const session = (userId: number) => `iskra_session=${data.sessionOf.get(userId) ?? ''}`;
  const get = (path: string, userId: number): Request => ({
    url: `${url}${path}`,
    init: { headers: { Cookie: `${csrf.cookie}; ${session(userId)}` } },
  });
  const post = (path: string, body: unknown, userId?: number): Request => ({
    url: `${url}${path}`,
    init: {
      method: 'POST',
      headers: {
        Cookie: userId === undefined ? csrf.cookie : `${csrf.cookie}; ${session(userId)}`,
        'Content-Type': 'application/json',
        'X-CSRF-Token': csrf.token,
      },
      body: JSON.stringify(body),
    },
  });
  return (action: Action, i: number): Request => {
    switch (action) {
      case 'sign-in':
        return post('/api/login', { email: at(crowd.logins, i).email, password: benchPassword });
      case 'like': {
        const like = at(crowd.likes, i);
        return post('/api/like', { profile_id: like.target }, like.userId);
      }
      case 'own profile':
        return get('/api/profile', at(crowd.pairs, i).viewer);
      case 'match profile': {
        const pair = at(crowd.pairs, i);
        return get(`/api/users_profile?profile_id=${pair.other}`, pair.viewer);
      }
    }
  };
}

function peerRequests(url: string, sessions: Map<number, string>, crowd: Crowd) {
  const bearer = (userId: number) => ({ Authorization: `Bearer ${sessions.get(userId) ?? ''}` });
  return (action: Action, i: number): Request => {
    switch (action) {
      case 'sign-in':
        return {
          url: `${url}/api/login`,
          init: {
            method: 'POST',
            headers: { 'Content-Type': 'application/json' },
            body: JSON.stringify({ username: peerUsername(at(crowd.logins, i).userId), password: peerPassword }),
          },
        };
      case 'like': {
        const like = at(crowd.likes, i);
        return { url: `${url}/api/users/${like.target}/like`, init: { method: 'POST', headers: bearer(like.userId) } };
      }
      case 'own profile': {
        const viewer = at(crowd.pairs, i).viewer;
        return { url: `${url}/api/users/${viewer}/profile`, init: { headers: bearer(viewer) } };
      }
      case 'match profile': {
        const pair = at(crowd.pairs, i);
        return { url: `${url}/api/users/${pair.other}/public_profile`, init: { headers: bearer(pair.viewer) } };
      }
    }
  };
}

/** One turn: `connections` clients in a closed loop for `seconds`, RSS sampled every 100 ms meanwhile. */
async function runTurn(side: Side): Promise<number> {
  const deadline = performance.now() + seconds * 1000;
  let answered = 0;
  const cpuBefore = cpuSecondsOf(side.child.pid) ?? Number.NaN;
  const sampler = setInterval(() => {
    const rss = memoryOf(side.child.pid)?.rss;
    if (rss !== undefined) side.sampledPeak = Math.max(side.sampledPeak, rss);
  }, 100);
  try {
    await Promise.all(
      Array.from({ length: connections }, async () => {
        while (performance.now() < deadline) {
          const i = side.turn++;
          const action = at(pattern, i);
          const { url, init } = side.request(action, Math.floor(i / pattern.length));
          const status = await fetch(url, { ...init, signal: AbortSignal.timeout(30_000) })
            .then(async (res) => {
              await res.arrayBuffer();
              return res.status;
            })
            .catch(() => 'network');
          answered++;
          const key = `${action} ${status}`;
          side.statuses.set(key, (side.statuses.get(key) ?? 0) + 1);
        }
      }),
    );
  } finally {
    clearInterval(sampler);
  }
  side.cpu += (cpuSecondsOf(side.child.pid) ?? Number.NaN) - cpuBefore;
  side.answered += answered;
  return answered / seconds;
}

const mb = (value: number | undefined) => (value === undefined ? '?' : `${value.toFixed(0)} MB`);

console.log(
  `\nServer memory under a mixed load, Iskra beside the peer (fglsn/matcha) on PostgreSQL, Node ${process.version}, ${new Date().toISOString()}`,
);
if (!(await pgAnswers(pgUrl))) {
  console.log(`skipped: nothing answers at ${new URL(pgUrl).host} (set TEST_DATABASE_URL or DATABASE_URL)`);
  process.exit(0);
}
const withPeer = peerDir !== undefined && existsSync(path.join(peerDir, 'build', 'index.js'));
if (!withPeer)
  console.log(
    `no built peer (--peer <dir> or PEER_MATCHA_DIR: the peer's server/ folder with build/index.js, made as docs/benchmarks.md says): Iskra alone, no ratio recorded`,
  );
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130));

/**
 * Each server's idle RSS, read `--settle` seconds after it answered: at the same age for every server, since the
 * servers start one after another and V8 shrinks an idle heap some seconds after the start (its memory reducer),
 * so a server read later than another would look smaller for its age alone.
 */
const idleReadings: Promise<void>[] = [];
const readIdleLater = (side: Side) =>
  idleReadings.push(
    new Promise((resolve) =>
      setTimeout(() => {
        side.idle = memoryOf(side.child.pid)?.rss;
        resolve();
      }, settleSeconds * 1000),
    ),
  );

const data = await makeHttpBenchData(benchDataDir, (m) => console.log(m));
const crowd = crowdOf(data);
const run = randomBytes(3).toString('hex');
const sides: Side[] = [];
try {
  if (withPeer && peerDir) {
    const peerDatabase = `matcha_memory_${run}`;
    await withAdminClient(pgUrl, (c) => c.query(`create database ${peerDatabase}`));
    const dropPeerDatabase = () =>
      withAdminClient(pgUrl, (c) => c.query(`drop database if exists ${peerDatabase} with (force)`));
    try {
      const url = new URL(pgUrl);
      url.pathname = `/${peerDatabase}`;
      const client = new pg.Client({ connectionString: url.toString() });
      await client.connect();
      const sessions = await loadPeerData(client, peerDir, data, {
        sessionsFor: [...crowd.likes.map((l) => l.userId), ...crowd.pairs.map((p) => p.viewer)],
        passwords: {
          userIds: new Set(crowd.logins.map((l) => l.userId)),
          hash: peerPasswordHash(peerDir, peerPassword),
        },
      }).finally(() => client.end());
      const peer = await startPeer(peerDir, peerDatabase, pgUrl);
      sides.push({
        name: 'peer',
        child: peer.child,
        request: peerRequests(peer.url, sessions, crowd),
        turn: 0,
        sampledPeak: 0,
        cpu: 0,
        answered: 0,
        statuses: new Map(),
        stop: async () => {
          await stopServer(peer.child);
          await dropPeerDatabase();
        },
      });
      readIdleLater(sides[sides.length - 1] as Side);
    } catch (error) {
      await dropPeerDatabase();
      throw error;
    }
  }
  const iskraSides: [string, string][] = [
    ['iskra', root],
    ...(against ? [['before', path.resolve(against)] as [string, string]] : []),
  ];
  for (const [name, checkout] of iskraSides.reverse()) {
    const iskra = await startIskra(checkout, pgUrl, `iskra_memory_${name}_${run}`, data, {
      ...(iskraNodeOptions ? { NODE_OPTIONS: iskraNodeOptions } : {}),
      ...(name === 'iskra' ? iskraEnv : {}),
    });
    sides.unshift({
      name,
      child: iskra.server.child,
      request: iskraRequests(iskra.server.url, iskra.csrf, data, crowd),
      turn: 0,
      sampledPeak: 0,
      cpu: 0,
      answered: 0,
      statuses: new Map(),
      stop: () => iskra.stop(),
    });
    readIdleLater(sides[0] as Side);
  }

  // Idle: both answered (startIskra fetched a CSRF token; startPeer one 401), then nothing for a while.
  await Promise.all(idleReadings);
  line(
    'machine',
    `${availableParallelism()} cores shared by PostgreSQL, the servers and this load generator (load average ${loadavg()[0]?.toFixed(1)} at idle); ${connections} connections, ${seconds} s a turn, ${rounds} rounds${skipped.length ? `, without ${skipped.join(', ')}` : ''}${iskraNodeOptions ? `; Iskra with NODE_OPTIONS=${iskraNodeOptions}` : ''}`,
  );
  line('idle RSS', sides.map((s) => `${s.name} ${mb(s.idle)}`).join(', '));

  console.log(
    `\n${'round'.padEnd(6)} ${'load'.padStart(5)}  ${sides.map((s) => `${s.name} req/s, RSS`.padStart(22)).join('  ')}`,
  );
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 ? [...sides].reverse() : sides;
    const load = loadavg()[0] ?? 0;
    const cells = new Map<string, string>();
    for (const side of order) {
      const perSecond = await runTurn(side);
      cells.set(side.name, `${perSecond.toFixed(0)}, ${mb(memoryOf(side.child.pid)?.rss)}`);
    }
    console.log(
      `${String(round + 1).padEnd(6)} ${load.toFixed(1).padStart(5)}  ${sides.map((s) => (cells.get(s.name) ?? '').padStart(22)).join('  ')}`,
    );
  }

  console.log('');
  const figures = new Map<string, { idle?: number; peak?: number; end?: number }>();
  for (const side of sides) {
    const now = memoryOf(side.child.pid);
    figures.set(side.name, { idle: side.idle, peak: now?.peak, end: now?.rss });
    line(
      `${side.name} RSS`,
      `idle ${mb(side.idle)}, highest sampled under load ${mb(side.sampledPeak)}, peak (VmHWM) ${mb(now?.peak)}, after the load ${mb(now?.rss)}`,
    );
    const answers = [...side.statuses]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([key, n]) => `${key}: ${n}`)
      .join(', ');
    line(`${side.name} answers`, answers);
    // CPU-seconds a request: what a setting that trades memory for garbage collection costs, less noisy than time.
    line(
      `${side.name} CPU`,
      `${((side.cpu / Math.max(1, side.answered)) * 1000).toFixed(2)} ms a request (${side.cpu.toFixed(1)} s for ${side.answered})`,
    );
  }
  const ours = figures.get('iskra');
  const theirs = figures.get('peer');
  const before = figures.get('before');
  if (before?.idle && before.peak && ours?.idle && ours.peak) {
    line(
      'iskra / before',
      `idle ${(ours.idle / before.idle).toFixed(2)}x, peak ${(ours.peak / before.peak).toFixed(2)}x`,
    );
    if (theirs?.idle && theirs.peak)
      line(
        'before / peer',
        `idle ${(before.idle / theirs.idle).toFixed(2)}x, peak ${(before.peak / theirs.peak).toFixed(2)}x`,
      );
  }
  if (ours && theirs?.idle && theirs.peak && ours.idle && ours.peak) {
    const idleRatio = ours.idle / theirs.idle;
    const peakRatio = ours.peak / theirs.peak;
    line('iskra / peer', `idle ${idleRatio.toFixed(2)}x, peak ${peakRatio.toFixed(2)}x  (goal <= 1.5x each)`);
    const floor = 'the peer fglsn/matcha, same load and PostgreSQL';
    const load = `load average ${loadavg()[0]?.toFixed(1)}`;
    headline({
      measure: 'server RSS idle, iskra / peer',
      ratio: idleRatio,
      floor,
      value: `${mb(ours.idle)} / ${mb(theirs.idle)}`,
      goal: '<= 1.5x',
    });
    headline({
      measure: `server RSS peak under the mix, iskra / peer (${connections} connections${skipped.length ? `, without ${skipped.join(', ')}` : ''})`,
      ratio: peakRatio,
      floor,
      value: `${mb(ours.peak)} / ${mb(theirs.peak)}, ${load}`,
      goal: '<= 1.5x',
    });
  } else if (ours) {
    headline({
      measure: 'server RSS idle / peak under the mix (no peer)',
      ratio: null,
      floor: 'none (no built peer)',
      value: `${mb(ours.idle)} / ${mb(ours.peak)}`,
    });
  }
} finally {
  for (const side of sides) await side.stop().catch((error: unknown) => console.error(error));
}
