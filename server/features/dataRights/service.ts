import type { Kysely } from 'kysely';
import type { Database, ProfileId, UserId } from '../../../db/schema.ts';
import type { Clock } from '../../clock.ts';
import { notFound } from '../../errors.ts';
import type { Reauthentication } from '../accounts/index.ts';
import type { EventBus } from '../events/index.ts';
import type { PhotoStore } from '../photos/index.ts';
import type { Logger } from '../../logger.ts';
import { eraseAccount } from './eraseAccount.ts';
import {
  findAccountForExport,
  findProfileOfUser,
  listBlocksBy,
  listMatchesOf,
  listMessagesSentBy,
  listPaymentsOf,
  listPhotosOfProfile,
  listReportsBy,
  listSwipesBy,
} from './repository.ts';

const photoLink = (publicUrl: string, name: string) => new URL(`/api/uploads/${name}`, publicUrl).toString();

/**
 * The user's rights over their data (152-FZ, GDPR): everything we hold about them in one download, and
 * deleting the account with everything of it. Rows go by the database's cascades from `users` (profile,
 * photos, swipes, matches, conversations and every message in them, blocks, reports, sessions, codes,
 * events, notifications, payments); photo files are removed from the store after the transaction commits.
 */
export class DataRightsService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    private readonly reauth: Reauthentication,
    private readonly photos: PhotoStore,
    private readonly publicUrl: string,
    private readonly bus: EventBus,
    private readonly logger: Logger,
  ) {}

  async export(userId: UserId): Promise<Record<string, unknown>> {
    const account = await findAccountForExport(this.db, userId);
    if (!account) throw notFound();
    const profile = await findProfileOfUser(this.db, userId);
    const me = profile?.id;
    // Without a profile there are no photos, likes, matches, messages, blocks or reports of theirs.
    const mine = <T>(list: (db: Kysely<Database>, profileId: ProfileId) => Promise<T[]>): Promise<T[]> =>
      me === undefined ? Promise.resolve([]) : list(this.db, me);
    const [photos, swipes, matches, messages, blocks, reports, payments] = await Promise.all([
      mine(listPhotosOfProfile),
      mine(listSwipesBy),
      mine(listMatchesOf),
      mine(listMessagesSentBy),
      mine(listBlocksBy),
      mine(listReportsBy),
      listPaymentsOf(this.db, userId),
    ]);
    return {
      exported_at: this.clock.now().toISOString(),
      account,
      profile: profile ?? null,
      photos: photos.map((p) => ({
        url: photoLink(this.publicUrl, p.file_name),
        position: p.position,
        created_at: p.created_at,
      })),
      likes_given: swipes.map((s) => ({
        profile_id: s.target_id,
        liked: s.liked === 1,
        at: s.created_at,
        ...(s.message === null ? {} : { message: s.message }),
      })),
      matches: matches.map((m) => ({
        match_id: m.id,
        profile_id: m.profile_low === me ? m.profile_high : m.profile_low,
        created_at: m.created_at,
        unmatched_at: m.unmatched_at,
      })),
      messages_sent: messages,
      blocked: blocks,
      reports_filed: reports,
      payments,
    };
  }

  /** Deletes the account after re-authentication: the password, or (without one) a sign-in of the last minutes. */
  async deleteAccount(userId: UserId, sessionHash: string, password: string | undefined): Promise<void> {
    await this.reauth.confirm(userId, sessionHash, password);
    await eraseAccount(
      { db: this.db, photos: this.photos, clock: this.clock, bus: this.bus, logger: this.logger },
      userId,
    );
  }
}
