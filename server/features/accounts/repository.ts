import { PostgresAdapter, sql, type Kysely } from 'kysely';
import type { Database, NewUser, UserId } from '../../../db/schema.ts';
import type { Language } from '../../../locales/index.ts';

export async function findUserByEmail(db: Kysely<Database>, email: string) {
  return db
    .selectFrom('users')
    .select(['id', 'email', 'password_hash', 'verified_at', 'banned_at', 'language'])
    .where('email', '=', email)
    .executeTakeFirst();
}

export async function findUserById(db: Kysely<Database>, id: UserId) {
  return db
    .selectFrom('users')
    .select(['id', 'email', 'verified_at', 'banned_at', 'language'])
    .where('id', '=', id)
    .executeTakeFirst();
}

/** The hash to check a password against; undefined when there is no such user, null for a password-less account. */
export async function findPasswordHash(
  db: Kysely<Database>,
  userId: UserId,
): Promise<{ password_hash: string | null } | undefined> {
  return db.selectFrom('users').select(['password_hash']).where('id', '=', userId).executeTakeFirst();
}

export async function insertUser(db: Kysely<Database>, user: NewUser): Promise<UserId> {
  const row = await db.insertInto('users').values(user).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export async function markUserVerified(db: Kysely<Database>, userId: UserId, at: Date): Promise<void> {
  await db.updateTable('users').set({ verified_at: at.toISOString() }).where('id', '=', userId).execute();
}

export async function setPasswordHash(db: Kysely<Database>, userId: UserId, passwordHash: string): Promise<void> {
  await db.updateTable('users').set({ password_hash: passwordHash }).where('id', '=', userId).execute();
}

/** The same password's hash on new parameters, unless the hash changed meanwhile (a password change wins). */
export async function upgradePasswordHash(
  db: Kysely<Database>,
  userId: UserId,
  was: string,
  passwordHash: string,
): Promise<void> {
  await db
    .updateTable('users')
    .set({ password_hash: passwordHash })
    .where('id', '=', userId)
    .where('password_hash', '=', was)
    .execute();
}

export async function setUserLanguage(db: Kysely<Database>, userId: UserId, language: Language): Promise<void> {
  await db.updateTable('users').set({ language }).where('id', '=', userId).execute();
}

/**
 * Takes the user's row lock for the rest of the transaction (a no-op write works as `FOR UPDATE` on
 * PostgreSQL and takes the write lock on SQLite), so two requests for one user cannot interleave.
 */
export async function lockUser(db: Kysely<Database>, userId: UserId): Promise<void> {
  await db
    .updateTable('users')
    .set((eb) => ({ language: eb.ref('language') }))
    .where('id', '=', userId)
    .execute();
}

/** Up to `limit` failed logins under this throttle key after `since`, newest first. */
export async function findRecentLoginFailures(db: Kysely<Database>, keyHash: string, since: string, limit: number) {
  return db
    .selectFrom('login_failures')
    .select('failed_at')
    .where('key_hash', '=', keyHash)
    .where('failed_at', '>', since)
    .orderBy('failed_at', 'desc')
    .limit(limit)
    .execute();
}

/**
 * Writes an attempt as a failure-to-be unless `limit` failures under the key came after `since`, counting and
 * writing in one statement (under lockLoginKey's lock): true when written, false when the limit is reached.
 */
export async function insertLoginFailureUnder(
  db: Kysely<Database>,
  keyHash: string,
  at: string,
  since: string,
  limit: number,
): Promise<boolean> {
  const written = await db
    .insertInto('login_failures')
    .columns(['key_hash', 'failed_at'])
    .expression(
      db
        .selectNoFrom([sql<string>`${keyHash}`.as('key_hash'), sql<string>`${at}`.as('failed_at')])
        .where(
          sql<boolean>`(select count(*) from (select 1 from login_failures where key_hash = ${keyHash} and failed_at > ${since} limit ${limit}) recent) < ${limit}`,
        ),
    )
    .returning('key_hash')
    .executeTakeFirst();
  return written !== undefined;
}

export async function deleteLoginFailures(db: Kysely<Database>, keyHash: string): Promise<void> {
  await db.deleteFrom('login_failures').where('key_hash', '=', keyHash).execute();
}

/**
 * Serialises the login attempts of one throttle key for the rest of the transaction, so counting the
 * failures and writing the new one cannot interleave (30 parallel guesses got 12 past a limit of 10 on
 * PostgreSQL without it). PostgreSQL: a transaction-scoped advisory lock on the key (there may be no row to
 * lock: the address may not exist). SQLite needs nothing: every write transaction begins immediate, so
 * they already run one at a time (db/retryingSqliteDriver.ts).
 */
export async function lockLoginKey(db: Kysely<Database>, keyHash: string): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`select pg_advisory_xact_lock(hashtext(${keyHash}))`.execute(db);
}
