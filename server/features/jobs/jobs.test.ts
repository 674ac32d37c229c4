import { existsSync, mkdirSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import { Api } from 'grammy';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTelegramNotifier } from '../../../bot/notifier.ts';
import { adminMessenger } from '../../../bot/admins.ts';
import { openDatabase, type DatabaseHandle } from '../../../db/client.ts';
import { createLogger } from '../../logger.ts';
import { signUpVerified } from '../../test/accounts.ts';
import { createPerson } from '../../test/people.ts';
import { TelegramStandIn } from '../../test/telegramStandIn.ts';
import { TelegramUserService } from '../telegram/index.ts';
import { SmtpStandIn } from '../../test/smtpStandIn.ts';
import { createSmtpMailer } from '../../mail/mailer.ts';
import { testBotToken } from '../../test/telegramSigning.ts';
import { createTestApp, type TestApp } from '../../test/testApp.ts';
import { testDialects } from '../../test/testDatabase.ts';
import { NotificationWorker } from '../notifications/index.ts';
import { DiskPhotoStore } from '../photos/index.ts';
import type { JobContext, JobDefinition } from './job.ts';
import { acquireJobLock } from './repository.ts';
import { startScheduler } from './scheduler.ts';
import { startWorker } from '../../roles/worker.ts';
import { jobNamed } from './jobs.ts';
import { runJob } from './runJob.ts';
import { backupDir, checkBackup } from './sqliteBackup.ts';
import type { UserId } from '../../../db/schema.ts';

const day = 24 * 3600;

function job(name: string): JobDefinition {
  const found = jobNamed(name);
  if (!found) throw new Error(`no job ${name}`);
  return found;
}

