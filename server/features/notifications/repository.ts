import type { Kysely } from 'kysely';
import type { Database, NotificationKind, UserId } from '../../../db/schema.ts';

/**
 * Whether the bot may write to the user: a Telegram account that has started the bot, has not blocked it,
 * and whose profile has notifications on.
 */
export async function isReachableByBot(db: Kysely<Database>, userId: UserId): Promise<boolean> {
  const row = await db
    .selectFrom('users as u')
    .innerJoin('profiles as p', 'p.user_id', 'u.id')
    .select('u.id')
    .where('u.id', '=', userId)
    .where('u.telegram_id', 'is not', null)
    .where('u.bot_started_at', 'is not', null)
    .where('u.bot_unreachable_at', 'is', null)
    .where('p.notifications', '=', 1)
    .executeTakeFirst();
  return row !== undefined;
}

/** Queues a notification, due at once. */
export async function insertNotificationJob(
  db: Kysely<Database>,
  job: { user_id: UserId; kind: NotificationKind; conversation_id: number | null; payload: string; now: string },
): Promise<void> {
  const { now, ...values } = job;
  await db
    .insertInto('notification_jobs')
    .values({ ...values, created_at: now, next_attempt_at: now, attempts: 0 })
    .execute();
}

/** Whether the user was already notified about this conversation since `since` (sent or still queued). */
export async function hasConversationNotificationSince(db: Kysely<Database>, userId: UserId, conversationId: number, since: string): Promise<boolean> {
  const recent = await db
    .selectFrom('notification_jobs')
    .select('id')
    .where('user_id', '=', userId)
    .where('conversation_id', '=', conversationId)
    .where('created_at', '>', since)
    .executeTakeFirst();
  return recent !== undefined;
}

/** Unfinished jobs due by `now`, oldest first, with what sending needs to know about the recipient. */
export async function listDueNotifications(db: Kysely<Database>, now: string, limit: number) {
  return db
    .selectFrom('notification_jobs as j')
    .innerJoin('users as u', 'u.id', 'j.user_id')
    .select(['j.id', 'j.kind', 'j.conversation_id', 'j.payload', 'j.attempts', 'u.telegram_id', 'u.language', 'u.online_until', 'u.bot_unreachable_at'])
    .where('j.done_at', 'is', null)
    .where('j.next_attempt_at', '<=', now)
    .orderBy('j.id')
    .limit(limit)
    .execute();
}

/**
 * Claims a due job by moving its next attempt to `until`: another process reading the same row then sees
 * it as not yet due. False when someone else claimed or finished it first.
 */
export async function claimNotification(db: Kysely<Database>, jobId: number, now: string, until: string): Promise<boolean> {
  const claimed = await db
    .updateTable('notification_jobs')
    .set({ next_attempt_at: until })
    .where('id', '=', jobId)
    .where('done_at', 'is', null)
    .where('next_attempt_at', '<=', now)
    .executeTakeFirst();
  return Number(claimed.numUpdatedRows) > 0;
}

/** Finishes a job with its outcome (sent, online, unreachable). */
export async function settleNotification(db: Kysely<Database>, jobId: number, now: string, outcome: string): Promise<void> {
  await db.updateTable('notification_jobs').set({ done_at: now, outcome }).where('id', '=', jobId).execute();
}

export async function giveUpNotification(db: Kysely<Database>, jobId: number, attempts: number, now: string): Promise<void> {
  await db.updateTable('notification_jobs').set({ attempts, done_at: now, outcome: 'gave_up' }).where('id', '=', jobId).execute();
}

export async function scheduleNotificationRetry(db: Kysely<Database>, jobId: number, attempts: number, at: string): Promise<void> {
  await db.updateTable('notification_jobs').set({ attempts, next_attempt_at: at }).where('id', '=', jobId).execute();
}
