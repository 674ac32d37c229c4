import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { Database, NotificationChannel, NotificationKind } from '../../../db/schema.ts';
import { addSeconds, type Clock } from '../../clock.ts';
import type { Logger } from '../../logger.ts';
import type { Mailer } from '../../mail/mailer.ts';
import { isPremium } from '../premium/index.ts';
import { isNewLiker, isUnannouncedMatch, likeCarriesMessage } from '../swipes/index.ts';
import type { Notification, NotificationContent, NotificationGenders } from './content.ts';
import { accountChangePayload } from './accountChange.ts';
import { notificationEmail, unsubscribeUrl } from './emails.ts';
import { pushPayloadOf } from './pushPayload.ts';
import type { PushPayload } from '../../contract/push.ts';
import { emailConversationWindowSeconds } from './queue.ts';
import {
  claimNotification,
  countSentEmails,
  giveUpNotification,
  hasUnreadIn,
  listDueNotifications,
  markSending,
  scheduleNotificationRetry,
  sentConversationEmailSince,
  settleNotification,
  staleOutcome,
} from './repository.ts';

// The notification types live in content.ts, which emails.ts reads too (so emails.ts does not import the worker).
export type { Notification, NotificationContent, NotificationGenders } from './content.ts';

const namePayload = z.object({ name: z.string() });
const likePayload = z.object({ name: z.string(), wrote: z.optional(z.boolean()) });
const messagePayload = z.object({ name: z.string(), preview: z.string() });
const premiumPayload = z.object({ until: z.iso.datetime() });

/** A queued job's stored payload read back as its kind's content; null when the row cannot be one (never sent). */
export function contentOf(job: {
  kind: NotificationKind;
  payload: string;
  conversation_id: number | null;
  other_profile_id: number | null;
}): NotificationContent | null {
  let stored: unknown;
  try {
    stored = JSON.parse(job.payload);
  } catch {
    return null;
  }
  switch (job.kind) {
    case 'match': {
      // The button opens the match's profile (`match_<profileId>`): the person is the job's other profile.
      const parsed = namePayload.safeParse(stored);
      return parsed.success
        ? { kind: 'match', name: parsed.data.name, profileId: job.other_profile_id ?? undefined }
        : null;
    }
    case 'like': {
      const parsed = likePayload.safeParse(stored);
      if (!parsed.success) return null;
      return parsed.data.wrote
        ? { kind: 'like', name: parsed.data.name, wrote: true }
        : { kind: 'like', name: parsed.data.name };
    }
    case 'message': {
      const parsed = messagePayload.safeParse(stored);
      return parsed.success && job.conversation_id !== null
        ? { kind: 'message', ...parsed.data, conversationId: job.conversation_id }
        : null;
    }
    case 'premium_ending': {
      const parsed = premiumPayload.safeParse(stored);
      return parsed.success ? { kind: 'premium_ending', until: parsed.data.until } : null;
    }
    case 'account_change': {
      const parsed = accountChangePayload.safeParse(stored);
      if (!parsed.success) return null;
      const { at, ...change } = parsed.data;
      return { kind: 'account_change', change, at };
    }
  }
}

/** What the worker sends through; the bot implements it (bot/notifier.ts). */
export interface Notifier {
  send(notification: Notification): Promise<void>;
}

/** Thrown by a Notifier when retrying cannot help (the user blocked the bot). */
export class PermanentNotificationError extends Error {}

/** How e-mail notifications leave: the server's mailer, links into the web app, the unsubscribe tokens, the daily cap. */
export interface EmailChannel {
  mailer: Mailer;
  publicUrl: string;
  unsubscribeToken: (userId: DueJob['user_id']) => string;
  /** EMAIL_DAILY_CAP: at most this many e-mails per user in 24 hours. */
  dailyCap: number;
}

