import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database, UserId } from '../../../db/schema.ts';
import type { Language } from '../../../locales/index.ts';
import { addSeconds, type Clock } from '../../clock.ts';
import { AppError } from '../../errors.ts';
import { lockUser, type Reauthentication } from '../accounts/index.ts';
import type { AccountAlerts } from '../accountAlerts/index.ts';
import { consumeLinkToken, findLanguage, findLiveLinkToken, insertLinkToken } from './botLinkRepository.ts';
import { setBotStarted } from './repository.ts';
import type { TelegramIdentity } from './telegramIdentity.ts';
import type { TelegramUserService } from './telegramUsers.ts';

/** How long a `link_<token>` deep link works. */
export const linkTokenLifetimeSeconds = 10 * 60;
/** The /start payload prefix the bot answers by linking. */
export const linkPayloadPrefix = 'link_';

/** What the bot tells the user after a `link_<token>` start, in `language` (the web account's when known). */
export type BotLinkOutcome = { outcome: 'linked' | 'taken' | 'other_telegram' | 'invalid'; language: Language | null };

const hash = (token: string) => createHash('sha256').update(token).digest('hex');
/** 32 random bytes in base64url: anything else is not one of ours. */
export const isTokenShaped = (token: string) => /^[A-Za-z0-9_-]{43}$/.test(token);

/** `anna@example.com` → `a***@example.com`: enough for the owner to recognise, little for anyone else. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at < 1) return '***';
  return `${email.slice(0, 1)}***${email.slice(at)}`;
}

/**
 * The one-time `https://t.me/<bot>?start=link_<token>` deep link that adds Telegram to a web account: the
 * signed-in web user asks for it here, the bot redeems it when the user presses Start. The token is 32
 * random bytes (43 characters, inside Telegram's 64-character start payload), single use, short-lived, and
 * kept only as its SHA-256. The server never imports the bot: the bot calls `redeem`.
 */
export class TelegramBotLinkService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly users: Pick<TelegramUserService, 'link'>,
    private readonly clock: Clock,
    private readonly botUsername: string | null,
    private readonly reauth: Reauthentication,
    private readonly alerts: AccountAlerts,
  ) {}

  /** A link adds a way in: asked of the owner only (the password, or a recent sign-in: Reauthentication). */
  async issue(
    userId: UserId,
    sessionHash: string,
    password: string | undefined,
  ): Promise<{ url: string; expires_at: string }> {
    if (!this.botUsername) throw new AppError(503, 'bot_unavailable', 'Linking through the bot is not configured');
    await this.reauth.confirm(userId, sessionHash, password);
    const token = randomBytes(32).toString('base64url');
    const now = this.clock.now();
    const expiresAt = addSeconds(now, linkTokenLifetimeSeconds).toISOString();
    await this.db.transaction().execute(async (trx) => {
      // Under the user's lock: parallel asks would otherwise each delete nothing yet and leave several live links.
      await lockUser(trx, userId);
      await insertLinkToken(trx, userId, hash(token), now.toISOString(), expiresAt);
    });
    return {
      url: `https://t.me/${encodeURIComponent(this.botUsername)}?start=${linkPayloadPrefix}${token}`,
      expires_at: expiresAt,
    };
  }

  /**
   * The bot's /start link_<token>, before anything changes: which account the link would join, shown masked
   * (`a***@example.com`) so the person can tell whether it is theirs. A link sent by someone else (tap
   * Start, and your Telegram opens their account) is then refused by a person who reads the question.
   */
  async preview(token: string): Promise<{ account: string; language: Language | null } | null> {
    if (!isTokenShaped(token)) return null;
    const row = await findLiveLinkToken(this.db, hash(token), this.clock.now().toISOString());
    if (!row) return null;
    return { account: row.email ? maskEmail(row.email) : '—', language: row.language };
  }

  /**
   * The bot's confirm button under that question: links this Telegram identity to the token's account. Refused, never
   * merged, when the identity belongs to another account or the account has another Telegram already.
   */
  async redeem(token: string, identity: TelegramIdentity): Promise<BotLinkOutcome> {
    if (!isTokenShaped(token)) return { outcome: 'invalid', language: null };
    const now = this.clock.now();
    const userId = await consumeLinkToken(this.db, hash(token), now.toISOString());
    if (userId === undefined) return { outcome: 'invalid', language: null };
    const language = (await findLanguage(this.db, userId))?.language ?? null;
    let added;
    try {
      added = await this.users.link(userId, identity);
    } catch (error) {
      if (error instanceof AppError && error.code === 'identity_taken') return { outcome: 'taken', language };
      if (error instanceof AppError && error.code === 'telegram_already_linked')
        return { outcome: 'other_telegram', language };
      throw error;
    }
    // They pressed Start: the bot may write to them from now on.
    await setBotStarted(this.db, identity.id, now);
    if (added) await this.alerts.tell(userId, { change: 'method_added', method: 'telegram' });
    return { outcome: 'linked', language };
  }
}
