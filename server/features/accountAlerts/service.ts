import type { Kysely } from 'kysely';
import type { Database, UserId } from '../../../db/schema.ts';
import { translatorFor, type Language } from '../../../locales/index.ts';
import type { Clock } from '../../clock.ts';
import type { Logger } from '../../logger.ts';
import type { Mailer, MailMessage } from '../../mail/mailer.ts';
import { insertNotificationJob } from '../notifications/index.ts';
import type { AccountChange } from '../notifications/index.ts';
import { changeText, changeTime } from './changeText.ts';
import { findAlertRecipient } from './repository.ts';

/** The e-mail of a change: what, when, and what to do if it was not the owner. */
export function accountChangeMail(
  to: string,
  language: Language,
  change: AccountChange,
  at: Date,
  publicUrl: string,
): MailMessage {
  const t = translatorFor(language);
  const what = changeText(language, change);
  return {
    to,
    subject: t('mail.accountChange.subject', { what }),
    text: t('mail.accountChange.text', {
      what,
      time: changeTime(language, at),
      link: new URL('/account', publicUrl).toString(),
    }),
  };
}

/**
 * Tells the owner that a way into the account was added or removed, or that the e-mail address or the
 * password changed: by e-mail to a proven address and by a bot message when Telegram is linked and the bot
 * was started (queued in notification_jobs, sent by the notification worker through the bot: the server
 * never imports the bot). Someone who took over a session and planted a way in is then noticed by the
 * owner, who can remove it (Menu → Account lists the ways in). Called once the change is committed; a
 * notice that cannot leave is logged, never undoes the change or fails the request.
 */
export class AccountAlerts {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly mailer: Mailer,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly publicUrl: string,
  ) {}

  /**
   * `mail: false` where the caller mails its own notice (an e-mail change tells the old address, whose
   * owner it concerns; the new address has just proven itself).
   */
  async tell(userId: UserId, change: AccountChange, options: { mail?: boolean } = {}): Promise<void> {
    try {
      const user = await findAlertRecipient(this.db, userId);
      if (!user) return;
      const now = this.clock.now();
      // A Telegram just added would be told of itself; its owner is whoever added it.
      const newTelegram = change.change === 'method_added' && change.method === 'telegram';
      if (user.telegram_id && user.bot_started_at && !user.bot_unreachable_at && !newTelegram) {
        const job = {
          user_id: userId,
          kind: 'account_change' as const,
          conversation_id: null,
          event_id: null,
          other_profile_id: null,
        };
        // Due at once: security news does not wait for the app to show it.
        await insertNotificationJob(
          this.db,
          { ...job, payload: JSON.stringify({ ...change, at: now.toISOString() }) },
          now.toISOString(),
          now.toISOString(),
        );
      }
      if (options.mail !== false && user.email && user.verified_at) {
        await this.mailer.send(accountChangeMail(user.email, user.language, change, now, this.publicUrl));
      }
    } catch (error) {
      this.logger.error({ err: error, userId, change: change.change }, 'account change notice not sent');
    }
  }
}
