import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Browser, json } from './test/browser.ts';
import { createTestApp, type TestApp } from './test/testApp.ts';

describe('the HTTP app', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp('sqlite');
  });
  afterAll(async () => {
    await app.close();
  });

  it('answers /api/health with the database state', async () => {
    const res = await fetch(`${app.url}/api/health`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok', database: 'ok', bot: 'off', live_events: 'in_process' });
  });

  it('sends nosniff on API answers, keeps the document policies for pages (staticApp.test.ts) and no X-Frame-Options', async () => {
    const res = await fetch(`${app.url}/api/current_user`);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    // A JSON answer is never a document: the CSP and the other document headers would only cost bytes.
    expect(res.headers.get('content-security-policy')).toBeNull();
    expect(res.headers.get('x-frame-options')).toBeNull();
  });

  it('tells browsers to insist on https (HSTS) when PUBLIC_URL is https, and not on a plain http setup', async () => {
    expect((await fetch(`${app.url}/api/health`)).headers.get('strict-transport-security')).toBeNull();
    const https = await createTestApp('sqlite', { publicUrl: 'https://iskra.test' });
    try {
      for (const path of ['/api/health', '/api/no_such_thing', '/']) {
        const res = await fetch(`${https.url}${path}`);
        expect(res.headers.get('strict-transport-security'), path).toBe('max-age=31536000; includeSubDomains');
      }
    } finally {
      await https.close();
    }
  });

  it('answers unknown API routes with a JSON 404', async () => {
    const res = await fetch(`${app.url}/api/no_such_thing`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: 'Not found', code: 'not_found' });
  });

  it('answers a method the route does not take with a JSON 405 and its Allow header, an unknown method with a JSON 501', async () => {
    const wrong = await fetch(`${app.url}/api/logout`);
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('POST');
    expect(wrong.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await wrong.json()).toEqual({ error: 'Method not allowed', code: 'method_not_allowed' });
    const unknown = await fetch(`${app.url}/api/current_user`, { method: 'PROPFIND' });
    expect(unknown.status).toBe(501);
    expect(unknown.headers.get('allow')).toMatch(/GET/);
    expect(await unknown.json()).toEqual({ error: 'Not implemented', code: 'not_implemented' });
  });

  it('refuses a JSON body over the size limit with 413', async () => {
    const browser = new Browser(app.url);
    const res = await browser.post('/api/login', { email: 'a@b.co', password: 'x'.repeat(100_000) });
    expect(res.status).toBe(413);
    expect(await json(res)).toMatchObject({ code: 'payload_too_large' });
  });

  it('answers what Node itself refuses to parse (an over-long URL, a broken request) with a JSON error', async () => {
    // Node answers these before Koa sees them, and by default with an empty body.
    const long = await fetch(`${app.url}/api/search?exclude=${'1,'.repeat(10_000)}1`);
    expect(long.status).toBe(431);
    expect(long.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await long.json()).toEqual({ error: 'The request is too large', code: 'payload_too_large' });

    const socket = connect(Number(new URL(app.url).port), '127.0.0.1');
    socket.end('GET /api/health HTTP/1.1\r\nHost: x\r\nContent-Length: nope\r\n\r\n');
    const chunks: Buffer[] = [];
    for await (const chunk of socket) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString();
    expect(raw).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(raw).toContain('Content-Type: application/json');
    expect(JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4))).toEqual({
      error: 'Malformed HTTP request',
      code: 'bad_request',
    });
  });

  it('turns an unexpected failure into a bland 500 with a request id that is also in the log', async () => {
    const failing = await createTestApp('sqlite');
    try {
      // A real session, so that answering it must read the database.
      const browser = new Browser(failing.url);
      expect(
        (await browser.post('/api/register', { email: 'bland500@example.com', password: 'spark2026!' })).status,
      ).toBe(201);
      await failing.database.db.destroy(); // the database disappears under the app
      const res = await browser.get('/api/current_user');
      expect(res.status).toBe(500);
      const body = await json<{ error: string; code: string; request_id: string }>(res);
      expect(body.code).toBe('internal');
      expect(body.error).not.toMatch(/sqlite|database|destroy/i);
      expect(failing.logs.join('')).toContain(body.request_id);
      const health = await fetch(`${failing.url}/api/health`);
      expect(health.status).toBe(503);
    } finally {
      await failing.close().catch(() => undefined);
    }
  });
});