/** How Web Push notices leave (features/push: WebPushSender), worded here in the user's language. */
export interface PushChannel {
  send(userId: DueJob['user_id'], payload: PushPayload): Promise<'sent' | 'no_subscription' | 'refused'>;
}

/** EMAIL_DAILY_CAP unset. */
export const defaultEmailDailyCap = 5;

export const maxAttempts = 8;
/** How long a claimed job stays invisible to other processes: longer than one send, Telegram's pacing included. */
export const claimLeaseSeconds = 5 * 60;
const batchSize = 25;

/** A like job's payload says its liker wrote (NotificationQueue.like). */
function wroteWithLike(payload: string): boolean {
  try {
    return likePayload.safeParse(JSON.parse(payload)).data?.wrote === true;
  } catch {
    return false;
  }
}

type DueJob = Awaited<ReturnType<typeof listDueNotifications>>[number];

const gendersOf = (job: DueJob): NotificationGenders => ({ reader: job.reader_gender, other: job.other_gender });

/**
 * Drains the notification queue: due jobs are sent one by one, a failure is retried later with a growing
 * delay. A match, message or like is sent only if it is still news when its turn comes (after the grace
 * period the queue gave it): an acknowledged event was settled already, and here a match already shown, a
 * conversation already read or a like already seen or answered, or anything no longer true, is skipped.
 * Safe with several processes: each job is claimed by moving its next attempt ahead before sending.
 */
export class NotificationWorker {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopping = false;

  private readonly channels: NotificationChannel[];

  /**
   * `notifier`: the bot (absent without one); `email`: e-mails to users without Telegram (absent: none sent);
   * `push`: Web Push to the browsers people subscribed.
   */
  constructor(
    private readonly db: Kysely<Database>,
    private readonly notifier: Notifier | undefined,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly email?: EmailChannel,
    private readonly push?: PushChannel,
  ) {
    // Jobs of a channel this process cannot send stay queued for one that can.
    this.channels = [
      ...(notifier ? (['bot'] as const) : []),
      ...(email ? (['email'] as const) : []),
      ...(push ? (['push'] as const) : []),
    ];
  }

  start(intervalMs = 2000): void {
    this.timer = setInterval(() => void this.kick(), intervalMs);
    this.timer.unref();
  }

  /**
   * Claims nothing more and waits for the send in hand, which is finished rather than cut off (a message
   * half-handed to Telegram cannot be taken back, so releasing it could send it twice). Jobs of the batch not
   * yet claimed were never taken: another worker sends them at once. A worker killed mid-send leaves its one
   * claimed job to come due again when its lease (claimLeaseSeconds) ends.
   */
  async stop(): Promise<void> {
    this.stopping = true;
    clearInterval(this.timer);
    await this.running;
  }

  /** Runs a drain now unless one is already running. */
  kick(): Promise<void> {
    const running =
      this.running ??
      this.drainOnce()
        .then(() => undefined)
        .catch((error: unknown) => this.logger.error({ err: error }, 'notifications: drain failed'))
        .finally(() => {
          this.running = undefined;
        });
    this.running = running;
    return running;
  }

