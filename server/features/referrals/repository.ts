import type { Kysely } from 'kysely';
import type { Database, UserId } from '../../../db/schema.ts';

export async function findCodeOfUser(db: Kysely<Database>, userId: UserId): Promise<string | undefined> {
  const row = await db.selectFrom('referral_codes').select('code').where('user_id', '=', userId).executeTakeFirst();
  return row?.code;
}

export async function insertCode(db: Kysely<Database>, userId: UserId, code: string, at: string): Promise<void> {
  await db.insertInto('referral_codes').values({ user_id: userId, code, created_at: at }).execute();
}

export async function findUserOfCode(db: Kysely<Database>, code: string): Promise<UserId | undefined> {
  const row = await db.selectFrom('referral_codes').select('user_id').where('code', '=', code).executeTakeFirst();
  return row?.user_id;
}

/** Records the referral unless the account already has one: true when this call recorded it. */
export async function insertReferral(
  db: Kysely<Database>,
  referred: UserId,
  referrer: UserId,
  code: string,
  at: string,
): Promise<boolean> {
  const result = await db
    .insertInto('referrals')
    .values({ referred_user_id: referred, referrer_user_id: referrer, code, created_at: at })
    .onConflict((oc) => oc.column('referred_user_id').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** Sign-ups since `since`, per referral code, most first. */
export async function signUpsPerCode(
  db: Kysely<Database>,
  since: string,
): Promise<{ code: string; signUps: number }[]> {
  const rows = await db
    .selectFrom('referrals')
    .select((eb) => ['code', eb.fn.countAll<string | number>().as('n')])
    .where('created_at', '>=', since)
    .groupBy('code')
    .orderBy('n', 'desc')
    .orderBy('code')
    .execute();
  return rows.map((row) => ({ code: row.code, signUps: Number(row.n) }));
}
