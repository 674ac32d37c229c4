import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import { addSeconds } from '../../clock.ts';

/** At most one message notification per conversation and recipient in this window. */
export const messageNotificationWindowSeconds = 10 * 60;
/** Enough of a message to know what it is about, not the whole of it. */
export const previewLength = 80;

/**
 * Only people who can receive them: a Telegram account that has started the bot, has not blocked it, and
 * whose profile has notifications on. Checked at enqueue time inside the request's transaction.
 */
async function reachable(db: Kysely<Database>, userId: number): Promise<boolean> {
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

export async function enqueueMatchNotification(db: Kysely<Database>, userId: number, otherName: string, now: Date): Promise<boolean> {
  if (!(await reachable(db, userId))) return false;
  await db
    .insertInto('notification_jobs')
    .values({ user_id: userId, kind: 'match', conversation_id: null, payload: JSON.stringify({ name: otherName }), created_at: now.toISOString(), next_attempt_at: now.toISOString(), attempts: 0 })
    .execute();
  return true;
}

/** The subscription ends soon (the reminders job): opens the subscription screen. */
export async function enqueuePremiumReminder(db: Kysely<Database>, userId: number, until: string, now: Date): Promise<boolean> {
  if (!(await reachable(db, userId))) return false;
  await db
    .insertInto('notification_jobs')
    .values({ user_id: userId, kind: 'premium_ending', conversation_id: null, payload: JSON.stringify({ name: '', until }), created_at: now.toISOString(), next_attempt_at: now.toISOString(), attempts: 0 })
    .execute();
  return true;
}

export async function enqueueMessageNotification(
  db: Kysely<Database>,
  userId: number,
  conversationId: number,
  senderName: string,
  content: string,
  now: Date,
): Promise<boolean> {
  if (!(await reachable(db, userId))) return false;
  const recent = await db
    .selectFrom('notification_jobs')
    .select('id')
    .where('user_id', '=', userId)
    .where('conversation_id', '=', conversationId)
    .where('created_at', '>', addSeconds(now, -messageNotificationWindowSeconds).toISOString())
    .executeTakeFirst();
  if (recent) return false;
  const preview = content.length > previewLength ? `${content.slice(0, previewLength - 1)}…` : content;
  await db
    .insertInto('notification_jobs')
    .values({ user_id: userId, kind: 'message', conversation_id: conversationId, payload: JSON.stringify({ name: senderName, preview }), created_at: now.toISOString(), next_attempt_at: now.toISOString(), attempts: 0 })
    .execute();
  return true;
}
