import type { Kysely } from 'kysely';
import type { Database, ProfileId, UserId } from '../../../db/schema.ts';
import type { Clock } from '../../clock.ts';
import type { BadgeCounts } from '../../contract/badges.ts';
import { notFound } from '../../errors.ts';
import { type EventBus, insertBadgeMarkers } from '../events/index.ts';
import { findLiveMatch, requireMyProfile } from '../relationships/index.ts';
import { markLikesSeen } from '../swipes/index.ts';
import { markMatch } from './marks.ts';
import { badgeCountsOf } from './repository.ts';

const matchNotFound = () => notFound('match_not_found', 'Match not found');

/**
 * The tab bar's counts and the marks that lower them: what the user has been shown (a match overlay) or
 * has opened (a match, the Likes screen). Every change is told to all of the user's streams as `badges`.
 */
export class BadgeService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    private readonly bus: EventBus,
  ) {}

  counts(userId: UserId): Promise<BadgeCounts> {
    return badgeCountsOf(this.db, userId);
  }

  /** The match overlay for this match was shown. */
  matchSeen(userId: UserId, profileId: ProfileId): Promise<void> {
    return this.markMatch(userId, profileId, 1);
  }

  /** The match's profile or chat was opened: it leaves new_matches. */
  matchOpened(userId: UserId, profileId: ProfileId): Promise<void> {
    return this.markMatch(userId, profileId, 2);
  }

  private async markMatch(userId: UserId, profileId: ProfileId, level: 1 | 2): Promise<void> {
    const me = await requireMyProfile(this.db, userId);
    const now = this.clock.now().toISOString();
    const changed = await this.db.transaction().execute(async (trx) => {
      const match = await findLiveMatch(trx, me.id, profileId);
      if (!match) throw matchNotFound();
      return markMatch(trx, { userId, profileId: me.id }, { id: match.id, otherId: profileId }, level, now);
    });
    if (changed) await this.bus.publish([userId]);
  }

  /** The Likes screen was opened: every like so far is seen, new_likers becomes 0. */
  async likesSeen(userId: UserId): Promise<void> {
    const me = await requireMyProfile(this.db, userId);
    const now = this.clock.now().toISOString();
    const changed = await this.db.transaction().execute(async (trx) => {
      if ((await markLikesSeen(trx, me.id)) === 0) return false;
      await insertBadgeMarkers(trx, [userId], now);
      return true;
    });
    if (changed) await this.bus.publish([userId]);
  }
}
