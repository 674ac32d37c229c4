import type { Kysely } from 'kysely';
import type { Database, UserId } from '../../../db/schema.ts';

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

/** The kept key pair, if one was made. */
export async function findVapidKeys(db: Kysely<Database>): Promise<VapidKeys | undefined> {
  const row = await db
    .selectFrom('push_keys')
    .select(['public_key', 'private_key'])
    .where('id', '=', 1)
    .executeTakeFirst();
  return row && { publicKey: row.public_key, privateKey: row.private_key };
}

export interface StoredSubscription {
  endpoint: string;
  p256dh: string;
  auth: string;
}

/**
 * Stores a browser's subscription for `userId`. The endpoint names one browser: when it was another account's
 * (someone else signed in on that browser before), it moves to this one with the new keys.
 */
export async function saveSubscription(
  db: Kysely<Database>,
  userId: UserId,
  sessionHash: string,
  subscription: StoredSubscription,
  now: string,
): Promise<void> {
  await db
    .insertInto('push_subscriptions')
    .values({ user_id: userId, session_hash: sessionHash, ...subscription, created_at: now })
    .onConflict((oc) =>
      oc.column('endpoint').doUpdateSet({
        user_id: userId,
        session_hash: sessionHash,
        p256dh: subscription.p256dh,
        auth: subscription.auth,
        created_at: now,
      }),
    )
    .execute();
}

/** Past `keep` subscriptions the oldest go: a browser that stopped answering is the likeliest to be gone. */
export async function keepNewestSubscriptions(db: Kysely<Database>, userId: UserId, keep: number): Promise<void> {
  // created_at, not id: a browser that subscribed again (the upsert) is as new as its latest subscription.
  const older = await db
    .selectFrom('push_subscriptions')
    .select('id')
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1000)
    .offset(keep)
    .execute();
  if (older.length > 0)
    await db
      .deleteFrom('push_subscriptions')
      .where(
        'id',
        'in',
        older.map((row) => row.id),
      )
      .execute();
}

/** Removes the user's subscription at `endpoint`; another account's is left alone. */
export async function deleteSubscription(db: Kysely<Database>, userId: UserId, endpoint: string): Promise<void> {
  await db.deleteFrom('push_subscriptions').where('user_id', '=', userId).where('endpoint', '=', endpoint).execute();
}

/** The push service said the subscription is gone (404, 410). */
export async function deleteGoneSubscription(db: Kysely<Database>, endpoint: string): Promise<void> {
  await db.deleteFrom('push_subscriptions').where('endpoint', '=', endpoint).execute();
}

export async function listSubscriptions(db: Kysely<Database>, userId: UserId): Promise<StoredSubscription[]> {
  return db
    .selectFrom('push_subscriptions')
    .select(['endpoint', 'p256dh', 'auth'])
    .where('user_id', '=', userId)
    .orderBy('id')
    .execute();
}
