import type { Kysely } from 'kysely';
import { isUniqueViolation } from '../../../db/errors.ts';
import type { Database, UserId } from '../../../db/schema.ts';
import type { Language } from '../../../locales/index.ts';
import type { Clock } from '../../clock.ts';
import { conflict } from '../../errors.ts';
import { lockUser } from '../accounts/index.ts';
import {
  findLanguagesByTelegramIds,
  findUserByTelegramId,
  insertTelegramUser,
  linkTelegramId,
  setBotStarted,
  setBotWriteAllowed,
  setBotUnreachable,
  setLanguageByTelegramId,
  telegramIdText,
  updateTelegramUsername,
  userHasProfile,
} from './repository.ts';
import { languageFromTelegram, type TelegramIdentity } from './telegramIdentity.ts';

export interface TelegramAccount {
  userId: UserId;
  language: Language;
  banned: boolean;
  /** This call created the account (first contact). */
  created: boolean;
}

/**
 * Accounts keyed by Telegram user id, shared by the Mini App sign-in, the Login Widget and the bot, so
 * all three reach the same account. Telegram has already proven who the user is: these accounts are
 * verified from the start and need no e-mail.
 */
export class TelegramUserService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
  ) {}

  /**
   * The user's account, created on first contact with `chosen` (the language picked in the app before a
   * Login Widget sign-up) or else their Telegram language (ru/en, else ru). An existing account keeps its own.
   */
  async ensure(identity: TelegramIdentity, chosen?: Language): Promise<TelegramAccount> {
    const db = this.db;
    const username = identity.username ?? null;
    const existing = await findUserByTelegramId(db, identity.id);
    if (existing) {
      if (existing.telegram_username !== username) await updateTelegramUsername(db, existing.id, username);
      return { userId: existing.id, language: existing.language, banned: existing.banned_at !== null, created: false };
    }
    const now = this.clock.now().toISOString();
    const language = chosen ?? languageFromTelegram(identity.languageCode);
    try {
      const userId = await insertTelegramUser(db, {
        telegram_id: telegramIdText(identity.id),
        telegram_username: username,
        language,
        verified_at: now,
        created_at: now,
      });
      return { userId, language, banned: false, created: true };
    } catch (error) {
      // Two first contacts at once (the bot and the Mini App): the unique index picks one row, use it.
      if (!isUniqueViolation(error)) throw error;
      const winner = await findUserByTelegramId(db, identity.id);
      if (!winner) throw error;
      return { userId: winner.id, language: winner.language, banned: winner.banned_at !== null, created: false };
    }
  }

  /**
   * Adds this Telegram account as a way into a signed-in (web) account. One that another account holds is
   * refused, never moved or merged: its chats, matches and payments stay where they are.
   */
  /** True when the identity was added now; false when it was this account's already. */
  async link(userId: UserId, identity: TelegramIdentity): Promise<boolean> {
    const identityTaken = () => conflict('identity_taken', 'This Telegram account is linked to another Iskra account');
    try {
      return await this.db.transaction().execute(async (trx) => {
        await lockUser(trx, userId);
        const owner = await findUserByTelegramId(trx, identity.id);
        if (owner?.id === userId) return false;
        if (owner) throw identityTaken();
        if (!(await linkTelegramId(trx, userId, identity.id, identity.username ?? null))) {
          throw conflict('telegram_already_linked', 'Another Telegram account is linked already');
        }
        return true;
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw identityTaken();
      throw error;
    }
  }

  /** Whether the account has its profile: /start then offers the app's news rather than creating one. */
  hasProfile(userId: UserId): Promise<boolean> {
    return userHasProfile(this.db, userId);
  }

  /** /start: from now on the bot may write to this user (and a past block is over). */
  async markBotStarted(telegramId: number): Promise<void> {
    await setBotStarted(this.db, telegramId, this.clock.now());
  }

  /**
   * Telegram vouched, at `asOf` (init data's auth_date), that the user allows the bot to write to them: they
   * count as reachable as if they had sent /start. A 403 recorded after `asOf` stands (they blocked the bot
   * since); one recorded before is over.
   */
  async markWriteAllowed(telegramId: number, asOf: Date): Promise<void> {
    await setBotWriteAllowed(this.db, telegramId, this.clock.now(), asOf);
  }

  /** Telegram answered 403 (the user blocked the bot): stop counting on reaching them. */
  async markUnreachable(telegramId: number): Promise<void> {
    await setBotUnreachable(this.db, telegramId, this.clock.now());
  }

  async setLanguage(telegramId: number, language: Language): Promise<void> {
    await setLanguageByTelegramId(this.db, telegramId, language);
  }

  /** Each of these Telegram users' account language, for messages the bot writes them (admins' alerts). */
  languagesOf(telegramIds: readonly number[]): Promise<Map<string, Language>> {
    return findLanguagesByTelegramIds(this.db, telegramIds);
  }
}
