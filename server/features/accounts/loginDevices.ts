import { createHmac, randomBytes } from 'node:crypto';
import { safeEqual } from '../../safeEqual.ts';

/** How long a browser stays known for an address after signing in with its password. */
export const deviceCookieDays = 365;

/**
 * OWASP's device cookies ("Slow Down Online Guessing Attacks with Device Cookies"): a browser that signed
 * in with the password gets a cookie naming a random nonce, signed together with the e-mail address. When
 * it signs in to that address again, its failures are counted for that nonce alone, so nobody else's
 * guessing, from anywhere and from behind the same shared address (an office, a mobile carrier's NAT), can
 * lock the owner out of their own browser. The cookie holds no address: the signature ties it to one,
 * and a cookie copied to another browser only moves that browser into a throttled bucket of its own.
 * A browser keeps the device cookie of the last address that signed in on it.
 */
export class LoginDevices {
  constructor(private readonly secret: string) {}

  /** A fresh cookie value for this address: `<nonce>.<signature>`. */
  issue(email: string): string {
    const nonce = randomBytes(16).toString('base64url');
    return `${nonce}.${this.sign(email, nonce)}`;
  }

  /** The nonce, when the cookie was issued by us for exactly this address; null for anything else. */
  recognize(cookie: string | undefined, email: string): string | null {
    const match = /^([\w-]{22})\.([\w-]{43})$/.exec(cookie ?? '');
    const [, nonce, signature] = match ?? [];
    if (!nonce || !signature) return null;
    return safeEqual(signature, this.sign(email, nonce)) ? nonce : null;
  }

  private sign(email: string, nonce: string): string {
    return createHmac('sha256', `login-device:${this.secret}`).update(`${email}|${nonce}`).digest('base64url');
  }
}
