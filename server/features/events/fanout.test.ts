/**
 * The event bus across processes, on both of its fan-out paths (PostgreSQL NOTIFY, and Redis pub/sub when
 * REDIS_URL is set): two buses on one real database stand for two web processes. Events are real rows; the
 * doorbells are real NOTIFYs and real Redis messages; Redis going down is a real cut of the connections
 * (a TCP proxy in front of it), PostgreSQL's LISTEN connection dropping a real pg_terminate_backend.
 */
import { createClient } from '@redis/client';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProfileId, UserId } from '../../../db/schema.ts';
import { createLogger } from '../../logger.ts';
import { TcpProxy } from '../../test/tcpProxy.ts';
import { createTestDatabase, type TestDatabase } from '../../test/testDatabase.ts';
import type { EventBus } from './eventBus.ts';
import type { EventSweep } from './eventSweep.ts';
import { noticeChannel, quotedChannel } from './noticeChannels.ts';
import { PostgresEventBus } from './postgresEventBus.ts';
import { RedisEventBus } from './redisEventBus.ts';
import { insertEvents } from './repository.ts';
import { doorbellTickMs } from './tickBatch.ts';
import { redisAnswers, testRedisUrl } from '../../test/redis.ts';

const url = process.env.TEST_DATABASE_URL;
const redisUrl = testRedisUrl;
const logger = createLogger('silent');

const withRedis = url ? await redisAnswers() : false;
if (url && !withRedis) console.log(`fanout.test.ts: Redis path skipped, nothing answers at ${redisUrl}`);

type Kind = 'postgres' | 'redis';
const kinds: Kind[] = withRedis ? ['postgres', 'redis'] : ['postgres'];

