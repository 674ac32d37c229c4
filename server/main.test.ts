import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import en from '../locales/en.json' with { type: 'json' };
import { webhookSecret } from '../bot/webhook.ts';
import { testBotToken } from './test/telegramSigning.ts';
import { TelegramStandIn } from './test/telegramStandIn.ts';
import { freePort } from './test/freePort.ts';
import { compiledArgs, type CompiledCommand } from './test/compiledCommands.ts';

const root = path.resolve(import.meta.dirname, '..');
const sessionSecret = 'process-test-secret-that-is-long-enough-000';

/** Runs one of package.json's commands (compiled, as `npm start` and `npm run` do) with `env`. */
async function run(
  command: CompiledCommand,
  env: Record<string, string>,
  args: string[] = [],
): Promise<{ child: ChildProcess; output: () => string }> {
  let output = '';
  const child = spawn(process.execPath, await compiledArgs(command, args), {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', ...env },
  });
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return { child, output: () => output };
}

describe('the server process with a bot token (npm start)', () => {
  let telegram: TelegramStandIn;
  let dataDir: string;
  beforeAll(async () => {
    telegram = new TelegramStandIn();
    await telegram.start();
    dataDir = mkdtempSync(path.join(tmpdir(), 'iskra-process-'));
  });
  afterAll(async () => {
    await telegram.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('starts the bot in polling mode and answers /start', async () => {
    const port = await freePort();
    const server = await run('main', {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      PUBLIC_URL: 'https://iskra.test',
      SESSION_SECRET: sessionSecret,
      BOT_TOKEN: testBotToken,
      TELEGRAM_API_ROOT: telegram.apiRoot,
    });
    try {
      // Starting the server takes seconds on a busy two-core machine.
      await telegram.waitForCall('setMyCommands', undefined, 60_000);
      telegram.pushUpdate({
        message: {
          message_id: 1,
          date: Math.floor(Date.now() / 1000),
          chat: { id: 8_000_000_001, type: 'private', first_name: 'Ann' },
          from: { id: 8_000_000_001, is_bot: false, first_name: 'Ann', language_code: 'en' },
          text: '/start',
          entities: [{ type: 'bot_command', offset: 0, length: 6 }],
        },
      });
      const reply = await telegram.waitForCall('sendMessage', (p) => p.chat_id === 8_000_000_001);
      expect(reply.text).toBe(en.bot.start.greeting);
      expect(JSON.stringify(reply.reply_markup)).toContain('"web_app":{"url":"https://iskra.test/"}');
      expect(telegram.callsOf('deleteWebhook')).toHaveLength(1);
      const health = await fetch(`http://127.0.0.1:${port}/api/health`);
      expect(health.status).toBe(200);
      expect(await health.json()).toEqual({ status: 'ok', database: 'ok', bot: 'ok', live_events: 'in_process' });
      expect(server.output()).toContain('Telegram bot: polling');
      // https and no PAYMENT_PROVIDER: no free test checkout on a public site, and the log says so.
      expect(server.output()).toContain('web payments are off');
      expect(server.output()).not.toContain(testBotToken);
      // Graceful stop: in-flight work finishes, the database is closed, and the exit code says so.
      const exited = once(server.child, 'exit') as Promise<[number | null]>;
      server.child.kill('SIGTERM');
      const [code] = await exited;
      expect(code, server.output()).toBe(0);
      expect(server.output()).toContain('stopped cleanly');
    } finally {
      if (server.child.exitCode === null) {
        server.child.kill('SIGKILL');
        await once(server.child, 'exit');
      }
    }
  }, 120_000);

  it('npm run bot:set-webhook registers PUBLIC_URL/telegram/webhook with the secret the server checks', async () => {
    const script = await run('setWebhook', {
      DATA_DIR: dataDir,
      PUBLIC_URL: 'https://iskra.test',
      SESSION_SECRET: sessionSecret,
      BOT_TOKEN: testBotToken,
      TELEGRAM_API_ROOT: telegram.apiRoot,
    });
    const [code] = (await once(script.child, 'exit')) as [number];
    expect(code, script.output()).toBe(0);
    expect(telegram.callsOf('setWebhook').at(-1)).toEqual({
      url: 'https://iskra.test/telegram/webhook',
      secret_token: webhookSecret(testBotToken, sessionSecret),
      allowed_updates: ['message', 'callback_query', 'pre_checkout_query'],
    });
  });
});

describe('npm run job', () => {
  let dataDir: string;
  beforeAll(() => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'iskra-job-'));
  });
  afterAll(() => {
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('runs a job by name, records it, and refuses an unknown name', async () => {
    const env = { DATA_DIR: dataDir, SESSION_SECRET: sessionSecret, LOG_LEVEL: 'silent' };
    const backup = await run('job', env, ['sqlite_backup']);
    const [code] = (await once(backup.child, 'exit')) as [number];
    expect(code, backup.output()).toBe(0);
    expect(JSON.parse(backup.output().trim().split('\n').at(-1) ?? '')).toEqual({
      status: 'ok',
      counts: { written: 1, removed: 0 },
    });
    expect(readdirSync(path.join(dataDir, 'backups'))).toHaveLength(1);
    const unknown = await run('job', env, ['no_such_job']);
    const [unknownCode] = (await once(unknown.child, 'exit')) as [number];
    expect(unknownCode).toBe(64);
    expect(unknown.output()).toContain('cleanup_expired');
  }, 120_000);
});

describe('ROLE on SQLite', () => {
  it('refuses ROLE=worker with a message saying what to do, before touching any data', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'iskra-role-'));
    try {
      const worker = await run('main', { ROLE: 'worker', DATA_DIR: dataDir, SESSION_SECRET: sessionSecret });
      const [code] = (await once(worker.child, 'exit')) as [number];
      expect(code).toBe(1);
      expect(worker.output()).toContain(
        'ROLE: worker needs PostgreSQL (DATABASE_URL=postgres://…); on SQLite one process does everything: ROLE=all (or unset)',
      );
      expect(readdirSync(dataDir)).toEqual([]);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});

describe('ROLE=web|worker without a bucket', () => {
  it('refuses to start, saying every process must keep photos in one bucket, before touching any data', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'iskra-role-'));
    try {
      // Refused while reading the environment: the database named here is never reached.
      const web = await run('main', {
        ROLE: 'web',
        DATABASE_URL: 'postgres://iskra@127.0.0.1:1/iskra',
        DATA_DIR: dataDir,
        SESSION_SECRET: sessionSecret,
      });
      const [code] = (await once(web.child, 'exit')) as [number];
      expect(code).toBe(1);
      expect(web.output()).toContain(
        'S3_BUCKET: is required with ROLE=web: every process must keep photos in one bucket',
      );
      expect(readdirSync(dataDir)).toEqual([]);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