  /** Sends what is due; answers how many jobs were finished (sent or settled otherwise). */
  async drainOnce(): Promise<number> {
    if (this.channels.length === 0) return 0;
    const due = await listDueNotifications(this.db, this.clock.now().toISOString(), batchSize, this.channels);
    let finished = 0;
    for (const job of due) {
      if (this.stopping) break;
      // Claim: another process reading the same row sees it as not yet due. The clock is read again per job: a
      // batch can outlast a lease (slow sends, Telegram's pacing), and a lease counted from the batch's start
      // could be over before it was taken, letting a second process claim and send the same job again.
      const now = this.clock.now();
      const lease = addSeconds(now, claimLeaseSeconds).toISOString();
      if (!(await claimNotification(this.db, job.id, now.toISOString(), lease))) continue;
      const settle = async (outcome: string) => {
        await settleNotification(this.db, job.id, now.toISOString(), outcome, lease);
        finished += 1;
      };
      if (job.channel === 'email') {
        if (this.email) await this.sendEmail(job, now, lease, this.email, settle);
        continue;
      }
      if (job.channel === 'push') {
        if (this.push) finished += await this.sendPush(job, now, lease, this.push, settle);
        continue;
      }
      if (!this.notifier) continue;
      if (!job.telegram_id || job.bot_unreachable_at) {
        await settle('unreachable');
        continue;
      }
      // A notice of an account change is the owner's safety, not news they may turn off, and needs no profile.
      if (job.notifications !== 1 && job.kind !== 'account_change') {
        await settle('disabled');
        continue;
      }
      if (!(await this.stillNews(job, now))) {
        await settle(staleOutcome);
        continue;
      }
      const content = contentOf(job);
      if (!content) {
        this.logger.error({ jobId: job.id, kind: job.kind }, 'notification job with an unreadable payload: given up');
        await giveUpNotification(this.db, job.id, job.attempts, now.toISOString(), lease);
        finished += 1;
        continue;
      }
      try {
        await this.notifier.send({
          telegramId: job.telegram_id,
          language: job.language,
          genders: gendersOf(job),
          ...content,
        });
        await settle('sent');
      } catch (error) {
        if (error instanceof PermanentNotificationError) {
          await settle('unreachable');
          continue;
        }
        const attempts = job.attempts + 1;
        if (attempts >= maxAttempts) {
          await giveUpNotification(this.db, job.id, attempts, now.toISOString(), lease);
          finished += 1;
        } else {
          // 30 s, 1 min, 2 min, … so a Telegram outage is ridden out without hammering it.
          await scheduleNotificationRetry(
            this.db,
            job.id,
            attempts,
            addSeconds(now, 30 * 2 ** (attempts - 1)).toISOString(),
            lease,
          );
        }
        this.logger.warn({ err: error, job: job.id, attempts }, 'notifications: sending failed, will retry');
      }
    }
    return finished;
  }

  /**
   * An e-mail job: sent at most once. `sending_at` is written before SMTP gets the mail, so a worker killed
   * after sending and before settling leaves a mark the next one settles as `interrupted` instead of mailing
   * again (the price: a crash in that instant before the mail left loses it). Mail is not live, so besides
   * still being news it must fit the per-conversation window and the daily cap when its turn comes.
   */
  private async sendEmail(
    job: DueJob,
    now: Date,
    lease: string,
    email: EmailChannel,
    settle: (outcome: string) => Promise<void>,
  ): Promise<void> {
    if (job.sending_at !== null) {
      this.logger.warn(
        { job: job.id },
        'notifications: an e-mail was being sent when a worker stopped; not sent again',
      );
      await settle('interrupted');
      return;
    }
    if (job.telegram_id || !job.email || !job.verified_at || job.banned_at) {
      await settle('unreachable');
      return;
    }
    if (job.email_notifications !== 1) {
      await settle('disabled');
      return;
    }
    if (!(await this.stillNews(job, now))) {
      await settle(staleOutcome);
      return;
    }
    const content = contentOf(job);
    if (content?.kind !== 'match' && content?.kind !== 'message') {
      this.logger.error(
        { jobId: job.id, kind: job.kind },
        'e-mail notification job with an unreadable payload: given up',
      );
      await giveUpNotification(this.db, job.id, job.attempts, now.toISOString(), lease);
      return;
    }
    const windowStart = addSeconds(now, -emailConversationWindowSeconds).toISOString();
    const conversationMailed =
      content.kind === 'message' &&
      (await sentConversationEmailSince(this.db, job.user_id, content.conversationId, windowStart));
    if (
      conversationMailed ||
      (await countSentEmails(this.db, job.user_id, addSeconds(now, -86_400).toISOString())) >= email.dailyCap
    ) {
      await settle('throttled');
      return;
    }
    if (!(await markSending(this.db, job.id, now.toISOString(), lease))) return;
    const message = notificationEmail(
      job.email,
      job.language,
      content,
      {
        publicUrl: email.publicUrl,
        unsubscribeUrl: unsubscribeUrl(email.publicUrl, email.unsubscribeToken(job.user_id)),
      },
      gendersOf(job),
    );
    try {
      await email.mailer.send(message);
    } catch (error) {
      // The SMTP server refused or was unreachable: known not delivered, so a retry cannot make a second one.
      const attempts = job.attempts + 1;
      if (attempts >= maxAttempts) await giveUpNotification(this.db, job.id, attempts, now.toISOString(), lease);
      else
        await scheduleNotificationRetry(
          this.db,
          job.id,
          attempts,
          addSeconds(now, 30 * 2 ** (attempts - 1)).toISOString(),
          lease,
        );
      this.logger.warn({ err: error, job: job.id, attempts }, 'notifications: e-mail failed, will retry');
      return;
    }
    await settle('sent');
  }

