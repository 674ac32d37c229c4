import type { Kysely } from 'kysely';
import type { Database, UserId } from '../../../db/schema.ts';
import type { AdminActor } from './auditLog.ts';
import { findAdminIdentity } from './repository.ts';

/** ADMIN_EMAILS: addresses separated by commas or spaces, compared without case. */
export function parseAdminEmails(value: string | undefined): string[] {
  return (value ?? '')
    .split(/[\s,]+/)
    .map((v) => v.trim().toLowerCase())
    .filter((v) => v.includes('@'));
}

/**
 * Who may use the moderation console: an account whose e-mail is in ADMIN_EMAILS and VERIFIED (an address
 * typed at sign-up proves nothing until its code came back), or an account linked to a Telegram id in
 * ADMIN_TELEGRAM_IDS (Telegram vouches for the id). Read from the account on every console request, so a
 * removed admin, a changed e-mail or an unlinked Telegram loses the console at once.
 */
export class AdminAccess {
  private readonly emails: ReadonlySet<string>;
  private readonly telegramIds: ReadonlySet<string>;

  constructor(
    private readonly db: Kysely<Database>,
    settings: { emails: readonly string[]; telegramIds: readonly number[] },
  ) {
    this.emails = new Set(settings.emails.map((e) => e.toLowerCase()));
    this.telegramIds = new Set(settings.telegramIds.map(String));
  }

  /** The admin's name for the audit log, or null for everyone else (members, the banned, visitors). */
  async actorOf(userId: UserId | undefined): Promise<AdminActor | null> {
    if (userId === undefined || (this.emails.size === 0 && this.telegramIds.size === 0)) return null;
    const user = await findAdminIdentity(this.db, userId);
    if (!user || user.banned_at !== null) return null;
    if (user.email && user.verified_at !== null && this.emails.has(user.email.toLowerCase()))
      return `email:${user.email.toLowerCase()}`;
    if (user.telegram_id && this.telegramIds.has(user.telegram_id)) return `telegram:${user.telegram_id}`;
    return null;
  }
}
