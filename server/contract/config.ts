import { z } from 'zod/mini';

/**
 * `GET /api/config`: the public settings the app needs before anyone signs in (which sign-in buttons to
 * show, the footer's contacts and legal details). Only public values: never secrets.
 */
export const publicConfigResponse = z.object({
  google_client_id: z.nullable(z.string()),
  bot_username: z.nullable(z.string()),
  /** The bot's numeric id (the public part of its token), for the Login Widget's `Telegram.Login.auth`. */
  telegram_bot_id: z.nullable(z.number().check(z.int(), z.positive())),
  support_email: z.nullable(z.string()),
  support_telegram: z.nullable(z.string()),
  legal_name: z.nullable(z.string()),
  legal_inn: z.nullable(z.string()),
  legal_ogrnip: z.nullable(z.string()),
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
