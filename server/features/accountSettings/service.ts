import type { Kysely } from 'kysely';
import { isUniqueViolation } from '../../../db/errors.ts';
import type { Database, UserId } from '../../../db/schema.ts';
import { translatorFor, type Language } from '../../../locales/index.ts';
import type { AccountResponse, SignInMethod } from '../../contract/accounts.ts';
import type { Clock } from '../../clock.ts';
import { AppError, badRequest, conflict, notFound } from '../../errors.ts';
import type { Logger } from '../../logger.ts';
import type { Mailer } from '../../mail/mailer.ts';
import {
  findUserByEmail,
  isCurrentPassword,
  lockUser,
  type PasswordHasher,
  type Reauthentication,
  setPasswordHash,
  wrongPassword,
} from '../accounts/index.ts';
import type { AccountAlerts } from '../accountAlerts/index.ts';
import { deleteOtherSessions, deleteSessionOfUser, listLiveSessions } from '../sessions/index.ts';
import { codesPerEmailPerDay, day, hour, type RateCounter } from '../rateLimits/index.ts';
import {
  codeLifetimeSeconds,
  codeRefusal,
  deleteCode,
  type EmailCodes,
  findNewestCode,
  maxSendsPerHour,
} from '../verification/index.ts';
import { findAccountCredentials, removeSignInMethod, setEmail } from './repository.ts';

const emailTaken = () => conflict('email_taken', 'Email already registered');
const noEmail = () => badRequest('no_email', 'This account has no e-mail address');
const passwordExists = () => conflict('password_exists', 'This account already has a password');
export { passwordTriesPerHour } from '../accounts/index.ts';

/**
 * Menu → Account: the own sign-in details, the password, the e-mail address and the signed-in devices.
 * Every change is the owner's, through a live session (`sessionHash`, the one making the request).
 */
