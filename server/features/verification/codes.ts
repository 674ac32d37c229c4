import { createHmac, randomInt } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { CodePurpose, Database, UserId } from '../../../db/schema.ts';
import { addSeconds } from '../../clock.ts';
import { badRequest, tooManyRequests } from '../../errors.ts';
import { safeEqual } from '../../safeEqual.ts';
import { codesPerEmailPerDay, day, hour } from '../rateLimits/index.ts';
import { countWrongAttempt, findNewestCode, insertCode, listCodeTimesForEmail, markCodeUsed } from './repository.ts';

export const codeLifetimeSeconds = 10 * 60;
export const resendCooldownSeconds = 60;
export const maxSendsPerHour = 5;
export const maxWrongAttempts = 5;

export type CodeCheck = 'accepted' | 'expired' | 'attempts_exhausted' | 'wrong';

/**
 * The six-digit e-mail codes of every kind (the address at sign-up, a forgotten password): made and
 * checked the same way, each kind counting only its own codes. Both calls run inside the caller's
 * transaction after it took the user's row lock (accounts/repository.ts lockUser), so the cooldown, the
 * hourly and daily caps and the wrong-try count hold against parallel requests.
 */
export class EmailCodes {
  constructor(private readonly secret: string) {}

  /** A new code for the address, refused with 429 during the cooldown or past the hourly or daily cap. */
  async create(
    trx: Kysely<Database>,
    purpose: CodePurpose,
    userId: UserId,
    email: string,
    now: Date,
  ): Promise<{ id: number; code: string; linkToken: string }> {
    assertMaySend(await listCodeTimesForEmail(trx, purpose, email, addSeconds(now, -day).toISOString()), now);
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    const codeHash = this.hash(purpose, userId, code);
    const id = await insertCode(trx, {
      purpose,
      user_id: userId,
      email,
      code_hash: codeHash,
      created_at: now.toISOString(),
      expires_at: addSeconds(now, codeLifetimeSeconds).toISOString(),
      attempts: 0,
      used_at: null,
    });
    return { id, code, linkToken: this.linkToken(purpose, id, codeHash) };
  }

  /**
   * The mail's link instead of its code: used up like the code, expiring with it, but 256 bits a guess can
   * never reach, so its wrong tries are not counted on the code (an attacker's 5 wrong codes wear the code out;
   * the owner's link still works) and the caller need not cap them per account. Derived, not stored: the
   * server's secret over the code's row and hash, so it dies with the code and a leaked table cannot make it.
   */
  async checkLink(
    trx: Kysely<Database>,
    purpose: CodePurpose,
    userId: UserId,
    token: string,
    now: Date,
  ): Promise<Exclude<CodeCheck, 'attempts_exhausted'>> {
    const row = await findNewestCode(trx, purpose, userId);
    if (!row || row.used_at || row.expires_at <= now.toISOString()) return 'expired';
    if (!safeEqual(token, this.linkToken(purpose, row.id, row.code_hash))) return 'wrong';
    await markCodeUsed(trx, row.id, now);
    return 'accepted';
  }

  private linkToken(purpose: CodePurpose, id: number, codeHash: string): string {
    return createHmac('sha256', `${purpose}_link:${this.secret}`).update(`${id}:${codeHash}`).digest('base64url');
  }

  /**
   * Checks the user's newest code of the kind: used up when right, one wrong try counted when not. The
   * caller commits either way (it returns the outcome rather than throwing), then throws `refusal`.
   */
  async check(
    trx: Kysely<Database>,
    purpose: CodePurpose,
    userId: UserId,
    code: string,
    now: Date,
  ): Promise<CodeCheck> {
    const row = await findNewestCode(trx, purpose, userId);
    if (!row || row.used_at || row.expires_at <= now.toISOString()) return 'expired';
    if (row.attempts >= maxWrongAttempts) return 'attempts_exhausted';
    if (!safeEqual(row.code_hash, this.hash(purpose, userId, code))) {
      await countWrongAttempt(trx, row.id);
      return 'wrong';
    }
    await markCodeUsed(trx, row.id, now);
    return 'accepted';
  }

  /** Keyed by the server secret and bound to the user and kind: a leaked table cannot be turned back into codes. */
  private hash(purpose: CodePurpose, userId: UserId, code: string): string {
    return createHmac('sha256', `${purpose}:${this.secret}`).update(`${userId}:${code}`).digest('base64url');
  }
}

/** The error for a code that was not accepted. */
export function codeRefusal(outcome: Exclude<CodeCheck, 'accepted'>) {
  switch (outcome) {
    case 'expired':
      return badRequest('code_expired', 'The code has expired. Please request a new one.');
    case 'attempts_exhausted':
      return tooManyRequests(
        'too_many_attempts',
        'Too many wrong attempts. Please request a new code.',
        resendCooldownSeconds,
      );
    case 'wrong':
      return badRequest('invalid_code', 'Invalid verification code. Please try again.');
  }
}

/** `recentSends`: creation times of the day's codes to the address, newest first. */
function assertMaySend(recentSends: string[], now: Date): void {
  const newest = recentSends[0];
  if (newest) {
    const wait = (addSeconds(new Date(newest), resendCooldownSeconds).getTime() - now.getTime()) / 1000;
    if (wait > 0) throw tooManyRequests('resend_too_soon', 'You can request a new code in a minute', wait);
  }
  const hourAgo = addSeconds(now, -hour).toISOString();
  const oldestThisHour = recentSends.filter((sent) => sent > hourAgo)[maxSendsPerHour - 1];
  if (oldestThisHour) {
    const wait = (addSeconds(new Date(oldestThisHour), hour).getTime() - now.getTime()) / 1000;
    throw tooManyRequests('too_many_codes', 'Too many codes this hour. Please try again later.', wait);
  }
  const oldestToday = recentSends[codesPerEmailPerDay - 1];
  if (oldestToday) {
    const wait = (addSeconds(new Date(oldestToday), day).getTime() - now.getTime()) / 1000;
    throw tooManyRequests('too_many_codes_today', 'Too many codes today. Please try again tomorrow.', wait);
  }
}
