import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import { addSeconds, type Clock } from '../../clock.ts';
import { reauthWindowMinutes } from '../../contract/dataRights.ts';
import { AppError, badRequest, notFound } from '../../errors.ts';
import type { PasswordHasher } from '../accounts/passwords.ts';
import type { PhotoStore } from '../photos/photoStore.ts';
import { eraseAccount } from './eraseAccount.ts';

const photoLink = (publicUrl: string, name: string) => new URL(`/api/uploads/${name}`, publicUrl).toString();

/**
 * The user's rights over their data (152-FZ, GDPR): everything we hold about them in one download, and
 * deleting the account with everything of it. Rows go by the database's cascades from `users` (profile,
 * photos, swipes, matches, conversations and every message in them, blocks, reports, sessions, codes,
 * events, notifications, payments); photo files are removed from disk after the transaction commits.
 */
export class DataRightsService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    private readonly passwords: PasswordHasher,
    private readonly photos: PhotoStore,
    private readonly publicUrl: string,
  ) {}

  async export(userId: number): Promise<Record<string, unknown>> {
    // Everything of the account but the password hash (a secret, not personal data to hand out).
    const account = await this.db
      .selectFrom('users')
      .select(['id', 'email', 'language', 'created_at', 'verified_at', 'banned_at', 'premium_until', 'telegram_id', 'telegram_username', 'google_sub', 'bot_started_at'])
      .where('id', '=', userId)
      .executeTakeFirst();
    if (!account) throw notFound();
    const profile = await this.db.selectFrom('profiles').selectAll().where('user_id', '=', userId).executeTakeFirst();
    const me = profile?.id ?? -1;
    const [photos, swipes, matches, messages, blocks, reports, payments] = await Promise.all([
      this.db.selectFrom('photos').select(['file_name', 'position', 'created_at']).where('profile_id', '=', me).orderBy('position').execute(),
      this.db.selectFrom('swipes').select(['target_id', 'liked', 'created_at']).where('swiper_id', '=', me).orderBy('created_at').execute(),
      this.db
        .selectFrom('matches')
        .selectAll()
        .where((eb) => eb.or([eb('profile_low', '=', me), eb('profile_high', '=', me)]))
        .execute(),
      this.db.selectFrom('messages').select(['id', 'conversation_id', 'content', 'created_at', 'read_at']).where('sender_id', '=', me).orderBy('id').execute(),
      this.db.selectFrom('blocks').select(['blocked_id', 'created_at']).where('blocker_id', '=', me).execute(),
      this.db.selectFrom('reports').select(['reported_id', 'reason', 'comment', 'created_at']).where('reporter_id', '=', me).execute(),
      this.db.selectFrom('payments').selectAll().where('user_id', '=', userId).orderBy('id').execute(),
    ]);
    return {
      exported_at: this.clock.now().toISOString(),
      account,
      profile: profile ?? null,
      photos: photos.map((p) => ({ url: photoLink(this.publicUrl, p.file_name), position: p.position, created_at: p.created_at })),
      likes_given: swipes.map((s) => ({ profile_id: s.target_id, liked: s.liked === 1, at: s.created_at })),
      matches: matches.map((m) => ({ match_id: m.id, profile_id: m.profile_low === me ? m.profile_high : m.profile_low, created_at: m.created_at, unmatched_at: m.unmatched_at })),
      messages_sent: messages,
      blocked: blocks,
      reports_filed: reports,
      payments,
    };
  }

  /** Deletes the account after re-authentication: the password, or (without one) a sign-in of the last minutes. */
  async deleteAccount(userId: number, sessionHash: string, password: string | undefined): Promise<void> {
    const user = await this.db.selectFrom('users').select(['password_hash']).where('id', '=', userId).executeTakeFirst();
    if (!user) throw notFound();
    if (user.password_hash) {
      if (!password) throw badRequest('password_required', 'Enter your password to delete the account');
      if (!(await this.passwords.verify(user.password_hash, password))) throw new AppError(403, 'wrong_password', 'Wrong password');
    } else {
      const session = await this.db.selectFrom('sessions').select('created_at').where('id_hash', '=', sessionHash).executeTakeFirst();
      const freshSince = addSeconds(this.clock.now(), -reauthWindowMinutes * 60).toISOString();
      if (!session || session.created_at < freshSince) throw new AppError(403, 'reauth_required', 'Sign in again to delete the account');
    }
    await eraseAccount(this.db, this.photos, userId);
  }
}
