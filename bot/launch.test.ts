import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../server/logger.ts';
import { testBotToken } from '../server/test/telegramSigning.ts';
import type { BotUsers } from './context.ts';
import { launchBot, type LaunchOptions } from './launch.ts';

function options(overrides: Partial<LaunchOptions>) {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      lines.push(chunk.toString());
      callback();
    },
  });
  const unused = () => Promise.reject(new Error('not expected'));
  const users: BotUsers = {
    ensure: unused,
    hasProfile: unused,
    markBotStarted: unused,
    markUnreachable: unused,
    setLanguage: unused,
  };
  const base: LaunchOptions = {
    botToken: undefined,
    mode: 'off',
    apiRoot: 'http://127.0.0.1:9',
    publicUrl: 'https://iskra.test',
    sessionSecret: 'x'.repeat(40),
    users,
    logger: createLogger('info', sink),
  };
  return { launch: { ...base, ...overrides }, lines };
}

describe('launching the bot', () => {
  it('runs without a bot when BOT_TOKEN is unset, and says so once', () => {
    const { launch, lines } = options({ mode: 'polling' });
    const bot = launchBot(launch);
    bot.startPolling();
    expect(bot.webhook).toBeUndefined();
    expect(lines.filter((l) => l.includes('running without the Telegram bot'))).toHaveLength(1);
  });

  it('starts nothing with BOT_MODE=off, and only a webhook handler with BOT_MODE=webhook', () => {
    expect(launchBot(options({ botToken: testBotToken, mode: 'off' }).launch).webhook).toBeUndefined();
    expect(launchBot(options({ botToken: testBotToken, mode: 'webhook' }).launch).webhook).toBeTypeOf('function');
  });
});
