import type { Kysely } from 'kysely';
import { isUniqueViolation } from '../../../db/errors.ts';
import type { Database, UserId } from '../../../db/schema.ts';
import type { Language } from '../../../locales/index.ts';
import type { Clock } from '../../clock.ts';
import { AppError, conflict, forbidden, unauthorized } from '../../errors.ts';
import { lockUser, type Reauthentication, type SignedIn } from '../accounts/index.ts';
import type { AccountAlerts } from '../accountAlerts/index.ts';
import { deleteSessionsOfUser, type SessionService, type SignInDevice } from '../sessions/index.ts';
import type { GoogleIdTokenVerifier } from './idToken.ts';
import { findUserByEmailForGoogle, findUserByGoogleSub, insertGoogleUser, linkGoogleSub } from './repository.ts';

/** Spec section 8: the app shows the server's text, else "Google login failed". */
const googleFailed = () => unauthorized('Google login failed', 'google_login_failed');
const identityTaken = () => conflict('identity_taken', 'This Google account is linked to another Iskra account');
const notConfigured = () => new AppError(503, 'google_not_configured', 'Google sign-in is not configured');

/**
 * Google sign-in. The account key is Google's `sub`. An existing e-mail account is joined only when both
 * sides proved the address: Google says `email_verified` and the account verified it by code. Otherwise
 * someone who registered a victim's address without owning it (a pre-registration attack) would be
 * handed the victim's Google sign-ins, or the victim the squatter's account; such a Google user gets an
 * account of their own, without the contested address.
 */
export class GoogleSignInService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly verifier: GoogleIdTokenVerifier | null,
    private readonly sessions: SessionService,
    private readonly clock: Clock,
    private readonly reauth: Reauthentication,
    private readonly alerts: AccountAlerts,
  ) {}

  async signIn(idToken: string, language: Language, device: SignInDevice): Promise<SignedIn> {
    if (!this.verifier) throw notConfigured();
    const identity = await this.verifier.verify(idToken);
    if (!identity) throw googleFailed();

    // The account whose sessions this sign-in ended, told to every process's session cache once committed.
    let endedSessionsOf: UserId | undefined;
    try {
      const signedIn = await this.db.transaction().execute(async (trx) => {
        const known = await findUserByGoogleSub(trx, identity.sub);
        if (known) return this.startSession(trx, known, device);

        const byEmail = identity.email ? await findUserByEmailForGoogle(trx, identity.email) : undefined;
        if (byEmail && identity.emailVerified && byEmail.verified_at !== null && byEmail.google_sub === null) {
          if (!(await linkGoogleSub(trx, byEmail.id, identity.sub))) throw googleFailed();
          // A new way into the account: sessions opened before it (perhaps by someone else) end now.
          await deleteSessionsOfUser(trx, byEmail.id);
          endedSessionsOf = byEmail.id;
          return this.startSession(trx, byEmail, device);
        }

        const now = this.clock.now().toISOString();
        const userId = await insertGoogleUser(trx, {
          google_sub: identity.sub,
          // The address is kept only when Google vouches for it and no other account holds it.
          email: identity.emailVerified && !byEmail ? (identity.email ?? null) : null,
          language,
          // Google has authenticated the person, as Telegram does; there is no code to send without an address.
          verified_at: now,
          created_at: now,
        });
        return { userId, session: await this.sessions.start(userId, device, trx), created: true };
      });
      if (endedSessionsOf !== undefined) {
        // Usually an unauthenticated request, so nothing else here would drop the ended sessions from this
        // process's cache; and as with every sign-out, the answer waits until the change has been heard.
        this.sessions.forgetUser(endedSessionsOf);
        await this.sessions.ended([endedSessionsOf]);
        await this.alerts.tell(endedSessionsOf, { change: 'method_added', method: 'google' });
      }
      return signedIn;
    } catch (error) {
      // The same Google account signing in twice at once: the unique index on google_sub lets one create;
      // the other finds that account on a second try.
      if (!isUniqueViolation(error)) throw error;
      const winner = await findUserByGoogleSub(this.db, identity.sub);
      if (!winner) throw error;
      return this.startSession(this.db, winner, device);
    }
  }

  /**
   * Adds this Google account as a way into the signed-in account. An identity another account holds is
   * refused, never moved or merged: the person signs in there and unlinks it first. Only the owner may add
   * it (the password, or a recent sign-in: Reauthentication), and they are told.
   */
  async link(userId: UserId, sessionHash: string, idToken: string, password: string | undefined): Promise<void> {
    if (!this.verifier) throw notConfigured();
    await this.reauth.confirm(userId, sessionHash, password);
    const identity = await this.verifier.verify(idToken);
    if (!identity) throw googleFailed();
    try {
      const added = await this.db.transaction().execute(async (trx) => {
        await lockUser(trx, userId);
        const owner = await findUserByGoogleSub(trx, identity.sub);
        if (owner?.id === userId) return false;
        if (owner) throw identityTaken();
        if (!(await linkGoogleSub(trx, userId, identity.sub)))
          throw conflict('google_already_linked', 'Another Google account is linked already');
        return true;
      });
      if (added) await this.alerts.tell(userId, { change: 'method_added', method: 'google' });
    } catch (error) {
      // The same Google account linked to two accounts at once: the unique index lets one through.
      if (isUniqueViolation(error)) throw identityTaken();
      throw error;
    }
  }

  private async startSession(
    db: Kysely<Database>,
    user: { id: UserId; banned_at: string | null },
    device: SignInDevice,
  ): Promise<SignedIn> {
    if (user.banned_at) throw forbidden('banned', 'This account has been blocked');
    return { userId: user.id, session: await this.sessions.start(user.id, device, db) };
  }
}
