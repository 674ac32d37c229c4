import type { Insertable, Kysely } from 'kysely';
import type { Database, JobStatus, UserId } from '../../../db/schema.ts';
import { addSeconds } from '../../clock.ts';

/*
 * The scheduled jobs' queries. Each job file holds its rule (what is old enough, who is due) and calls these;
 * a function here takes `db` first, so a job's transaction can be passed in.
 */

// Job bookkeeping (runJob).

/**
 * Takes the job's lock unless someone else holds an unexpired one. One statement, so two processes racing
 * for it cannot both win: on PostgreSQL the second insert waits for the first and then sees its row; SQLite
 * has one writer. The lease lets the lock of a process that died mid-run lapse instead of blocking forever.
 * `slot` (a cron firing's scheduled time, ISO): refused when this slot or a later one already ran, so a
 * worker whose cron fired a moment after another's quick run finished does not run the same slot again.
 */
export async function acquireJobLock(
  db: Kysely<Database>,
  name: string,
  holder: string,
  now: Date,
  leaseSeconds: number,
  slot?: string,
): Promise<boolean> {
  const expires = addSeconds(now, leaseSeconds).toISOString();
  const result = await db
    .insertInto('job_locks')
    .values({ name, holder, expires_at: expires, last_slot: slot ?? null })
    .onConflict((oc) =>
      oc
        .column('name')
        .doUpdateSet((eb) => ({ holder, expires_at: expires, last_slot: slot ?? eb.ref('job_locks.last_slot') }))
        .where((eb) =>
          eb.and([
            eb('job_locks.expires_at', '<', now.toISOString()),
            ...(slot === undefined
              ? []
              : [eb.or([eb('job_locks.last_slot', 'is', null), eb('job_locks.last_slot', '<', slot)])]),
          ]),
        ),
    )
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n) === 1;
}

/** A released lock's expiry: long past, so the next run takes it; the row stays for its `last_slot`. */
const released = new Date(0).toISOString();

/** Only the holder's own lock: a run that outlived its lease must not release the next holder's. */
export async function releaseJobLock(db: Kysely<Database>, name: string, holder: string): Promise<void> {
  await db
    .updateTable('job_locks')
    .set({ expires_at: released })
    .where('name', '=', name)
    .where('holder', '=', holder)
    .execute();
}

/** The last slot run of a job (null: none, or no lock row yet): read before taking the lock, to give it back. */
export async function lastJobSlot(db: Kysely<Database>, name: string): Promise<string | null> {
  return (
    (await db.selectFrom('job_locks').select('last_slot').where('name', '=', name).executeTakeFirst())?.last_slot ??
    null
  );
}

/**
 * Releases the lock of an interrupted run and gives back its slot: `last_slot` returns to what it was
 * before the run took it, so the firing counts as not run and a worker firing it (late) may still run it.
 * Only the holder's own lock, as releaseJobLock.
 */
export async function releaseInterruptedJobLock(
  db: Kysely<Database>,
  name: string,
  holder: string,
  previousSlot: string | null,
): Promise<void> {
  await db
    .updateTable('job_locks')
    .set({ expires_at: released, last_slot: previousSlot })
    .where('name', '=', name)
    .where('holder', '=', holder)
    .execute();
}

/** Records a run (started, or skipped and already finished); answers its id. */
export async function insertJobRun(
  db: Kysely<Database>,
  run: Omit<Insertable<Database['job_runs']>, 'id'>,
): Promise<number> {
  const { id } = await db.insertInto('job_runs').values(run).returning('id').executeTakeFirstOrThrow();
  return id;
}

export async function finishJobRun(
  db: Kysely<Database>,
  runId: number,
  outcome: { finished_at: string; status: JobStatus; counts: string; error: string | null },
): Promise<void> {
  await db.updateTable('job_runs').set(outcome).where('id', '=', runId).execute();
}

// cleanup_expired: each answers how many rows went.

