import { createECDH, createDecipheriv, createHmac, randomBytes, type ECDH } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import { Agent, createServer, type Server } from 'node:https';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { decodeJwt, decodeProtectedHeader, importJWK, jwtVerify } from 'jose';

/** What a browser holds for one subscription: its P-256 key pair and the auth secret (RFC 8291). */
export interface StandInBrowser {
  endpoint: string;
  /** `PushSubscription.toJSON()` as the app posts it. */
  subscription: { endpoint: string; keys: { p256dh: string; auth: string } };
}

export interface ReceivedPush {
  endpoint: string;
  /** The decrypted body, as the browser's service worker would read it. */
  payload: unknown;
  /** The VAPID JWT's claims, its signature checked against the key the request carried. */
  claims: { aud?: unknown; sub?: unknown; exp?: unknown };
  /** The VAPID public key the request was signed with (`k=`). */
  vapidKey: string;
  headers: Record<string, string | string[] | undefined>;
}

/**
 * A push service (RFC 8030) on loopback over HTTPS, with a certificate made for the run (push services and
 * the web-push package speak only HTTPS; `agent` trusts it). Each request is checked as a real service would
 * (VAPID per RFC 8292: an ES256 JWT for this origin, signed by the key it names) and decrypted as the browser
 * would (RFC 8291, aes128gcm) with the subscription's private key, so a test proves a browser could read it.
 */
export class PushServiceStandIn {
  private server: Server | undefined;
  private folder: string | undefined;
  private readonly browsers = new Map<string, { ecdh: ECDH; auth: Buffer }>();
  private readonly answers = new Map<string, number>();
  readonly received: ReceivedPush[] = [];
  /** Requests refused: a wrong signature, audience or encryption (a real service answers 4xx; tests see why). */
  readonly problems: string[] = [];
  origin = '';
  agent: Agent | undefined;

  async start(): Promise<void> {
    this.folder = mkdtempSync(path.join(tmpdir(), 'iskra-push-'));
    const [key, cert] = [path.join(this.folder, 'key.pem'), path.join(this.folder, 'cert.pem')];
    // prettier-ignore
    execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1',
      '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', key, '-out', cert], { stdio: 'ignore' });
    const pem = { key: readFileSync(key), cert: readFileSync(cert) };
    this.agent = new Agent({ ca: pem.cert });
    this.server = createServer(pem, (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        void this.receive(`${this.origin}${req.url ?? ''}`, req.headers, Buffer.concat(chunks)).then((status) => {
          res.writeHead(status, { Location: `${this.origin}/message/${randomBytes(4).toString('hex')}` }).end();
        });
      });
    });
    this.server.listen(0, '127.0.0.1');
    await once(this.server, 'listening');
    this.origin = `https://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.agent?.destroy();
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
    if (this.folder) rmSync(this.folder, { recursive: true, force: true });
  }

  /** A new browser's subscription on this service. */
  browser(): StandInBrowser {
    const ecdh = createECDH('prime256v1');
    ecdh.generateKeys();
    const auth = randomBytes(16);
    const endpoint = `${this.origin}/push/${randomBytes(8).toString('hex')}`;
    this.browsers.set(endpoint, { ecdh, auth });
    return {
      endpoint,
      subscription: {
        endpoint,
        keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: auth.toString('base64url') },
      },
    };
  }

  /** From now on the service answers this status for the endpoint (410: the browser unsubscribed); null: delivers again. */
  answer(endpoint: string, status: number | null): void {
    if (status === null) this.answers.delete(endpoint);
    else this.answers.set(endpoint, status);
  }

  to(endpoint: string): ReceivedPush[] {
    return this.received.filter((push) => push.endpoint === endpoint);
  }

  private async receive(endpoint: string, headers: ReceivedPush['headers'], body: Buffer): Promise<number> {
    const answer = this.answers.get(endpoint);
    if (answer !== undefined) return answer;
    const browser = this.browsers.get(endpoint);
    if (!browser) return 404;
    try {
      const { claims, vapidKey } = await this.checkVapid(String(headers.authorization ?? ''), endpoint);
      if (headers['content-encoding'] !== 'aes128gcm')
        throw new Error(`content-encoding ${String(headers['content-encoding'])}`);
      if (!headers.ttl) throw new Error('no TTL');
      const payload: unknown = JSON.parse(decrypt(body, browser.ecdh, browser.auth).toString('utf8'));
      this.received.push({ endpoint, payload, claims, vapidKey, headers });
      return 201;
    } catch (error) {
      this.problems.push(String(error));
      return 400;
    }
  }

  /** RFC 8292: `vapid t=<JWT>, k=<public key>`; the JWT is ES256 over this service's origin, unexpired, with a contact. */
  private async checkVapid(
    authorization: string,
    endpoint: string,
  ): Promise<{ claims: ReceivedPush['claims']; vapidKey: string }> {
    const match = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(authorization);
    if (!match?.[1] || !match[2]) throw new Error(`authorization ${authorization}`);
    const [token, vapidKey] = [match[1], match[2]];
    if (decodeProtectedHeader(token).alg !== 'ES256') throw new Error('not ES256');
    const point = Buffer.from(vapidKey, 'base64url');
    const jwk = {
      kty: 'EC',
      crv: 'P-256',
      x: point.subarray(1, 33).toString('base64url'),
      y: point.subarray(33, 65).toString('base64url'),
    };
    await jwtVerify(token, await importJWK(jwk, 'ES256'), { audience: new URL(endpoint).origin });
    const claims = decodeJwt(token);
    const exp = Number(claims.exp);
    if (!(exp * 1000 > Date.now() && exp * 1000 <= Date.now() + 24 * 3600 * 1000)) throw new Error(`exp ${exp}`);
    if (typeof claims.sub !== 'string' || !/^(mailto:|https:)/.test(claims.sub))
      throw new Error(`sub ${String(claims.sub)}`);
    return { claims, vapidKey };
  }
}

/** RFC 8291 + RFC 8188, one record: what a browser does with a push message's body. */
function decrypt(body: Buffer, ecdh: ECDH, auth: Buffer): Buffer {
  const salt = body.subarray(0, 16);
  const idLength = body.readUInt8(20);
  const serverKey = body.subarray(21, 21 + idLength);
  const ciphertext = body.subarray(21 + idLength);
  const hmac = (key: Buffer, data: Buffer) => createHmac('sha256', key).update(data).digest();
  const secret = ecdh.computeSecret(serverKey);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), ecdh.getPublicKey(), serverKey, Buffer.from([1])]);
  const ikm = hmac(hmac(auth, secret), keyInfo);
  const prk = hmac(salt, ikm);
  const cek = hmac(prk, Buffer.from('Content-Encoding: aes128gcm\0\x01')).subarray(0, 16);
  const nonce = hmac(prk, Buffer.from('Content-Encoding: nonce\0\x01')).subarray(0, 12);
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16));
  const padded = Buffer.concat([decipher.update(ciphertext.subarray(0, ciphertext.length - 16)), decipher.final()]);
  // The last record ends with 0x02, then zero padding.
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end -= 1;
  if (padded[end] !== 2) throw new Error('no last-record delimiter');
  return padded.subarray(0, end);
}
