import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { openDatabase, toolLockWaitMs, type DatabaseHandle } from '../db/client.ts';
import { json } from './test/browser.ts';
import { createPerson } from './test/people.ts';
import { createTestApp, type TestApp } from './test/testApp.ts';
import { testDialects } from './test/testDatabase.ts';

const root = path.resolve(import.meta.dirname, '..');

/**
 * Another OS process on the same SQLite file, as the admin CLI or a job run by hand would be: it takes the
 * write lock (`begin immediate` and a write), says `locked`, and keeps the lock until told `release`.
 */
const holderScript = `
const Database = require('better-sqlite3');
const db = new Database(process.argv[1]);
db.exec('begin immediate');
db.prepare("insert into rate_counters (key, window_start, count) values ('lock-holder', '2000-01-01T00:00:00.000Z', 1)").run();
process.stdout.write('locked\\n');
let input = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
  input += chunk;
  if (!input.includes('release\\n')) return;
  db.exec('commit');
  db.close();
  process.stdout.write('released\\n');
  process.exit(0);
});
`;

function startLockHolder(file: string) {
  const child = spawn(process.execPath, ['-e', holderScript, file], { cwd: root, stdio: ['pipe', 'pipe', 'pipe'] });
  let output = '';
  let errors = '';
  const waiters: { line: string; resolve: () => void }[] = [];
  const settle = () => {
    for (const waiter of [...waiters]) {
      if (output.split('\n').includes(waiter.line)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    }
  };
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    output += chunk;
    settle();
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (errors += chunk));
  const exited = new Promise<never>((_, reject) =>
    child.once('exit', (code) =>
      reject(new Error(`lock holder exited (${code ?? 'signal'}) before saying it: ${errors}`)),
    ),
  );
  exited.catch(() => undefined);
  const said = (line: string) =>
    Promise.race([
      new Promise<void>((resolve) => {
        waiters.push({ line, resolve });
        settle();
      }),
      exited,
    ]);
  return {
    locked: said('locked'),
    async release(): Promise<void> {
      const released = said('released');
      child.stdin.write('release\n');
      await released;
    },
    stop: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    },
  };
}

describe.each(testDialects())('a database file locked by another process (%s)', (dialect) => {
  it('health says the database is ok when nothing holds it', async () => {
    const app = await createTestApp(dialect);
    try {
      const health = await fetch(`${app.url}/api/health`);
      expect(health.status).toBe(200);
      expect(await health.json()).toEqual({ status: 'ok', database: 'ok', bot: 'off', live_events: 'in_process' });
    } finally {
      await app.close();
    }
  });

  it.runIf(dialect === 'sqlite')(
    'keeps serving reads, answers writes 503 database_busy, reports it in health, and never freezes',
    async () => {
      let app: TestApp | undefined;
      let tool: DatabaseHandle | undefined;
      let holder: ReturnType<typeof startLockHolder> | undefined;
      try {
        app = await createTestApp('sqlite');
        const { database } = app;
        const viewer = await createPerson(app, { gender: 'Male' });
        const other = await createPerson(app, { gender: 'Female' });
        const liked = await createPerson(app, { gender: 'Female' });
        await viewer.browser.csrfToken();
        const photoName = `${'c'.repeat(32)}.jpg`;
        const photoBytes = Buffer.from('not really a jpeg, but bytes to compare');
        mkdirSync(path.join(database.dataDir, 'uploads'), { recursive: true });
        writeFileSync(path.join(database.dataDir, 'uploads', photoName), photoBytes);
        // A command-line tool's own connection to the same file (as `npm run admin` opens it).
        tool = openDatabase({ url: database.description, dataDir: database.dataDir, lockWaitMs: toolLockWaitMs });

        holder = startLockHolder(database.description.slice('sqlite:'.length));
        await holder.locked;

        // The tool's write waits (asynchronously) for the lock rather than failing.
        let toolWritten = false;
        const toolWrite = tool.db
          .insertInto('rate_counters')
          .values({ key: 'tool-write', window_start: '2000-01-01T00:00:00.000Z', count: 1 })
          .execute()
          .then(() => (toolWritten = true));
        toolWrite.catch(() => undefined);

        const lag = monitorEventLoopDelay({ resolution: 10 });
        lag.enable();
        const [health, photo, currentUser, matches, search, like] = await Promise.all([
          fetch(`${app.url}/api/health`),
          fetch(`${app.url}/api/uploads/${photoName}`),
          viewer.browser.get('/api/current_user'),
          viewer.browser.get('/api/matches'),
          viewer.browser.get('/api/search?gender=Female'),
          viewer.browser.post('/api/like', { profile_id: liked.profileId }),
        ]);
        lag.disable();

        expect(health.status).toBe(503);
        expect(await health.json()).toEqual({
          status: 'error',
          database: 'busy',
          bot: 'off',
          live_events: 'in_process',
        });
        expect(photo.status).toBe(200);
        expect(Buffer.from(await photo.arrayBuffer())).toEqual(photoBytes);
        expect(currentUser.status).toBe(200);
        expect(await json(currentUser)).toMatchObject({ authorized: true, user_id: viewer.userId });
        expect(matches.status).toBe(200);
        for (const refused of [search, like]) {
          expect(refused.status).toBe(503);
          expect(refused.headers.get('retry-after')).toBe('2');
          expect(await json(refused)).toEqual({ error: expect.any(String) as string, code: 'database_busy' });
        }
        // While all that waited for the lock, the event loop kept turning (it stood still 5 s before).
        expect(lag.max / 1e6).toBeLessThan(500);
        expect(toolWritten).toBe(false);
        // Nothing of the refused like was written.
        const swipes = await database.db
          .selectFrom('swipes')
          .select('target_id')
          .where('swiper_id', '=', viewer.profileId)
          .execute();
        expect(swipes).toEqual([]);

        await holder.release();
        await toolWrite;
        expect(toolWritten).toBe(true);
        const searchAgain = await viewer.browser.get('/api/search?gender=Female');
        expect(searchAgain.status).toBe(200);
        expect([other.profileId, liked.profileId]).toContain(
          (await json<{ profile_id: number }>(searchAgain)).profile_id,
        );
        expect((await viewer.browser.post('/api/like', { profile_id: liked.profileId })).status).toBe(200);
        const healthAgain = await fetch(`${app.url}/api/health`);
        expect(healthAgain.status).toBe(200);
        expect(await healthAgain.json()).toEqual({
          status: 'ok',
          database: 'ok',
          bot: 'off',
          live_events: 'in_process',
        });
        // Both processes' writes are in the file.
        const counters = await database.db
          .selectFrom('rate_counters')
          .select('key')
          .where('key', 'in', ['lock-holder', 'tool-write'])
          .orderBy('key')
          .execute();
        expect(counters.map((c) => c.key)).toEqual(['lock-holder', 'tool-write']);
      } finally {
        holder?.stop();
        await tool?.db.destroy();
        await app?.close();
      }
    },
    60_000,
  );
});
