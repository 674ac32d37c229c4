import { sql, type Kysely } from 'kysely';
import type { Database, NotificationChannel, NotificationKind, ProfileId, UserId } from '../../../db/schema.ts';
import { unreadTo } from '../chat/index.ts';
import { notBlockedWith } from '../relationships/index.ts';

/**
 * Which channels may carry the user's match, message and like notices, in one read:
 * - bot: a Telegram account that has started the bot, has not blocked it, with notifications on;
 * - email: no Telegram linked (those hear through the bot), a verified address, e-mail notifications on;
 * - push: a browser subscribed for Web Push and push notifications on.
 * Nobody banned hears anything.
 * The same rules (bot and push, which a like notice may take) are written again in iskra_plain_swipe
 * (db/migrations/2026_12_05_0900_plain_swipe_whole_read.ts): change both, the function through a new migration.
 */
export async function reachability(
  db: Kysely<Database>,
  userId: UserId,
): Promise<{ bot: boolean; email: boolean; push: boolean }> {
  const row = await db
    .selectFrom('users as u')
    .innerJoin('profiles as p', 'p.user_id', 'u.id')
    .select((eb) => [
      'u.telegram_id',
      'u.bot_started_at',
      'u.bot_unreachable_at',
      'u.email',
      'u.verified_at',
      'u.banned_at',
      'p.notifications',
      'p.email_notifications',
      'p.push_notifications',
      eb
        .exists(eb.selectFrom('push_subscriptions as s').select('s.id').whereRef('s.user_id', '=', 'u.id'))
        .as('subscribed'),
    ])
    .where('u.id', '=', userId)
    .executeTakeFirst();
  if (!row) return { bot: false, email: false, push: false };
  return {
    bot:
      row.telegram_id !== null &&
      row.bot_started_at !== null &&
      row.bot_unreachable_at === null &&
      row.notifications === 1,
    email:
      row.telegram_id === null &&
      row.email !== null &&
      row.verified_at !== null &&
      row.banned_at === null &&
      row.email_notifications === 1,
    push: row.banned_at === null && row.push_notifications === 1 && Boolean(row.subscribed),
  };
}

/** Whether the bot may write to the user (reachability's `bot`). */
export async function isReachableByBot(db: Kysely<Database>, userId: UserId): Promise<boolean> {
  return (await reachability(db, userId)).bot;
}

/** Whether the user's premium is active at `now` (only premium users hear who liked them). */
export async function hasPremium(db: Kysely<Database>, userId: UserId, now: string): Promise<boolean> {
  const row = await db
    .selectFrom('users')
    .select('id')
    .where('id', '=', userId)
    .where('premium_until', '>', now)
    .executeTakeFirst();
  return row !== undefined;
}

export interface NewNotification {
  user_id: UserId;
  kind: NotificationKind;
  conversation_id: number | null;
  event_id: number | null;
  other_profile_id: ProfileId | null;
  payload: string;
  /** 'bot' when absent. */
  channel?: NotificationChannel;
}

/** Queues a notification, first tried at `due`. */
export async function insertNotificationJob(
  db: Kysely<Database>,
  job: NewNotification,
  now: string,
  due: string,
): Promise<void> {
  await db
    .insertInto('notification_jobs')
    .values({ ...job, created_at: now, next_attempt_at: due, attempts: 0 })
    .execute();
}

/** Outcomes of a notification the user did not need: the app showed its event in time, or it stopped being true. */
export const seenOutcome = 'seen';
export const staleOutcome = 'stale';

