import type { Kysely } from 'kysely';
import type { Database, NotificationChannel, NotificationKind, ProfileId, UserId } from '../../../db/schema.ts';
import { addSeconds } from '../../clock.ts';
import {
  findRecentNotification,
  hasPremium,
  insertNotificationJob,
  isReachableByBot,
  reachability,
  renewWaitingNotification,
} from './repository.ts';

/** At most one message notification per conversation and recipient in this window (one like notification per recipient). */
export const messageNotificationWindowSeconds = 10 * 60;
/** Enough of a message to know what it is about, not the whole of it. */
export const previewLength = 80;
/** A message e-mail waits this long: only a message still unread by then is mailed. */
export const emailUnreadSeconds = 30 * 60;
/** At most one message e-mail per conversation and recipient in this window. */
export const emailConversationWindowSeconds = 6 * 60 * 60;
/** NOTIFY_GRACE_SECONDS unset. */
export const defaultNotifyGraceSeconds = 30;

/*
 * Notifications are queued only for people who can receive them (reachability: the bot, e-mail for people
 * without Telegram, Web Push for browsers they subscribed), checked at enqueue time inside the request's
 * transaction, and checked again by the worker when they are due. Web Push is a channel of its own beside
 * the bot or e-mail: a person may hear on their phone's browser and in Telegram.
 */

/**
 * Queues the bot notifications of matches, messages and likes. Each waits `graceSeconds` before the worker
 * may send it: time for the app, if it is open, to show the event and acknowledge it (then nothing is sent).
 * Having the app open is not enough: the user may be on another screen or another device.
 */
export class NotificationQueue {
  /** `emails`: false when mail would only be printed to the log, where notification e-mails must not go. */
  constructor(
    private readonly graceSeconds: number = defaultNotifyGraceSeconds,
    private readonly emails = true,
  ) {}

  private due(now: Date): string {
    return addSeconds(now, this.graceSeconds).toISOString();
  }

  /** A new match, announced by the user's `match` event `eventId`. */
  async match(
    db: Kysely<Database>,
    userId: UserId,
    other: { profileId: ProfileId; name: string },
    eventId: number,
    now: Date,
  ): Promise<void> {
    const job = {
      user_id: userId,
      kind: 'match' as const,
      conversation_id: null,
      event_id: eventId,
      other_profile_id: other.profileId,
    };
    const payload = JSON.stringify({ name: other.name });
    const reach = await reachability(db, userId);
    if (reach.bot) {
      await insertNotificationJob(db, { ...job, payload }, now.toISOString(), this.due(now));
    } else if (this.emails && reach.email) {
      await insertNotificationJob(db, { ...job, payload, channel: 'email' }, now.toISOString(), this.due(now));
    }
    if (reach.push)
      await insertNotificationJob(db, { ...job, payload, channel: 'push' }, now.toISOString(), this.due(now));
  }

  /** A message to the user, announced by their `message` event `eventId`; one notification per conversation in the window. */
  async message(
    db: Kysely<Database>,
    userId: UserId,
    conversationId: number,
    sender: { profileId: ProfileId; name: string },
    content: string,
    eventId: number,
    now: Date,
  ): Promise<void> {
    const preview = content.length > previewLength ? `${content.slice(0, previewLength - 1)}…` : content;
    const update = {
      event_id: eventId,
      other_profile_id: sender.profileId,
      payload: JSON.stringify({ name: sender.name, preview }),
    };
    const reach = await reachability(db, userId);
    if (reach.push) await this.throttled(db, userId, 'message', conversationId, update, now, 'push');
    if (this.emails && reach.email) {
      await this.emailThrottled(db, userId, conversationId, update, now);
      return;
    }
    if (reach.bot) await this.throttled(db, userId, 'message', conversationId, update, now, 'bot');
  }

  /**
   * Someone without Telegram: one e-mail per conversation in 6 hours, due 30 minutes after the first unread
   * message (the worker mails it only if something is still unread then). A waiting one tells of the newest.
   */
  private async emailThrottled(
    db: Kysely<Database>,
    userId: UserId,
    conversationId: number,
    update: { event_id: number | null; other_profile_id: ProfileId; payload: string },
    now: Date,
  ): Promise<void> {
    const since = addSeconds(now, -emailConversationWindowSeconds).toISOString();
    const recent = await findRecentNotification(db, userId, 'message', conversationId, since, 'email');
    if (recent && recent.done_at !== null) return;
    if (recent && (await renewWaitingNotification(db, recent.id, update))) return;
    if (recent && (await findRecentNotification(db, userId, 'message', conversationId, since, 'email'))) return;
    const due = addSeconds(now, emailUnreadSeconds).toISOString();
    await insertNotificationJob(
      db,
      { user_id: userId, kind: 'message', conversation_id: conversationId, ...update, channel: 'email' },
      now.toISOString(),
      due,
    );
  }

  /**
   * A like to a premium user (who may see who it was), without an event of its own; one notification in the
   * window. A like with a message (`wrote`) is told to everyone, free users included (the likers list shows
   * such a liker whole), as "wrote to you", never with the words themselves.
   */
  async like(
    db: Kysely<Database>,
    userId: UserId,
    liker: { profileId: ProfileId; name: string },
    now: Date,
    premium?: boolean,
    wrote = false,
  ): Promise<void> {
    // `premium`: already read by the caller in the same transaction (a like reads it with the person).
    if (!wrote && !(premium ?? (await hasPremium(db, userId, now.toISOString())))) return;
    const update = {
      event_id: null,
      other_profile_id: liker.profileId,
      payload: JSON.stringify(wrote ? { name: liker.name, wrote } : { name: liker.name }),
    };
    const reach = await reachability(db, userId);
    for (const channel of ['bot', 'push'] as const)
      if (reach[channel]) await this.throttled(db, userId, 'like', null, update, now, channel);
  }

  /**
   * One notification per window: a recent one that is still waiting now tells of this newer event (its
   * preview, its event to acknowledge); one sent in the window is enough; otherwise a new one is queued.
   */
  private async throttled(
    db: Kysely<Database>,
    userId: UserId,
    kind: NotificationKind,
    conversationId: number | null,
    update: { event_id: number | null; other_profile_id: ProfileId; payload: string },
    now: Date,
    channel: Extract<NotificationChannel, 'bot' | 'push'>,
  ): Promise<void> {
    const since = addSeconds(now, -messageNotificationWindowSeconds).toISOString();
    const recent = await findRecentNotification(db, userId, kind, conversationId, since, channel);
    if (recent && recent.done_at !== null) return;
    if (recent && (await renewWaitingNotification(db, recent.id, update))) return;
    // Settled between the read and the write (sent, or acknowledged): reading again decides.
    if (recent && (await findRecentNotification(db, userId, kind, conversationId, since, channel))) return;
    await insertNotificationJob(
      db,
      { user_id: userId, kind, conversation_id: conversationId, ...update, channel },
      now.toISOString(),
      this.due(now),
    );
  }
}

/** The subscription ends soon (the reminders job): opens the subscription screen. Not live news, so due at once. */
export async function enqueuePremiumReminder(
  db: Kysely<Database>,
  userId: UserId,
  until: string,
  now: Date,
): Promise<boolean> {
  if (!(await isReachableByBot(db, userId))) return false;
  const job = {
    user_id: userId,
    kind: 'premium_ending' as const,
    conversation_id: null,
    event_id: null,
    other_profile_id: null,
  };
  await insertNotificationJob(db, { ...job, payload: JSON.stringify({ until }) }, now.toISOString(), now.toISOString());
  return true;
}
