import { SignJWT, errors, jwtVerify } from 'jose';
import type { UserId } from '../../../db/schema.ts';

/**
 * The jwtToken of the spec: an HS256 JWT that carries the revocable session id. Only HS256 is accepted,
 * so `alg: none` or an algorithm swap cannot slip through.
 */
export class SessionTokens {
  private readonly key: Uint8Array;

  constructor(secret: string) {
    this.key = new TextEncoder().encode(`jwt:${secret}`);
  }

  async sign(sessionId: string, userId: UserId, issuedAt: Date, expiresAt: Date): Promise<string> {
    return new SignJWT({ sid: sessionId })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(String(userId))
      .setIssuedAt(Math.floor(issuedAt.getTime() / 1000))
      .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
      .sign(this.key);
  }

  /** The session id inside a valid token, or null for anything forged, expired or malformed. */
  async verify(token: string, now: Date): Promise<string | null> {
    try {
      const { payload } = await jwtVerify(token, this.key, {
        algorithms: ['HS256'],
        currentDate: now,
        requiredClaims: ['exp', 'sub'],
      });
      return typeof payload.sid === 'string' && payload.sid.length > 0 ? payload.sid : null;
    } catch {
      return null;
    }
  }

  /**
   * Whether the token carries our signature, expired or not: jose checks the signature before the claims,
   * so an expired token of ours fails with JWTExpired and anything forged or malformed with another error.
   */
  async signedByUs(token: string, now: Date): Promise<boolean> {
    try {
      const { payload } = await jwtVerify(token, this.key, {
        algorithms: ['HS256'],
        currentDate: now,
        requiredClaims: ['exp', 'sub'],
      });
      return typeof payload.sid === 'string' && payload.sid.length > 0;
    } catch (error) {
      return error instanceof errors.JWTExpired;
    }
  }
}