describe.each(testDialects())('scheduled jobs on %s', (dialect) => {
  let app: TestApp;
  let ctx: JobContext;
  let uploadsDir: string;
  let second: DatabaseHandle;
  let secondCtx: JobContext;
  let telegram: TelegramStandIn;
  const smtp = new SmtpStandIn();
  const logs: string[] = [];

  beforeAll(async () => {
    app = await createTestApp(dialect);
    telegram = new TelegramStandIn();
    await telegram.start();
    const logger = createLogger(
      'info',
      new Writable({
        write(chunk: Buffer, _encoding, callback) {
          logs.push(chunk.toString());
          callback();
        },
      }),
    );
    const { database } = app;
    const api = new Api(testBotToken, { apiRoot: telegram.apiRoot });
    uploadsDir = path.join(database.dataDir, 'uploads');
    ctx = {
      db: database.db,
      dialect,
      clock: app.clock,
      logger,
      dataDir: database.dataDir,
      photos: new DiskPhotoStore(uploadsDir),
      sqlite: database.sqlite,
      tellAdmins: adminMessenger(
        api,
        [7_000_000_001, 7_000_000_002],
        new TelegramUserService(database.db, app.clock),
        logger,
      ),
      mailer: createSmtpMailer(await smtp.start(), 'Iskra <no-reply@iskra.test>'),
      publicUrl: 'https://iskra.test/',
    };
    // A second server process on the same data: its own connection (pool) to the same file or schema.
    second =
      dialect === 'sqlite'
        ? openDatabase({ url: database.description, dataDir: database.dataDir })
        : openDatabase({
            url: database.url,
            dataDir: database.dataDir,
            searchPath: database.schema ?? 'public',
            poolSize: 3,
          });
    secondCtx = { ...ctx, db: second.db, sqlite: second.sqlite };
  });
  afterAll(async () => {
    await second.db.destroy();
    await telegram.stop();
    await smtp.stop();
    await app.close();
  });

  async function runsOf(name: string) {
    return app.database.db.selectFrom('job_runs').selectAll().where('name', '=', name).orderBy('id').execute();
  }

  it('records each run with its counts, and a run while another process holds the lock is skipped', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let entered = 0;
    const slow: JobDefinition = {
      name: 'test_slow',
      schedule: '* * * * *',
      leaseSeconds: 60,
      run: async () => {
        entered += 1;
        await gate;
        return { done: 1 };
      },
    };
    const first = runJob(slow, ctx, 'server-a');
    await expect.poll(() => entered).toBe(1);
    const other = await runJob(slow, secondCtx, 'server-b');
    expect(other).toEqual({ status: 'skipped', counts: {} });
    release();
    expect(await first).toEqual({ status: 'ok', counts: { done: 1 } });
    expect(entered).toBe(1);
    // The lock is released at the end: the next run goes ahead.
    expect((await runJob(slow, secondCtx, 'server-b')).status).toBe('ok');
    const runs = await runsOf('test_slow');
    expect(runs.map((r) => [r.runner, r.status, JSON.parse(r.counts) as unknown])).toEqual([
      ['server-a', 'ok', { done: 1 }],
      ['server-b', 'skipped', {}],
      ['server-b', 'ok', { done: 1 }],
    ]);
    expect(runs.every((r) => r.finished_at !== null)).toBe(true);
    expect(logs.join('')).toMatch(/"job":"test_slow".*"durationMs":\d+.*"job finished"/);
  });

  it('records a failing job as failed with its error, and frees the lock', async () => {
    const failing: JobDefinition = {
      name: 'test_failing',
      schedule: '* * * * *',
      leaseSeconds: 60,
      run: () => Promise.reject(new Error('disk full')),
    };
    expect(await runJob(failing, ctx)).toMatchObject({ status: 'failed', error: 'disk full' });
    expect(await runJob(failing, ctx)).toMatchObject({ status: 'failed' });
    expect((await runsOf('test_failing')).map((r) => [r.status, r.error])).toEqual([
      ['failed', 'disk full'],
      ['failed', 'disk full'],
    ]);
  });

  it('lets the lock of a process that died lapse after its lease', async () => {
    expect(await acquireJobLock(ctx.db, 'test_lease', 'dead-process', app.clock.now(), 60)).toBe(true);
    expect(await acquireJobLock(second.db, 'test_lease', 'other', app.clock.now(), 60)).toBe(false);
    app.clock.advance(61);
    expect(await acquireJobLock(second.db, 'test_lease', 'other', app.clock.now(), 60)).toBe(true);
  });

  it('runs a cron slot once even when a second process fires it after the first run finished', async () => {
    let runs = 0;
    const quick: JobDefinition = {
      name: 'test_slot',
      schedule: '* * * * *',
      leaseSeconds: 60,
      run: () => Promise.resolve({ runs: ++runs }),
    };
    const slot = new Date('2026-11-24T19:15:00.000Z');
    expect(await runJob(quick, ctx, 'worker-a', slot)).toMatchObject({ status: 'ok' });
    // Worker B's timer fired late: A's run is over and its lock released, but this slot was done.
    expect(await runJob(quick, secondCtx, 'worker-b', slot)).toEqual({ status: 'skipped', counts: {} });
    expect(runs).toBe(1);
    expect(await runJob(quick, secondCtx, 'worker-b', new Date('2026-11-24T19:16:00.000Z'))).toMatchObject({
      status: 'ok',
    });
    // A run by hand (npm run job) names no slot and is not held back by one.
    expect(await runJob(quick, ctx, 'by-hand')).toMatchObject({ status: 'ok' });
    expect(runs).toBe(3);
    // An older slot (a worker whose clock lags) does not run again either.
    expect(await runJob(quick, ctx, 'worker-a', slot)).toMatchObject({ status: 'skipped' });
  });

  it('records a job cut by shutdown as interrupted, frees its lock and gives its firing back', async () => {
    let entered = 0;
    const stuck: JobDefinition = {
      name: 'test_interrupted',
      schedule: '* * * * *',
      leaseSeconds: 3600,
      // Never finishes by itself: a job still running when the grace period runs out.
      run: async ({ signal }) => {
        entered += 1;
        await new Promise((_resolve, reject) => signal?.addEventListener('abort', () => reject(new Error('aborted'))));
        return {};
      },
    };
    const quick: JobDefinition = { ...stuck, run: () => Promise.resolve({ ran: 1 }) };
    const earlier = new Date('2026-11-24T20:00:00.000Z');
    const slot = new Date('2026-11-24T20:01:00.000Z');
    expect(await runJob(quick, ctx, 'worker-a', earlier)).toMatchObject({ status: 'ok' });

    const stopping = new AbortController();
    const cut = runJob(stuck, { ...ctx, signal: stopping.signal }, 'worker-a', slot);
    await expect.poll(() => entered).toBe(1);
    // Held meanwhile, for this slot as for any other run.
    expect(await runJob(quick, secondCtx, 'worker-b', slot)).toMatchObject({ status: 'skipped' });
    stopping.abort();
    expect(await cut).toMatchObject({ status: 'interrupted' });
    const [run] = (await runsOf('test_interrupted')).filter(
      (r) => r.slot === slot.toISOString() && r.runner === 'worker-a',
    );
    expect(run).toMatchObject({ status: 'interrupted' });
    expect(run?.finished_at).not.toBeNull();
    // The lock is free long before its hour-long lease, and the firing counts as not run: a worker firing
    // the same slot runs it. The slot before it stays done.
    expect(await runJob(quick, secondCtx, 'worker-b', slot)).toMatchObject({ status: 'ok', counts: { ran: 1 } });
    expect(await runJob(quick, secondCtx, 'worker-b', earlier)).toMatchObject({ status: 'skipped' });
  });

  it('a stopping worker interrupts a scheduled job still running when its grace period runs out', async () => {
    let entered = 0;
    let sawAbort = false;
    const endless: JobDefinition = {
      name: 'test_worker_cut',
      // Every second, so the test does not wait for a minute.
      schedule: '* * * * * *',
      leaseSeconds: 3600,
      run: async ({ signal }) => {
        entered += 1;
        // A long job working through pages, checking the signal between them.
        for (;;) {
          if (signal?.aborted) sawAbort = true;
          signal?.throwIfAborted();
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      },
    };
    const idle = { start: () => undefined, stop: () => Promise.resolve() };
    const worker = startWorker({
      outbox: idle,
      bot: { startPolling: () => undefined, stop: () => Promise.resolve() },
      logger: ctx.logger,
      startScheduler: () => startScheduler([endless], ctx),
    });
    await expect.poll(() => entered, { timeout: 10_000 }).toBe(1);
    expect(await worker.stop(50)).toBe('cut');
    // Recorded before stop() answered, while the database is still open.
    const runs = await runsOf('test_worker_cut');
    expect(runs.map((r) => r.status)).toEqual(['interrupted']);
    // The run's slot is the schedule's second it fired for, not the moment its timer happened to fire.
    expect(runs[0]?.slot).toMatch(/T\d\d:\d\d:\d\d\.000Z$/);
    expect(
      await acquireJobLock(
        second.db,
        'test_worker_cut',
        'next-worker',
        app.clock.now(),
        60,
        runs[0]?.slot ?? undefined,
      ),
    ).toBe(true);
    await expect.poll(() => sawAbort).toBe(true);
  });

  it('cleanup_expired deletes expired sessions and stale codes, keeps live sessions; twice at once is harmless', async () => {
    const person = await createPerson(app);
    const db = app.database.db;
    const now = app.clock.now();
    const past = new Date(now.getTime() - 2 * day * 1000).toISOString();
    await db
      .insertInto('sessions')
      .values({ id_hash: `expired-${dialect}`, user_id: person.userId, created_at: past, expires_at: past })
      .execute();
    await db
      .insertInto('verification_codes')
      .values({
        user_id: person.userId,
        email: 'x@example.com',
        code_hash: 'h',
        created_at: past,
        expires_at: past,
        attempts: 0,
        used_at: null,
      })
      .execute();
    await db.insertInto('login_failures').values({ key_hash: 'k', failed_at: past }).execute();
    const future = new Date(now.getTime() + 600_000).toISOString();
    await db
      .insertInto('telegram_link_tokens')
      .values([
        { token_hash: `expired-${dialect}`, user_id: person.userId, created_at: past, expires_at: past, used_at: null },
        {
          token_hash: `live-${dialect}`,
          user_id: person.userId,
          created_at: now.toISOString(),
          expires_at: future,
          used_at: null,
        },
      ])
      .execute();
    const liveSession = `handing-${dialect}`;
    await db
      .insertInto('sessions')
      .values({ id_hash: liveSession, user_id: person.userId, created_at: now.toISOString(), expires_at: future })
      .execute();
    await db
      .insertInto('session_handovers')
      .values([
        {
          code_hash: `expired-${dialect}`,
          session_hash: liveSession,
          user_id: person.userId,
          created_at: past,
          expires_at: past,
        },
        {
          code_hash: `live-${dialect}`,
          session_hash: liveSession,
          user_id: person.userId,
          created_at: now.toISOString(),
          expires_at: future,
        },
      ])
      .execute();
    // Discovery pools: one expired over a week ago (its user stopped searching), one expired two days ago
    // (its frontier still serves the next search), one live.
    const other = await createPerson(app);
    const lately = await createPerson(app);
    const longAgo = new Date(now.getTime() - 8 * day * 1000).toISOString();
    await db
      .insertInto('search_pools')
      .values([
        {
          profile_id: person.profileId,
          pool_key: 'k',
          expires_at: longAgo,
          bound_km: 1,
          watermark: null,
          candidates: Buffer.alloc(0),
        },
        {
          profile_id: other.profileId,
          pool_key: 'k',
          expires_at: future,
          bound_km: 1,
          watermark: null,
          candidates: Buffer.alloc(0),
        },
        {
          profile_id: lately.profileId,
          pool_key: 'k',
          expires_at: past,
          bound_km: 1,
          watermark: null,
          candidates: Buffer.alloc(0),
        },
      ])
      .execute();
    const results = await Promise.all([
      runJob(job('cleanup_expired'), ctx, 'a'),
      runJob(job('cleanup_expired'), secondCtx, 'b'),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual(expect.arrayContaining(['ok']));
    const deletedSessions = results.reduce((sum, r) => sum + (r.counts.sessions ?? 0), 0);
    expect(deletedSessions).toBe(1);
    expect(results.reduce((sum, r) => sum + (r.counts.codes ?? 0), 0)).toBe(1);
    // An expired Telegram link token goes; a live one stays.
    expect(
      (
        await db.selectFrom('telegram_link_tokens').select('token_hash').where('user_id', '=', person.userId).execute()
      ).map((r) => r.token_hash),
    ).toEqual([`live-${dialect}`]);
    // An expired handover code goes; a live one stays.
    expect(
      (await db.selectFrom('session_handovers').select('code_hash').where('user_id', '=', person.userId).execute()).map(
        (r) => r.code_hash,
      ),
    ).toEqual([`live-${dialect}`]);
    expect(
      await db.selectFrom('sessions').select('id_hash').where('id_hash', '=', `expired-${dialect}`).executeTakeFirst(),
    ).toBeUndefined();
    // Only this test's pools: other tests of the file share the app and may leave pools of their own.
    const pools = await db
      .selectFrom('search_pools')
      .select('profile_id')
      .where('profile_id', 'in', [person.profileId, other.profileId, lately.profileId])
      .orderBy('profile_id')
      .execute();
    expect(pools.map((r) => r.profile_id)).toEqual([other.profileId, lately.profileId].sort((a, b) => a - b));
    expect((await person.browser.get('/api/current_user')).status).toBe(200);
    expect(
      ((await person.browser.get('/api/current_user').then((r) => r.json())) as { authorized: boolean }).authorized,
    ).toBe(true);
    expect((await runJob(job('cleanup_expired'), ctx)).counts).toMatchObject({
      sessions: 0,
      codes: 0,
      loginFailures: 0,
    });
  });

  it('delete_unverified deletes only e-mail accounts left unverified for over a week, with their files', async () => {
    const stale = await createPerson(app, { verified: false, photos: 1 });
    const recent = await createPerson(app, { verified: false });
    const verified = await createPerson(app);
    const db = app.database.db;
    const eightDaysAgo = new Date(app.clock.now().getTime() - 8 * day * 1000).toISOString();
    await db
      .updateTable('users')
      .set({ created_at: eightDaysAgo })
      .where('id', 'in', [stale.userId, verified.userId])
      .execute();
    const photo = await db
      .selectFrom('photos')
      .select('file_name')
      .where('profile_id', '=', stale.profileId)
      .executeTakeFirstOrThrow();
    mkdirSync(uploadsDir, { recursive: true });
    writeFileSync(path.join(uploadsDir, photo.file_name), 'jpeg');
    expect((await runJob(job('delete_unverified'), ctx)).counts).toEqual({ deleted: 1 });
    const left = await db
      .selectFrom('users')
      .select('id')
      .where('id', 'in', [stale.userId, recent.userId, verified.userId])
      .execute();
    expect(left.map((u) => u.id).sort((a, b) => a - b)).toEqual([recent.userId, verified.userId].sort((a, b) => a - b));
    expect(existsSync(path.join(uploadsDir, photo.file_name))).toBe(false);
    expect((await runJob(job('delete_unverified'), ctx)).counts).toEqual({ deleted: 0 });
  });

  it('orphan_uploads removes day-old files no photo names, and nothing a photo uses or an upload in progress', async () => {
    const person = await createPerson(app, { photos: 1 });
    const photo = await app.database.db
      .selectFrom('photos')
      .select(['file_name', 'blur_name'])
      .where('profile_id', '=', person.profileId)
      .executeTakeFirstOrThrow();
    const dir = uploadsDir;
    mkdirSync(dir, { recursive: true });
    const kept = [photo.file_name, photo.file_name.replace(/\.jpg$/, '.thumb.jpg'), photo.blur_name ?? ''];
    const orphanOld = [`${'c'.repeat(32)}.jpg`, `${'c'.repeat(32)}.thumb.jpg`];
    const orphanNew = `${'d'.repeat(32)}.jpg`;
    const twoDaysAgo = new Date(Date.now() - 2 * day * 1000);
    for (const name of [...kept, ...orphanOld, orphanNew, 'README.txt']) {
      writeFileSync(path.join(dir, name), 'x');
      if (name !== orphanNew) utimesSync(path.join(dir, name), twoDaysAgo, twoDaysAgo);
    }
    const result = await runJob(job('orphan_uploads'), ctx);
    expect(result.counts.deleted).toBe(2);
    const files = readdirSync(dir);
    for (const name of [...kept, orphanNew, 'README.txt']) expect(files).toContain(name);
    for (const name of orphanOld) expect(files).not.toContain(name);
    expect((await runJob(job('orphan_uploads'), ctx)).counts.deleted).toBe(0);
  });

  it('settle_payments cancels checkouts abandoned for a day and leaves fresh and credited ones', async () => {
    const person = await createPerson(app);
    const db = app.database.db;
    const at = (hoursAgo: number) => new Date(app.clock.now().getTime() - hoursAgo * 3600_000).toISOString();
    const payment = (key: string, status: 'pending' | 'succeeded', hoursAgo: number) => ({
      user_id: person.userId,
      provider: 'test',
      plan_id: 'month',
      amount: 299,
      currency: 'RUB',
      interval_days: 30,
      idempotence_key: `${key}-${dialect}-${person.userId}`,
      provider_payment_id: null,
      status,
      created_at: at(hoursAgo),
      credited_at: status === 'succeeded' ? at(hoursAgo) : null,
    });
    await db
      .insertInto('payments')
      .values([payment('old', 'pending', 30), payment('fresh', 'pending', 1), payment('paid', 'succeeded', 30)])
      .execute();
    expect((await runJob(job('settle_payments'), ctx)).counts).toMatchObject({ abandoned: 1 });
    const rows = await db
      .selectFrom('payments')
      .select(['idempotence_key', 'status'])
      .where('user_id', '=', person.userId)
      .orderBy('id')
      .execute();
    expect(rows.map((r) => r.status)).toEqual(['canceled', 'pending', 'succeeded']);
    expect((await runJob(job('settle_payments'), ctx)).counts).toMatchObject({ abandoned: 0 });
  });

  it('premium_reminders queues one reminder per subscription end, which the bot sends with a renewal button', async () => {
    const db = app.database.db;
    const now = app.clock.now();
    const ending = await createPerson(app);
    const later = await createPerson(app);
    const telegramId = 8_100_000_000 + ending.userId;
    const inDays = (days: number) => new Date(now.getTime() + days * day * 1000).toISOString();
    await db
      .updateTable('users')
      .set({
        telegram_id: String(telegramId),
        bot_started_at: now.toISOString(),
        premium_until: inDays(2),
        language: 'en',
      })
      .where('id', '=', ending.userId)
      .execute();
    await db
      .updateTable('users')
      .set({ telegram_id: String(telegramId + 1), bot_started_at: now.toISOString(), premium_until: inDays(10) })
      .where('id', '=', later.userId)
      .execute();
    expect((await runJob(job('premium_reminders'), ctx)).counts).toMatchObject({ reminded: 1, queued: 1 });
    expect((await runJob(job('premium_reminders'), secondCtx)).counts).toMatchObject({ reminded: 0, queued: 0 });
    const queued = await db.selectFrom('notification_jobs').selectAll().where('kind', '=', 'premium_ending').execute();
    expect(queued.map((q) => q.user_id)).toEqual([ending.userId]);

    // Due at once: a reminder is not a live event the app could show first.
    const worker = new NotificationWorker(
      db,
      createTelegramNotifier(new Api(testBotToken, { apiRoot: telegram.apiRoot }), 'https://iskra.test'),
      app.clock,
      ctx.logger,
    );
    await worker.drainOnce();
    const sent = await telegram.waitForCall('sendMessage', (p) => p.chat_id === telegramId);
    const date = new Intl.DateTimeFormat('en', { day: 'numeric', month: 'long', timeZone: 'UTC' }).format(
      new Date(inDays(2)),
    );
    expect(sent.text).toContain(`Your Premium ends on ${date}.`);
    expect(JSON.stringify(sent.reply_markup)).toContain('startapp=premium');

    // A renewal moves the end: the next end earns its own reminder.
    await db
      .updateTable('users')
      .set({ premium_until: inDays(2.5) })
      .where('id', '=', ending.userId)
      .execute();
    expect((await runJob(job('premium_reminders'), ctx)).counts).toMatchObject({ reminded: 1 });
  });

  it('premium_reminders e-mails people the bot cannot reach, once, unless they turned notifications off', async () => {
    const db = app.database.db;
    const now = app.clock.now();
    const inDays = (days: number) => new Date(now.getTime() + days * day * 1000).toISOString();
    const web = await createPerson(app);
    const quiet = await createPerson(app);
    const emailOf = async (userId: UserId) =>
      (await db.selectFrom('users').select('email').where('id', '=', userId).executeTakeFirstOrThrow()).email ?? '';
    await db
      .updateTable('users')
      .set({ premium_until: inDays(1.5), language: 'en' })
      .where('id', 'in', [web.userId, quiet.userId])
      .execute();
    await db.updateTable('profiles').set({ notifications: 0 }).where('user_id', '=', quiet.userId).execute();

    const first = await runJob(job('premium_reminders'), ctx);
    expect(first.counts).toMatchObject({ mailed: 1 });
    const mail = await smtp.lastMailTo(await emailOf(web.userId));
    const date = new Intl.DateTimeFormat('en', { day: 'numeric', month: 'long', timeZone: 'UTC' }).format(
      new Date(inDays(1.5)),
    );
    expect(mail.subject).toBe(`Iskra: your Premium ends on ${date}`);
    expect(mail.text).toContain('https://iskra.test/subscription');
    expect(smtp.mailsTo(await emailOf(quiet.userId))).toEqual([]);

    expect((await runJob(job('premium_reminders'), ctx)).counts).toMatchObject({ mailed: 0 });
    expect(smtp.mailsTo(await emailOf(web.userId))).toHaveLength(1);
  });

  it('weekly_report sends the week in numbers to every admin in their language', async () => {
    await createPerson(app);
    const result = await runJob(job('weekly_report'), ctx);
    expect(result.counts).toEqual({ admins: 2 });
    const texts = telegram
      .callsOf('sendMessage')
      .filter((p) => p.chat_id === 7_000_000_001 || p.chat_id === 7_000_000_002);
    expect(texts).toHaveLength(2);
    const users = await app.database.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<string | number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(String(texts[0]?.text)).toContain(`Пользователи: ${Number(users.n)}`);
  });

  it('stamps each sign-in session with a device hash that holds neither the address nor the browser', async () => {
    const first = await signUpVerified(app);
    const second = await signUpVerified(app);
    const rows = await app.database.db
      .selectFrom('sessions')
      .select(['user_id', 'device_hash'])
      .where('user_id', 'in', [first.userId, second.userId])
      .execute();
    expect(rows).toHaveLength(2);
    const [a, b] = rows.map((r) => r.device_hash ?? '');
    expect(a).toMatch(/^[\w-]{43}$/);
    expect(a).toBe(b);
    expect(a).not.toContain('127.0.0.1');
  });

  it('shared_device_likes flags free accounts on one device whose likes together pass one free limit', async () => {
    const db = app.database.db;
    const [a, b, alone] = [await createPerson(app), await createPerson(app), await createPerson(app)];
    const targets = await Promise.all(Array.from({ length: 30 }, () => createPerson(app)));
    await db
      .updateTable('sessions')
      .set({ device_hash: `shared-${dialect}` })
      .where('user_id', 'in', [a.userId, b.userId])
      .execute();
    await db
      .updateTable('sessions')
      .set({ device_hash: `alone-${dialect}` })
      .where('user_id', '=', alone.userId)
      .execute();
    const now = app.clock.now().toISOString();
    for (const swiper of [a, b, alone]) {
      await db
        .insertInto('swipes')
        .values(
          targets.map((t) => ({ swiper_id: swiper.profileId, target_id: t.profileId, liked: 1, created_at: now })),
        )
        .execute();
    }
    expect((await runJob(job('shared_device_likes'), ctx)).counts).toMatchObject({ flagged: 2 });
    const flags = await db
      .selectFrom('moderation_flags')
      .select(['user_id', 'reason'])
      .where('reason', '=', 'shared_device_likes')
      .execute();
    expect(flags.map((f) => f.user_id).sort((x, y) => x - y)).toEqual([a.userId, b.userId].sort((x, y) => x - y));
    expect((await runJob(job('shared_device_likes'), ctx)).counts).toMatchObject({ flagged: 0 });
  });

  it.runIf(dialect === 'sqlite')(
    'sqlite_backup writes a checked copy, keeps a week of them, and the copy runs the app',
    async () => {
      const person = await createPerson(app, { name: 'Резерв' });
      const dir = backupDir(ctx.dataDir);
      mkdirSync(dir, { recursive: true });
      const stale = path.join(dir, 'iskra-20200101T020000Z.sqlite');
      writeFileSync(stale, 'old');
      const result = await runJob(job('sqlite_backup'), ctx);
      expect(result).toEqual({ status: 'ok', counts: { written: 1, removed: 1 } });
      const copies = readdirSync(dir);
      expect(copies).toHaveLength(1);
      const copy = path.join(dir, copies[0] ?? '');
      expect(checkBackup(copy)).toBe('ok');

      // Restore as docs/operations.md says: the copy becomes DATA_DIR/iskra.sqlite of a server, which serves the data.
      const restored = await createTestApp('sqlite', { restoreFrom: copy });
      try {
        restored.clock.advance((app.clock.now().getTime() - restored.clock.now().getTime()) / 1000);
        const session = person.browser.cookie('iskra_session') ?? '';
        const res = await fetch(`${restored.url}/api/profile`, { headers: { cookie: `iskra_session=${session}` } });
        expect(res.status).toBe(200);
        expect(((await res.json()) as { name: string }).name).toBe('Резерв');
      } finally {
        await restored.close();
      }
    },
  );
});
