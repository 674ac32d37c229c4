import { z } from 'zod';
import { languageOfTag, type Language } from '../../../locales/index.ts';

/** Who Telegram says the user is. Identity is the numeric id; names and usernames change. */
export interface TelegramIdentity {
  id: number;
  username?: string | undefined;
  languageCode?: string | undefined;
  /** Init data only: the user lets the bot write to them (`allows_write_to_pm`), as of the data's auth_date. */
  allowsWriteToPm?: boolean | undefined;
}

/**
 * The `user` object of init data (Telegram's WebAppUser). Loose: Telegram adds fields over time.
 * Ids need up to 52 bits, which a JS number holds exactly.
 */
export const webAppUser = z.looseObject({
  id: z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
  first_name: z.string().max(1024).optional(),
  last_name: z.string().max(1024).optional(),
  username: z.string().max(64).optional(),
  language_code: z.string().max(35).optional(),
  allows_write_to_pm: z.boolean().optional(),
});

/** The account language from Telegram's IETF tag (ru/uk/be/kk Russian, others English; none: Russian). */
export function languageFromTelegram(code: string | undefined): Language {
  return languageOfTag(code);
}
