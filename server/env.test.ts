import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { photoBucketFromEnv } from './composition.ts';
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
      parseEnv({
        PORT: 'eighty',
        PUBLIC_URL: 'not a url',
        DATABASE_URL: 'mysql://x',
        SESSION_SECRET: 'short',
        BOT_MODE: 'sometimes',
      });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(EnvError);
    const problems = (caught as EnvError).problems.join('\n');
    for (const name of ['PORT', 'PUBLIC_URL', 'DATABASE_URL', 'SESSION_SECRET', 'BOT_MODE'])
      expect(problems).toContain(name);
  });

  it('runs every role in one process by default, and splits roles only on PostgreSQL', () => {
    const bucket = { S3_BUCKET: 'iskra-photos', S3_ACCESS_KEY_ID: 'k', S3_SECRET_ACCESS_KEY: 's' };
    const pg = {
      DATABASE_URL: 'postgres://iskra@db.internal:5432/iskra',
      SESSION_SECRET: 'a-secret-every-process-shares-0000000',
      ...bucket,
    };
    expect(parseEnv({}).ROLE).toBe('all');
    expect(parseEnv({ ...pg, ROLE: 'web' }).ROLE).toBe('web');
    expect(parseEnv({ ...pg, ROLE: 'worker' }).ROLE).toBe('worker');
    expect(parseEnv({ ROLE: 'all' }).ROLE).toBe('all');
    expect(() => parseEnv({ ...pg, ROLE: 'both' })).toThrow(/ROLE/);
    // Every process has its own data folder: a secret generated into it would differ from the others'.
    expect(() => parseEnv({ DATABASE_URL: pg.DATABASE_URL, ...bucket, ROLE: 'web' })).toThrow(
      'SESSION_SECRET: is required with ROLE=web',
    );
    // Photos on each process's own disk: the others would serve the placeholder, and a deleted account's
    // photos would stay served by the process that has them.
    for (const role of ['web', 'worker']) {
      expect(() => parseEnv({ DATABASE_URL: pg.DATABASE_URL, SESSION_SECRET: pg.SESSION_SECRET, ROLE: role })).toThrow(
        `S3_BUCKET: is required with ROLE=${role}: every process must keep photos in one bucket`,
      );
    }
    expect(parseEnv({ DATABASE_URL: pg.DATABASE_URL, SESSION_SECRET: pg.SESSION_SECRET }).ROLE).toBe('all');
    for (const role of ['web', 'worker']) {
      for (const sqlite of [{}, { DATABASE_URL: 'sqlite:/tmp/iskra.sqlite' }]) {
        expect(() => parseEnv({ ...sqlite, ROLE: role })).toThrow(
          `ROLE: ${role} needs PostgreSQL (DATABASE_URL=postgres://…); on SQLite one process does everything`,
        );
      }
    }
  });

  it('takes a PostgreSQL schema and a shutdown grace period', () => {
    const pg = 'postgres://iskra@db.internal:5432/iskra';
    expect(parseEnv({ DATABASE_URL: pg, DATABASE_SCHEMA: 'iskra_staging' }).DATABASE_SCHEMA).toBe('iskra_staging');
    expect(parseEnv({ DATABASE_URL: pg }).DATABASE_SCHEMA).toBeUndefined();
    // Put into the connection's options: only a plain identifier may pass.
    expect(() => parseEnv({ DATABASE_URL: pg, DATABASE_SCHEMA: 'x; drop table users' })).toThrow(/DATABASE_SCHEMA/);
    expect(() => parseEnv({ DATABASE_SCHEMA: 'iskra' })).toThrow(/DATABASE_SCHEMA: is for PostgreSQL only/);
    expect(parseEnv({}).SHUTDOWN_GRACE_MS).toBe(10_000);
    expect(parseEnv({ SHUTDOWN_GRACE_MS: '30000' }).SHUTDOWN_GRACE_MS).toBe(30_000);
    expect(() => parseEnv({ SHUTDOWN_GRACE_MS: 'soon' })).toThrow(/SHUTDOWN_GRACE_MS/);
  });

  it("takes REDIS_URL for live events' doorbells on PostgreSQL only", () => {
    const pg = 'postgres://iskra@db.internal:5432/iskra';
    expect(parseEnv({ DATABASE_URL: pg, REDIS_URL: 'redis://10.0.0.5:6379' }).REDIS_URL).toBe('redis://10.0.0.5:6379');
    expect(parseEnv({ DATABASE_URL: pg }).REDIS_URL).toBeUndefined();
    expect(() => parseEnv({ DATABASE_URL: pg, REDIS_URL: 'http://10.0.0.5:6379' })).toThrow(/REDIS_URL/);
    expect(() => parseEnv({ REDIS_URL: 'redis://127.0.0.1:6379' })).toThrow(/REDIS_URL: is for PostgreSQL only/);
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
    expect(() => parseEnv({ TRUST_PROXY_HOPS: '2' })).toThrow(
      /TRUST_PROXY_HOPS: has no effect without TRUST_PROXY=true/,
    );
  });

  it('offers the free test checkout only on http unless PAYMENT_PROVIDER=test is set explicitly', () => {
    expect(parseEnv({}).PAYMENT_PROVIDER).toBe('test');
    expect(parseEnv({ PUBLIC_URL: 'https://iskra.example' }).PAYMENT_PROVIDER).toBe('off');
    expect(parseEnv({ PUBLIC_URL: 'https://iskra.example', PAYMENT_PROVIDER: '' }).PAYMENT_PROVIDER).toBe('off');
    expect(parseEnv({ PUBLIC_URL: 'https://iskra.example', PAYMENT_PROVIDER: 'test' }).PAYMENT_PROVIDER).toBe('test');
    expect(parseEnv({ PAYMENT_PROVIDER: 'off' }).PAYMENT_PROVIDER).toBe('off');
    expect(() => parseEnv({ PAYMENT_PROVIDER: 'free' })).toThrow(/PAYMENT_PROVIDER/);
  });

  it('keeps photos on disk unless S3_BUCKET is set, and reads the bucket settings when it is', () => {
    const disk = parseEnv({});
    expect(disk.S3_BUCKET).toBeUndefined();
    expect(photoBucketFromEnv(disk)).toBeUndefined();
    const env = parseEnv({
      S3_BUCKET: 'iskra-photos',
      S3_ENDPOINT: 'https://storage.yandexcloud.net',
      S3_REGION: 'ru-central1',
      S3_ACCESS_KEY_ID: 'key',
      S3_SECRET_ACCESS_KEY: 'secret',
      S3_FORCE_PATH_STYLE: 'true',
      S3_PREFIX: 'iskra/staging/',
      PHOTO_PUBLIC_URL: 'https://photos.iskra.example/',
    });
    expect(photoBucketFromEnv(env)).toEqual({
      bucket: 'iskra-photos',
      endpoint: 'https://storage.yandexcloud.net',
      region: 'ru-central1',
      accessKeyId: 'key',
      secretAccessKey: 'secret',
      forcePathStyle: true,
      prefix: 'iskra/staging',
      publicUrl: 'https://photos.iskra.example',
    });
    // AWS itself: no endpoint, virtual-hosted addressing, the first region.
    expect(
      photoBucketFromEnv(
        parseEnv({ S3_BUCKET: 'b', S3_ACCESS_KEY_ID: 'k', S3_SECRET_ACCESS_KEY: 's', S3_ENDPOINT: '' }),
      ),
    ).toMatchObject({
      endpoint: undefined,
      region: 'us-east-1',
      forcePathStyle: false,
      prefix: undefined,
      publicUrl: undefined,
    });
  });

  it('takes S3_PREFIX as a key prefix without slashes at its ends, and refuses one that is not', () => {
    const bucket = { S3_BUCKET: 'b', S3_ACCESS_KEY_ID: 'k', S3_SECRET_ACCESS_KEY: 's' };
    expect(parseEnv({ ...bucket, S3_PREFIX: 'staging' }).S3_PREFIX).toBe('staging');
    expect(parseEnv({ ...bucket, S3_PREFIX: 'iskra/staging//' }).S3_PREFIX).toBe('iskra/staging');
    expect(parseEnv({ ...bucket, S3_PREFIX: '' }).S3_PREFIX).toBeUndefined();
    for (const bad of ['/staging', 'a//b', 'with space', '/'])
      expect(() => parseEnv({ ...bucket, S3_PREFIX: bad }), bad).toThrow(/S3_PREFIX: must be a key prefix/);
    expect(() => parseEnv({ S3_PREFIX: 'staging' })).toThrow('S3_PREFIX: has no effect without S3_BUCKET');
  });

  it('refuses an http PHOTO_PUBLIC_URL behind an https PUBLIC_URL: browsers would block the photos as mixed content', () => {
    const bucket = { S3_BUCKET: 'b', S3_ACCESS_KEY_ID: 'k', S3_SECRET_ACCESS_KEY: 's' };
    expect(() =>
      parseEnv({ ...bucket, PUBLIC_URL: 'https://iskra.example', PHOTO_PUBLIC_URL: 'http://photos.iskra.example' }),
    ).toThrow('PHOTO_PUBLIC_URL: must be https when PUBLIC_URL is https');
    expect(
      parseEnv({ ...bucket, PUBLIC_URL: 'https://iskra.example', PHOTO_PUBLIC_URL: 'https://photos.iskra.example' })
        .PHOTO_PUBLIC_URL,
    ).toBe('https://photos.iskra.example');
    // Development: both on http.
    expect(
      parseEnv({ ...bucket, PUBLIC_URL: 'http://localhost:8080', PHOTO_PUBLIC_URL: 'http://127.0.0.1:9000/b' })
        .PHOTO_PUBLIC_URL,
    ).toBe('http://127.0.0.1:9000/b');
  });

  it('lists every bucket problem at once: bad addresses, missing keys, settings without S3_BUCKET', () => {
    const problemsOf = (source: NodeJS.ProcessEnv): string[] => {
      try {
        parseEnv(source);
      } catch (error) {
        if (error instanceof EnvError) return error.problems;
        throw error;
      }
      return [];
    };
    const malformed = problemsOf({
      S3_BUCKET: 'iskra-photos',
      S3_ENDPOINT: 'ftp://storage',
      PHOTO_PUBLIC_URL: 'photos.example',
      S3_FORCE_PATH_STYLE: 'yes',
    });
    for (const name of ['S3_ENDPOINT', 'PHOTO_PUBLIC_URL', 'S3_FORCE_PATH_STYLE'])
      expect(malformed.join('\n')).toContain(`${name}:`);
    // Checked once every value parses (zod runs cross-field rules last), both keys in one go.
    expect(problemsOf({ S3_BUCKET: 'iskra-photos' })).toEqual([
      'S3_ACCESS_KEY_ID: is required when S3_BUCKET is set',
      'S3_SECRET_ACCESS_KEY: is required when S3_BUCKET is set',
    ]);
    expect(problemsOf({ S3_ACCESS_KEY_ID: 'k', PHOTO_PUBLIC_URL: 'https://cdn.example' })).toEqual([
      'S3_ACCESS_KEY_ID: has no effect without S3_BUCKET',
      'PHOTO_PUBLIC_URL: has no effect without S3_BUCKET',
    ]);
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
