import type { Kysely } from 'kysely';
import type { CodePurpose, Database, NewVerificationCode, UserId } from '../../../db/schema.ts';

export async function insertCode(db: Kysely<Database>, code: NewVerificationCode): Promise<number> {
  const row = await db.insertInto('verification_codes').values(code).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export async function deleteCode(db: Kysely<Database>, id: number): Promise<void> {
  await db.deleteFrom('verification_codes').where('id', '=', id).execute();
}

/** Only the newest code of a kind counts: asking for a new code retires the older ones of that kind. */
export async function findNewestCode(db: Kysely<Database>, purpose: CodePurpose, userId: UserId) {
  return db
    .selectFrom('verification_codes')
    .selectAll()
    .where('purpose', '=', purpose)
    .where('user_id', '=', userId)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** Creation times of the codes of a kind sent to an address since `since`, newest first. */
export async function listCodeTimesForEmail(db: Kysely<Database>, purpose: CodePurpose, email: string, since: string) {
  const rows = await db
    .selectFrom('verification_codes')
    .select('created_at')
    .where('purpose', '=', purpose)
    .where('email', '=', email)
    .where('created_at', '>', since)
    .orderBy('created_at', 'desc')
    .execute();
  return rows.map((r) => r.created_at);
}

export async function countWrongAttempt(db: Kysely<Database>, id: number): Promise<void> {
  await db
    .updateTable('verification_codes')
    .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
    .where('id', '=', id)
    .execute();
}

export async function markCodeUsed(db: Kysely<Database>, id: number, at: Date): Promise<void> {
  await db.updateTable('verification_codes').set({ used_at: at.toISOString() }).where('id', '=', id).execute();
}
