/**
 * Two web processes (ROLE=web, real processes as `npm start` starts them) on one PostgreSQL database with
 * their live events' doorbells on Redis (REDIS_URL), reached through a TCP proxy the test can cut: delivery
 * across the processes, a stream resumed on the other process after a kill -9, a session ended through one
 * closing its stream on the other, and Redis going down and coming back (events read by cursor meanwhile,
 * `/api/health` saying so). The same on PostgreSQL NOTIFY alone: multiProcess.test.ts.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../db/client.ts';
import { systemClock } from './clock.ts';
import type { LikeResponse } from './contract/discovery.ts';
import { hashSessionId, newSessionId } from './features/sessions/sessionIds.ts';
import { Browser } from './test/browser.ts';
import { EventStreamClient, type ReceivedEvent } from './test/eventStream.ts';
import { createPerson, type Person } from './test/people.ts';
import { S3StandIn } from './test/s3StandIn.ts';
import { ServerProcess } from './test/serverProcess.ts';
import { TcpProxy } from './test/tcpProxy.ts';
import { withAdminClient } from './test/testDatabase.ts';
import { redisAnswers, testRedisUrl } from './test/redis.ts';

const databaseUrl = process.env.TEST_DATABASE_URL;
const redisUrl = testRedisUrl;

const runs = databaseUrl ? await redisAnswers() : false;
if (!runs) console.log('server/multiProcessRedis.test.ts skipped: it needs PostgreSQL (TEST_DATABASE_URL) and Redis');

interface Web {
  process: ServerProcess;
  url: string;
}

describe.skipIf(!runs)('web processes whose live events ring through Redis', () => {
  const url = databaseUrl ?? '';
  const schema = `iskra_mpr_${randomBytes(5).toString('hex')}`;
  const started: ServerProcess[] = [];
  const dataDirs: string[] = [];
  const s3 = new S3StandIn();
  const proxy = new TcpProxy('127.0.0.1', Number(new URL(redisUrl).port || 6379));
  let env: Record<string, string> = {};
  let handle: DatabaseHandle;
  let webA: Web;
  let webB: Web;

  async function startWeb(name: string): Promise<Web> {
    const dataDir = mkdtempSync(path.join(tmpdir(), `iskra-${name}-`));
    dataDirs.push(dataDir);
    const child = await ServerProcess.start(name, 'main', { ...env, DATA_DIR: dataDir });
    started.push(child);
    return { process: child, url: `http://127.0.0.1:${await child.listeningPort()}` };
  }

  function via(person: Person, web: Web): Browser {
    const browser = new Browser(web.url);
    browser.setCookie('iskra_session', person.browser.cookie('iskra_session') ?? '');
    return browser;
  }
  const person = (options: Parameters<typeof createPerson>[1] = {}) =>
    createPerson({ database: handle, clock: systemClock, url: webA.url }, options);
  const cookieOf = (p: Person) => ({ cookie: `iskra_session=${p.browser.cookie('iskra_session') ?? ''}` });
  const isMessage = (content: string) => (e: ReceivedEvent) =>
    e.type === 'message' && (e.data as { content?: string }).content === content;
  const health = async (web: Web) =>
    (await (await fetch(`${web.url}/api/health`)).json()) as { status: string; live_events: string };

  /** A matched pair with a conversation; `send` posts a message from the second through `web`. */
  async function pair(web: Web) {
    const [alice, bob] = [await person({ premium: true }), await person({ premium: true, gender: 'Male' })];
    await via(alice, webA).post('/api/like', { profile_id: bob.profileId });
    const liked = await via(bob, webB).post('/api/like', { profile_id: alice.profileId });
    expect(((await liked.json()) as LikeResponse).match).toBe(true);
    const start = await via(bob, web).post('/api/conversations/start', { profile_id: alice.profileId });
    const { conversation_id: conversation } = (await start.json()) as { conversation_id: number };
    const send = async (content: string, through: Web = web) =>
      expect((await via(bob, through).post(`/api/conversations/${conversation}/messages`, { content })).status).toBe(
        201,
      );
    return { alice, bob, send };
  }

  beforeAll(async () => {
    await Promise.all([s3.start(), proxy.start()]);
    const bucket = await s3.bucket();
    env = {
      ROLE: 'web',
      DATABASE_URL: url,
      DATABASE_SCHEMA: schema,
      REDIS_URL: proxy.url,
      SESSION_SECRET: 'multi-process-redis-secret-long-enough-00',
      HOST: '127.0.0.1',
      PORT: '0',
      PUBLIC_URL: 'http://iskra.test',
      LOG_LEVEL: 'info',
      SHUTDOWN_GRACE_MS: '30000',
      S3_BUCKET: bucket.bucket,
      S3_ENDPOINT: bucket.endpoint ?? '',
      S3_REGION: bucket.region,
      S3_ACCESS_KEY_ID: bucket.accessKeyId,
      S3_SECRET_ACCESS_KEY: bucket.secretAccessKey,
      S3_FORCE_PATH_STYLE: 'true',
    };
    const migration = await ServerProcess.start('migrate', 'migrate', {
      DATABASE_URL: url,
      DATABASE_SCHEMA: schema,
      DATA_DIR: tmpdir(),
    });
    started.push(migration);
    expect(await migration.exited, migration.log()).toBe(0);
    handle = openDatabase({ url, dataDir: tmpdir(), searchPath: schema, poolSize: 4 });
    [webA, webB] = await Promise.all([startWeb('redis-web-a'), startWeb('redis-web-b')]);
  }, 120_000);

  afterAll(async () => {
    await Promise.all(started.map((p) => p.kill()));
    await (handle as DatabaseHandle | undefined)?.db.destroy();
    await withAdminClient(url, (client) => client.query(`drop schema if exists ${schema} cascade`));
    await Promise.all([s3.stop(), proxy.stop()]);
    for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
  }, 30_000);

  it('says in /api/health that its live events go through Redis', async () => {
    expect(await health(webA)).toMatchObject({ status: 'ok', live_events: 'redis' });
  });

  it('delivers a message sent through one process to a stream on the other, and reads by cursor while Redis is down', async () => {
    const { alice, send } = await pair(webA);
    const onB = await EventStreamClient.open(`${webB.url}/api/events`, cookieOf(alice));
    await send('across');
    await onB.waitFor(isMessage('across'), 20_000);
    await proxy.cut();
    try {
      await expect.poll(async () => (await health(webB)).live_events, { timeout: 20_000 }).toBe('polling');
      expect((await health(webB)).status).toBe('degraded');
      // Sent while no doorbell can ring: B reads it by cursor.
      await send('while down');
      await onB.waitFor(isMessage('while down'), 20_000);
    } finally {
      await proxy.restore();
    }
    await expect.poll(async () => (await health(webB)).live_events, { timeout: 30_000 }).toBe('redis');
    await expect.poll(async () => (await health(webA)).live_events, { timeout: 30_000 }).toBe('redis');
    await send('back');
    await onB.waitFor(isMessage('back'), 20_000);
    onB.close();
    const contents = onB.events.filter((e) => e.type === 'message').map((e) => (e.data as { content: string }).content);
    expect(contents).toEqual(['across', 'while down', 'back']);
  }, 120_000);

  it("closes a stream on one process when the session's end is made through the other", async () => {
    const { alice, send } = await pair(webA);
    const phone = newSessionId();
    const now = new Date();
    await handle.db
      .insertInto('sessions')
      .values({
        id_hash: hashSessionId(phone),
        user_id: alice.userId,
        created_at: now.toISOString(),
        expires_at: new Date(now.getTime() + 86_400_000).toISOString(),
      })
      .execute();
    const onPhone = await EventStreamClient.open(`${webB.url}/api/events`, { cookie: `iskra_session=${phone}` });
    const onLaptop = await EventStreamClient.open(`${webB.url}/api/events`, cookieOf(alice));
    await send('before');
    await onPhone.waitFor(isMessage('before'), 20_000);
    expect((await via(alice, webA).post('/api/account/sessions/end_others')).status).toBe(200);
    await onPhone.ended;
    await send('after');
    await onLaptop.waitFor(isMessage('after'), 20_000);
    onLaptop.close();
    expect(onPhone.events.filter(isMessage('after'))).toEqual([]);
  }, 60_000);

  it('resumes a stream on the other process after one is killed (kill -9), every event exactly once', async () => {
    const { alice, send } = await pair(webB);
    const onA = await EventStreamClient.open(`${webA.url}/api/events`, cookieOf(alice));
    await send('one');
    await onA.waitFor(isMessage('one'), 20_000);
    await webA.process.kill();
    await onA.ended;
    await send('two');
    await send('three');
    const onB = await EventStreamClient.open(`${webB.url}/api/events`, {
      ...cookieOf(alice),
      'Last-Event-ID': String(onA.lastId()),
    });
    await onB.waitFor(isMessage('three'), 20_000);
    await send('four');
    await onB.waitFor(isMessage('four'), 20_000);
    onB.close();
    const received = [...onA.events, ...onB.events].filter((e) => e.type === 'message');
    expect(received.map((e) => (e.data as { content: string }).content)).toEqual(['one', 'two', 'three', 'four']);
    const ids = [...onA.events, ...onB.events].map((e) => e.id).filter((id) => Number.isFinite(id));
    expect(new Set(ids).size).toBe(ids.length);
  }, 60_000);
});