export async function deleteSessionsExpiredBefore(db: Kysely<Database>, now: string): Promise<number> {
  return Number((await db.deleteFrom('sessions').where('expires_at', '<', now).executeTakeFirst()).numDeletedRows);
}

export async function deleteCodesCreatedBefore(db: Kysely<Database>, cutoff: string): Promise<number> {
  return Number(
    (await db.deleteFrom('verification_codes').where('created_at', '<', cutoff).executeTakeFirst()).numDeletedRows,
  );
}

export async function deleteLoginFailuresBefore(db: Kysely<Database>, cutoff: string): Promise<number> {
  return Number(
    (await db.deleteFrom('login_failures').where('failed_at', '<', cutoff).executeTakeFirst()).numDeletedRows,
  );
}

/** Rate counters whose window started before the cutoff. */
export async function deleteRateCountersBefore(db: Kysely<Database>, cutoff: string): Promise<number> {
  return Number(
    (await db.deleteFrom('rate_counters').where('window_start', '<', cutoff).executeTakeFirst()).numDeletedRows,
  );
}

export async function deleteSearchPoolsExpiredBefore(db: Kysely<Database>, cutoff: string): Promise<number> {
  return Number(
    (await db.deleteFrom('search_pools').where('expires_at', '<', cutoff).executeTakeFirst()).numDeletedRows,
  );
}

export async function deleteEventsBefore(db: Kysely<Database>, cutoff: string): Promise<number> {
  return Number((await db.deleteFrom('events').where('created_at', '<', cutoff).executeTakeFirst()).numDeletedRows);
}

/** One-time Telegram link tokens past their expiry (used or not: either way they link nothing any more). */
export async function deleteLinkTokensExpiredBefore(db: Kysely<Database>, now: string): Promise<number> {
  return Number(
    (await db.deleteFrom('telegram_link_tokens').where('expires_at', '<', now).executeTakeFirst()).numDeletedRows,
  );
}

/** Token page handover codes past their expiry (a used one is deleted when used; one of an ended session with it). */
export async function deleteHandoversExpiredBefore(db: Kysely<Database>, now: string): Promise<number> {
  return Number(
    (await db.deleteFrom('session_handovers').where('expires_at', '<', now).executeTakeFirst()).numDeletedRows,
  );
}

/** Notifications settled (sent, skipped, given up) before the cutoff; queued ones stay whatever their age. */
export async function deleteSettledNotificationsBefore(db: Kysely<Database>, cutoff: string): Promise<number> {
  return Number(
    (await db.deleteFrom('notification_jobs').where('done_at', '<', cutoff).executeTakeFirst()).numDeletedRows,
  );
}

// delete_unverified

/** Accounts never confirmed, created before the cutoff. */
export async function listUnverifiedUserIdsBefore(db: Kysely<Database>, cutoff: string): Promise<UserId[]> {
  return (
    await db
      .selectFrom('users')
      .select('id')
      .where('verified_at', 'is', null)
      .where('created_at', '<', cutoff)
      .execute()
  ).map((r) => r.id);
}

// orphan_uploads

/** The photo rows that name any of these files as the photo itself or as its blurred copy. */
export async function findPhotosNaming(db: Kysely<Database>, fileNames: string[], blurNames: string[]) {
  const photos = await db
    .selectFrom('photos')
    .select(['file_name', 'blur_name'])
    .where((eb) => eb.or([eb('file_name', 'in', fileNames), eb('blur_name', 'in', blurNames)]))
    .execute();
  // A selfie waiting for a moderator (photoVerification) lives in the same store: kept until the decision.
  const selfies = await db
    .selectFrom('photo_verifications')
    .select('selfie_name')
    .where('selfie_name', 'in', fileNames)
    .execute();
  return [...photos, ...selfies.flatMap((s) => (s.selfie_name ? [{ file_name: s.selfie_name, blur_name: null }] : []))];
}

// settle_payments

