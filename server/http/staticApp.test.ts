import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gzipSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/testApp.ts';

const bigScript = `export const words = ${JSON.stringify('искра '.repeat(2000))};`;
/** The page's inline script (the build writes boot.js into index.html), with a non-ASCII character. */
const inlineBoot = 'document.documentElement.lang = "ru"; // искра';
const indexHtml = `<!doctype html><title>Iskra</title><script>${inlineBoot}</script><script type="module" src="/assets/index-AbC123.js"></script><div id="root"></div>`;
/** The CSP source that allows `script` and nothing else, as a browser computes it. */
const hashSource = (script: string) => `'sha256-${createHash('sha256').update(script, 'utf8').digest('base64')}'`;

/** A raw GET with exactly these headers (fetch would add its own Accept-Encoding and decode the body). */
function rawGet(
  url: string,
  acceptEncoding: string | null,
  more: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    get(
      url,
      // A connection per request: a kept-alive socket shared with the previous answer failed to parse at times.
      { agent: false, headers: { ...(acceptEncoding === null ? {} : { 'Accept-Encoding': acceptEncoding }), ...more } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
      },
    ).on('error', reject);
  });
}

describe('serving the built app', () => {
  let app: TestApp;
  let dist: string;
  beforeAll(async () => {
    dist = mkdtempSync(path.join(tmpdir(), 'iskra-dist-'));
    mkdirSync(path.join(dist, 'assets'));
    writeFileSync(path.join(dist, 'index.html'), indexHtml);
    writeFileSync(path.join(dist, 'assets', 'index-AbC123.js'), 'console.log(1)');
    writeFileSync(path.join(dist, 'offer.html'), '<h1>Offer</h1>');
    writeFileSync(path.join(dist, 'boot.js'), 'document.documentElement.lang = "ru";');
    writeFileSync(path.join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    writeFileSync(path.join(dist, 'assets', 'style-Q1.css'), 'body{margin:0}');
    writeFileSync(path.join(dist, 'assets', 'locale-ru-Q1.json'), '{}');
    writeFileSync(path.join(dist, 'assets', 'photo-Q1.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47]));
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

  it("allows index.html's inline script by its hash alone, on the page and its 304, never unsafe-inline", async () => {
    const first = await rawGet(`${app.url}/search`, 'br');
    const csp = String(first.headers['content-security-policy']);
    const scriptSrc = csp.split('; ').find((directive) => directive.startsWith('script-src ')) ?? '';
    expect(scriptSrc).toBe(
      `script-src 'self' https://telegram.org https://accounts.google.com/gsi/client ${hashSource(inlineBoot)}`,
    );
    // A revalidated copy is rendered with the 304's headers: the hash must be there too.
    const again = await rawGet(`${app.url}/search`, 'br', { 'If-None-Match': String(first.headers.etag) });
    expect(again.status).toBe(304);
    expect(again.headers['content-security-policy']).toBe(csp);
    // Another document (the legal texts) has no inline script: no hash in its policy.
    const offer = await rawGet(`${app.url}/offer.html`, null);
    expect(String(offer.headers['content-security-policy'])).not.toContain("'sha256-");
  });

  it('answers a revalidation of index.html and boot.js with an empty 304 while they are unchanged', async () => {
    for (const route of ['/', '/search', '/boot.js']) {
      const first = await rawGet(`${app.url}${route}`, 'br');
      const tag = first.headers.etag;
      expect(tag, route).toMatch(/^W\/"[0-9a-f]+-[0-9a-f]+"$/);
      expect(first.body.length, route).toBeGreaterThan(0);
      // Sent raw: Node's fetch adds Cache-Control: no-cache to a request with If-None-Match (a reload).
      const again = await rawGet(`${app.url}${route}`, 'br', { 'If-None-Match': String(tag) });
      expect(again.status, route).toBe(304);
      expect(again.headers.etag, route).toBe(tag);
      expect(again.headers['cache-control'], route).toBe('no-cache');
      expect(again.body.length, route).toBe(0);
      // Another version's tag gets the file.
      const changed = await rawGet(`${app.url}${route}`, 'br', { 'If-None-Match': 'W/"1-1"' });
      expect(changed.status, route).toBe(200);
      expect(changed.body.length, route).toBeGreaterThan(0);
    }
    // The tag follows the file: a new deploy's index.html is sent in full to a browser holding the old one.
    const before = (await rawGet(`${app.url}/`, null)).headers.etag;
    const nextBoot = 'document.documentElement.lang = "en";';
    writeFileSync(
      path.join(dist, 'index.html'),
      `<!doctype html><title>Iskra 2</title><script>${nextBoot}</script><div id="root"></div>`,
      { flag: 'w' },
    );
    const after = await rawGet(`${app.url}/`, null, { 'If-None-Match': String(before) });
    expect(after.status).toBe(200);
    expect(after.body.toString()).toContain('Iskra 2');
    // The new page's script is allowed, the old one's no longer.
    expect(after.headers['content-security-policy']).toContain(hashSource(nextBoot));
    expect(after.headers['content-security-policy']).not.toContain(hashSource(inlineBoot));
    writeFileSync(path.join(dist, 'index.html'), indexHtml, { flag: 'w' });
  });

  it('sends the document headers (CSP, COOP, Permissions-Policy, Referrer-Policy) on HTML and SVG only, nosniff on everything', async () => {
    const documentHeaders = [
      'content-security-policy',
      'cross-origin-opener-policy',
      'permissions-policy',
      'referrer-policy',
    ];
    for (const route of ['/', '/login', '/offer.html', '/favicon.svg']) {
      const res = await fetch(`${app.url}${route}`);
      expect(res.status, route).toBe(200);
      for (const name of documentHeaders) expect(res.headers.get(name), `${route} ${name}`).toBeTruthy();
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp, route).toMatch(/frame-ancestors [^;]*https:\/\/web\.telegram\.org/);
      expect(/script-src [^;]*'unsafe-inline'/.test(csp), route).toBe(false);
      expect(res.headers.get('x-content-type-options'), route).toBe('nosniff');
    }
    for (const route of [
      '/boot.js',
      '/assets/index-AbC123.js',
      '/assets/style-Q1.css',
      '/assets/locale-ru-Q1.json',
      '/assets/photo-Q1.png',
      '/api/config',
      '/api/current_user',
      '/api/nothing-here',
    ]) {
      const res = await fetch(`${app.url}${route}`);
      await res.arrayBuffer();
      for (const name of documentHeaders) expect(res.headers.get(name), `${route} ${name}`).toBeNull();
      expect(res.headers.get('x-content-type-options'), route).toBe('nosniff');
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
