import type { Kysely } from 'kysely';
import type { Database, ProfileId, UserId } from '../../../db/schema.ts';
import type { Clock } from '../../clock.ts';
import type { UsernameShareResponse } from '../../contract/usernameShares.ts';
import { conflict, notFound } from '../../errors.ts';
import { isBlockedEitherWay, requireMyProfile } from '../relationships/index.ts';
import { findUsernameSwap, setUsernameConsent } from './repository.ts';

const matchNotFound = () => notFound('match_not_found', 'You can share your Telegram only with a match');
const noUsername = () =>
  conflict(
    'no_telegram_username',
    'You have no Telegram username to share: set one in Telegram, then open Iskra from Telegram again',
  );

/**
 * The swap as `me` sees it: their own consent, the other's, and the other's @username only when both have
 * agreed (and the other has one). Undefined without a live match.
 */
export async function usernameSwapFor(
  db: Kysely<Database>,
  me: ProfileId,
  other: ProfileId,
): Promise<UsernameShareResponse | undefined> {
  const swap = await findUsernameSwap(db, me, other);
  if (!swap) return undefined;
  const mine = swap.mineAt !== null;
  const theirs = swap.theirsAt !== null;
  return {
    username_share: { mine, theirs, can_share: swap.myUsername !== null },
    telegram_username: mine && theirs ? swap.theirUsername : null,
  };
}

/**
 * "Share my Telegram" between matched people (issue 39). Telegram usernames are private by default (a
 * presenter never shows them); this is the one way one leaves the server, by both people's consent, and
 * only within a live match: unmatching, blocking or deleting the account takes it back (the match row).
 */
export class UsernameShareService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
  ) {}

  async share(userId: UserId, profileId: ProfileId): Promise<UsernameShareResponse> {
    const me = await requireMyProfile(this.db, userId);
    const swap = await this.liveSwap(me.id, profileId);
    if (swap.username_share.mine) return swap;
    if (!swap.username_share.can_share) throw noUsername();
    if ((await setUsernameConsent(this.db, me.id, profileId, this.clock.now().toISOString())) === 0)
      throw matchNotFound();
    return this.liveSwap(me.id, profileId);
  }

  async revoke(userId: UserId, profileId: ProfileId): Promise<UsernameShareResponse> {
    const me = await requireMyProfile(this.db, userId);
    await this.liveSwap(me.id, profileId);
    if ((await setUsernameConsent(this.db, me.id, profileId, null)) === 0) throw matchNotFound();
    return this.liveSwap(me.id, profileId);
  }

  /** Only a live match that neither side blocked; anyone else is "not found", whether they exist or not. */
  private async liveSwap(me: ProfileId, other: ProfileId): Promise<UsernameShareResponse> {
    const swap = me === other ? undefined : await usernameSwapFor(this.db, me, other);
    if (!swap || (await isBlockedEitherWay(this.db, me, other))) throw matchNotFound();
    return swap;
  }
}
