/**
 * `npm run bench` (SSE part): how soon a message reaches the receiver's open event stream while many other
 * signed-in users hold idle streams on the same server (issue 24: with 1,000 idle streams, p99 at most 1.5x
 * the bare relay of the same run).
 *   - The real app (createTestApp) on SQLite with the in-process bus, and on PostgreSQL (when
 *     TEST_DATABASE_URL is set) with the PostgresEventBus as main.ts wires it (LISTEN/NOTIFY). Ten matched
 *     pairs take turns: one POSTs a message (the chat route), and the latency runs from starting the POST
 *     to the `message` event arriving on the other's GET /api/events. Two parts of it are printed too, timed
 *     in this process on the same clock through the bus the app is given: from the publish (called once the
 *     message has committed) to the arrival, the delivery without the message write; and from the
 *     receiver's stream being woken by the bus to the arrival, the stream's own reads and write.
 *   - The floor: a bare node:http relay that writes each POST's body as an event to one listening stream.
 *     The same client code reads both (plain http.get, parsed as an EventSource would) and the same fetch
 *     POSTs to both.
 *   - Four targets in one process, on the same load: the app with no other stream open, the app with
 *     1,000 idle signed-in users each holding an open stream (accounts made straight in the database, each
 *     stream signed in by its cookie through the real session check), and the relay with 0 and with 1,000
 *     idle streams. Every round sends one message to each, starting from a different one each round.
 * 30 rounds of warm-up back to back, then 200 measured spread over one heartbeat period (25 s), so every idle
 * stream's heartbeat falls among them (the count received is printed). Figures only, no thresholds.
 */
import { once } from 'node:events';
import { createServer, get, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { availableParallelism, loadavg } from 'node:os';
import type { Dialect } from '../db/client.ts';
import type { UserId } from '../db/schema.ts';
import { InProcessEventBus, PostgresEventBus, type EventBus } from '../server/features/events/index.ts';
import { heartbeatMs } from '../server/features/events/liveStream.ts';
import { createLogger } from '../server/logger.ts';
import { createPerson, createSignedInUsers } from '../server/test/people.ts';
import { createTestApp } from '../server/test/testApp.ts';
import { createTestDatabase } from '../server/test/testDatabase.ts';
import { line, ratioLine, summary } from './benchKit.ts';

const warmupRounds = 30;
const measuredRounds = 200;
const idleStreams = 1000;
/** The server lets one person send 30 messages a minute; the test clock moves past the window this often. */
const messagesPerWindow = 25;
/**
 * Matched pairs taking turns, so each receiver gets a message every tenth round: one receiver fed every round
 * would hold hundreds of events from the last 30 s, which its stream reads again on every wake-up to catch
 * PostgreSQL's late commits (liveStream.ts, lateCommitMs), a cost of that receiver's own traffic, not of
 * the idle streams.
 */
const pairCount = 10;
/** The measured rounds span a little more than one heartbeat period (a round is one message to each of the four). */
const roundSpacingMs = (heartbeatMs + 2000) / measuredRounds;

/** One Server-Sent Events stream read as an EventSource would: each event's data, timed as it arrives. */
class StreamReader {
  private buffer = '';
  /** Comment lines received (the server's heartbeats). */
  pings = 0;
  private waiter: { test: (type: string, data: string) => boolean; resolve: (at: number) => void } | null = null;

  private constructor(readonly response: IncomingMessage) {}

  /** Opens the stream and answers once the server's first bytes arrived (its cursor is set from then on). */
  static open(url: string, headers: Record<string, string> = {}): Promise<StreamReader> {
    return new Promise((resolve, reject) => {
      // One connection each, as each tab has its own.
      const request = get(url, { headers: { Accept: 'text/event-stream', ...headers }, agent: false }, (response) => {
        if (response.statusCode !== 200) {
          reject(new Error(`stream ${url} answered ${response.statusCode}`));
          response.resume();
          return;
        }
        const reader = new StreamReader(response);
        response.setEncoding('utf8');
        response.once('data', () => resolve(reader));
        response.on('data', (chunk: string) => reader.read(chunk));
        response.on('error', () => undefined);
      });
      request.on('error', reject);
    });
  }

  private read(chunk: string): void {
    const at = performance.now();
    this.buffer += chunk;
    let end: number;
    while ((end = this.buffer.indexOf('\n\n')) >= 0) {
      const block = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end + 2);
      let type = 'message';
      let data: string | undefined;
      for (const field of block.split('\n')) {
        if (field.startsWith(': ping')) this.pings += 1;
        if (field.startsWith('event:')) type = field.slice(6).trim();
        else if (field.startsWith('data:')) data = field.slice(5).trim();
      }
      if (data === undefined || !this.waiter?.test(type, data)) continue;
      const { resolve } = this.waiter;
      this.waiter = null;
      resolve(at);
    }
  }

  /** When the next event passing `test` arrives (performance.now()); armed before the write that causes it. */
  next(test: (type: string, data: string) => boolean): Promise<number> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no event within 10 s')), 10_000);
      this.waiter = {
        test,
        resolve: (at) => {
          clearTimeout(timer);
          resolve(at);
        },
      };
    });
  }

  close(): void {
    this.response.destroy();
  }
}