/** Waits for a condition, looking again every 20 ms; fails after `timeoutMs`. */
async function until(what: string, check: () => boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`still waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe.runIf(url)('live events across processes', () => {
  let database: TestDatabase;
  const buses: EventBus[] = [];

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
  });
  afterAll(async () => {
    await Promise.all(buses.map((bus) => bus.close()));
    await database.drop();
  });

  async function start(kind: Kind, redis = redisUrl): Promise<EventBus> {
    const bus =
      kind === 'postgres'
        ? await PostgresEventBus.start(database.url ?? '', database.schema ?? 'public', logger)
        : await RedisEventBus.connect(database.url ?? '', database.schema ?? 'public', redis, logger);
    buses.push(bus);
    return bus;
  }

  async function users(count: number): Promise<UserId[]> {
    const now = new Date().toISOString();
    const rows = await database.db
      .insertInto('users')
      .values(Array.from({ length: count }, () => ({ created_at: now, language: 'ru' as const })))
      .returning('id')
      .execute();
    return rows.map((r) => r.id);
  }

  /** A committed row for this user, as a message to them writes one; answers its id. */
  async function row(userId: UserId): Promise<number> {
    const [id] = await insertEvents(
      database.db,
      [{ userId, type: 'unmatched', payload: { profile_id: 1 as ProfileId } }],
      new Date().toISOString(),
    );
    return id ?? 0;
  }

  /** Every wake of a user on a bus, with the ids it named (undefined: a doorbell's or a publish's). */
  function wakes(bus: EventBus, userId: UserId): (readonly number[] | undefined)[] {
    const heard: (readonly number[] | undefined)[] = [];
    bus.subscribe(userId, (ids) => heard.push(ids));
    return heard;
  }

  describe.each(kinds)('through %s', (kind) => {
    it('wakes a user on another process by the doorbell, and on its own process at once and once', async () => {
      const [sender, receiver] = [await start(kind), await start(kind)];
      const [user, marker] = await users(2);
      const local = wakes(sender, user as UserId);
      const remote = wakes(receiver, user as UserId);
      const back = wakes(sender, marker as UserId);
      if (kind === 'redis') {
        // Each first subscription wakes its user once when it takes effect (what was rung before it is read).
        await until('subscribed', () => local.length === 1 && remote.length === 1 && back.length === 1);
        for (const list of [local, remote, back]) list.length = 0;
      }
      await sender.publish([user as UserId]);
      // Before any doorbell could come back.
      expect(local).toHaveLength(1);
      await until('the other process woken', () => remote.length > 0);
      // A later doorbell of the receiver's reaches the sender: its own earlier one, had it come back, first.
      await receiver.publish([marker as UserId]);
      await until('the marker heard', () => back.length > 0);
      expect(local).toHaveLength(1);
      expect(sender.fanout()).toBe(kind);
    });

    it('delivers a row whose doorbell never rang (its writer killed after the commit) by reading by cursor', async () => {
      const receiver = await start(kind);
      const [user] = await users(1);
      const heard = wakes(receiver, user as UserId);
      // Committed, and no publish: as if the writing process died before its tick.
      const id = await row(user as UserId);
      await until('the sweep to hand the row over', () => heard.some((ids) => ids?.includes(id)));
    });

    it('reads nothing at or below the newest row of its start, even with its doorbells up before it', async () => {
      // A user with a history, as every user is when a rolling deploy reconnects their streams.
      const [user] = await users(1);
      const old = [await row(user as UserId), await row(user as UserId)];
      const bus = await start(kind);
      const heard = wakes(bus, user as UserId);
      if (kind === 'redis') await until('subscribed', () => heard.length > 0);
      const fresh = await row(user as UserId);
      // The sweep the timer would run within a few seconds, now (the sweep is the bus's own).
      const { sweep } = bus as unknown as { sweep: EventSweep };
      sweep.now();
      await until('the new row read by cursor', () => heard.some((ids) => ids?.includes(fresh)));
      await sweep.settled();
      const read = heard.flatMap((ids) => ids ?? []);
      expect(read).toContain(fresh);
      expect(read.filter((id) => id <= Math.max(...old))).toEqual([]);
    });

    it('hands a typing signal to the stream of another process, once to its own', async () => {
      const [sender, receiver] = [await start(kind), await start(kind)];
      const [user] = await users(1);
      const event = { type: 'typing' as const, payload: { conversation_id: 7, profile_id: 9 } };
      const local: unknown[] = [];
      const remote: unknown[] = [];
      sender.onSignal(user as UserId, (e) => local.push(e));
      receiver.onSignal(user as UserId, (e) => remote.push(e));
      await sender.signal([user as UserId], event);
      expect(local).toEqual([event]);
      await until('the signal across', () => remote.length > 0);
      expect(remote).toEqual([event]);
    });

    it("closes another process's streams of a user whose sessions ended", async () => {
      const [ender, holder] = [await start(kind), await start(kind)];
      const [user] = await users(1);
      const told: (readonly UserId[] | 'all')[] = [];
      holder.onSessionsChanged((u) => told.push(u));
      const now = new Date();
      await database.db
        .insertInto('sessions')
        .values({
          id_hash: `fanout-${user}`,
          user_id: user as UserId,
          created_at: now.toISOString(),
          expires_at: new Date(now.getTime() + 86_400_000).toISOString(),
        })
        .execute();
      // What a sign-out does: delete the row (the trigger's NOTIFY), then tell the bus.
      await database.db
        .deleteFrom('sessions')
        .where('user_id', '=', user as UserId)
        .execute();
      ender.sessionsChanged([user as UserId]);
      await until('the holder told', () => told.some((u) => u !== 'all' && u.includes(user as UserId)));
    });

    it('wakes every user of a set too large for one doorbell (a ban tells everyone its spammer liked)', async () => {
      const [sender, receiver] = [await start(kind), await start(kind)];
      const many = await users(3000);
      const [first, last] = [many[0] as UserId, many.at(-1) as UserId];
      const heardFirst = wakes(receiver, first);
      const heardLast = wakes(receiver, last);
      await Promise.all([row(first), row(last)]);
      await sender.publish(many);
      await until('both ends woken', () => heardFirst.length > 0 && heardLast.length > 0);
    });
  });

  it('rings a bounded number of NOTIFYs for a burst of publishes, each user woken on the other process', async () => {
    const [sender, receiver] = [await start('postgres'), await start('postgres')];
    const counter = new pg.Client({ connectionString: database.url });
    await counter.connect();
    let notices = 0;
    counter.on('notification', () => notices++);
    await counter.query(`LISTEN ${quotedChannel(noticeChannel('events', database.schema ?? 'public'))}`);
    try {
      const burst = await users(400);
      const heard = new Set<UserId>();
      for (const user of burst) receiver.subscribe(user, () => heard.add(user));
      const began = performance.now();
      // 400 publishes as 400 requests would make them: a few per turn of the event loop.
      for (let i = 0; i < burst.length; i += 4) {
        await sender.publish(burst.slice(i, i + 4));
        if (i % 40 === 0) await new Promise((resolve) => setImmediate(resolve));
      }
      const spentMs = performance.now() - began;
      await until('every user woken', () => heard.size === burst.length);
      // At most one per tick (doorbellTickMs, and one more for the turn it began in): one per publish is gone.
      expect(notices).toBeLessThanOrEqual(Math.ceil(spentMs / doorbellTickMs) + 2);
      expect(notices).toBeLessThanOrEqual(10);
    } finally {
      await counter.end();
    }
  });

  it('reads by cursor while its LISTEN connection is down, says so, and listens again', async () => {
    const [sender, receiver] = [await start('postgres'), await start('postgres')];
    const [user] = await users(1);
    const heard = wakes(receiver, user as UserId);
    await database.db.selectFrom('users').select('id').limit(1).execute();
    // End the receiver's LISTEN backend, as a failover or a network cut would.
    const admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
    try {
      const listeners = await admin.query<{ pid: number }>(
        `select pid from pg_stat_activity where datname = current_database() and query like 'LISTEN %' and query like $1`,
        [`%${database.schema ?? 'public'}%`],
      );
      expect(listeners.rows.length).toBeGreaterThan(0);
      for (const { pid } of listeners.rows) await admin.query('select pg_terminate_backend($1)', [pid]);
    } finally {
      await admin.end();
    }
    await until('the receiver polling', () => receiver.fanout() === 'polling');
    const id = await row(user as UserId);
    await sender.publish([user as UserId]);
    await until('the row read by cursor', () => heard.some((ids) => ids?.includes(id)));
    await until('the receiver listening again', () => receiver.fanout() === 'postgres');
  });

  describe.runIf(withRedis)('Redis only', () => {
    it('subscribes a process to the channels of the users whose streams it holds, and to nothing else', async () => {
      const [busy, idle] = [await start('redis'), await start('redis')];
      const [held, other] = await users(2);
      const prefix = `iskra:${database.schema ?? 'public'}:`;
      const inspector = createClient({ url: redisUrl });
      await inspector.connect();
      try {
        const channels = async () =>
          (await inspector.sendCommand<string[]>(['PUBSUB', 'SHARDCHANNELS', `${prefix}u:*`])).sort();
        const mine = (list: string[]) => list.filter((c) => c === `${prefix}u:${held}` || c === `${prefix}u:${other}`);
        const off = busy.subscribe(held as UserId, () => undefined);
        await expect.poll(async () => mine(await channels()), { timeout: 10_000 }).toEqual([`${prefix}u:${held}`]);
        // One subscriber (busy): the idle process, holding no stream of theirs, is not sent their doorbells.
        const subscribers = await inspector.sendCommand<unknown[]>(['PUBSUB', 'SHARDNUMSUB', `${prefix}u:${held}`]);
        expect(subscribers[1]).toBe(1);
        expect(idle.fanout()).toBe('redis');
        off();
        await expect.poll(async () => mine(await channels()), { timeout: 10_000 }).toEqual([]);
      } finally {
        await inspector.close();
      }
    });

    it('starts while Redis is down, reading by cursor, and takes doorbells and session ends once it answers', async () => {
      const proxy = new TcpProxy('127.0.0.1', Number(new URL(redisUrl).port || 6379));
      await proxy.start();
      await proxy.cut();
      try {
        const sender = await start('redis');
        const receiver = await RedisEventBus.connect(
          database.url ?? '',
          database.schema ?? 'public',
          proxy.url,
          logger,
          300,
        );
        buses.push(receiver);
        expect(receiver.fanout()).toBe('polling');
        const [user] = await users(1);
        const heard = wakes(receiver, user as UserId);
        const id = await row(user as UserId);
        await until('the row read by cursor', () => heard.some((ids) => ids?.includes(id)));
        await proxy.restore();
        await until('the receiver on Redis', () => receiver.fanout() === 'redis', 30_000);
        const before = heard.length;
        await sender.publish([user as UserId]);
        await until('a doorbell heard', () => heard.slice(before).some((ids) => ids === undefined));
        const told: (readonly UserId[] | 'all')[] = [];
        receiver.onSessionsChanged((u) => told.push(u));
        sender.sessionsChanged([user as UserId]);
        await until('the session end heard through Redis', () =>
          told.some((u) => u !== 'all' && u.includes(user as UserId)),
        );
      } finally {
        await proxy.stop();
      }
    });

    it('reads by cursor while Redis is down, says so in /api/health terms, and takes doorbells again once it is back', async () => {
      const proxy = new TcpProxy('127.0.0.1', Number(new URL(redisUrl).port || 6379));
      await proxy.start();
      try {
        const sender = await start('redis');
        const receiver = await start('redis', proxy.url);
        const [user, late] = await users(2);
        const heard = wakes(receiver, user as UserId);
        await until('the first subscription', () => heard.length > 0);
        expect(receiver.fanout()).toBe('redis');
        await proxy.cut();
        await until('the receiver polling', () => receiver.fanout() === 'polling');
        // A stream opened while Redis is away: its subscription fails, and is made once Redis is back.
        const heardLate = wakes(receiver, late as UserId);
        const id = await row(user as UserId);
        await sender.publish([user as UserId]);
        await until('the row read by cursor while Redis is away', () => heard.some((ids) => ids?.includes(id)));
        await proxy.restore();
        await until('the receiver on Redis again', () => receiver.fanout() === 'redis', 30_000);
        const before = heard.length;
        await row(user as UserId);
        await sender.publish([user as UserId]);
        // A doorbell's wake names no rows (the sweep's does).
        await until('a doorbell heard again', () => heard.slice(before).some((ids) => ids === undefined));
        const lateBefore = heardLate.length;
        await sender.publish([late as UserId]);
        await until('the late stream hears doorbells', () =>
          heardLate.slice(lateBefore).some((ids) => ids === undefined),
        );
      } finally {
        await proxy.stop();
      }
    });
  });
});