/** Test checkouts still pending from before the cutoff become canceled; conditional, so a credited one stays credited. */
export async function cancelAbandonedTestPayments(db: Kysely<Database>, cutoff: string): Promise<number> {
  const result = await db
    .updateTable('payments')
    .set({ status: 'canceled' })
    .where('status', '=', 'pending')
    .where('provider', '=', 'test')
    .where('created_at', '<', cutoff)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

// premium_reminders

/** Subscriptions ending after `now` and by `horizon` whose current end has not been reminded of yet. */
export async function listPremiumEndingUnreminded(db: Kysely<Database>, now: string, horizon: string) {
  return db
    .selectFrom('users')
    .select(['id', 'premium_until'])
    .where('premium_until', '>', now)
    .where('premium_until', '<=', horizon)
    .where((eb) =>
      eb.or([eb('premium_reminded_for', 'is', null), eb('premium_reminded_for', '!=', eb.ref('premium_until'))]),
    )
    .execute();
}

/**
 * Records that the reminder for this end is being sent. Conditional on the end being unchanged and not yet
 * reminded of, so of two runs (or servers) only one gets true.
 */
export async function claimPremiumReminder(db: Kysely<Database>, userId: UserId, until: string): Promise<boolean> {
  const claimed = await db
    .updateTable('users')
    .set({ premium_reminded_for: until })
    .where('id', '=', userId)
    .where('premium_until', '=', until)
    .where((eb) => eb.or([eb('premium_reminded_for', 'is', null), eb('premium_reminded_for', '!=', until)]))
    .executeTakeFirst();
  return Number(claimed.numUpdatedRows) > 0;
}

/** Undoes a claim whose reminder could not be sent, so the next run tries again. */
export async function releasePremiumReminderClaim(db: Kysely<Database>, userId: UserId, until: string): Promise<void> {
  await db
    .updateTable('users')
    .set({ premium_reminded_for: null })
    .where('id', '=', userId)
    .where('premium_reminded_for', '=', until)
    .execute();
}

/** What deciding on and writing the reminder e-mail needs (notifications is null without a profile). */
export async function findReminderMailRecipient(db: Kysely<Database>, userId: UserId) {
  return db
    .selectFrom('users as u')
    .leftJoin('profiles as p', 'p.user_id', 'u.id')
    .select(['u.email', 'u.verified_at', 'u.language', 'u.banned_at', 'p.notifications'])
    .where('u.id', '=', userId)
    .executeTakeFirst();
}

// shared_device_likes

/** Device and user of every live session that has a device hash, each pair once. */
export async function listLiveDeviceSessions(db: Kysely<Database>, now: string) {
  return db
    .selectFrom('sessions')
    .select(['device_hash', 'user_id'])
    .distinct()
    .where('device_hash', 'is not', null)
    .where('expires_at', '>', now)
    .execute();
}

/** Ids per statement, well under SQLite's and PostgreSQL's limits on bound parameters. */
const likesBatchSize = 500;

/**
 * Likes given since `since` by each of these users who is not premium at `now` (premium accounts have no
 * limit to get around). Users without such likes are absent from the map.
 */
export async function countFreeLikesSince(
  db: Kysely<Database>,
  userIds: UserId[],
  since: string,
  now: string,
): Promise<Map<UserId, number>> {
  const counts = new Map<UserId, number>();
  for (let i = 0; i < userIds.length; i += likesBatchSize) {
    const rows = await db
      .selectFrom('swipes as w')
      .innerJoin('profiles as p', 'p.id', 'w.swiper_id')
      .innerJoin('users as u', 'u.id', 'p.user_id')
      .select((eb) => ['p.user_id', eb.fn.countAll<string | number>().as('likes')])
      .where('p.user_id', 'in', userIds.slice(i, i + likesBatchSize))
      .where('w.liked', '=', 1)
      .where('w.created_at', '>=', since)
      .where((eb) => eb.or([eb('u.premium_until', 'is', null), eb('u.premium_until', '<=', now)]))
      .groupBy('p.user_id')
      .execute();
    for (const r of rows) counts.set(r.user_id, Number(r.likes));
  }
  return counts;
}