/** Opens streams `width` at a time. */
async function openAll(urls: { url: string; headers?: Record<string, string> }[], width = 50): Promise<StreamReader[]> {
  const readers: StreamReader[] = [];
  for (let start = 0; start < urls.length; start += width) {
    readers.push(
      ...(await Promise.all(
        urls.slice(start, start + width).map(({ url, headers }) => StreamReader.open(url, headers)),
      )),
    );
  }
  return readers;
}

/** The floor: streams by id, and every POST's body written as an event to the stream it names. */
async function startRelay(): Promise<{ url: string; close(): void }> {
  const streams = new Map<string, ServerResponse>();
  const relay = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://relay');
    if (req.method === 'GET' && url.pathname === '/events') {
      const id = url.searchParams.get('id') ?? '';
      req.socket.setNoDelay(true);
      res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-store' });
      res.write(': open\n\n');
      streams.set(id, res);
      req.on('close', () => streams.delete(id));
      return;
    }
    if (req.method === 'POST' && url.pathname.startsWith('/send/')) {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (chunk: string) => (body += chunk));
      req.on('end', () => {
        streams.get(url.pathname.slice('/send/'.length))?.write(`data: ${body}\n\n`);
        res.writeHead(204).end();
      });
      return;
    }
    res.writeHead(404).end();
  });
  relay.listen(0, '127.0.0.1');
  await once(relay, 'listening');
  return {
    url: `http://127.0.0.1:${(relay.address() as AddressInfo).port}`,
    close() {
      relay.closeAllConnections();
      relay.close();
    },
  };
}

/**
 * The app's bus, noting when each publish starts (the moment a committed write begins to reach the streams)
 * and when each user's streams were last woken by it.
 */
function timedBus(bus: EventBus): { bus: EventBus; lastPublish: () => number; lastWake: (userId: UserId) => number } {
  let last = Number.NaN;
  const woken = new Map<UserId, number>();
  return {
    bus: {
      publish(userIds: readonly UserId[]) {
        last = performance.now();
        return bus.publish(userIds);
      },
      subscribe: (userId, listener) =>
        bus.subscribe(userId, (ids) => {
          woken.set(userId, performance.now());
          listener(ids);
        }),
      fanout: () => bus.fanout(),
      signal: (userIds, event) => bus.signal(userIds, event),
      onSignal: (userId, listener) => bus.onSignal(userId, listener),
      close: () => bus.close(),
      sessionChanges: bus.sessionChanges,
      sessionsChanged: (userIds) => bus.sessionsChanged(userIds),
      onSessionsChanged: (listener) => bus.onSessionsChanged(listener),
    },
    lastPublish: () => last,
    lastWake: (userId) => woken.get(userId) ?? Number.NaN,
  };
}

/** One place a message goes: it answers a round's latencies (ms), the whole and, for the app, the delivery part. */
interface Target {
  round(round: number): Promise<{ whole: number; delivery?: number; stream?: number }>;
  /** Heartbeats the idle streams have received so far. */
  pings(): number;
  close(): Promise<void>;
}

/**
 * The real app on a fresh database with Anna and Boris matched, Anna's stream open, and `idle` other
 * signed-in users each holding an open stream. A round: Boris sends a message, timed to its arrival on Anna's stream.
 */
