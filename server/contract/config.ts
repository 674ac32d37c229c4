import { z } from 'zod';

/**
 * `GET /api/config`: the public settings the app needs before anyone signs in (which sign-in buttons to
 * show, the footer's contacts and legal details). Only public values: never secrets.
 */
export const publicConfigResponse = z.object({
  google_client_id: z.string().nullable(),
  bot_username: z.string().nullable(),
  /** The bot's numeric id (the public part of its token), for the Login Widget's `Telegram.Login.auth`. */
  telegram_bot_id: z.number().int().positive().nullable(),
  support_email: z.string().nullable(),
  support_telegram: z.string().nullable(),
  legal_name: z.string().nullable(),
  legal_inn: z.string().nullable(),
  legal_ogrnip: z.string().nullable(),
});
export type PublicConfig = z.infer<typeof publicConfigResponse>;

export const emptyPublicConfig: PublicConfig = {
  google_client_id: null,
  bot_username: null,
  telegram_bot_id: null,
  support_email: null,
  support_telegram: null,
  legal_name: null,
  legal_inn: null,
  legal_ogrnip: null,
};
