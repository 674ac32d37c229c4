import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../db/client.ts';
import { migrateToLatest } from '../db/migrate.ts';
import type { UserId } from '../db/schema.ts';
import { freePort } from '../server/test/freePort.ts';
import { compiledArgs } from '../server/test/compiledCommands.ts';
import { demoEmail, demoTelegramUser, prepareDemoTelegram } from './demoTelegram.ts';

const root = path.resolve(import.meta.dirname, '..');
const sessionSecret = 'demo-test-secret-that-is-long-enough-00000';

/** The compiled `scripts/demo.ts` (what `npm run demo` runs after seeding) with `env`, its output collected. */
async function runDemo(env: Record<string, string>): Promise<{
  child: ChildProcess;
  output: () => string;
  waitFor: (text: string | RegExp) => Promise<string>;
}> {
  let output = '';
  const waiters: (() => void)[] = [];
  const child = spawn(process.execPath, await compiledArgs('demo'), {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', ...env },
  });
  const take = (chunk: Buffer) => {
    output += chunk.toString();
    for (const waiter of waiters) waiter();
  };
  child.stdout.on('data', take);
  child.stderr.on('data', take);
  return {
    child,
    output: () => output,
    waitFor: (text) =>
      new Promise((resolve, reject) => {
        const check = () => {
          const found = typeof text === 'string' ? output.includes(text) : text.exec(output);
          if (found) resolve(output);
        };
        waiters.push(check);
        check();
        child.once('exit', () => reject(new Error(`demo exited before printing ${String(text)}:\n${output}`)));
      }),
  };
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  await exited;
}

describe('npm run demo: the Mini App link', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'iskra-demo-link-'));
  let demoUserId: UserId;
  beforeAll(async () => {
    // The demo account as scripts/seed-demo.ts leaves it (its profiles and photos do not matter here).
    const { db } = openDatabase({ dataDir });
    try {
      await migrateToLatest(db);
      const row = await db
        .insertInto('users')
        .values({
          email: demoEmail,
          password_hash: null,
          language: 'ru',
          verified_at: new Date().toISOString(),
          banned_at: null,
          created_at: new Date().toISOString(),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      demoUserId = row.id;
    } finally {
      await db.destroy();
    }
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('prints a signed launch link that signs in as the demo account when BOT_TOKEN is unset', async () => {
    const port = await freePort();
    const demo = await runDemo({
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      SESSION_SECRET: sessionSecret,
    });
    try {
      // Starting the server takes seconds on a busy two-core machine.
      const output = await demo.waitFor(/#tgWebAppData=\S+/);
      await demo.waitFor('Iskra is listening');
      const link = new URL(/(http:\/\/localhost:\d+\/#tgWebAppData=\S+)/.exec(output)?.[1] ?? '');
      expect(link.origin).toBe(`http://localhost:${port}`);
      const launch = new URLSearchParams(link.hash.slice(1));
      expect(JSON.parse(launch.get('tgWebAppThemeParams') ?? '{}')).toMatchObject({
        bg_color: '#17212b',
        text_color: '#f5f5f5',
      });
      const initData = launch.get('tgWebAppData') ?? '';
      expect(new URLSearchParams(initData).get('signature')).toBeTruthy();
      const res = await fetch(`http://127.0.0.1:${port}/api/auth/telegram`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ initData }),
      });
      expect(res.status).toBe(200);
      expect(((await res.json()) as { user_id: number }).user_id).toBe(demoUserId);
      // The made-up token is no real bot: the bot stays off and the token is not printed.
      expect(demo.output()).not.toMatch(/\d{9}:[\w-]{35}/);
    } finally {
      await stop(demo.child);
    }
  }, 120_000);

  it('prints no such link, and makes no token, when BOT_TOKEN is set', async () => {
    const port = await freePort();
    const demo = await runDemo({
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      SESSION_SECRET: sessionSecret,
      BOT_TOKEN: '123456789:AAreal-looking-token',
      BOT_MODE: 'off',
    });
    try {
      await demo.waitFor('Iskra is listening');
      expect(demo.output()).not.toContain('tgWebAppData');
    } finally {
      await stop(demo.child);
    }
    const { db } = openDatabase({ dataDir });
    try {
      expect(
        await prepareDemoTelegram(db, {
          botToken: '123456789:AAreal-looking-token',
          publicUrl: 'http://localhost:8080',
          demoEmail,
        }),
      ).toBeNull();
      // Without a token: the demo account answers to the demo Telegram id.
      const prepared = await prepareDemoTelegram(db, {
        botToken: undefined,
        publicUrl: 'http://localhost:8080',
        demoEmail,
      });
      expect(prepared?.link).toMatch(/^http:\/\/localhost:8080\/#tgWebAppData=/);
      const row = await db
        .selectFrom('users')
        .select('telegram_id')
        .where('id', '=', demoUserId)
        .executeTakeFirstOrThrow();
      expect(row.telegram_id).toBe(String(demoTelegramUser.id));
    } finally {
      await db.destroy();
    }
  }, 120_000);
});

describe('the start-up log', () => {
  it('names the address the server really listens on, also when PORT=0 picks the port', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'iskra-port-'));
    const server = spawn(process.execPath, await compiledArgs('main'), {
      cwd: root,
      env: {
        PATH: process.env.PATH ?? '',
        PORT: '0',
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        SESSION_SECRET: sessionSecret,
      },
    });
    let output = '';
    try {
      const port = await new Promise<string>((resolve, reject) => {
        const take = (chunk: Buffer) => {
          output += chunk.toString();
          const found = /listening on port (\d+): open (\S+)"/.exec(output);
          if (found?.[1]) resolve(found[1]);
        };
        server.stdout.on('data', take);
        server.stderr.on('data', take);
        server.once('exit', () => reject(new Error(output)));
      });
      expect(Number(port)).toBeGreaterThan(0);
      expect(output).toContain(`open http://localhost:${port}"`);
      expect((await fetch(`http://127.0.0.1:${port}/api/health`)).status).toBe(200);
    } finally {
      await stop(server);
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
