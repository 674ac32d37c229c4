import { sql, type Insertable, type Kysely } from 'kysely';
import type { Dialect } from '../../../db/client.ts';
import type { Database, PaymentsTable, UserId, UsersTable } from '../../../db/schema.ts';

export type NewPayment = Insertable<PaymentsTable>;

/** The user's Telegram id, null when they have no Telegram account (undefined when there is no such user). */
export async function findUserTelegramId(db: Kysely<Database>, userId: UserId): Promise<string | null | undefined> {
  const user = await db.selectFrom('users').select('telegram_id').where('id', '=', userId).executeTakeFirst();
  return user?.telegram_id;
}

/** The stored end of the user's premium, null when they never had it (undefined when there is no such user). */
export async function findPremiumUntil(db: Kysely<Database>, userId: UserId): Promise<string | null | undefined> {
  const row = await db.selectFrom('users').select('premium_until').where('id', '=', userId).executeTakeFirst();
  return row?.premium_until;
}

/** The e-mail a provider's receipt goes to, when the user has one. */
export async function findUserEmail(db: Kysely<Database>, userId: UserId): Promise<string | null | undefined> {
  const user = await db.selectFrom('users').select('email').where('id', '=', userId).executeTakeFirst();
  return user?.email;
}

export async function findUserLanguage(
  db: Kysely<Database>,
  userId: UserId,
): Promise<UsersTable['language'] | undefined> {
  const user = await db.selectFrom('users').select('language').where('id', '=', userId).executeTakeFirst();
  return user?.language;
}

/** How many of the user's payments are pending and were created after `since`. */
export async function countPendingPaymentsSince(db: Kysely<Database>, userId: UserId, since: string): Promise<number> {
  const row = await db
    .selectFrom('payments')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('user_id', '=', userId)
    .where('status', '=', 'pending')
    .where('created_at', '>', since)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function insertPayment(db: Kysely<Database>, payment: NewPayment): Promise<number> {
  const row = await db.insertInto('payments').values(payment).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

/** Inserts a payment unless one with its provider_payment_id (unique) exists; answers the new id, or undefined. */
export async function insertPaymentUnlessKnown(db: Kysely<Database>, payment: NewPayment): Promise<number | undefined> {
  const row = await db
    .insertInto('payments')
    .values(payment)
    .onConflict((oc) => oc.column('provider_payment_id').doNothing())
    .returning('id')
    .executeTakeFirst();
  return row?.id;
}

export async function setProviderPaymentId(
  db: Kysely<Database>,
  paymentId: number,
  providerPaymentId: string,
): Promise<void> {
  await db
    .updateTable('payments')
    .set({ provider_payment_id: providerPaymentId })
    .where('id', '=', paymentId)
    .execute();
}

export async function findYooKassaPayment(db: Kysely<Database>, providerPaymentId: string) {
  return db
    .selectFrom('payments')
    .select(['id', 'amount', 'status'])
    .where('provider', '=', 'yookassa')
    .where('provider_payment_id', '=', providerPaymentId)
    .executeTakeFirst();
}

/** Pending YooKassa payments created before `cutoff`. */
export async function findPendingYooKassaPayments(db: Kysely<Database>, cutoff: string) {
  return db
    .selectFrom('payments')
    .select(['id', 'provider_payment_id'])
    .where('provider', '=', 'yookassa')
    .where('status', '=', 'pending')
    .where('created_at', '<', cutoff)
    .execute();
}

/** The payment recorded under a provider's payment id (for Stars: Telegram's charge id), of any provider. */
export async function findPaymentByProviderPaymentId(db: Kysely<Database>, providerPaymentId: string) {
  return db
    .selectFrom('payments')
    .select(['id', 'status'])
    .where('provider_payment_id', '=', providerPaymentId)
    .executeTakeFirst();
}

/** A Stars payment by id, only when it belongs to the user with this Telegram id. */
export async function findStarsPayment(db: Kysely<Database>, paymentId: number, telegramUserId: number) {
  return db
    .selectFrom('payments')
    .innerJoin('users', 'users.id', 'payments.user_id')
    .select([
      'payments.id',
      'payments.user_id',
      'payments.plan_id',
      'payments.amount',
      'payments.interval_days',
      'payments.status',
    ])
    .where('payments.id', '=', paymentId)
    .where('payments.provider', '=', 'stars')
    .where('users.telegram_id', '=', String(telegramUserId))
    .executeTakeFirst();
}

/** A payment by id, only when it is this user's own (another user's payment is as absent as an unknown one). */
export async function findOwnPayment(db: Kysely<Database>, paymentId: number, userId: UserId) {
  return db
    .selectFrom('payments')
    .select(['id', 'plan_id', 'interval_days', 'status'])
    .where('id', '=', paymentId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

export async function findTestPayment(db: Kysely<Database>, paymentId: number) {
  return db
    .selectFrom('payments')
    .selectAll()
    .where('id', '=', paymentId)
    .where('provider', '=', 'test')
    .executeTakeFirst();
}

/**
 * Moves a payment from pending to succeeded (recording the provider's id when given); answers whether it
 * moved, which is false when it was no longer pending.
 */
export async function markPaymentSucceeded(
  db: Kysely<Database>,
  paymentId: number,
  creditedAt: string,
  providerPaymentId: string | undefined,
): Promise<boolean> {
  const moved = await db
    .updateTable('payments')
    .set({
      status: 'succeeded',
      credited_at: creditedAt,
      ...(providerPaymentId ? { provider_payment_id: providerPaymentId } : {}),
    })
    .where('id', '=', paymentId)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(moved.numUpdatedRows) !== 0;
}

/** Moves a payment from pending to canceled; one in any other state is left as it is. */
export async function markPaymentCanceled(db: Kysely<Database>, paymentId: number): Promise<void> {
  await db
    .updateTable('payments')
    .set({ status: 'canceled' })
    .where('id', '=', paymentId)
    .where('status', '=', 'pending')
    .execute();
}

/** Whose premium a payment extends and by how many days. */
export async function findPaymentTerm(db: Kysely<Database>, paymentId: number) {
  return db
    .selectFrom('payments')
    .select(['user_id', 'interval_days'])
    .where('id', '=', paymentId)
    .executeTakeFirstOrThrow();
}

/** The user's premium end, read with the row locked (FOR UPDATE) on PostgreSQL until the transaction ends. */
export async function findPremiumUntilForUpdate(
  db: Kysely<Database>,
  dialect: Dialect,
  userId: UserId,
): Promise<string | null> {
  const user = await db
    .selectFrom('users')
    .select('premium_until')
    .where('id', '=', userId)
    .$if(dialect === 'postgres', (qb) => qb.forUpdate())
    .executeTakeFirstOrThrow();
  return user.premium_until;
}

export async function extendPremiumUntil(db: Kysely<Database>, userId: UserId, until: string): Promise<void> {
  await db.updateTable('users').set({ premium_until: until }).where('id', '=', userId).execute();
}

export async function raiseSqliteSynchronousToFull(db: Kysely<Database>): Promise<void> {
  await sql`pragma synchronous = FULL`.execute(db);
}

export async function restoreSqliteSynchronous(db: Kysely<Database>, level: number): Promise<void> {
  await sql`pragma synchronous = ${sql.raw(String(Math.trunc(level)))}`.execute(db);
}
