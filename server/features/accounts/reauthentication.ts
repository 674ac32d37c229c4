import type { Kysely } from 'kysely';
import type { Database, UserId } from '../../../db/schema.ts';
import { addSeconds, type Clock } from '../../clock.ts';
import { reauthWindowMinutes } from '../../contract/dataRights.ts';
import { AppError, notFound } from '../../errors.ts';
import type { RateCounter } from '../rateLimits/index.ts';
import { findSessionCreatedAt } from '../sessions/index.ts';
import { isCurrentPassword } from './currentPassword.ts';
import type { PasswordHasher } from './passwords.ts';
import { findPasswordHash } from './repository.ts';

/** 403 codes the app translates: it asks for the password, or tells the person to sign in again. */
export const passwordRequired = () => new AppError(403, 'password_required', 'Enter your current password to continue');
export const wrongPassword = () => new AppError(403, 'wrong_password', 'Wrong password');
export const reauthRequired = () => new AppError(403, 'reauth_required', 'Sign in again to do this');

/**
 * Proof that the person at the keyboard is the owner, not just someone holding the session (a phone left
 * unlocked, a stolen cookie or token), before anything that could keep them out for good: deleting the
 * account, adding a way in (Google, Telegram, a password), changing the e-mail address. The account's
 * password when it has one (its tries counted, currentPassword.ts); without one, a sign-in in the last
 * `reauthWindowMinutes`, which a stolen session cannot make anew.
 */
export class Reauthentication {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly rates: RateCounter,
    private readonly passwords: PasswordHasher,
    private readonly clock: Clock,
  ) {}

  /** Throws 403 `password_required`, `wrong_password` or `reauth_required` (429 past the tries); nothing else changes. */
  async confirm(userId: UserId, sessionHash: string, password: string | undefined): Promise<void> {
    const user = await findPasswordHash(this.db, userId);
    if (!user) throw notFound();
    if (user.password_hash) {
      if (!password) throw passwordRequired();
      if (
        !(await isCurrentPassword(
          { rates: this.rates, passwords: this.passwords },
          userId,
          user.password_hash,
          password,
        ))
      )
        throw wrongPassword();
      return;
    }
    const signedInAt = await findSessionCreatedAt(this.db, sessionHash);
    const freshSince = addSeconds(this.clock.now(), -reauthWindowMinutes * 60).toISOString();
    if (signedInAt === undefined || signedInAt < freshSince) throw reauthRequired();
  }
}
