import { createHmac } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import { addSeconds, type Clock } from '../../clock.ts';
import { tooManyRequests } from '../../errors.ts';

export const loginWindowSeconds = 15 * 60;
export const maxLoginFailures = 10;

/**
 * At most 10 failed logins per (e-mail, IP) in 15 minutes. Counted in the database so a restart or a
 * second server process does not reset the count. Each attempt is written as a failure *before* the
 * password is checked and removed on success, so parallel guesses cannot all slip under the limit.
 */
export class LoginThrottle {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    private readonly secret: string,
  ) {}

  /** Refuses with 429 when the limit is reached, else records this attempt as a failure-to-be. */
  async begin(email: string, ip: string): Promise<string> {
    const key = this.keyFor(email, ip);
    const now = this.clock.now();
    const windowStart = addSeconds(now, -loginWindowSeconds).toISOString();
    await this.db.transaction().execute(async (trx) => {
      const recent = await trx
        .selectFrom('login_failures')
        .select('failed_at')
        .where('key_hash', '=', key)
        .where('failed_at', '>', windowStart)
        .orderBy('failed_at', 'desc')
        .limit(maxLoginFailures)
        .execute();
      const oldest = recent[maxLoginFailures - 1];
      if (oldest) {
        const freeAt = addSeconds(new Date(oldest.failed_at), loginWindowSeconds);
        throw tooManyRequests(
          'too_many_login_attempts',
          'Too many login attempts. Please try again later.',
          (freeAt.getTime() - now.getTime()) / 1000,
        );
      }
      await trx.insertInto('login_failures').values({ key_hash: key, failed_at: now.toISOString() }).execute();
    });
    return key;
  }

  /** A successful login forgets the failures of this (e-mail, IP). */
  async succeeded(key: string): Promise<void> {
    await this.db.deleteFrom('login_failures').where('key_hash', '=', key).execute();
  }

  private keyFor(email: string, ip: string): string {
    return createHmac('sha256', `login:${this.secret}`).update(`${email}|${ip}`).digest('base64url');
  }
}
