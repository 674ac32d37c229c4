import type { Kysely } from 'kysely';
import { prepared } from '../../../db/prepared.ts';
import type { Database, NewSession, UserId } from '../../../db/schema.ts';

export async function insertSession(db: Kysely<Database>, session: NewSession): Promise<void> {
  await db.insertInto('sessions').values(session).execute();
}

const liveSession = prepared((db, idHash: string, now: string) =>
  db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    // The owner's profile, if any, for when it was last marked active: written only when that is old.
    .leftJoin('profiles', 'profiles.user_id', 'sessions.user_id')
    .select([
      'sessions.id_hash',
      'sessions.user_id',
      'sessions.expires_at',
      'sessions.last_seen_at',
      'users.verified_at',
      'users.language',
      'users.banned_at',
      'profiles.id as profile_id',
      'profiles.active_at',
    ])
    .where('sessions.id_hash', '=', idHash)
    .where('sessions.expires_at', '>', now),
);

/** The live session and the few user fields every request needs, in one query (compiled once: every request runs it). */
export async function findLiveSession(db: Kysely<Database>, idHash: string, now: Date) {
  return liveSession.first(db, idHash, now.toISOString());
}

/** Which of these sessions are still live (not ended, not expired, their account not banned): one query for many streams. */
export async function liveSessionHashes(
  db: Kysely<Database>,
  idHashes: readonly string[],
  now: string,
): Promise<Set<string>> {
  if (idHashes.length === 0) return new Set();
  const rows = await db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .select('sessions.id_hash')
    .where('sessions.id_hash', 'in', idHashes)
    .where('sessions.expires_at', '>', now)
    .where('users.banned_at', 'is', null)
    .execute();
  return new Set(rows.map((r) => r.id_hash));
}

/** When the session was made (its sign-in): a password-less account proves itself by a recent one. */
export async function findSessionCreatedAt(db: Kysely<Database>, sessionHash: string): Promise<string | undefined> {
  return (await db.selectFrom('sessions').select('created_at').where('id_hash', '=', sessionHash).executeTakeFirst())
    ?.created_at;
}

export async function deleteSession(db: Kysely<Database>, idHash: string): Promise<void> {
  await db.deleteFrom('sessions').where('id_hash', '=', idHash).execute();
}

export async function deleteSessionsOfUser(db: Kysely<Database>, userId: UserId): Promise<void> {
  await db.deleteFrom('sessions').where('user_id', '=', userId).execute();
}

export async function touchSession(db: Kysely<Database>, idHash: string, at: string): Promise<void> {
  await db.updateTable('sessions').set({ last_seen_at: at }).where('id_hash', '=', idHash).execute();
}

/**
 * The owner's profile was active at `at`: written only when its last mark is older than `since` (an hour
 * before), so an active user costs one profile write an hour. The column stamps no search change (migration
 * profile_activity): it only orders people.
 */
export async function touchProfileActivity(
  db: Kysely<Database>,
  userId: UserId,
  at: string,
  since: string,
): Promise<void> {
  await db
    .updateTable('profiles')
    .set({ active_at: at })
    .where('user_id', '=', userId)
    .where((eb) => eb.or([eb('active_at', 'is', null), eb('active_at', '<', since)]))
    .execute();
}

/** The live sessions of a user, most recently used first, for the owner's list of devices. */
export async function listLiveSessions(db: Kysely<Database>, userId: UserId, now: string) {
  return db
    .selectFrom('sessions')
    .select(['id_hash', 'device_label', 'created_at', 'last_seen_at'])
    .where('user_id', '=', userId)
    .where('expires_at', '>', now)
    .orderBy((eb) => eb.fn.coalesce('last_seen_at', 'created_at'), 'desc')
    .execute();
}

/** Ends one session of this user; false when the user has no such session. */
export async function deleteSessionOfUser(db: Kysely<Database>, userId: UserId, idHash: string): Promise<boolean> {
  const result = await db
    .deleteFrom('sessions')
    .where('user_id', '=', userId)
    .where('id_hash', '=', idHash)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/** Ends every session of the user but `keepHash` (the one making the request). */
export async function deleteOtherSessions(db: Kysely<Database>, userId: UserId, keepHash: string): Promise<void> {
  await db.deleteFrom('sessions').where('user_id', '=', userId).where('id_hash', '!=', keepHash).execute();
}
