import type { Kysely } from 'kysely';
import type { Database, UserId } from '../../../db/schema.ts';
import { translatorFor, type Language } from '../../../locales/index.ts';
import type { Clock } from '../../clock.ts';
import { AppError, badRequest, conflict } from '../../errors.ts';
import type { Logger } from '../../logger.ts';
import type { Mailer } from '../../mail/mailer.ts';
import { findUserById, lockUser, markUserVerified } from '../accounts/index.ts';
import type { CodeAttempts } from './codeAttempts.ts';
import { codeLifetimeSeconds, codeRefusal, type EmailCodes } from './codes.ts';
import { deleteCode } from './repository.ts';

export type VerifyOutcome = 'verified' | 'already_verified';

export class VerificationService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly codes: EmailCodes,
    private readonly mailer: Mailer,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly attempts: CodeAttempts,
  ) {}

  /**
   * Makes a new code and mails it. The row is written first (under the user's lock, so the rate limits
   * hold against parallel requests) and removed again when the mail cannot be sent: a failed send leaves
   * no code behind and does not hold the user in the resend cooldown.
   */
  async sendCode(userId: UserId): Promise<void> {
    const now = this.clock.now();
    const { id, code, email, language } = await this.db.transaction().execute(async (trx) => {
      await lockUser(trx, userId);
      const user = await findUserById(trx, userId);
      if (!user?.email) throw badRequest('no_email', 'This account has no e-mail address');
      if (user.verified_at) throw conflict('already_verified', 'Your account is already verified');
      return {
        ...(await this.codes.create(trx, 'verify', userId, user.email, now)),
        email: user.email,
        language: user.language,
      };
    });
    try {
      await this.mailer.send(verificationMail(email, code, language));
    } catch (error) {
      await deleteCode(this.db, id);
      this.logger.error({ err: error, userId }, 'verification mail failed');
      throw new AppError(503, 'mail_failed', 'Failed to resend verification code. Please try again later.');
    }
  }

  /**
   * Checks the code. The attempt counts against the daily caps of wrong codes of the client address (`ip`)
   * and of the account first (codeAttempts.ts), and is given back unless the code was wrong or unusable.
   */
  async verify(userId: UserId, code: string, ip: string): Promise<VerifyOutcome> {
    const attempt = await this.attempts.begin(ip, { userId });
    const now = this.clock.now();
    // The transaction returns the outcome instead of throwing, so a wrong attempt's count is committed.
    const outcome = await this.db.transaction().execute(async (trx) => {
      await lockUser(trx, userId);
      const user = await findUserById(trx, userId);
      if (user?.verified_at) return 'already_verified' as const;
      const checked = await this.codes.check(trx, 'verify', userId, code, now);
      if (checked === 'accepted') await markUserVerified(trx, userId, now);
      return checked;
    });
    if (outcome !== 'accepted' && outcome !== 'already_verified') throw codeRefusal(outcome);
    // Best effort: a right code that stays counted is one of the day's wrong ones, not a way in.
    await this.attempts
      .accepted(attempt)
      .catch((error: unknown) => this.logger.warn({ err: error, userId }, 'verify attempt not given back'));
    return outcome === 'accepted' ? 'verified' : outcome;
  }
}

function verificationMail(to: string, code: string, language: Language) {
  const t = translatorFor(language);
  const minutes = codeLifetimeSeconds / 60;
  return {
    to,
    subject: t('mail.verification.subject', { code }),
    text: t('mail.verification.text', { code, minutes }),
  };
}
