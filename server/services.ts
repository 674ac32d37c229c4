import type { Kysely } from 'kysely';
import type { PublicConfig } from './contract/config.ts';
import type { Dialect } from '../db/client.ts';
import type { Database } from '../db/schema.ts';
import { systemClock, type Clock } from './clock.ts';
import { AccountService } from './features/accounts/service.ts';
import { LoginThrottle } from './features/accounts/loginThrottle.ts';
import { PasswordHasher } from './features/accounts/passwords.ts';
import { SessionService } from './features/sessions/service.ts';
import { SessionTokens } from './features/sessions/tokens.ts';
import { VerificationService } from './features/verification/service.ts';
import { Csrf } from './http/csrf.ts';
import type { CookiePolicy } from './http/sessionCookie.ts';
import type { Logger } from './logger.ts';
import type { Mailer } from './mail/mailer.ts';

/** What createApp needs from the outside world; main.ts builds the real ones, tests pass their own. */
export interface AppDeps {
  db: Kysely<Database>;
  dialect: Dialect;
  logger: Logger;
  mailer: Mailer;
  publicUrl: string;
  sessionSecret: string;
  /** Believe X-Forwarded-For / -Proto: only behind a proxy that sets them. */
  trustProxy?: boolean;
  clock?: Clock;
  passwords?: PasswordHasher;
  /** The built front end (miniapp/dist) to serve; the API only when unset. */
  frontendDist?: string;
  /** Public settings for `GET /api/config` (sign-in buttons, footer); empty when unset. */
  publicConfig?: PublicConfig;
}

/** The services every feature's routes call, built once per app from its deps. */
export interface Services {
  db: Kysely<Database>;
  logger: Logger;
  clock: Clock;
  cookies: CookiePolicy;
  csrf: Csrf;
  sessions: SessionService;
  accounts: AccountService;
  verification: VerificationService;
}

/** Paths that do not use the session cookie and so need no CSRF token (webhooks, token sign-in). */
const csrfExemptPaths = new Set<string>();

export function buildServices(deps: AppDeps): Services {
  const clock = deps.clock ?? systemClock;
  const publicUrl = new URL(deps.publicUrl);
  const cookies: CookiePolicy = { secure: publicUrl.protocol === 'https:' };
  const sessions = new SessionService(deps.db, new SessionTokens(deps.sessionSecret), clock);
  const throttle = new LoginThrottle(deps.db, clock, deps.sessionSecret);
  return {
    db: deps.db,
    logger: deps.logger,
    clock,
    cookies,
    csrf: new Csrf({ ...cookies, secret: deps.sessionSecret, publicOrigin: publicUrl.origin, exemptPaths: csrfExemptPaths }),
    sessions,
    accounts: new AccountService(deps.db, deps.passwords ?? new PasswordHasher(), sessions, throttle, clock),
    verification: new VerificationService(deps.db, deps.mailer, clock, deps.sessionSecret, deps.logger),
  };
}
