import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gzipSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/testApp.ts';

const bigScript = `export const words = ${JSON.stringify('искра '.repeat(2000))};`;

/** A raw GET with exactly these headers (fetch would add its own Accept-Encoding and decode the body). */
function rawGet(url: string, acceptEncoding: string | null): Promise<{ headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    get(url, { headers: acceptEncoding === null ? {} : { 'Accept-Encoding': acceptEncoding } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
    }).on('error', reject);
  });
}

describe('serving the built app', () => {
  let app: TestApp;
  let dist: string;
  beforeAll(async () => {
    dist = mkdtempSync(path.join(tmpdir(), 'iskra-dist-'));
    mkdirSync(path.join(dist, 'assets'));
    writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>Iskra</title><div id="root"></div>');
    writeFileSync(path.join(dist, 'assets', 'index-AbC123.js'), 'console.log(1)');
    writeFileSync(path.join(dist, 'offer.html'), '<h1>Offer</h1>');
    writeFileSync(path.join(dist, 'assets', 'big-X1.js'), bigScript);
    writeFileSync(path.join(dist, 'assets', 'big-X1.js.br'), brotliCompressSync(bigScript));
    writeFileSync(path.join(dist, 'assets', 'big-X1.js.gz'), gzipSync(bigScript));
    writeFileSync(path.join(path.dirname(dist), 'secret.txt'), 'outside');
    app = await createTestApp('sqlite', {
      frontendDist: dist,
      publicConfig: {
        google_client_id: 'client.apps.googleusercontent.com',
        bot_username: 'iskra_bot',
        telegram_bot_id: 123456789,
        support_email: 'help@iskra.test',
        support_telegram: '@iskra_help',
        legal_name: 'Test Entrepreneur',
        legal_inn: '123456789012',
        legal_ogrnip: '123456789012345',
      },
    });
  });
  afterAll(async () => {
    await app.close();
    rmSync(dist, { recursive: true, force: true });
    rmSync(path.join(path.dirname(dist), 'secret.txt'), { force: true });
  });

  it('serves hashed assets as immutable for a year', async () => {
    const res = await fetch(`${app.url}/assets/index-AbC123.js`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(await res.text()).toBe('console.log(1)');
  });

  it('sends the precompressed twin the browser accepts, else the file itself', async () => {
    const url = `${app.url}/assets/big-X1.js`;
    const br = await rawGet(url, 'gzip, deflate, br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/Accept-Encoding/i);
    expect(br.headers['content-type']).toMatch(/^text\/javascript/);
    expect(Number(br.headers['content-length'])).toBe(br.body.length);
    expect(br.body.length).toBeLessThan(Buffer.byteLength(bigScript) / 10);
    expect(brotliDecompressSync(br.body).toString()).toBe(bigScript);

    const gz = await rawGet(url, 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).toString()).toBe(bigScript);

    const plain = await rawGet(url, null);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(bigScript);
    // A file without twins is sent as it is whatever the browser accepts.
    const small = await rawGet(`${app.url}/assets/index-AbC123.js`, 'br');
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.body.toString()).toBe('console.log(1)');
  });

  it('answers app routes with index.html, revalidated on every visit (SPA fallback)', async () => {
    for (const route of ['/', '/login', '/Menu', '/UsersProfile/12']) {
      const res = await fetch(`${app.url}${route}`);
      expect(res.status, route).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(res.headers.get('cache-control')).toBe('no-cache');
      expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
      expect(await res.text()).toContain('<div id="root">');
    }
  });

  it('serves public files as they are and 404s a missing asset instead of sending the page', async () => {
    expect(await (await fetch(`${app.url}/offer.html`)).text()).toBe('<h1>Offer</h1>');
    expect((await fetch(`${app.url}/assets/index-Old999.js`)).status).toBe(404);
  });

  it('never leaves the dist folder', async () => {
    for (const route of ['/..%2Fsecret.txt', '/assets/..%2F..%2Fsecret.txt', '/%2e%2e/secret.txt']) {
      const res = await fetch(`${app.url}${route}`);
      expect(await res.text(), route).not.toContain('outside');
    }
  });

  it('leaves /api/ to the API: unknown API paths are JSON 404s, not the page', async () => {
    const res = await fetch(`${app.url}/api/nothing-here`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: 'Not found', code: 'not_found' });
  });

  it('GET /api/config gives the public settings only', async () => {
    const res = await fetch(`${app.url}/api/config`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      google_client_id: 'client.apps.googleusercontent.com',
      bot_username: 'iskra_bot',
      telegram_bot_id: 123456789,
      support_email: 'help@iskra.test',
      support_telegram: '@iskra_help',
      legal_name: 'Test Entrepreneur',
      legal_inn: '123456789012',
      legal_ogrnip: '123456789012345',
    });
  });
});
