import type { Kysely } from 'kysely';
import type { Database, NotificationKind } from '../../../db/schema.ts';
import { addSeconds } from '../../clock.ts';
import { findRecentNotification, hasPremium, insertNotificationJob, isReachableByBot, renewWaitingNotification } from './repository.ts';

/** At most one message notification per conversation and recipient in this window (one like notification per recipient). */
export const messageNotificationWindowSeconds = 10 * 60;
/** Enough of a message to know what it is about, not the whole of it. */
export const previewLength = 80;
/** NOTIFY_GRACE_SECONDS unset. */
export const defaultNotifyGraceSeconds = 30;

/*
 * Notifications are queued only for people who can receive them (isReachableByBot: a Telegram account that
 * has started the bot, has not blocked it, with notifications on), checked at enqueue time inside the
 * request's transaction, and checked again by the worker when they are due.
 */

/**
 * Queues the bot notifications of matches, messages and likes. Each waits `graceSeconds` before the worker
 * may send it: time for the app, if it is open, to show the event and acknowledge it (then nothing is sent).
 * Having the app open somewhere is not enough: the user may be on another screen or another device.
 */
export class NotificationQueue {
  constructor(private readonly graceSeconds: number = defaultNotifyGraceSeconds) {}

  private due(now: Date): string {
    return addSeconds(now, this.graceSeconds).toISOString();
  }

  /** A new match, announced by the user's `match` event `eventId`. */
  async match(db: Kysely<Database>, userId: number, other: { profileId: number; name: string }, eventId: number, now: Date): Promise<void> {
    if (!(await isReachableByBot(db, userId))) return;
    const job = { user_id: userId, kind: 'match' as const, conversation_id: null, event_id: eventId, other_profile_id: other.profileId };
    await insertNotificationJob(db, { ...job, payload: JSON.stringify({ name: other.name }) }, now.toISOString(), this.due(now));
  }

  /** A message to the user, announced by their `message` event `eventId`; one notification per conversation in the window. */
  async message(
    db: Kysely<Database>,
    userId: number,
    conversationId: number,
    sender: { profileId: number; name: string },
    content: string,
    eventId: number,
    now: Date,
  ): Promise<void> {
    const preview = content.length > previewLength ? `${content.slice(0, previewLength - 1)}…` : content;
    const update = { event_id: eventId, other_profile_id: sender.profileId, payload: JSON.stringify({ name: sender.name, preview }) };
    await this.throttled(db, userId, 'message', conversationId, update, now);
  }

  /** A like to a premium user (who may see who it was), without an event of its own; one notification in the window. */
  async like(db: Kysely<Database>, userId: number, liker: { profileId: number; name: string }, now: Date): Promise<void> {
    if (!(await hasPremium(db, userId, now.toISOString()))) return;
    const update = { event_id: null, other_profile_id: liker.profileId, payload: JSON.stringify({ name: liker.name }) };
    await this.throttled(db, userId, 'like', null, update, now);
  }

  /**
   * One notification per window: a recent one that is still waiting now tells of this newer event (its
   * preview, its event to acknowledge); one sent in the window is enough; otherwise a new one is queued.
   */
  private async throttled(
    db: Kysely<Database>,
    userId: number,
    kind: NotificationKind,
    conversationId: number | null,
    update: { event_id: number | null; other_profile_id: number; payload: string },
    now: Date,
  ): Promise<void> {
    if (!(await isReachableByBot(db, userId))) return;
    const since = addSeconds(now, -messageNotificationWindowSeconds).toISOString();
    const recent = await findRecentNotification(db, userId, kind, conversationId, since);
    if (recent && recent.done_at !== null) return;
    if (recent && (await renewWaitingNotification(db, recent.id, update))) return;
    // Settled between the read and the write (sent, or acknowledged): reading again decides.
    if (recent && (await findRecentNotification(db, userId, kind, conversationId, since))) return;
    await insertNotificationJob(db, { user_id: userId, kind, conversation_id: conversationId, ...update }, now.toISOString(), this.due(now));
  }
}

/** The subscription ends soon (the reminders job): opens the subscription screen. Not live news, so due at once. */
export async function enqueuePremiumReminder(db: Kysely<Database>, userId: number, until: string, now: Date): Promise<boolean> {
  if (!(await isReachableByBot(db, userId))) return false;
  const job = { user_id: userId, kind: 'premium_ending' as const, conversation_id: null, event_id: null, other_profile_id: null };
  await insertNotificationJob(db, { ...job, payload: JSON.stringify({ until }) }, now.toISOString(), now.toISOString());
  return true;
}
