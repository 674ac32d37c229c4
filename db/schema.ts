import type { Generated, Insertable, Selectable, Updateable } from 'kysely';

/**
 * The Kysely view of the database. Migrations are the truth; this mirrors them.
 * Timestamps are ISO-8601 UTC strings (`Date#toISOString`) on both SQLite and PostgreSQL,
 * so they compare correctly as text and read the same from either driver.
 */
export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  verification_codes: VerificationCodesTable;
  login_failures: LoginFailuresTable;
}

export interface UsersTable {
  id: Generated<number>;
  /** Lower-cased; null for accounts that sign in only through Telegram or Google. */
  email: string | null;
  password_hash: string | null;
  language: 'ru' | 'en';
  verified_at: string | null;
  banned_at: string | null;
  created_at: string;
  /** Telegram user id as decimal text (ids exceed 32 bits); unique. Never shown to other users. */
  telegram_id: string | null;
  /** Telegram @username as last seen, for support and admins only; never shown to other users. */
  telegram_username: string | null;
  /** Google account subject (`sub`); unique. */
  google_sub: string | null;
  /** When the user last sent /start: from then on the bot may message them. */
  bot_started_at: string | null;
  /** When Telegram last refused a message to them (403: blocked the bot); cleared by the next /start. */
  bot_unreachable_at: string | null;
}
export type User = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;

export interface SessionsTable {
  /** SHA-256 of the session id; the id itself only lives in the cookie or the JWT. */
  id_hash: string;
  user_id: number;
  created_at: string;
  expires_at: string;
}
export type Session = Selectable<SessionsTable>;
export type NewSession = Insertable<SessionsTable>;

export interface VerificationCodesTable {
  id: Generated<number>;
  user_id: number;
  email: string;
  /** HMAC-SHA256 of the code under the server secret: a leaked table does not give the codes away. */
  code_hash: string;
  created_at: string;
  expires_at: string;
  attempts: number;
  used_at: string | null;
}
export type VerificationCode = Selectable<VerificationCodesTable>;
export type NewVerificationCode = Insertable<VerificationCodesTable>;

export interface LoginFailuresTable {
  id: Generated<number>;
  /** SHA-256 of `email|ip`, so the table does not become a log of who tried which address. */
  key_hash: string;
  failed_at: string;
}
