import { createHmac } from 'node:crypto';
import {
  day,
  type RateCounter,
  type RateRow,
  wrongCodesPerAccountPerDay,
  wrongCodesPerIpPerDay,
} from '../rateLimits/index.ts';

/** Whose code is tried: a signed-in account (verification) or the address a reset names (registered or not). */
export type CodeOwner = { userId: number } | { email: string };

/** An attempt counted by `begin`: given back by `accepted`. */
export interface CodeAttempt {
  readonly rows: readonly RateRow[];
}

const refusal = ['too_many_code_attempts', 'Too many wrong codes today. Please try again tomorrow.'] as const;

/**
 * The daily caps on wrong codes (rateLimits/clientLimits.ts): per client IP across every account and kind,
 * and per account. An attempt is counted before its code is checked, so parallel guesses cannot all pass one
 * count, and given back when the code was right: only wrong (or unusable) codes use the allowance. A reset
 * counts against the address it names, hashed: a registered address and any other are counted alike, so the
 * caps tell nothing about who is registered, and no address is kept in the counters.
 */
export class CodeAttempts {
  constructor(
    private readonly rates: RateCounter,
    private readonly secret: string,
  ) {}

  /**
   * Counts one attempt from `ip` at `owner`'s code; 429 `too_many_code_attempts` past either cap. Without an
   * owner only the address is counted: a mailed link's token cannot be guessed, so its tries need no cap per
   * account (the cap that would let a stranger's wrong codes lock the owner out for the day).
   */
  async begin(ip: string, owner: CodeOwner | null): Promise<CodeAttempt> {
    const byIp = await this.rates.hit(
      `code_guess:ip:${ip}`,
      [{ seconds: day, limit: wrongCodesPerIpPerDay }],
      ...refusal,
    );
    if (!owner) return { rows: byIp };
    const byOwner = await this.rates.hit(
      `code_guess:${this.ownerKey(owner)}`,
      [{ seconds: day, limit: wrongCodesPerAccountPerDay }],
      ...refusal,
    );
    return { rows: [...byIp, ...byOwner] };
  }

  /** The code was right (or there was nothing to guess): the attempt is not a wrong one. */
  async accepted(attempt: CodeAttempt): Promise<void> {
    await this.rates.refund(attempt.rows);
  }

  private ownerKey(owner: CodeOwner): string {
    if ('userId' in owner) return `user:${owner.userId}`;
    return `email:${createHmac('sha256', `code_guess:${this.secret}`).update(owner.email).digest('base64url')}`;
  }
}