  /**
   * A Web Push job: the same checks as the bot's (still news, the switch on), then one encrypted message to
   * each of the user's browsers. Answers 1 when the job gave up here (settle counts the others itself).
   */
  private async sendPush(
    job: DueJob,
    now: Date,
    lease: string,
    push: PushChannel,
    settle: (outcome: string) => Promise<void>,
  ): Promise<number> {
    if (job.banned_at) {
      await settle('unreachable');
      return 0;
    }
    if (job.push_notifications !== 1) {
      await settle('disabled');
      return 0;
    }
    if (!(await this.stillNews(job, now))) {
      await settle(staleOutcome);
      return 0;
    }
    const content = contentOf(job);
    if (content?.kind !== 'match' && content?.kind !== 'message' && content?.kind !== 'like') {
      this.logger.error(
        { jobId: job.id, kind: job.kind },
        'push notification job with an unreadable payload: given up',
      );
      await giveUpNotification(this.db, job.id, job.attempts, now.toISOString(), lease);
      return 1;
    }
    try {
      const outcome = await push.send(job.user_id, pushPayloadOf(content, job.language, gendersOf(job)));
      await settle(outcome === 'sent' ? 'sent' : 'unreachable');
      return 0;
    } catch (error) {
      const attempts = job.attempts + 1;
      if (attempts >= maxAttempts) {
        await giveUpNotification(this.db, job.id, attempts, now.toISOString(), lease);
        return 1;
      }
      await scheduleNotificationRetry(
        this.db,
        job.id,
        attempts,
        addSeconds(now, 30 * 2 ** (attempts - 1)).toISOString(),
        lease,
      );
      this.logger.warn({ err: error, job: job.id, attempts }, 'notifications: push failed, will retry');
      return 0;
    }
  }

  /** Whether what the job announces is still new to its user; a renewal reminder always is. */
  private async stillNews(job: DueJob, now: Date): Promise<boolean> {
    if (job.kind === 'account_change') return true;
    const me = job.profile_id;
    if (me === null) return false;
    switch (job.kind) {
      case 'match':
        return job.other_profile_id !== null && isUnannouncedMatch(this.db, me, job.other_profile_id);
      case 'message':
        return job.conversation_id !== null && hasUnreadIn(this.db, me, job.conversation_id);
      case 'like':
        // Only premium users may learn who liked them, so a subscription ended meanwhile ends the notification
        // too; but one who wrote is shown to everyone. Undone, blocked or answered: no longer a new liker.
        if (job.other_profile_id === null || !(await isNewLiker(this.db, me, job.other_profile_id))) return false;
        if (isPremium(job.premium_until, now)) return true;
        // A free user learns the name only of a liker who wrote, and only while that like still carries words
        // (undone and made again without a message, it is a plain like: no name for a free user).
        return wroteWithLike(job.payload) && likeCarriesMessage(this.db, job.other_profile_id, me);
      case 'premium_ending':
        return true;
    }
  }
}