/** The newest notification of this kind (and conversation) created since `since` that is still waiting or was sent; `done_at` null: waiting. */
export async function findRecentNotification(
  db: Kysely<Database>,
  userId: UserId,
  kind: NotificationKind,
  conversationId: number | null,
  since: string,
  channel: NotificationChannel = 'bot',
) {
  return db
    .selectFrom('notification_jobs')
    .select(['id', 'done_at'])
    .where('user_id', '=', userId)
    .where('channel', '=', channel)
    .where('conversation_id', conversationId === null ? 'is' : '=', conversationId)
    .where('kind', '=', kind)
    .where('created_at', '>', since)
    .where((eb) => eb.or([eb('done_at', 'is', null), eb('outcome', '=', 'sent')]))
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** A waiting notification now announces a newer event (the latest message, the latest liker); false if it was settled meanwhile. */
export async function renewWaitingNotification(
  db: Kysely<Database>,
  jobId: number,
  update: { event_id: number | null; other_profile_id: ProfileId; payload: string },
): Promise<boolean> {
  const result = await db
    .updateTable('notification_jobs')
    .set(update)
    .where('id', '=', jobId)
    .where('done_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** The app displayed these events of the user's: their waiting notifications are settled as seen. Others' ids match nothing. */
export async function settleAcknowledged(
  db: Kysely<Database>,
  userId: UserId,
  eventIds: readonly number[],
  now: string,
): Promise<void> {
  await db
    .updateTable('notification_jobs')
    .set({ done_at: now, outcome: seenOutcome })
    .where('user_id', '=', userId)
    .where('event_id', 'in', [...new Set(eventIds)])
    .where('done_at', 'is', null)
    .execute();
}

/** Unfinished jobs of these channels due by `now`, oldest first, with what sending needs to know about the recipient. */
export async function listDueNotifications(
  db: Kysely<Database>,
  now: string,
  limit: number,
  channels: readonly NotificationChannel[],
) {
  return (
    db
      .selectFrom('notification_jobs as j')
      .innerJoin('users as u', 'u.id', 'j.user_id')
      .leftJoin('profiles as p', 'p.user_id', 'u.id')
      // The other person's gender, for the wording about them ("лайкнула вас"); gone with their profile.
      .leftJoin('profiles as o', 'o.id', 'j.other_profile_id')
      .select([
        'j.id',
        'j.kind',
        'j.conversation_id',
        'j.other_profile_id',
        'j.payload',
        'j.attempts',
        'j.channel',
        'j.sending_at',
        'j.user_id',
        'u.email',
        'u.verified_at',
        'u.banned_at',
        'u.telegram_id',
        'u.language',
        'u.bot_unreachable_at',
        'u.premium_until',
        'p.id as profile_id',
        'p.notifications',
        'p.email_notifications',
        'p.push_notifications',
        'p.gender as reader_gender',
        'o.gender as other_gender',
      ])
      .where('j.done_at', 'is', null)
      .where('j.channel', 'in', [...channels])
      .where('j.next_attempt_at', '<=', now)
      .orderBy('j.id')
      .limit(limit)
      .execute()
  );
}

/** The conversation still has a live match, no block, and a message to `me` that `me` has not read (the Chats badge's rule). */
export async function hasUnreadIn(db: Kysely<Database>, me: ProfileId, conversationId: number): Promise<boolean> {
  const other = sql<number>`(case when m.profile_low = ${me} then m.profile_high else m.profile_low end)`;
  const row = await db
    .selectFrom('conversations as c')
    .innerJoin('matches as m', 'm.id', 'c.match_id')
    .select('c.id')
    .where('c.id', '=', conversationId)
    .where('m.unmatched_at', 'is', null)
    .where((eb) => eb.or([eb('m.profile_low', '=', me), eb('m.profile_high', '=', me)]))
    .where(notBlockedWith(me, other))
    .where(unreadTo(me))
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Claims a due job by moving its next attempt to `until`: another process reading the same row then sees
 * it as not yet due. False when someone else claimed or finished it first.
 */
export async function claimNotification(
  db: Kysely<Database>,
  jobId: number,
  now: string,
  until: string,
): Promise<boolean> {
  const claimed = await db
    .updateTable('notification_jobs')
    .set({ next_attempt_at: until })
    .where('id', '=', jobId)
    .where('done_at', 'is', null)
    .where('next_attempt_at', '<=', now)
    .executeTakeFirst();
  return Number(claimed.numUpdatedRows) > 0;
}

/*
 * The finishing writes below take the claim's lease (the `next_attempt_at` the claim set): a process whose
 * lease ran out and was claimed again by another then changes nothing, rather than overwriting its outcome.
 */
/** Finishes a job with its outcome (sent, seen, stale, disabled, unreachable). */
export async function settleNotification(
  db: Kysely<Database>,
  jobId: number,
  now: string,
  outcome: string,
  lease?: string,
): Promise<void> {
  await db
    .updateTable('notification_jobs')
    .set({ done_at: now, outcome })
    .where('id', '=', jobId)
    .$if(lease !== undefined, (qb) => qb.where('next_attempt_at', '=', lease as string))
    .execute();
}

export async function giveUpNotification(
  db: Kysely<Database>,
  jobId: number,
  attempts: number,
  now: string,
  lease?: string,
): Promise<void> {
  await db
    .updateTable('notification_jobs')
    .set({ attempts, done_at: now, outcome: 'gave_up' })
    .where('id', '=', jobId)
    .$if(lease !== undefined, (qb) => qb.where('next_attempt_at', '=', lease as string))
    .execute();
}

/** A failed attempt (known not to have been delivered): tried again at `at`. */
export async function scheduleNotificationRetry(
  db: Kysely<Database>,
  jobId: number,
  attempts: number,
  at: string,
  lease?: string,
): Promise<void> {
  await db
    .updateTable('notification_jobs')
    .set({ attempts, next_attempt_at: at, sending_at: null })
    .where('id', '=', jobId)
    .$if(lease !== undefined, (qb) => qb.where('next_attempt_at', '=', lease as string))
    .execute();
}

/**
 * Records, before an e-mail is handed to SMTP, that it is leaving: if the worker dies before settling it,
 * the next worker finds `sending_at` set and settles it as interrupted instead of sending it a second time.
 */
export async function markSending(db: Kysely<Database>, jobId: number, now: string, lease: string): Promise<boolean> {
  // Only under this worker's own lease: one whose lease ran out (and was claimed again) must not send.
  const marked = await db
    .updateTable('notification_jobs')
    .set({ sending_at: now })
    .where('id', '=', jobId)
    .where('done_at', 'is', null)
    .where('sending_at', 'is', null)
    .where('next_attempt_at', '=', lease)
    .executeTakeFirst();
  return Number(marked.numUpdatedRows) > 0;
}

/** How many e-mails went to the user since `since` (the daily cap). */
export async function countSentEmails(db: Kysely<Database>, userId: UserId, since: string): Promise<number> {
  const row = await db
    .selectFrom('notification_jobs')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('user_id', '=', userId)
    .where('channel', '=', 'email')
    .where('outcome', '=', 'sent')
    .where('done_at', '>', since)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Whether a message e-mail about this conversation went to the user since `since` (one per conversation per window). */
export async function sentConversationEmailSince(
  db: Kysely<Database>,
  userId: UserId,
  conversationId: number,
  since: string,
): Promise<boolean> {
  const row = await db
    .selectFrom('notification_jobs')
    .select('id')
    .where('user_id', '=', userId)
    .where('channel', '=', 'email')
    .where('conversation_id', '=', conversationId)
    .where('outcome', '=', 'sent')
    .where('done_at', '>', since)
    .executeTakeFirst();
  return row !== undefined;
}

/** E-mail notifications on or off for the user (the menu's switch, or the one-click unsubscribe). */
export async function setEmailNotifications(db: Kysely<Database>, userId: UserId, on: boolean): Promise<boolean> {
  const result = await db
    .updateTable('profiles')
    .set({ email_notifications: on ? 1 : 0 })
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** The account's language and whether e-mails are on, for the unsubscribe page; undefined for no such account. */
export async function findEmailPreference(db: Kysely<Database>, userId: UserId) {
  return db
    .selectFrom('users as u')
    .leftJoin('profiles as p', 'p.user_id', 'u.id')
    .select(['u.language', 'p.email_notifications'])
    .where('u.id', '=', userId)
    .executeTakeFirst();
}
