import { createHmac } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import { addSeconds, type Clock } from '../../clock.ts';
import { tooManyRequests } from '../../errors.ts';
import { deleteLoginFailures, findRecentLoginFailures, insertLoginFailureUnder, lockLoginKey } from './repository.ts';

export const loginWindowSeconds = 15 * 60;
export const maxLoginFailures = 10;

/**
 * Whose failures an attempt counts against: a browser that signed in to this address before (its device
 * cookie's nonce, see loginDevices.ts), or else every unknown client at its IP address.
 */
export type LoginSource = { device: string } | { ip: string };

/**
 * At most 10 failed logins per (e-mail, source) in 15 minutes, where the source is the browser's device
 * cookie when it has a valid one for this address, else the client's IP. So failures from elsewhere, even
 * from the owner's own shared address, never refuse the right password in a browser the owner signed in
 * with before (OWASP's device-cookie approach), while unknown clients are limited per IP as before and a
 * known browser guessing wrong is limited on its own. Counted in the database so a restart or a second
 * server process does not reset the count. Each attempt is written as a failure *before* the password is
 * checked and removed on success, and the count and the write happen under a lock on the key, so parallel
 * guesses cannot slip under the limit.
 */
export class LoginThrottle {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    private readonly secret: string,
  ) {}

  /** Refuses with 429 when the limit is reached, else records this attempt as a failure-to-be. */
  async begin(email: string, source: LoginSource): Promise<string> {
    const key = this.keyFor(email, source);
    const now = this.clock.now();
    const windowStart = addSeconds(now, -loginWindowSeconds).toISOString();
    await this.db.transaction().execute(async (trx) => {
      await lockLoginKey(trx, key);
      // The count and the write in one statement; the failures are read only to say when one is refused.
      if (await insertLoginFailureUnder(trx, key, now.toISOString(), windowStart, maxLoginFailures)) return;
      const oldest = (await findRecentLoginFailures(trx, key, windowStart, maxLoginFailures))[maxLoginFailures - 1];
      const freeAt = oldest ? addSeconds(new Date(oldest.failed_at), loginWindowSeconds) : now;
      throw tooManyRequests(
        'too_many_login_attempts',
        'Too many login attempts. Please try again later.',
        Math.max(1, (freeAt.getTime() - now.getTime()) / 1000),
      );
    });
    return key;
  }

  /** A successful login forgets the failures of this (e-mail, source). */
  async succeeded(key: string): Promise<void> {
    await deleteLoginFailures(this.db, key);
  }

  private keyFor(email: string, source: LoginSource): string {
    const who = 'device' in source ? `device:${source.device}` : source.ip;
    return createHmac('sha256', `login:${this.secret}`).update(`${email}|${who}`).digest('base64url');
  }
}
