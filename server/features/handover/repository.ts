import type { Kysely } from 'kysely';
import type { Database, UserId } from '../../../db/schema.ts';

/** A new code for a session; the session's earlier codes end, so only the newest link works. */
export async function insertHandover(
  db: Kysely<Database>,
  row: { code_hash: string; session_hash: string; user_id: UserId; created_at: string; expires_at: string },
): Promise<void> {
  await db.deleteFrom('session_handovers').where('session_hash', '=', row.session_hash).execute();
  await db.insertInto('session_handovers').values(row).execute();
}

/** The live code's account and the name to show, without using the code up (the page asks first). */
export async function findLiveHandover(db: Kysely<Database>, codeHash: string, now: string) {
  return db
    .selectFrom('session_handovers as h')
    .innerJoin('sessions as s', 's.id_hash', 'h.session_hash')
    .innerJoin('users as u', 'u.id', 'h.user_id')
    .leftJoin('profiles as p', 'p.user_id', 'u.id')
    .select(['p.name'])
    .where('h.code_hash', '=', codeHash)
    .where('h.expires_at', '>', now)
    .where('s.expires_at', '>', now)
    .where('u.banned_at', 'is', null)
    .executeTakeFirst();
}

/**
 * Uses a live code up: the one delete decides, so a code replayed (or redeemed twice at once) works once.
 * Answers the account and the session it hands over, or undefined (unknown, expired, used, or its session ended).
 */
export async function consumeHandover(db: Kysely<Database>, codeHash: string, now: string) {
  const row = await db
    .deleteFrom('session_handovers')
    .where('code_hash', '=', codeHash)
    .where('expires_at', '>', now)
    .returning(['user_id', 'session_hash'])
    .executeTakeFirst();
  if (!row) return undefined;
  const session = await db
    .selectFrom('sessions as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .select(['s.created_at', 's.expires_at'])
    .where('s.id_hash', '=', row.session_hash)
    .where('s.user_id', '=', row.user_id)
    .where('s.expires_at', '>', now)
    .where('u.banned_at', 'is', null)
    .executeTakeFirst();
  return session ? { userId: row.user_id, signedInAt: session.created_at, expiresAt: session.expires_at } : undefined;
}