async function startApp(dialect: Dialect, idle: number): Promise<Target> {
  const logger = createLogger('silent');
  const database = await createTestDatabase(dialect);
  const pgUrl = database.url ?? '';
  // PostgreSQL: the bus main.ts wires (LISTEN/NOTIFY), so a publish goes through the database as in production.
  const timed = timedBus(
    dialect === 'postgres'
      ? await PostgresEventBus.start(pgUrl, database.schema ?? 'public', logger)
      : new InProcessEventBus(),
  );
  const app = await createTestApp(dialect, { database, eventBus: timed.bus });
  const pairs: { receiver: StreamReader; userId: UserId; send: (content: string) => Promise<Response> }[] = [];
  for (let p = 0; p < pairCount; p++) {
    const anna = await createPerson(app, { name: `Anna${p}`, gender: 'Female' });
    // Premium: no daily message allowance in the way.
    const boris = await createPerson(app, { name: `Boris${p}`, gender: 'Male', premium: true });
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
    pairs.push({
      receiver: await StreamReader.open(`${app.url}/api/events`, { Cookie: anna.browser.cookieHeader() }),
      userId: anna.userId,
      send: (content) => boris.browser.post(`/api/conversations/${conversation}/messages`, { content }),
    });
  }
  const crowd = await createSignedInUsers(app, idle);
  const streams = await openAll(
    crowd.map((cookie) => ({ url: `${app.url}/api/events`, headers: { Cookie: `iskra_session=${cookie}` } })),
  );
  return {
    async round(round) {
      // Each sender stays under the per-minute message limit on the test clock.
      if (round % (messagesPerWindow * pairCount) === 0) app.clock.advance(61);
      const { receiver, userId, send } = pairs[round % pairCount] as (typeof pairs)[number];
      const content = `Message ${round}`;
      const arrived = receiver.next(
        (type, data) => type === 'message' && (JSON.parse(data) as { content?: string }).content === content,
      );
      const start = performance.now();
      const res = await send(content);
      if (res.status !== 201) throw new Error(`send: ${res.status} ${await res.text()}`);
      await res.arrayBuffer();
      const at = await arrived;
      return { whole: at - start, delivery: at - timed.lastPublish(), stream: at - timed.lastWake(userId) };
    },
    pings: () => streams.reduce((sum, stream) => sum + stream.pings, 0),
    async close() {
      for (const stream of [...streams, ...pairs.map((pair) => pair.receiver)]) stream.close();
      await app.close();
      await database.drop();
    },
  };
}

/** The bare relay with one listening stream and `idle` others; a round: one POST, timed to its event. */
async function startRelayTarget(idle: number): Promise<Target> {
  const relay = await startRelay();
  const streams = await openAll(Array.from({ length: idle }, (_, i) => ({ url: `${relay.url}/events?id=idle${i}` })));
  const receivers = await openAll(
    Array.from({ length: pairCount }, (_, i) => ({ url: `${relay.url}/events?id=receiver${i}` })),
  );
  return {
    async round(round) {
      const receiver = receivers[round % pairCount] as StreamReader;
      const body = `relay ${round}`;
      const arrived = receiver.next((_type, data) => data === body);
      const start = performance.now();
      const res = await fetch(`${relay.url}/send/receiver${round % pairCount}`, { method: 'POST', body });
      if (res.status !== 204) throw new Error(`relay: ${res.status}`);
      await res.arrayBuffer();
      return { whole: (await arrived) - start };
    },
    pings: () => 0,
    close() {
      for (const stream of [...streams, ...receivers]) stream.close();
      relay.close();
      return Promise.resolve();
    },
  };
}

