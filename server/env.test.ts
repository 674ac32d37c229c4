import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { EnvError, loadEnv, parseEnv } from './env.ts';

describe('environment', () => {
  it('starts with safe defaults when nothing is set', () => {
    const env = parseEnv({});
    expect(env).toMatchObject({
      PORT: 8080,
      PUBLIC_URL: 'http://localhost:8080',
      DATA_DIR: './data',
      BOT_MODE: 'off',
      PAYMENT_PROVIDER: 'test',
      TRUST_PROXY: false,
    });
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.SMTP_URL).toBeUndefined();
  });

  it('names this machine at PORT as the public address when PUBLIC_URL is unset', () => {
    expect(parseEnv({ PORT: '3000' }).PUBLIC_URL).toBe('http://localhost:3000');
    expect(parseEnv({ PORT: '3000', PUBLIC_URL: 'https://iskra.example' }).PUBLIC_URL).toBe('https://iskra.example');
  });

  it('reports every problem at once', () => {
    let caught: unknown;
    try {
      parseEnv({ PORT: 'eighty', PUBLIC_URL: 'not a url', DATABASE_URL: 'mysql://x', SESSION_SECRET: 'short', BOT_MODE: 'sometimes' });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(EnvError);
    const problems = (caught as EnvError).problems.join('\n');
    for (const name of ['PORT', 'PUBLIC_URL', 'DATABASE_URL', 'SESSION_SECRET', 'BOT_MODE']) expect(problems).toContain(name);
  });

  it('polls for Telegram updates by default once BOT_TOKEN is set, unless BOT_MODE says otherwise', () => {
    expect(parseEnv({ BOT_TOKEN: '1:abc' }).BOT_MODE).toBe('polling');
    expect(parseEnv({ BOT_TOKEN: '1:abc', BOT_MODE: 'webhook' }).BOT_MODE).toBe('webhook');
    expect(parseEnv({ BOT_TOKEN: '1:abc', BOT_MODE: 'off' }).BOT_MODE).toBe('off');
    expect(parseEnv({ BOT_MODE: '' }).BOT_MODE).toBe('off');
  });

  it('trusts one proxy hop with TRUST_PROXY unless TRUST_PROXY_HOPS says more, and none without it', () => {
    expect(parseEnv({}).TRUST_PROXY_HOPS).toBe(0);
    expect(parseEnv({ TRUST_PROXY: 'true' }).TRUST_PROXY_HOPS).toBe(1);
    expect(parseEnv({ TRUST_PROXY: 'true', TRUST_PROXY_HOPS: '2' }).TRUST_PROXY_HOPS).toBe(2);
    expect(() => parseEnv({ TRUST_PROXY: 'true', TRUST_PROXY_HOPS: '0' })).toThrow(/TRUST_PROXY_HOPS/);
    expect(() => parseEnv({ TRUST_PROXY_HOPS: '2' })).toThrow(/TRUST_PROXY_HOPS: has no effect without TRUST_PROXY=true/);
  });

  it('offers the free test checkout only on http unless PAYMENT_PROVIDER=test is set explicitly', () => {
    expect(parseEnv({}).PAYMENT_PROVIDER).toBe('test');
    expect(parseEnv({ PUBLIC_URL: 'https://iskra.example' }).PAYMENT_PROVIDER).toBe('off');
    expect(parseEnv({ PUBLIC_URL: 'https://iskra.example', PAYMENT_PROVIDER: '' }).PAYMENT_PROVIDER).toBe('off');
    expect(parseEnv({ PUBLIC_URL: 'https://iskra.example', PAYMENT_PROVIDER: 'test' }).PAYMENT_PROVIDER).toBe('test');
    expect(parseEnv({ PAYMENT_PROVIDER: 'off' }).PAYMENT_PROVIDER).toBe('off');
    expect(() => parseEnv({ PAYMENT_PROVIDER: 'free' })).toThrow(/PAYMENT_PROVIDER/);
  });

  it('treats empty values as unset, as an .env file with blank lines writes them', () => {
    expect(parseEnv({ SMTP_URL: '', DATABASE_URL: ' ' }).SMTP_URL).toBeUndefined();
  });

  it('generates SESSION_SECRET once, keeps it in DATA_DIR readable by the owner only, and reuses it', () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'iskra-env-'));
    const first = loadEnv({ DATA_DIR: dataDir });
    expect(first.SESSION_SECRET.length).toBeGreaterThanOrEqual(32);
    const file = path.join(dataDir, 'session-secret');
    expect(readFileSync(file, 'utf8').trim()).toBe(first.SESSION_SECRET);
    expect(statSync(file).mode & 0o077).toBe(0);
    expect(loadEnv({ DATA_DIR: dataDir }).SESSION_SECRET).toBe(first.SESSION_SECRET);
    expect(loadEnv({ DATA_DIR: dataDir, SESSION_SECRET: 'x'.repeat(40) }).SESSION_SECRET).toBe('x'.repeat(40));
  });
});