export class AccountSettingsService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly codes: EmailCodes,
    private readonly passwords: PasswordHasher,
    private readonly mailer: Mailer,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly rates: RateCounter,
    private readonly reauth: Reauthentication,
    private readonly alerts: AccountAlerts,
  ) {}

  /** Whether `given` is the account's password, counted against the hourly tries shared with deleting the account. */
  private isCurrentPassword(userId: UserId, hash: string, given: string | undefined): Promise<boolean> {
    return isCurrentPassword({ rates: this.rates, passwords: this.passwords }, userId, hash, given);
  }

  async overview(userId: UserId, sessionHash: string): Promise<AccountResponse> {
    const user = await findAccountCredentials(this.db, userId);
    if (!user) throw notFound();
    const sessions = await listLiveSessions(this.db, userId, this.clock.now().toISOString());
    return {
      email: user.email,
      has_password: user.password_hash !== null,
      sign_in_methods: signInMethods(user),
      sessions: sessions.map((s) => ({
        id: s.id_hash,
        device: s.device_label ?? null,
        signed_in_at: s.created_at,
        last_seen_at: s.last_seen_at ?? null,
        current: s.id_hash === sessionHash,
      })),
    };
  }

  /** The current password proves it is the owner; every other session ends (a thief's included). */
  async changePassword(userId: UserId, sessionHash: string, currentPassword: string, password: string): Promise<void> {
    const user = await findAccountCredentials(this.db, userId);
    if (!user?.password_hash) throw badRequest('no_password', 'This account signs in without a password');
    if (!(await this.isCurrentPassword(userId, user.password_hash, currentPassword))) throw wrongPassword();
    const passwordHash = await this.passwords.hash(password);
    await this.db.transaction().execute(async (trx) => {
      await lockUser(trx, userId);
      await setPasswordHash(trx, userId, passwordHash);
      await deleteOtherSessions(trx, userId, sessionHash);
    });
    await this.alerts.tell(userId, { change: 'password_changed' });
  }

  /**
   * Mails a code to the new address (kind `email_change`; the code row names the address). Nothing changes
   * until the code comes back: a typo cannot take the account away from its owner. Only the owner may ask
   * (the password, or a recent sign-in: Reauthentication): the new address could otherwise reset the password.
   * `email_taken` is answered only past the account's cap: before it, one account could ask whether any number
   * of addresses are registered.
   */
  async requestEmailChange(
    userId: UserId,
    sessionHash: string,
    email: string,
    currentPassword: string | undefined,
  ): Promise<void> {
    const user = await findAccountCredentials(this.db, userId);
    if (!user) throw notFound();
    await this.reauth.confirm(userId, sessionHash, currentPassword);
    if (user.email === email) throw badRequest('same_email', 'This is already your e-mail address');
    // The codes' own limits count per address: without this, one account could mail any number of strangers.
    await this.rates.hit(
      `email_change:${userId}`,
      [
        { seconds: hour, limit: maxSendsPerHour },
        { seconds: day, limit: codesPerEmailPerDay },
      ],
      'too_many_codes',
      'Too many codes this hour. Please try again later.',
    );
    if (await findUserByEmail(this.db, email)) throw emailTaken();
    const now = this.clock.now();
    const { id, code } = await this.db.transaction().execute(async (trx) => {
      await lockUser(trx, userId);
      return this.codes.create(trx, 'email_change', userId, email, now);
    });
    try {
      await this.mailer.send(mail(user.language, 'emailChange', email, { code, minutes: codeLifetimeSeconds / 60 }));
    } catch (error) {
      await deleteCode(this.db, id);
      this.logger.error({ err: error, userId }, 'e-mail change code not sent');
      throw new AppError(503, 'mail_failed', 'Could not send the e-mail. Please try again later.');
    }
  }

  /** The code from the new address replaces the old one (now proven, so verified); the old address is told. */
  async confirmEmailChange(userId: UserId, code: string): Promise<string> {
    const now = this.clock.now();
    let outcome;
    try {
      outcome = await this.db.transaction().execute(async (trx) => {
        await lockUser(trx, userId);
        const user = await findAccountCredentials(trx, userId);
        const pending = await findNewestCode(trx, 'email_change', userId);
        const checked = await this.codes.check(trx, 'email_change', userId, code, now);
        if (checked !== 'accepted' || !user || !pending)
          return { checked: checked === 'accepted' ? ('expired' as const) : checked };
        await setEmail(trx, userId, pending.email, now);
        // An address never proven (an unverified account correcting a typo on /verify) may be a stranger's:
        // it is not told where the account went.
        return {
          checked,
          oldEmail: user.verified_at ? user.email : null,
          newEmail: pending.email,
          language: user.language,
        };
      });
    } catch (error) {
      // Someone registered the address between the request and the code.
      if (isUniqueViolation(error)) throw emailTaken();
      throw error;
    }
    if (outcome.checked !== 'accepted') throw codeRefusal(outcome.checked);
    const { oldEmail, newEmail, language } = outcome;
    // The bot tells too; the mail goes to the old address just below (the new one has just proven itself).
    await this.alerts.tell(userId, { change: 'email_changed' }, { mail: false });
    if (oldEmail) {
      // The change stands whether or not the notice leaves; a failure is logged, not shown.
      await this.mailer.send(mail(language, 'emailChanged', oldEmail, { email: newEmail })).catch((error: unknown) => {
        this.logger.error({ err: error, userId }, 'e-mail change notice not sent');
      });
    }
    return newEmail;
  }

  /**
   * A first password, for an account that signs in through Telegram or Google and has added its e-mail;
   * only from a recent sign-in (Reauthentication: the account has no password to ask for).
   */
  async addPassword(userId: UserId, sessionHash: string, password: string): Promise<void> {
    const before = await findAccountCredentials(this.db, userId);
    if (!before?.email) throw noEmail();
    if (before.password_hash) throw passwordExists();
    await this.reauth.confirm(userId, sessionHash, undefined);
    const passwordHash = await this.passwords.hash(password);
    await this.db.transaction().execute(async (trx) => {
      await lockUser(trx, userId);
      const user = await findAccountCredentials(trx, userId);
      if (!user?.email) throw noEmail();
      if (user.password_hash) throw passwordExists();
      await setPasswordHash(trx, userId, passwordHash);
    });
    await this.alerts.tell(userId, { change: 'method_added', method: 'password' });
  }

  /** Removes a way into the account, never the last one (under the user's lock, so two removals cannot race past it). */
  async unlink(userId: UserId, method: SignInMethod): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await lockUser(trx, userId);
      const user = await findAccountCredentials(trx, userId);
      if (!user) throw notFound();
      const methods = signInMethods(user);
      if (!methods.includes(method)) throw badRequest('not_linked', 'This sign-in method is not linked');
      if (methods.length === 1) throw conflict('last_sign_in_method', 'The last way to sign in cannot be removed');
      await removeSignInMethod(trx, userId, method);
    });
    await this.alerts.tell(userId, { change: 'method_removed', method });
  }

  async endSession(userId: UserId, id: string): Promise<void> {
    if (!(await deleteSessionOfUser(this.db, userId, id))) throw notFound('session_not_found', 'No such session');
  }

  async endOtherSessions(userId: UserId, sessionHash: string): Promise<void> {
    await deleteOtherSessions(this.db, userId, sessionHash);
  }
}

/** The ways in: a password counts only with an address to sign in with. */
function signInMethods(user: {
  email: string | null;
  password_hash: string | null;
  telegram_id: string | null;
  google_sub: string | null;
}): SignInMethod[] {
  const methods: SignInMethod[] = [];
  if (user.email && user.password_hash) methods.push('password');
  if (user.telegram_id) methods.push('telegram');
  if (user.google_sub) methods.push('google');
  return methods;
}

function mail(
  language: Language,
  kind: 'emailChange' | 'emailChanged',
  to: string,
  values: Record<string, string | number>,
) {
  const t = translatorFor(language);
  return { to, subject: t(`mail.${kind}.subject`, values), text: t(`mail.${kind}.text`, values) };
}
