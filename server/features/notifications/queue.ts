import type { Kysely } from 'kysely';
import type { Database, ProfileId, UserId } from '../../../db/schema.ts';
import { addSeconds } from '../../clock.ts';
import { hasConversationNotificationSince, insertNotificationJob, isReachableByBot } from './repository.ts';

/** At most one message notification per conversation and recipient in this window. */
export const messageNotificationWindowSeconds = 10 * 60;
/** Enough of a message to know what it is about, not the whole of it. */
export const previewLength = 80;

/*
 * Notifications are queued only for people who can receive them (isReachableByBot: a Telegram account that
 * has started the bot, has not blocked it, with notifications on), checked at enqueue time inside the
 * request's transaction.
 */

/** A new match: the button opens the other's profile (`match_<profileId>`). */
export async function enqueueMatchNotification(db: Kysely<Database>, userId: UserId, otherName: string, otherProfile: ProfileId, now: Date): Promise<boolean> {
  if (!(await isReachableByBot(db, userId))) return false;
  await insertNotificationJob(db, {
    user_id: userId,
    kind: 'match',
    conversation_id: null,
    payload: JSON.stringify({ name: otherName, profile_id: otherProfile }),
    now: now.toISOString(),
  });
  return true;
}

/** The subscription ends soon (the reminders job): opens the subscription screen. */
export async function enqueuePremiumReminder(db: Kysely<Database>, userId: UserId, until: string, now: Date): Promise<boolean> {
  if (!(await isReachableByBot(db, userId))) return false;
  await insertNotificationJob(db, {
    user_id: userId,
    kind: 'premium_ending',
    conversation_id: null,
    payload: JSON.stringify({ until }),
    now: now.toISOString(),
  });
  return true;
}

export async function enqueueMessageNotification(
  db: Kysely<Database>,
  userId: UserId,
  conversationId: number,
  senderName: string,
  content: string,
  now: Date,
): Promise<boolean> {
  if (!(await isReachableByBot(db, userId))) return false;
  if (await hasConversationNotificationSince(db, userId, conversationId, addSeconds(now, -messageNotificationWindowSeconds).toISOString())) return false;
  const preview = content.length > previewLength ? `${content.slice(0, previewLength - 1)}…` : content;
  await insertNotificationJob(db, {
    user_id: userId,
    kind: 'message',
    conversation_id: conversationId,
    payload: JSON.stringify({ name: senderName, preview }),
    now: now.toISOString(),
  });
  return true;
}
