import type { Context } from 'grammy';
import type { TFunction } from 'i18next';
import type { Language } from '../locales/index.ts';
import type { TelegramBotLinkService, TelegramUserService } from '../server/features/telegram/index.ts';
import type { Logger } from '../server/logger.ts';
import type { AdminService } from '../server/features/admin/index.ts';
import type { PremiumService } from '../server/features/premium/index.ts';
import type { UserId } from '../db/schema.ts';

/** Redeems the web account's one-time `link_<token>` (the server's service). */
export type BotLinks = Pick<TelegramBotLinkService, 'preview' | 'redeem'>;

/** What the bot needs from the accounts side: the same Telegram-keyed accounts the Mini App signs in to. */
export type BotUsers = Pick<
  TelegramUserService,
  'ensure' | 'hasProfile' | 'markBotStarted' | 'markUnreachable' | 'setLanguage'
>;

/** What the Stars purchase features need from the premium side (the pre-checkout check, the crediting). */
export type StarsSettlement = Pick<PremiumService, 'checkStarsCheckout' | 'settleStars' | 'subscription'>;

export interface BotDeps {
  token: string;
  users: BotUsers;
  logger: Logger;
  /** Where the Mini App lives (PUBLIC_URL): the web_app buttons open it. */
  publicUrl: string;
  /** Telegram's Bot API by default; tests point it at the local stand-in. */
  apiRoot?: string | undefined;
  /** Preset bot identity (tests), so no getMe call is needed before handling updates. */
  botInfo?: import('grammy').Bot['botInfo'] | undefined;
  /** ADMIN_TELEGRAM_IDS and what they may do: /stats and the report buttons. */
  admins?: { ids: readonly number[]; service: AdminService } | undefined;
  /** Telegram Stars purchases: the pre-checkout check and the crediting; without it they are not handled. */
  stars?: StarsSettlement | undefined;
  /** `/start link_<token>`: links this Telegram to a web account; without it such a start is an ordinary /start. */
  links?: BotLinks | undefined;
  /** Outgoing message pacing; Telegram's limits by default. */
  limits?: { perChatIntervalMs: number; minGapMs: number } | undefined;
}

/** The sender's account and a translator in their language, set for every update that has a sender. */
export interface AccountFlavor {
  account: { userId: UserId; language: Language };
  t: TFunction;
}

export type BotContext = Context & AccountFlavor;
