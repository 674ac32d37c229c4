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
    .select(['sessions.id_hash', 'sessions.user_id', 'users.verified_at', 'users.language', 'users.banned_at'])
    .where('sessions.id_hash', '=', idHash)
    .where('sessions.expires_at', '>', now),
);

/** The live session and the few user fields every request needs, in one query (compiled once: every request runs it). */
export async function findLiveSession(db: Kysely<Database>, idHash: string, now: Date) {
  return liveSession.first(db, idHash, now.toISOString());
}

export async function deleteSession(db: Kysely<Database>, idHash: string): Promise<void> {
  await db.deleteFrom('sessions').where('id_hash', '=', idHash).execute();
}

export async function deleteSessionsOfUser(db: Kysely<Database>, userId: UserId): Promise<void> {
  await db.deleteFrom('sessions').where('user_id', '=', userId).execute();
}
