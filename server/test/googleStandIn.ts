import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignJWT, exportJWK, generateKeyPair, type CryptoKey, type JWTPayload } from 'jose';

export const testGoogleClientId = 'iskra-test.apps.googleusercontent.com';

/**
 * Google's side of sign-in for tests: a JWKS endpoint on loopback serving a test RSA key (what
 * GOOGLE_JWKS_URL points at), and a signer for ID tokens with that key or another one.
 */
export class GoogleStandIn {
  jwksRequests = 0;
  private server: Server | undefined;
  private key: CryptoKey | undefined;
  private otherKey: CryptoKey | undefined;
  private readonly kid = 'test-key-1';

  async start(): Promise<string> {
    const { publicKey, privateKey } = await generateKeyPair('RS256', { extractable: true });
    this.key = privateKey;
    this.otherKey = (await generateKeyPair('RS256')).privateKey;
    const jwk = { ...(await exportJWK(publicKey)), kid: this.kid, alg: 'RS256', use: 'sig' };
    this.server = createServer((req, res) => {
      this.jwksRequests += 1;
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ keys: [jwk] }));
    });
    this.server.listen(0, '127.0.0.1');
    await once(this.server, 'listening');
    const { port } = this.server.address() as AddressInfo;
    return `http://127.0.0.1:${port}/oauth2/v3/certs`;
  }

  /** A token as Google issues it, valid for an hour from `now`; `claims` override or add fields. */
  async idToken(
    claims: JWTPayload & { email?: string; email_verified?: boolean },
    now: Date,
    options: { otherKey?: boolean; kid?: string } = {},
  ): Promise<string> {
    const key = options.otherKey ? this.otherKey : this.key;
    if (!key) throw new Error('GoogleStandIn not started');
    const iat = Math.floor(now.getTime() / 1000);
    return new SignJWT({ iss: 'https://accounts.google.com', aud: testGoogleClientId, iat, exp: iat + 3600, ...claims })
      .setProtectedHeader({ alg: 'RS256', kid: options.kid ?? this.kid, typ: 'JWT' })
      .sign(key);
  }

  async stop(): Promise<void> {
    if (!this.server) return;
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }
}

/** An unsigned token (`alg: none`), the classic forgery a verifier must refuse. */
export function unsignedToken(payload: JWTPayload): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${part({ alg: 'none', typ: 'JWT' })}.${part(payload)}.`;
}
