import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import en from '../locales/en.json' with { type: 'json' };
import { webhookSecret } from '../bot/webhook.ts';
import { testBotToken } from './test/telegramSigning.ts';
import { TelegramStandIn } from './test/telegramStandIn.ts';

const root = path.resolve(import.meta.dirname, '..');
const tsx = path.join(root, 'node_modules', '.bin', 'tsx');
const sessionSecret = 'process-test-secret-that-is-long-enough-000';

async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Runs one of package.json's commands (tsx on a script, as `npm start` and `npm run` do) with `env`. */
function run(script: string, env: Record<string, string>, args: string[] = []): { child: ChildProcess; output: () => string } {
  let output = '';
  const child = spawn(tsx, [script, ...args], { cwd: root, env: { PATH: process.env.PATH ?? '', ...env } });
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
    const server = run('server/main.ts', {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      PUBLIC_URL: 'https://iskra.test',
      SESSION_SECRET: sessionSecret,
      BOT_TOKEN: testBotToken,
      TELEGRAM_API_ROOT: telegram.apiRoot,
    });
    try {
      await telegram.waitForCall('setMyCommands', undefined, 15_000);
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
      expect(server.output()).toContain('Telegram bot: polling');
      expect(server.output()).not.toContain(testBotToken);
    } finally {
      server.child.kill('SIGTERM');
      if (server.child.exitCode === null) await once(server.child, 'exit');
    }
  });

  it('npm run bot:set-webhook registers PUBLIC_URL/telegram/webhook with the secret the server checks', async () => {
    const script = run('scripts/setWebhook.ts', {
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
      allowed_updates: ['message', 'callback_query'],
    });
  });
});
