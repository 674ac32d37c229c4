import { createRemoteJWKSet, errors, jwtVerify, type JWTVerifyGetKey } from 'jose';
import type { Clock } from '../../clock.ts';

/** Google signs ID tokens under either issuer spelling (https://developers.google.com/identity/gsi/web/guides/verify-google-id-token). */
export const googleIssuers = ['accounts.google.com', 'https://accounts.google.com'];

export interface GoogleIdentity {
  sub: string;
  email?: string | undefined;
  emailVerified: boolean;
}

/**
 * Verifies Google ID tokens against Google's published keys (or a test JWKS): signature with RS256 only
 * (so `alg: none` and HMAC-with-the-public-key tricks fail), audience = our client id (and, for several
 * audiences, azp = our client id), issuer, expiry.
 */
export class GoogleIdTokenVerifier {
  private readonly keys: JWTVerifyGetKey;

  constructor(
    private readonly clientId: string,
    jwksUrl: string,
    private readonly clock: Clock,
  ) {
    // jose caches the key set and refetches it when a token names an unknown key id (Google rotates keys).
    this.keys = createRemoteJWKSet(new URL(jwksUrl), { timeoutDuration: 5000 });
  }

  /** The identity in a valid token, or null for anything forged, expired, foreign or malformed. */
  async verify(idToken: string): Promise<GoogleIdentity | null> {
    try {
      const { payload } = await jwtVerify(idToken, this.keys, {
        algorithms: ['RS256'],
        audience: this.clientId,
        issuer: googleIssuers,
        currentDate: this.clock.now(),
        requiredClaims: ['sub', 'exp', 'iat'],
      });
      // OpenID Connect Core 3.1.3.7: a token for several audiences must name us as the party it was issued
      // to (azp), or another client of the list could sign its users in here. With a single audience azp
      // may rightly differ (Google's cross-client sign-in: an Android client obtaining a token for us).
      if (Array.isArray(payload.aud) && payload.azp !== this.clientId) return null;
      if (typeof payload.sub !== 'string' || payload.sub === '' || payload.sub.length > 255) return null;
      const email =
        typeof payload.email === 'string' && payload.email.length <= 254
          ? payload.email.trim().toLowerCase()
          : undefined;
      // Google sends a boolean; very old tokens carried the string "true".
      const emailVerified = payload.email_verified === true || payload.email_verified === 'true';
      return { sub: payload.sub, email, emailVerified };
    } catch (error) {
      // Invalid tokens are expected; a JWKS we cannot reach is an outage and must not look like one.
      if (error instanceof errors.JOSEError && !(error instanceof errors.JWKSTimeout)) return null;
      throw error;
    }
  }
}