async function benchDialect(dialect: Dialect): Promise<void> {
  const opening = performance.now();
  const targets = {
    app0: await startApp(dialect, 0),
    appIdle: await startApp(dialect, idleStreams),
    relay0: await startRelayTarget(0),
    relayIdle: await startRelayTarget(idleStreams),
  };
  const names = Object.keys(targets) as (keyof typeof targets)[];
  const whole = Object.fromEntries(names.map((name) => [name, [] as number[]])) as Record<
    keyof typeof targets,
    number[]
  >;
  const delivery = Object.fromEntries(names.map((name) => [name, [] as number[]])) as Record<
    keyof typeof targets,
    number[]
  >;
  const streamPart = Object.fromEntries(names.map((name) => [name, [] as number[]])) as Record<
    keyof typeof targets,
    number[]
  >;
  const ready = performance.now();
  const load = loadavg()[0]?.toFixed(2);
  let pingsBefore = 0;
  let measuredFrom = 0;
  try {
    for (let i = 0; i < warmupRounds + measuredRounds; i++) {
      if (i === warmupRounds) {
        pingsBefore = targets.appIdle.pings();
        measuredFrom = performance.now();
      }
      // The measured rounds are spread over one heartbeat period, so every idle stream's heartbeat falls among them.
      const due = measuredFrom + (i - warmupRounds) * roundSpacingMs - performance.now();
      if (i >= warmupRounds && due > 0) await new Promise((resolve) => setTimeout(resolve, due));
      // Each round visits all four, starting from a different one each time, so none always follows another.
      for (let k = 0; k < names.length; k++) {
        const name = names[(i + k) % names.length] as keyof typeof targets;
        const result = await targets[name].round(i);
        if (i < warmupRounds) continue;
        whole[name].push(result.whole);
        if (result.delivery !== undefined) delivery[name].push(result.delivery);
        if (result.stream !== undefined) streamPart[name].push(result.stream);
      }
    }
  } finally {
    for (const target of Object.values(targets)) await target.close();
  }
  const measuredFor = performance.now() - measuredFrom;
  const heartbeats = targets.appIdle.pings() - pingsBefore;
  console.log(
    `\nSSE bench, ${dialect === 'postgres' ? 'PostgreSQL (PostgresEventBus, LISTEN/NOTIFY)' : 'SQLite (in-process bus)'}, ${new Date().toISOString()}`,
  );
  console.log(
    `${idleStreams} idle streams opened on each crowded side in ${((ready - opening) / 1000).toFixed(1)} s with the setup; ${measuredRounds} rounds over ${(measuredFor / 1000).toFixed(1)} s after ${warmupRounds} of warm-up, the four interleaved; load average ${load} before, ${loadavg()[0]?.toFixed(2)} after (${availableParallelism()} cores):`,
  );
  line(
    `  heartbeats the idle app streams received`,
    `${heartbeats} while measured (${idleStreams} streams, one each ${heartbeatMs / 1000} s)`,
  );
  const s = {
    app0: summary('  app, 0 idle: POST → event', whole.app0),
    appIdle: summary(`  app, ${idleStreams} idle: POST → event`, whole.appIdle),
    delivery0: summary('  app, 0 idle: publish → event', delivery.app0),
    deliveryIdle: summary(`  app, ${idleStreams} idle: publish → event`, delivery.appIdle),
    stream0: summary('  app, 0 idle: stream woken → event', streamPart.app0),
    streamIdle: summary(`  app, ${idleStreams} idle: stream woken → event`, streamPart.appIdle),
    relay0: summary('  bare relay, 0 idle: POST → event', whole.relay0),
    relayIdle: summary(`  bare relay, ${idleStreams} idle: POST → event`, whole.relayIdle),
  };
  const ratio = (a: { p50: number; p99: number }, b: { p50: number; p99: number }) =>
    `p50 ${(a.p50 / b.p50).toFixed(2)}x  p99 ${(a.p99 / b.p99).toFixed(2)}x`;
  const relay = (idle: number) => `bare node:http relay, ${idle} idle streams`;
  ratioLine(`  app / relay, ${idleStreams} idle (issue 24)`, s.appIdle, s.relayIdle, {
    measure: `POST message → event, ${idleStreams} idle streams (${dialect})`,
    floor: relay(idleStreams),
    goal: 'p99 <= 1.5x',
  });
  ratioLine('  app / relay, 0 idle', s.app0, s.relay0, {
    measure: `POST message → event, no idle stream (${dialect})`,
    floor: relay(0),
  });
  ratioLine(`  delivery part / relay, ${idleStreams} idle`, s.deliveryIdle, s.relayIdle, {
    measure: `publish → event, ${idleStreams} idle streams (${dialect})`,
    floor: relay(idleStreams),
  });
  line(`  what the idle streams cost: app ${idleStreams} / 0`, ratio(s.appIdle, s.app0));
  line(`    delivery part ${idleStreams} / 0`, ratio(s.deliveryIdle, s.delivery0));
  line(`    bare relay ${idleStreams} / 0`, ratio(s.relayIdle, s.relay0));
}

await benchDialect('sqlite');
if (process.env.TEST_DATABASE_URL) await benchDialect('postgres');
else console.log('\nPostgreSQL: skipped (set TEST_DATABASE_URL)');
