import { createHmac, randomInt } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database, UserId } from '../../../db/schema.ts';
import { translatorFor, type Language } from '../../../locales/index.ts';
import { addSeconds, type Clock } from '../../clock.ts';
import { AppError, badRequest, conflict, tooManyRequests } from '../../errors.ts';
import type { Logger } from '../../logger.ts';
import type { Mailer } from '../../mail/mailer.ts';
import { safeEqual } from '../../safeEqual.ts';
import { findUserById, lockUser, markUserVerified } from '../accounts/repository.ts';
import { countWrongAttempt, deleteCode, findNewestCode, insertCode, listCodeTimesForEmail, markCodeUsed } from './repository.ts';

export const codeLifetimeSeconds = 10 * 60;
export const resendCooldownSeconds = 60;
export const maxSendsPerHour = 5;
export const maxWrongAttempts = 5;

export type VerifyOutcome = 'verified' | 'already_verified';

export class VerificationService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly mailer: Mailer,
    private readonly clock: Clock,
    private readonly secret: string,
    private readonly logger: Logger,
  ) {}

  /**
   * Makes a new code and mails it. The row is written first (under the user's lock, so the rate limits
   * hold against parallel requests) and removed again when the mail cannot be sent: a failed send leaves
   * no code behind and does not hold the user in the resend cooldown.
   */
  async sendCode(userId: UserId): Promise<void> {
    const now = this.clock.now();
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    const { id, email, language } = await this.db.transaction().execute(async (trx) => {
      await lockUser(trx, userId);
      const user = await findUserById(trx, userId);
      if (!user?.email) throw badRequest('no_email', 'This account has no e-mail address');
      if (user.verified_at) throw conflict('already_verified', 'Your account is already verified');
      this.assertMaySend(await listCodeTimesForEmail(trx, user.email, addSeconds(now, -3600).toISOString()), now);
      const codeId = await insertCode(trx, {
        user_id: userId,
        email: user.email,
        code_hash: this.hashCode(userId, code),
        created_at: now.toISOString(),
        expires_at: addSeconds(now, codeLifetimeSeconds).toISOString(),
        attempts: 0,
        used_at: null,
      });
      return { id: codeId, email: user.email, language: user.language };
    });
    try {
      await this.mailer.send(this.verificationMail(email, code, language));
    } catch (error) {
      await deleteCode(this.db, id);
      this.logger.error({ err: error, userId }, 'verification mail failed');
      throw new AppError(503, 'mail_failed', 'Failed to resend verification code. Please try again later.');
    }
  }

  async verify(userId: UserId, code: string): Promise<VerifyOutcome> {
    const now = this.clock.now();
    // The transaction returns the outcome instead of throwing, so a wrong attempt's count is committed.
    const outcome = await this.db.transaction().execute(async (trx) => {
      await lockUser(trx, userId);
      const user = await findUserById(trx, userId);
      if (user?.verified_at) return 'already_verified' as const;
      const row = await findNewestCode(trx, userId);
      if (!row || row.used_at || row.expires_at <= now.toISOString()) return 'expired' as const;
      if (row.attempts >= maxWrongAttempts) return 'attempts_exhausted' as const;
      if (!safeEqual(row.code_hash, this.hashCode(userId, code))) {
        await countWrongAttempt(trx, row.id);
        return 'wrong' as const;
      }
      await markCodeUsed(trx, row.id, now);
      await markUserVerified(trx, userId, now);
      return 'verified' as const;
    });
    switch (outcome) {
      case 'expired':
        throw badRequest('code_expired', 'The code has expired. Please request a new one.');
      case 'attempts_exhausted':
        throw tooManyRequests('too_many_attempts', 'Too many wrong attempts. Please request a new code.', resendCooldownSeconds);
      case 'wrong':
        throw badRequest('invalid_code', 'Invalid verification code. Please try again.');
      default:
        return outcome;
    }
  }

  private assertMaySend(recentSends: string[], now: Date): void {
    const newest = recentSends[0];
    if (newest) {
      const wait = (addSeconds(new Date(newest), resendCooldownSeconds).getTime() - now.getTime()) / 1000;
      if (wait > 0) throw tooManyRequests('resend_too_soon', 'You can request a new code in a minute', wait);
    }
    const oldestCounted = recentSends[maxSendsPerHour - 1];
    if (oldestCounted) {
      const wait = (addSeconds(new Date(oldestCounted), 3600).getTime() - now.getTime()) / 1000;
      throw tooManyRequests('too_many_codes', 'Too many codes this hour. Please try again later.', wait);
    }
  }

  private verificationMail(to: string, code: string, language: Language) {
    const t = translatorFor(language);
    const minutes = codeLifetimeSeconds / 60;
    return { to, subject: t('mail.verification.subject', { code }), text: t('mail.verification.text', { code, minutes }) };
  }

  /** Keyed by the server secret and bound to the user: a leaked table cannot be turned back into codes. */
  private hashCode(userId: UserId, code: string): string {
    return createHmac('sha256', `verify:${this.secret}`).update(`${userId}:${code}`).digest('base64url');
  }
}
