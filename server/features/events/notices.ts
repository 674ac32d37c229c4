import type { Kysely } from 'kysely';
import type { Database, ProfileId, UserId } from '../../../db/schema.ts';
import { listLiveMatchPartners, listUnseenLikeTargets } from '../relationships/index.ts';
import { recordDepartures } from '../chat/index.ts';
import { insertBadgeMarkers, insertEvents } from './repository.ts';

/** One side of a relationship, as its streams are reached (user) and as the other side names it (profile). */
export interface Party {
  userId: UserId;
  profileId: ProfileId;
}

/*
 * The live events a change between two people writes, inside the transaction that makes the change; each
 * answers the users whose streams need waking once it has committed (EventBus.publish).
 */

/** Their match ended (unmatch, block): each hears that the other is gone, and their counts change. */
export async function writeMatchEnded(db: Kysely<Database>, a: Party, b: Party, now: string): Promise<UserId[]> {
  await insertEvents(
    db,
    [
      { userId: a.userId, type: 'unmatched', payload: { profile_id: b.profileId } },
      { userId: b.userId, type: 'unmatched', payload: { profile_id: a.profileId } },
    ],
    now,
  );
  await insertBadgeMarkers(db, [a.userId, b.userId], now);
  return [a.userId, b.userId];
}

/**
 * A profile is about to be deleted (with its account or alone): everyone in a live match with it hears the
 * match ended, and everyone whose Likes badge counts its like hears the counts changed. Call it before the
 * delete, in the same transaction.
 */
export async function writeProfileLeaving(db: Kysely<Database>, profileId: ProfileId, now: string): Promise<UserId[]> {
  const partners = await listLiveMatchPartners(db, profileId);
  const likedUsers = await listUnseenLikeTargets(db, profileId);
  await recordDepartures(db, profileId, now);
  await insertEvents(
    db,
    partners.map((p) => ({
      userId: p.user_id,
      type: 'unmatched' as const,
      payload: { profile_id: profileId, deleted: true },
    })),
    now,
  );
  const told = [...partners.map((p) => p.user_id), ...likedUsers];
  await insertBadgeMarkers(db, told, now);
  return [...new Set(told)];
}
