/**
 * Several processes on one PostgreSQL database, as deploy/ runs them: two web processes (ROLE=web, each
 * with its own data folder) and two workers (ROLE=worker), real processes started as `npm start` starts the
 * server, with the traffic of one person alternating between the web processes. PostgreSQL only: on SQLite
 * one process does everything (ROLE=all), so there is nothing to split.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../db/client.ts';
import type { LikeResponse } from './contract/discovery.ts';
import { systemClock } from './clock.ts';
import { enqueuePremiumReminder } from './features/notifications/queue.ts';
import { thumbNameOf } from './features/photos/photoStore.ts';
import { hashSessionId, newSessionId } from './features/sessions/sessionIds.ts';
import type { PhotoBucketSettings } from './features/photos/s3PhotoStore.ts';
import { freeLikesPerDay } from './features/swipes/rules.ts';
import { Browser } from './test/browser.ts';
import { EventStreamClient } from './test/eventStream.ts';
import { jpegWithGps } from './test/images.ts';
import { createPerson, type Person, type PersonOptions } from './test/people.ts';
import { S3StandIn } from './test/s3StandIn.ts';
import { ServerProcess } from './test/serverProcess.ts';
import { testBotToken } from './test/telegramSigning.ts';
import { TelegramStandIn } from './test/telegramStandIn.ts';
import { withAdminClient } from './test/testDatabase.ts';

const databaseUrl = process.env.TEST_DATABASE_URL;
if (!databaseUrl)
  console.log(
    'server/multiProcess.test.ts skipped: several processes need PostgreSQL (set TEST_DATABASE_URL=postgres://…)',
  );

/** Waits until `check` answers something truthy, looking again every 200 ms; fails after `timeoutMs`. */
async function until<T>(what: string, check: () => Promise<T | undefined | false>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`still waiting for ${what} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

interface Web {
  process: ServerProcess;
  url: string;
}

describe.skipIf(!databaseUrl)('several web and worker processes on one PostgreSQL database', () => {
  const url = databaseUrl ?? '';
  const schema = `iskra_mp_${randomBytes(5).toString('hex')}`;
  const sessionSecret = 'multi-process-test-secret-long-enough-0000';
  const started: ServerProcess[] = [];
  const dataDirs: string[] = [];
  const telegram = new TelegramStandIn();
  let handle: DatabaseHandle;
  let webA: Web;
  let webB: Web;
  let workers: ServerProcess[] = [];

  /** One bucket on a local S3 server for every process: no photo may depend on the process that took it. */
  const s3 = new S3StandIn();
  let bucket: PhotoBucketSettings;
  let photoStoreEnv: Record<string, string> = {};

  /** Every process shares the database, the schema, the secret and the bot; each has its own data folder. */
  async function start(
    name: string,
    role: 'web' | 'worker',
    extra: Record<string, string> = {},
  ): Promise<ServerProcess> {
    const dataDir = mkdtempSync(path.join(tmpdir(), `iskra-${name}-`));
    dataDirs.push(dataDir);
    const child = await ServerProcess.start(name, 'main', {
      ROLE: role,
      DATABASE_URL: url,
      DATABASE_SCHEMA: schema,
      SESSION_SECRET: sessionSecret,
      DATA_DIR: dataDir,
      HOST: '127.0.0.1',
      PORT: '0',
      PUBLIC_URL: 'http://iskra.test',
      LOG_LEVEL: 'info',
      // Webhook mode: the web processes take Telegram's updates; the workers only send (no polling to share).
      BOT_TOKEN: testBotToken,
      BOT_MODE: 'webhook',
      TELEGRAM_API_ROOT: telegram.apiRoot,
      NOTIFY_GRACE_SECONDS: '0',
      SHUTDOWN_GRACE_MS: '30000',
      ...photoStoreEnv,
      ...extra,
    });
    started.push(child);
    return child;
  }

  async function startWeb(name: string): Promise<Web> {
    const child = await start(name, 'web');
    return { process: child, url: `http://127.0.0.1:${await child.listeningPort()}` };
  }

  /** The same signed-in person (same session cookie) talking to another web process, as after a balancer's switch. */
  function via(person: Person, web: Web): Browser {
    const browser = new Browser(web.url);
    browser.setCookie('iskra_session', person.browser.cookie('iskra_session') ?? '');
    return browser;
  }

  const person = (options: PersonOptions = {}) =>
    createPerson({ database: handle, clock: systemClock, url: webA.url }, options);
  const like = (browser: Browser, to: Person) => browser.post('/api/like', { profile_id: to.profileId });

  beforeAll(async () => {
    await Promise.all([telegram.start(), s3.start()]);
    bucket = await s3.bucket();
    photoStoreEnv = {
      S3_BUCKET: bucket.bucket,
      S3_ENDPOINT: bucket.endpoint ?? '',
      S3_REGION: bucket.region,
      S3_ACCESS_KEY_ID: bucket.accessKeyId,
      S3_SECRET_ACCESS_KEY: bucket.secretAccessKey,
      S3_FORCE_PATH_STYLE: 'true',
    };
    // Before any migration a web process refuses to start, saying what to do.
    const early = await start('early-web', 'web');
    expect(await early.exited).toBe(1);
    expect(early.log()).toContain('npm run db:migrate');
    // Two `npm run db:migrate` at once (two deploy hosts): PostgreSQL's advisory lock lets one apply them.
    const migrations = await Promise.all(
      [1, 2].map((n) =>
        ServerProcess.start(`migrate-${n}`, 'migrate', {
          DATABASE_URL: url,
          DATABASE_SCHEMA: schema,
          DATA_DIR: tmpdir(),
        }),
      ),
    );
    started.push(...migrations);
    for (const migration of migrations) expect(await migration.exited, migration.log()).toBe(0);
    expect(migrations.filter((m) => m.log().includes('applied 20'))).toHaveLength(1);
    expect(migrations.filter((m) => m.log().includes('already up to date'))).toHaveLength(1);
    handle = openDatabase({ url, dataDir: tmpdir(), searchPath: schema, poolSize: 4 });
    // cleanup_expired every 2 seconds in both workers, so the test sees several firings contended.
    workers = await Promise.all(
      [1, 2].map((n) => start(`worker-${n}`, 'worker', { JOB_SCHEDULES: 'cleanup_expired=*/2 * * * * *' })),
    );
    [webA, webB] = await Promise.all([startWeb('web-a'), startWeb('web-b')]);
    await Promise.all(
      workers.map((w) =>
        w.waitForLine((l) => l.msg === 'Iskra worker started: scheduled jobs, notification outbox, bot polling'),
      ),
    );
  }, 120_000);

  afterAll(async () => {
    // Whatever failed, no process outlives the test.
    await Promise.all(started.map((p) => p.kill()));
    // Unset when the start-up itself failed.
    await (handle as DatabaseHandle | undefined)?.db.destroy();
    await withAdminClient(url, (client) => client.query(`drop schema if exists ${schema} cascade`));
    await Promise.all([telegram.stop(), s3.stop()]);
    for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
  }, 30_000);

  it('makes exactly one match of a mutual like whose halves reach different processes at once', async () => {
    const pairs = await Promise.all(
      Array.from(
        { length: 6 },
        async () => [await person({ premium: true, gender: 'Male' }), await person({ premium: true })] as const,
      ),
    );
    const answers = await Promise.all(pairs.flatMap(([a, b]) => [like(via(a, webA), b), like(via(b, webB), a)]));
    for (const answer of answers) expect(answer.status).toBe(200);
    const bodies = (await Promise.all(answers.map((a) => a.json()))) as LikeResponse[];
    for (const [i, [a, b]] of pairs.entries()) {
      const matches = await handle.db
        .selectFrom('matches')
        .select('id')
        .where('profile_low', '=', Math.min(a.profileId, b.profileId) as Person['profileId'])
        .where('profile_high', '=', Math.max(a.profileId, b.profileId) as Person['profileId'])
        .execute();
      expect(matches).toHaveLength(1);
      // The later of the two likes saw the earlier one: at least one answer announces the match.
      expect([bodies[2 * i]?.match, bodies[2 * i + 1]?.match]).toContain(true);
    }
  }, 60_000);

  it('refuses a session signed out on one web process on the other, though the other had it cached: a write at once, a read once told', async () => {
    const bob = await person();
    const [onA, onB] = [via(bob, webA), via(bob, webB)];
    const signedIn = async (browser: Browser) =>
      ((await (await browser.get('/api/current_user')).json()) as { authorized: boolean }).authorized;
    // Read twice on B: the session is in B's cache from then on.
    expect(await signedIn(onB)).toBe(true);
    expect(await signedIn(onB)).toBe(true);
    await onB.csrfToken();
    expect((await onA.post('/api/logout')).status).toBe(200);
    // A request that may write reads the session row: refused as soon as the sign-out has answered.
    expect((await onB.post('/api/language', { language: 'en' })).status).toBe(401);
    // A GET may be answered from B's cache until B's listener hears the change (milliseconds; waited for).
    await expect.poll(() => signedIn(onB), { timeout: 10_000, interval: 20 }).toBe(false);
    expect((await onB.get('/api/account')).status).toBe(401);
  });

  it('closes the live-event stream of a session ended through the other web process; the valid session keeps its stream', async () => {
    const [alice, bob] = [await person({ premium: true }), await person({ premium: true, gender: 'Male' })];
    // Alice's phone: a second session of hers, made as createPerson makes the first.
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
    await like(via(alice, webA), bob);
    expect(((await (await like(via(bob, webA), alice)).json()) as LikeResponse).match).toBe(true);
    const start = await via(bob, webA).post('/api/conversations/start', { profile_id: alice.profileId });
    const { conversation_id: conversation } = (await start.json()) as { conversation_id: number };
    const send = async (content: string) =>
      expect((await via(bob, webA).post(`/api/conversations/${conversation}/messages`, { content })).status).toBe(201);
    const isMessage = (content: string) => (e: { type: string; data: unknown }) =>
      e.type === 'message' && (e.data as { content?: string }).content === content;

    const onPhone = await EventStreamClient.open(`${webB.url}/api/events`, { cookie: `iskra_session=${phone}` });
    const onLaptop = await EventStreamClient.open(`${webB.url}/api/events`, {
      cookie: `iskra_session=${alice.browser.cookie('iskra_session') ?? ''}`,
    });
    await send('before');
    await onPhone.waitFor(isMessage('before'), 20_000);
    // From the laptop, through A: B hears it from PostgreSQL (the sessions triggers' notice) and closes the phone's stream.
    expect((await via(alice, webA).post('/api/account/sessions/end_others')).status).toBe(200);
    await onPhone.ended;
    await send('after');
    await onLaptop.waitFor(isMessage('after'), 20_000);
    onLaptop.close();
    expect(onPhone.events.filter(isMessage('after'))).toEqual([]);
  }, 60_000);

  it('holds the free daily like limit when parallel likes are split across the processes', async () => {
    const free = await person({ premium: false, gender: 'Male' });
    const targets = await Promise.all(Array.from({ length: freeLikesPerDay + 10 }, () => person()));
    const browsers = [via(free, webA), via(free, webB)] as const;
    const answers = await Promise.all(targets.map((target, i) => like(browsers[i % 2] as Browser, target)));
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(freeLikesPerDay);
    expect(statuses.filter((s) => s === 429)).toHaveLength(10);
    const stored = await handle.db
      .selectFrom('swipes')
      .select(sql<string | number>`count(*)`.as('n'))
      .where('swiper_id', '=', free.profileId)
      .where('liked', '=', 1)
      .executeTakeFirstOrThrow();
    expect(Number(stored.n)).toBe(freeLikesPerDay);
  }, 60_000);

  it('serves a photo uploaded through one web process byte-identical from the other, with no image file under either data folder', async () => {
    const alice = await person();
    const form = new FormData();
    form.append('payload', JSON.stringify({ deletedPhotos: [], newPhotos: 1 }));
    form.append(
      'newPhotos',
      new Blob([new Uint8Array(await jpegWithGps(600, 800))], { type: 'image/jpeg' }),
      'new.jpg',
    );
    const uploaded = await via(alice, webA).postForm('/api/edit_profile', form);
    expect(uploaded.status, await uploaded.clone().text()).toBe(200);
    const row = await handle.db
      .selectFrom('photos')
      .select(['file_name', 'blur_name'])
      .where('profile_id', '=', alice.profileId)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    const names = [row.file_name, thumbNameOf(row.file_name), row.blur_name ?? ''];
    for (const name of names) {
      const stored = await s3.object(bucket.bucket, name);
      expect(stored, name).not.toBeNull();
      const fromB = await fetch(`${webB.url}/api/uploads/${name}`);
      expect(fromB.status).toBe(200);
      expect(fromB.headers.get('cache-control')).toContain('immutable');
      expect(Buffer.from(await fromB.arrayBuffer()).equals(stored ?? Buffer.alloc(0)), name).toBe(true);
    }
    const images = dataDirs.flatMap((dir) =>
      readdirSync(dir, { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isFile() && /\.(jpe?g|png|webp)$/i.test(entry.name))
        .map((entry) => path.join(entry.parentPath, entry.name)),
    );
    expect(images).toEqual([]);
  }, 60_000);

  it("continues one user's search frontier whichever web process each search reaches, each card once, nearest first", async () => {
    // In Kazan, and of an age nobody else here has: no other test's people can come between them.
    const kazan: [number, number] = [55.7963, 49.1088];
    const north = (km: number): [number, number] => [kazan[0] + km / 111.2, kazan[1]];
    const viewer = await person({ gender: 'Male', age: 71, at: kazan });
    // Inside the first search box (2.2 km), so the first search pools them all; then one 60 km away.
    const near: number[] = [];
    for (const km of [0.3, 0.6, 0.9, 1.2, 1.5, 1.8]) near.push((await person({ age: 71, at: north(km) })).profileId);
    const far = (await person({ age: 71, at: north(60) })).profileId;
    const tabs = [via(viewer, webA), via(viewer, webB)] as const;
    const expiry = async () =>
      (
        await handle.db
          .selectFrom('search_pools')
          .select('expires_at')
          .where('profile_id', '=', viewer.profileId)
          .executeTakeFirst()
      )?.expires_at;
    const seen: number[] = [];
    let made: string | undefined;
    for (let turn = 0; turn < 20; turn++) {
      const tab = tabs[turn % 2] as Browser;
      const res = await tab.get('/api/search?ageMin=71&ageMax=71');
      if (res.status === 404) break;
      expect(res.status).toBe(200);
      const shown = ((await res.json()) as { profile_id: number }).profile_id;
      seen.push(shown);
      if (turn === 0) made = await expiry();
      // The pool the first search stored serves every near card, on either process: a new scan would
      // have stored a pool expiring later.
      else if (near.includes(shown)) expect(await expiry()).toBe(made);
      expect((await tab.post('/api/dislike', { profile_id: shown })).status).toBe(200);
    }
    expect(made).toBeDefined();
    expect(seen).toEqual([...near, far]);
  }, 60_000);

  it('resumes a live-event stream on the other process after one is killed, with every event exactly once', async () => {
    const [alice, bob] = [await person({ premium: true }), await person({ premium: true, gender: 'Male' })];
    await like(via(alice, webA), bob);
    expect(((await (await like(via(bob, webB), alice)).json()) as LikeResponse).match).toBe(true);
    const start = await via(bob, webB).post('/api/conversations/start', { profile_id: alice.profileId });
    const { conversation_id: conversation } = (await start.json()) as { conversation_id: number };
    const bobOnB = via(bob, webB);
    const send = async (content: string) =>
      expect((await bobOnB.post(`/api/conversations/${conversation}/messages`, { content })).status).toBe(201);
    const cookie = { cookie: `iskra_session=${alice.browser.cookie('iskra_session') ?? ''}` };
    const isMessage = (content: string) => (e: { type: string; data: unknown }) =>
      e.type === 'message' && (e.data as { content?: string }).content === content;

    const onA = await EventStreamClient.open(`${webA.url}/api/events`, cookie);
    // Sent through B, delivered by A: the event crossed processes through LISTEN/NOTIFY.
    await send('one');
    await onA.waitFor(isMessage('one'), 20_000);
    await webA.process.kill();
    await onA.ended;
    await send('two');
    await send('three');
    // What a browser's EventSource does after the cut: reconnect (the balancer picks B) with Last-Event-ID.
    const onB = await EventStreamClient.open(`${webB.url}/api/events`, {
      ...cookie,
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

  it('runs each firing of a scheduled job once with two workers', async () => {
    type Run = { slot: string | null; runner: string; status: string };
    const runs = () =>
      handle.db
        .selectFrom('job_runs')
        .select(['slot', 'runner', 'status'])
        .where('name', '=', 'cleanup_expired')
        .execute() as Promise<Run[]>;
    // Until two firings were contended and run: both workers recorded something for them, and one ran it
    // (on a loaded machine both may skip a slot while a slow run of the one before still holds the lock).
    const contended = (all: Run[]) =>
      [...new Set(all.map((r) => r.slot))].filter((slot) => {
        const ofSlot = all.filter((r) => r.slot === slot);
        return new Set(ofSlot.map((r) => r.runner)).size === 2 && ofSlot.some((r) => r.status !== 'skipped');
      });
    const all = await until('two contended firings', async () => {
      const now = await runs();
      return contended(now).length >= 2 && now;
    });
    for (const slot of new Set(all.map((r) => r.slot))) {
      expect(slot).not.toBeNull();
      const ofSlot = all.filter((r) => r.slot === slot);
      // At most one ran it (ok, or still running at the moment of the read); every other firing skipped. On
      // a loaded machine both may skip a slot (the previous slot's run still held the lock), so none is fine.
      expect(ofSlot.filter((r) => r.status !== 'skipped').length, JSON.stringify(ofSlot)).toBeLessThanOrEqual(1);
    }
    // The slots waited for: exactly one worker ran each, the other skipped.
    for (const slot of contended(all)) {
      const ofSlot = all.filter((r) => r.slot === slot);
      expect(
        ofSlot.filter((r) => r.status !== 'skipped'),
        JSON.stringify(ofSlot),
      ).toHaveLength(1);
    }
  }, 60_000);

  it('sends each queued notification once with two workers draining the outbox', async () => {
    const count = 30;
    const chatIds: number[] = [];
    for (let i = 0; i < count; i++) {
      const someone = await person();
      const chatId = 7_300_000_000 + Math.floor(Math.random() * 1_000_000) * 100 + i;
      chatIds.push(chatId);
      const now = new Date();
      await handle.db
        .updateTable('users')
        .set({ telegram_id: String(chatId), bot_started_at: now.toISOString() })
        .where('id', '=', someone.userId)
        .execute();
      expect(
        await enqueuePremiumReminder(
          handle.db,
          someone.userId,
          new Date(now.getTime() + 2 * 86_400_000).toISOString(),
          now,
        ),
      ).toBe(true);
    }
    await until('every notification settled', async () => {
      const open = await handle.db.selectFrom('notification_jobs').select('id').where('done_at', 'is', null).execute();
      return open.length === 0;
    });
    const outcomes = await handle.db
      .selectFrom('notification_jobs')
      .select('outcome')
      .where('kind', '=', 'premium_ending')
      .execute();
    expect(outcomes.map((o) => o.outcome)).toEqual(Array.from({ length: count }, () => 'sent'));
    const sent = telegram.callsOf('sendMessage').map((call) => Number(call.chat_id));
    for (const chatId of chatIds)
      expect(
        sent.filter((id) => id === chatId),
        `chat ${chatId}`,
      ).toHaveLength(1);
  }, 60_000);

  it('on SIGTERM finishes a request in flight, tells event streams to reconnect, and exits cleanly', async () => {
    const alice = await person();
    const onB = await EventStreamClient.open(`${webB.url}/api/events`, {
      cookie: `iskra_session=${alice.browser.cookie('iskra_session') ?? ''}`,
    });
    const browser = via(alice, webB);
    const csrf = await browser.csrfToken();
    const body = JSON.stringify({ ids: [1] });
    // A slow upload: the headers are in (the server answered 100 Continue) but only half the body.
    const req = request(`${webB.url}/api/events/ack`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        'Content-Length': String(Buffer.byteLength(body)),
        Cookie: browser.cookieHeader(),
        'X-CSRF-Token': csrf,
        Expect: '100-continue',
      },
    });
    const answered = new Promise<{ status: number; connection: string | undefined; text: string }>(
      (resolve, reject) => {
        req.on('response', (res) => {
          let text = '';
          res.on('data', (chunk: Buffer) => (text += chunk.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, text }));
        });
        req.on('error', reject);
      },
    );
    await new Promise<void>((resolve) => req.once('continue', () => resolve()));
    req.write(body.slice(0, 4));
    webB.process.child.kill('SIGTERM');
    await webB.process.waitForLine((l) => l.msg === 'shutting down');
    await onB.waitFor((e) => e.type === 'reconnect', 20_000);
    await onB.ended;
    expect(onB.retryMs).toBeLessThan(3000);
    // The rest of the body after the shutdown began: the request still completes.
    req.end(body.slice(4));
    const answer = await answered;
    expect(answer.status, answer.text).toBe(200);
    expect(JSON.parse(answer.text)).toEqual({ ok: true });
    expect(answer.connection).toBe('close');
    expect(await webB.process.exited, webB.process.log()).toBe(0);
    expect(webB.process.log()).toContain('stopped cleanly');
  }, 60_000);

  it('stops a worker on SIGTERM once its running job and notification are finished', async () => {
    const [worker] = workers;
    if (!worker) throw new Error('no worker');
    worker.child.kill('SIGTERM');
    expect(await worker.exited, worker.log()).toBe(0);
    expect(worker.log()).toContain('stopped cleanly');
    // Whatever it was doing, no job lock is left held by it (a finished run releases its lock).
    const held = await handle.db
      .selectFrom('job_locks')
      .select('holder')
      .where('expires_at', '>', new Date().toISOString())
      .execute();
    expect(held.filter((l) => l.holder.includes(`:${worker.child.pid ?? 'none'}:`))).toEqual([]);
  }, 60_000);
});
