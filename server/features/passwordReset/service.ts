import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import { translatorFor, type Language } from '../../../locales/index.ts';
import type { Clock } from '../../clock.ts';
import { AppError, badRequest } from '../../errors.ts';
import type { Logger } from '../../logger.ts';
import type { Mailer } from '../../mail/mailer.ts';
import {
  findUserByEmail,
  lockUser,
  type LoginDevices,
  type PasswordHasher,
  setPasswordHash,
  type SignedInWithPassword,
} from '../accounts/index.ts';
import { deleteSessionsOfUser, type SessionService, type SignInDevice } from '../sessions/index.ts';
import { day, type RateCounter, resetRequestsPerIpPerDay } from '../rateLimits/index.ts';
import {
  type CodeAttempts,
  codeLifetimeSeconds,
  deleteCode,
  type EmailCodes,
  findNewestCode,
} from '../verification/index.ts';
import type { AccountAlerts } from '../accountAlerts/index.ts';

/**
 * A forgotten password, reset by a code mailed to the account's verified address (the verification codes'
 * machinery, kind `reset`). Nothing here tells whether an address is registered: `forgot` answers the
 * same for any address (the mail goes out after the answer), and `reset` refuses every code it does not
 * accept with one answer (`refusal`), whatever the reason: an unknown address, no code, a wrong, used,
 * expired or worn-out one. Both are capped per client address and day, and reset's wrong codes per address
 * too (rateLimits/clientLimits.ts), counted alike for a registered address and any other.
 */
export class PasswordResetService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly codes: EmailCodes,
    private readonly passwords: PasswordHasher,
    private readonly sessions: SessionService,
    private readonly devices: LoginDevices,
    private readonly mailer: Mailer,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly rates: RateCounter,
    private readonly attempts: CodeAttempts,
    private readonly alerts: AccountAlerts,
    private readonly publicUrl: string,
  ) {}

  /**
   * Makes a code for a verified, unblocked account and mails it without waiting, so the answer takes the
   * same time for a registered address and for any other. A refusal by the cooldown or the hourly cap is
   * kept quiet for the same reason (only registered addresses could be refused). The cap per client
   * address (`ip`) comes first and answers alike for any address.
   */
  async forgot(email: string, ip: string): Promise<void> {
    await this.rates.hit(
      `reset_request:ip:${ip}`,
      [{ seconds: day, limit: resetRequestsPerIpPerDay }],
      'too_many_reset_requests',
      'Too many password reset requests today. Please try again tomorrow.',
    );
    const now = this.clock.now();
    const user = await findUserByEmail(this.db, email);
    if (!user?.verified_at || user.banned_at) return;
    let created: { id: number; code: string; linkToken: string };
    try {
      created = await this.db.transaction().execute(async (trx) => {
        await lockUser(trx, user.id);
        return this.codes.create(trx, 'reset', user.id, email, now);
      });
    } catch (error) {
      if (error instanceof AppError && error.status === 429) return;
      throw error;
    }
    const link = resetLink(this.publicUrl, email, created.linkToken);
    void this.mailer.send(resetMail(email, created.code, link, user.language)).catch(async (error: unknown) => {
      // No code stays behind a mail that never left, so the user may ask again at once.
      this.logger.error({ err: error, userId: user.id }, 'password reset mail failed');
      await deleteCode(this.db, created.id).catch((cleanup: unknown) =>
        this.logger.error({ err: cleanup }, 'password reset code not removed'),
      );
    });
  }

  /**
   * Checks the code and, when right, in one transaction: sets the new password, ends every session of the
   * account (cookies and jwtTokens alike: a token names its session) and starts this device's. The attempt
   * is counted first (an attempt past the caps costs no argon2); the new password is hashed before the user's
   * lock is taken, so the lock is never held through argon2.
   */
  async reset(email: string, proof: ResetProof, password: string, device: SignInDevice): Promise<SignedInWithPassword> {
    const attempt = await this.attempts.begin(device.ip, 'code' in proof ? { email } : null);
    const passwordHash = await this.passwords.hash(password);
    const now = this.clock.now();
    const outcome = await this.db.transaction().execute(async (trx) => {
      const user = await findUserByEmail(trx, email);
      // An unknown address is refused as one that never asked for a code.
      if (!user?.verified_at || user.banned_at) return { checked: 'expired' as const };
      await lockUser(trx, user.id);
      // A code mailed to an address the account has since left (an e-mail change) no longer opens it: whoever
      // still reads the old mailbox must not set the password.
      if ((await findNewestCode(trx, 'reset', user.id))?.email !== email) return { checked: 'expired' as const };
      const checked =
        'code' in proof
          ? await this.codes.check(trx, 'reset', user.id, proof.code, now)
          : await this.codes.checkLink(trx, 'reset', user.id, proof.token, now);
      if (checked !== 'accepted') return { checked };
      await setPasswordHash(trx, user.id, passwordHash);
      await deleteSessionsOfUser(trx, user.id);
      return {
        checked,
        userId: user.id,
        hadPassword: user.password_hash !== null,
        session: await this.sessions.start(user.id, device, trx),
      };
    });
    if (outcome.checked !== 'accepted') throw refusal();
    // Best effort: a right code that stays counted is one of the day's wrong ones, not a way in.
    await this.attempts
      .accepted(attempt)
      .catch((error: unknown) => this.logger.warn({ err: error }, 'reset attempt not given back'));
    // A Google or Telegram account that had no password gains one here: a new way in, said as such.
    await this.alerts.tell(
      outcome.userId,
      outcome.hadPassword ? { change: 'password_changed' } : { change: 'method_added', method: 'password' },
    );
    return { userId: outcome.userId, session: outcome.session, deviceCookie: this.devices.issue(email) };
  }
}

/** What proves the mailbox: the six-digit code typed from the mail, or the token of the mail's link. */
export type ResetProof = { code: string } | { token: string };

/**
 * The mail's one-tap way back: the reset screen with the address and the token in the fragment, which the
 * browser never sends (no server log, no Referer holds the token).
 */
export function resetLink(publicUrl: string, email: string, token: string): string {
  return `${publicUrl.replace(/\/+$/, '')}/forgot-password#${new URLSearchParams({ email, token }).toString()}`;
}

/**
 * Every refusal of a reset code, for whatever reason: told apart, they said which addresses are registered
 * (an unknown one could only be "expired", a known one also "wrong" or "too many attempts").
 */
const refusal = () =>
  badRequest('reset_code_invalid', 'The code is wrong or no longer valid. Check it or request a new one.');

function resetMail(to: string, code: string, link: string, language: Language) {
  const t = translatorFor(language);
  return {
    to,
    subject: t('mail.passwordReset.subject', { code }),
    text: t('mail.passwordReset.text', { code, link, minutes: codeLifetimeSeconds / 60 }),
  };
}
