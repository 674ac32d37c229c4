/**
 * One stand-in web process of bench/fanout.ts (forked): the app's event bus (NOTIFY or Redis) and real live
 * streams (liveStream.ts, reading rows with eventsAfter as GET /api/events does) for its users; on command it
 * writes event rows open-loop and publishes them as the app's writers do, and it reports the latencies its
 * streams saw (write start to the event's text on the stream) and its own CPU. Commands come over IPC.
 */
import { openDatabase } from '../db/client.ts';
import type { UserId } from '../db/schema.ts';
import type { EventBus } from '../server/features/events/index.ts';
import { openLiveStream } from '../server/features/events/liveStream.ts';
import { PostgresEventBus } from '../server/features/events/postgresEventBus.ts';
import { newestEventId } from '../server/features/events/repository.ts';
import { RedisEventBus } from '../server/features/events/redisEventBus.ts';
import { createLogger } from '../server/logger.ts';

export type FanoutCommand =
  | { cmd: 'streams'; users: number[] }
  | { cmd: 'load'; rate: number; seconds: number; targets: number[] }
  | { cmd: 'publishOnly'; rate: number; seconds: number; targets: number[] }
  | { cmd: 'report' }
  | { cmd: 'cpu' }
  | { cmd: 'stop' };

const [url, schema, kind, redisUrl] = process.argv.slice(2) as [string, string, 'postgres' | 'redis', string];
const logger = createLogger('silent');
const handle = openDatabase({ url, dataDir: '/tmp', searchPath: schema, poolSize: 8 });
const db = handle.db;
const bus: EventBus =
  kind === 'redis'
    ? await RedisEventBus.connect(url, schema, redisUrl, logger)
    : await PostgresEventBus.start(url, schema, logger);
const now = () => performance.timeOrigin + performance.now();
let latencies: number[] = [];
/** Write start to the insert's commit: the part of a delivery that is the writer's own, whatever the bus. */
let writes: number[] = [];
const closers: (() => void)[] = [];
let cpuMark = process.cpuUsage();
let wallMark = performance.now();

function reply(message: unknown): void {
  process.send?.(message);
}

async function openStreams(users: number[]): Promise<void> {
  const expires = new Date(Date.now() + 86_400_000).toISOString();
  const created = new Date().toISOString();
  for (let i = 0; i < users.length; i += 500)
    await db
      .insertInto('sessions')
      .values(
        users.slice(i, i + 500).map((u) => ({
          id_hash: `bench-${u}`,
          user_id: u as UserId,
          created_at: created,
          expires_at: expires,
        })),
      )
      .onConflict((oc) => oc.doNothing())
      .execute();
  const cursor = await newestEventId(db);
  for (const user of users) {
    const live = openLiveStream({
      db,
      bus,
      logger,
      userId: user as UserId,
      sessionHash: `bench-${user}`,
      cursor,
      now: () => new Date().toISOString(),
      heartbeatMs: 600_000,
    });
    // Every event's data carries its write start `t` (see send): the delay to its text here.
    live.stream.on('data', (chunk: Buffer) => {
      const at = now();
      for (const match of chunk.toString().matchAll(/"t":([\d.]+)/g)) latencies.push(at - Number(match[1]));
    });
    closers.push(live.close);
  }
}

/** Open loop: every 10 ms the writes due, each a row then a publish, as the app's writers do after commit. */
async function load(rate: number, seconds: number, targets: number[], write: boolean): Promise<number> {
  const began = performance.now();
  let sent = 0;
  const inflight = new Set<Promise<void>>();
  while (performance.now() - began < seconds * 1000) {
    const due = Math.floor(((performance.now() - began) / 1000) * rate) - sent;
    for (let i = 0; i < due; i++) {
      const to = targets[(sent + i) % targets.length] as UserId;
      const job = (async () => {
        if (write) {
          const t = now();
          await db
            .insertInto('events')
            .values({ user_id: to, type: 'read', payload: JSON.stringify({ t }), created_at: new Date().toISOString() })
            .execute();
          writes.push(now() - t);
        }
        await bus.publish([to]);
      })();
      inflight.add(job);
      void job.finally(() => inflight.delete(job));
    }
    sent += Math.max(0, due);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  await Promise.all(inflight);
  return sent;
}

process.on('message', (message: FanoutCommand) => {
  void (async () => {
    switch (message.cmd) {
      case 'streams':
        await openStreams(message.users);
        reply({ ok: true });
        break;
      case 'load':
        reply({ sent: await load(message.rate, message.seconds, message.targets, true) });
        break;
      case 'publishOnly':
        reply({ sent: await load(message.rate, message.seconds, message.targets, false) });
        break;
      case 'report':
        reply({ latencies, writes });
        latencies = [];
        writes = [];
        break;
      case 'cpu': {
        const used = process.cpuUsage(cpuMark);
        const wall = performance.now() - wallMark;
        cpuMark = process.cpuUsage();
        wallMark = performance.now();
        reply({ share: (used.user + used.system) / 1000 / wall });
        break;
      }
      case 'stop':
        for (const close of closers) close();
        await bus.close();
        await db.destroy();
        process.exit(0);
    }
  })();
});
reply({ ready: true });
